//! The CSV and markdown reports and the summary figures against the goals
//! (compile-time ratio ptxas/atomc ≥ 10×, registers atomc ≤ ptxas on ≥ 90%
//! of the kernels, instruction-count ratio atomc/ptxas ≤ 1.15 median).

use super::Row;
use std::fmt::Write;

/// Compile-time goal: ptxas takes at least this many times atomc's time.
pub const GOAL_TIME_RATIO: f64 = 10.0;
/// Register goal: the share of kernels where atomc uses no more registers.
pub const GOAL_REGS_SHARE: f64 = 0.90;
/// Code-size goal: the median atomc/ptxas instruction-count ratio.
pub const GOAL_INSTR_RATIO: f64 = 1.15;

/// The CSV header, in column order.
pub const CSV_COLUMNS: [&str; 20] = [
    "kernel",
    "target",
    "atomc_inproc_us",
    "atomc_process_us",
    "ptxas_process_us",
    "spawn_floor_us",
    "atomc_process_cpu_us",
    "ptxas_process_cpu_us",
    "time_ratio_process",
    "time_ratio_cpu",
    "time_ratio_inproc",
    "atomc_regs",
    "ptxas_regs",
    "atomc_regcount",
    "ptxas_regcount",
    "atomc_instrs",
    "ptxas_instrs",
    "instr_ratio",
    "opcode_diff",
    "status",
];

fn f(x: Option<f64>, digits: usize) -> String {
    x.map(|v| format!("{v:.digits$}")).unwrap_or_default()
}

fn u(x: Option<u32>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The rows as CSV (header first).
pub fn write_csv(rows: &[Row]) -> String {
    let mut s = CSV_COLUMNS.join(",");
    s.push('\n');
    for r in rows {
        let fields = [
            r.kernel.clone(),
            r.target.clone(),
            f(r.atomc_inproc_us, 1),
            f(r.atomc_process_us, 1),
            f(r.ptxas_process_us, 1),
            f(r.spawn_floor_us, 1),
            f(r.atomc_process_cpu_us, 1),
            f(r.ptxas_process_cpu_us, 1),
            f(r.time_ratio_process(), 2),
            f(r.time_ratio_cpu(), 2),
            f(r.time_ratio_inproc(), 2),
            u(r.atomc_regs),
            u(r.ptxas_regs),
            u(r.atomc_regcount),
            u(r.ptxas_regcount),
            u(r.atomc_instrs),
            u(r.ptxas_instrs),
            f(r.instr_ratio(), 3),
            r.opcode_diff.clone(),
            r.status.clone(),
        ];
        s.push_str(&fields.iter().map(|x| csv_field(x)).collect::<Vec<_>>().join(","));
        s.push('\n');
    }
    s
}

/// The median of `xs` (the mean of the middle two for an even count); `None` when empty.
pub(super) fn median(mut xs: Vec<f64>) -> Option<f64> {
    if xs.is_empty() {
        return None;
    }
    xs.sort_by(|a, b| a.total_cmp(b));
    let n = xs.len();
    Some(if n % 2 == 1 {
        xs[n / 2]
    } else {
        (xs[n / 2 - 1] + xs[n / 2]) / 2.0
    })
}

/// The headline figures of one target.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// `sm_50` / `sm_90`.
    pub target: String,
    /// Kernels in the corpus.
    pub kernels: usize,
    /// Kernels with both sides measured.
    pub compared: usize,
    /// Median ptxas/atomc, whole process against whole process.
    pub time_ratio_process: Option<f64>,
    /// Median ptxas/atomc CPU time, whole process against whole process.
    pub time_ratio_cpu: Option<f64>,
    /// Median ptxas (whole process)/atomc (in process).
    pub time_ratio_inproc: Option<f64>,
    /// Kernels with atomc registers ≤ ptxas registers, of `compared`.
    pub regs_le: usize,
    /// Median atomc/ptxas instruction ratio.
    pub instr_ratio: Option<f64>,
    /// Sum of atomc instructions over sum of ptxas instructions.
    pub instr_ratio_total: Option<f64>,
    /// Median atomc in-process time, µs.
    pub atomc_inproc_us: Option<f64>,
    /// Median atomc whole-process time, µs.
    pub atomc_process_us: Option<f64>,
    /// Median ptxas whole-process time, µs.
    pub ptxas_process_us: Option<f64>,
    /// Median time to start and end `atomc --version`, µs.
    pub spawn_floor_us: Option<f64>,
    /// Median CPU time of the atomc process, µs.
    pub atomc_process_cpu_us: Option<f64>,
    /// Median CPU time of the ptxas process, µs.
    pub ptxas_process_cpu_us: Option<f64>,
}

