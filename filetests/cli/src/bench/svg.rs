//! A hand-written SVG chart of the benchmark: one row per kernel, three
//! panels (compile-time ratio ptxas/atomc on a log scale, register ratio and
//! instruction ratio atomc/ptxas), one bar per target, goal lines dashed.
//! Plain SVG text keeps the dependency list short.

use super::report::{GOAL_INSTR_RATIO, GOAL_TIME_RATIO};
use super::Row;
use std::fmt::Write;

const ROW_H: f64 = 18.0;
const LABEL_W: f64 = 190.0;
const PANEL_W: f64 = 260.0;
const GAP: f64 = 30.0;
const TOP: f64 = 56.0;
const COLORS: [&str; 4] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728"];

/// One panel: its title, how to read a value from a row, the axis range and
/// scale, the goal line.
struct Panel {
    title: &'static str,
    value: fn(&Row) -> Option<f64>,
    min: f64,
    max: f64,
    log: bool,
    goal: f64,
}

impl Panel {
    fn x(&self, v: f64) -> f64 {
        let v = v.clamp(self.min, self.max);
        let t = if self.log {
            (v.ln() - self.min.ln()) / (self.max.ln() - self.min.ln())
        } else {
            (v - self.min) / (self.max - self.min)
        };
        t * PANEL_W
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The chart as SVG text.
pub fn write_svg(rows: &[Row]) -> String {
    let panels = [
        Panel {
            title: "compile time ptxas / atomc (process, log)",
            value: Row::time_ratio_process,
            min: 0.1,
            max: 1000.0,
            log: true,
            goal: GOAL_TIME_RATIO,
        },
        Panel {
            title: "registers atomc / ptxas",
            value: |r| Some(r.atomc_regs? as f64 / r.ptxas_regs? as f64),
            min: 0.0,
            max: 3.0,
            log: false,
            goal: 1.0,
        },
        Panel {
            title: "instructions atomc / ptxas",
            value: Row::instr_ratio,
            min: 0.0,
            max: 3.0,
            log: false,
            goal: GOAL_INSTR_RATIO,
        },
    ];
    let mut kernels: Vec<&str> = Vec::new();
    let mut targets: Vec<&str> = Vec::new();
    for r in rows {
        if !kernels.contains(&r.kernel.as_str()) {
            kernels.push(&r.kernel);
        }
        if !targets.contains(&r.target.as_str()) {
            targets.push(&r.target);
        }
    }
    let width = LABEL_W + panels.len() as f64 * (PANEL_W + GAP) + 10.0;
    let height = TOP + kernels.len() as f64 * ROW_H + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="8" y="16" font-size="13" font-weight="bold">atomc vs ptxas (dashed: goal)</text>"#
    );
    for (i, t) in targets.iter().enumerate() {
        let x = 8.0 + i as f64 * 80.0;
        let _ = writeln!(
            s,
            r#"<rect x="{x}" y="24" width="10" height="10" fill="{}"/>"#,
            COLORS[i % COLORS.len()]
        );
        let _ = writeln!(s, r#"<text x="{}" y="33">{}</text>"#, x + 14.0, esc(t));
    }
    for (k, name) in kernels.iter().enumerate() {
        let y = TOP + k as f64 * ROW_H;
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
            LABEL_W - 6.0,
            y + ROW_H * 0.7,
            esc(name)
        );
    }
    let bar_h = (ROW_H - 4.0) / targets.len().max(1) as f64;
    for (p, panel) in panels.iter().enumerate() {
        let x0 = LABEL_W + p as f64 * (PANEL_W + GAP);
        let bottom = TOP + kernels.len() as f64 * ROW_H;
        let _ = writeln!(
            s,
            r#"<text x="{x0}" y="{}" font-weight="bold">{}</text>"#,
            TOP - 8.0,
            esc(panel.title)
        );
        let _ = writeln!(
            s,
            r##"<rect x="{x0}" y="{TOP}" width="{PANEL_W}" height="{}" fill="none" stroke="#999"/>"##,
            bottom - TOP
        );
        // Ticks.
        let ticks: Vec<f64> = if panel.log {
            vec![0.1, 1.0, 10.0, 100.0, 1000.0]
        } else {
            vec![0.0, 1.0, 2.0, 3.0]
        };
        for t in ticks {
            let x = x0 + panel.x(t);
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{TOP}" x2="{x}" y2="{bottom}" stroke="#eee"/>"##
            );
            let _ = writeln!(
                s,
                r#"<text x="{x}" y="{}" text-anchor="middle">{t}</text>"#,
                bottom + 14.0
            );
        }
        let base = if panel.log { x0 + panel.x(1.0) } else { x0 };
        for (k, name) in kernels.iter().enumerate() {
            for (ti, t) in targets.iter().enumerate() {
                let Some(v) = rows
                    .iter()
                    .find(|r| r.kernel == *name && r.target == *t)
                    .and_then(panel.value)
                else {
                    continue;
                };
                let x = x0 + panel.x(v);
                let (left, w) = if x >= base { (base, x - base) } else { (x, base - x) };
                let y = TOP + k as f64 * ROW_H + 2.0 + ti as f64 * bar_h;
                let _ = writeln!(
                    s,
                    r#"<rect x="{left:.1}" y="{y:.1}" width="{:.1}" height="{bar_h:.1}" fill="{}"><title>{} {}: {v:.2}</title></rect>"#,
                    w.max(1.0),
                    COLORS[ti % COLORS.len()],
                    esc(name),
                    esc(t)
                );
            }
        }
        let gx = x0 + panel.x(panel.goal);
        let _ = writeln!(
            s,
            r#"<line x1="{gx}" y1="{TOP}" x2="{gx}" y2="{bottom}" stroke="black" stroke-dasharray="4,3"/>"#
        );
    }
    s.push_str("</svg>\n");
    s
}