/// Per-target summaries, in the rows' target order.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    let mut targets: Vec<String> = Vec::new();
    for r in rows {
        if !targets.contains(&r.target) {
            targets.push(r.target.clone());
        }
    }
    targets
        .into_iter()
        .map(|t| {
            let rs: Vec<&Row> = rows.iter().filter(|r| r.target == t).collect();
            let both: Vec<&&Row> = rs
                .iter()
                .filter(|r| r.atomc_regs.is_some() && r.ptxas_regs.is_some())
                .collect();
            let (sa, sp) = both.iter().fold((0u64, 0u64), |(a, p), r| {
                (
                    a + r.atomc_instrs.unwrap_or(0) as u64,
                    p + r.ptxas_instrs.unwrap_or(0) as u64,
                )
            });
            Summary {
                target: t,
                kernels: rs.len(),
                compared: both.len(),
                time_ratio_process: median(rs.iter().filter_map(|r| r.time_ratio_process()).collect()),
                time_ratio_cpu: median(rs.iter().filter_map(|r| r.time_ratio_cpu()).collect()),
                time_ratio_inproc: median(rs.iter().filter_map(|r| r.time_ratio_inproc()).collect()),
                regs_le: both.iter().filter(|r| r.atomc_regs <= r.ptxas_regs).count(),
                instr_ratio: median(both.iter().filter_map(|r| r.instr_ratio()).collect()),
                instr_ratio_total: (sp > 0).then(|| sa as f64 / sp as f64),
                atomc_inproc_us: median(rs.iter().filter_map(|r| r.atomc_inproc_us).collect()),
                atomc_process_us: median(rs.iter().filter_map(|r| r.atomc_process_us).collect()),
                ptxas_process_us: median(rs.iter().filter_map(|r| r.ptxas_process_us).collect()),
                spawn_floor_us: median(rs.iter().filter_map(|r| r.spawn_floor_us).collect()),
                atomc_process_cpu_us: median(rs.iter().filter_map(|r| r.atomc_process_cpu_us).collect()),
                ptxas_process_cpu_us: median(rs.iter().filter_map(|r| r.ptxas_process_cpu_us).collect()),
            }
        })
        .collect()
}

fn goal(ok: bool) -> &'static str {
    if ok {
        "met"
    } else {
        "missed"
    }
}

/// The markdown report: `header` (date, machine, command), the summary
/// against the goals, the per-kernel table and the misses.
pub fn write_markdown(rows: &[Row], header: &str) -> String {
    let mut s = String::new();
    s.push_str(header);
    if !header.ends_with('\n') {
        s.push('\n');
    }
    s.push_str("\n### Summary\n\n");
    s.push_str("| target | kernels | compared | ptxas/atomc time, whole process (median) | ptxas/atomc CPU time, whole process (median) | ptxas/atomc time, atomc in process (median) | registers atomc ≤ ptxas | instructions atomc/ptxas (median) | instructions atomc/ptxas (total) |\n");
    s.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for m in summarize(rows) {
        let share = if m.compared > 0 {
            m.regs_le as f64 / m.compared as f64
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {}× ({}) | {}× ({}) | {}× | {}/{} = {:.0}% ({}) | {} ({}) | {} |",
            m.target,
            m.kernels,
            m.compared,
            f(m.time_ratio_process, 1),
            goal(m.time_ratio_process.is_some_and(|x| x >= GOAL_TIME_RATIO)),
            f(m.time_ratio_cpu, 1),
            goal(m.time_ratio_cpu.is_some_and(|x| x >= GOAL_TIME_RATIO)),
            f(m.time_ratio_inproc, 1),
            m.regs_le,
            m.compared,
            share * 100.0,
            goal(m.compared > 0 && share >= GOAL_REGS_SHARE),
            f(m.instr_ratio, 3),
            goal(m.instr_ratio.is_some_and(|x| x <= GOAL_INSTR_RATIO)),
            f(m.instr_ratio_total, 3),
        );
    }
    s.push_str("\n| target | atomc in process µs (median) | atomc whole process µs | ptxas whole process µs | start-up floor µs (`atomc --version`) | atomc process CPU µs | ptxas process CPU µs |\n");
    s.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for m in summarize(rows) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            m.target,
            f(m.atomc_inproc_us, 0),
            f(m.atomc_process_us, 0),
            f(m.ptxas_process_us, 0),
            f(m.spawn_floor_us, 0),
            f(m.atomc_process_cpu_us, 0),
            f(m.ptxas_process_cpu_us, 0)
        );
    }
    let _ = writeln!(
        s,
        "\nGoals: time ratio ≥ {GOAL_TIME_RATIO}× (whole process against whole process), registers atomc ≤ ptxas on ≥ {:.0}% of the kernels (general registers the code names: atomc's allocation against ptxas's REGCOUNT less the reserved ones), instruction ratio ≤ {GOAL_INSTR_RATIO} (median).",
        GOAL_REGS_SHARE * 100.0
    );

    s.push_str("\n### Per kernel\n\n");
    s.push_str("| kernel | target | atomc in-process µs | atomc process µs | ptxas process µs | ratio (process) | ratio (CPU) | regs atomc | regs ptxas | instrs atomc | instrs ptxas | instr ratio | status |\n");
    s.push_str("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for r in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.kernel,
            r.target,
            f(r.atomc_inproc_us, 0),
            f(r.atomc_process_us, 0),
            f(r.ptxas_process_us, 0),
            f(r.time_ratio_process(), 1),
            f(r.time_ratio_cpu(), 1),
            u(r.atomc_regs),
            u(r.ptxas_regs),
            u(r.atomc_instrs),
            u(r.ptxas_instrs),
            f(r.instr_ratio(), 2),
            r.status.replace('|', "\\|"),
        );
    }

    s.push_str("\n### Misses\n\n");
    s.push_str("Each line gives the figures and, as a first hint at the why, the opcodes whose counts differ most (atomc minus ptxas).\n\n");
    let mut any = false;
    for r in rows {
        let mut why = Vec::new();
        if let Some(t) = r.time_ratio_process().filter(|&t| t < GOAL_TIME_RATIO) {
            why.push(format!("compile time ratio {t:.1}×"));
        }
        if let (Some(a), Some(p)) = (r.atomc_regs, r.ptxas_regs) {
            if a > p {
                why.push(format!("registers {a} > {p}"));
            }
        }
        if let Some(x) = r.instr_ratio().filter(|&x| x > GOAL_INSTR_RATIO) {
            why.push(format!(
                "instructions {}/{} = {x:.2}",
                u(r.atomc_instrs),
                u(r.ptxas_instrs)
            ));
        }
        if !why.is_empty() {
            any = true;
            let _ = writeln!(
                s,
                "- `{}` {}: {} — opcodes: {}",
                r.kernel,
                r.target,
                why.join(", "),
                r.opcode_diff
            );
        }
    }
    if !any {
        s.push_str("None.\n");
    }
    s
}
