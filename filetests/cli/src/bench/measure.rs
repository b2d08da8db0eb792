//! The measurements of one kernel on one target.

use super::report::median;
use super::{io_err, BenchError, Config, Kernel, Row};
use atomc::{Emit, Target};
use atomc_oracle::{self as oracle, Sm, SmTools};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// A private temporary directory for PTX and cubins, removed on drop.
pub(super) struct Scratch(PathBuf);

impl Scratch {
    pub(super) fn new() -> Result<Scratch, BenchError> {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let dir = std::env::temp_dir().join(format!("atomc-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(io_err(&dir))?;
        Ok(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn sm_of(target: Target) -> Sm {
    if target == Target::Sm50 {
        Sm::Sm50
    } else {
        Sm::Sm90
    }
}

/// Wall and CPU time of one child process, microseconds.
#[derive(Clone, Copy, Debug)]
struct ProcTime {
    wall: f64,
    /// User plus system time of the child (`None` where the platform does not
    /// report it). Unlike wall time it does not grow when the machine is busy.
    cpu: Option<f64>,
}

/// Times `cmd` with [`time_process`], adding its wall and CPU time to `times`; when it fails,
/// notes `what: error` and returns false.
fn time_into(cmd: &mut Command, times: (&mut Vec<f64>, &mut Vec<f64>), notes: &mut Vec<String>, what: &str) -> bool {
    match time_process(cmd) {
        Ok(t) => {
            times.0.push(t.wall);
            times.1.extend(t.cpu);
            true
        }
        Err(e) => {
            notes.push(format!("{what}: {e}"));
            false
        }
    }
}

/// Runs `cmd` with stdout discarded; its times, or the first line of its
/// stderr when it fails.
fn time_process(cmd: &mut Command) -> Result<ProcTime, String> {
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    let start = Instant::now();
    let child = cmd.spawn().map_err(|e| format!("cannot start: {e}"))?;
    let (ok, cpu, stderr) = wait_with_cpu(child)?;
    let wall = start.elapsed().as_secs_f64() * 1e6;
    if !ok {
        return Err(stderr.lines().next().unwrap_or("failed").to_string());
    }
    Ok(ProcTime { wall, cpu })
}

/// Reads the child's stderr to its end, then reaps it with `wait4`, which
/// also returns the child's resource usage.
#[cfg(unix)]
fn wait_with_cpu(mut child: std::process::Child) -> Result<(bool, Option<f64>, String), String> {
    use std::io::Read;
    let mut stderr = String::new();
    if let Some(mut e) = child.stderr.take() {
        let _ = e.read_to_string(&mut stderr);
    }
    let pid = child.id() as libc::pid_t;
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero rusage is a valid value of the plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own unreaped child (std has not waited on it),
    // and both out-pointers are valid for writes.
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if r != pid {
        return Err(format!("wait4 failed: {}", std::io::Error::last_os_error()));
    }
    let tv = |t: libc::timeval| t.tv_sec as f64 * 1e6 + t.tv_usec as f64;
    let cpu = tv(usage.ru_utime) + tv(usage.ru_stime);
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    Ok((ok, Some(cpu), stderr))
}

#[cfg(not(unix))]
fn wait_with_cpu(child: std::process::Child) -> Result<(bool, Option<f64>, String), String> {
    let out = child.wait_with_output().map_err(|e| e.to_string())?;
    Ok((
        out.status.success(),
        None,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The in-process compile: parse and verify the text, compile to a cubin.
fn compile_in_process(k: &Kernel, target: Target) -> Result<f64, String> {
    let start = Instant::now();
    let funcs = atomc::ir::parse::parse(&k.source).map_err(|_| "parse failed".to_string())?;
    let out = atomc::compile(&funcs[0], target, Emit::Cubin).map_err(|e| e.to_string())?;
    let us = start.elapsed().as_secs_f64() * 1e6;
    std::hint::black_box(out);
    Ok(us)
}

/// The base mnemonic of a SASS line (`@!P0 IMAD.WIDE.U32 ...` -> `IMAD`).
fn mnemonic(text: &str) -> &str {
    // sm_50 listings mark dual-issue pairs with `{` ... `}`.
    let t = text.trim().trim_start_matches('{').trim_start();
    let t = if t.starts_with('@') {
        t.split_once(' ').map(|(_, r)| r.trim_start()).unwrap_or(t)
    } else {
        t
    };
    let word = t.split_whitespace().next().unwrap_or("");
    word.split('.').next().unwrap_or(word).trim_end_matches(';')
}

/// Whether a line is end-of-kernel padding: a `NOP`, or a `BRA` whose
/// target is its own address.
fn is_padding(text: &str, offset: u32) -> bool {
    let m = mnemonic(text);
    if m == "NOP" {
        return true;
    }
    if m == "BRA" && !text.trim_start().trim_start_matches('{').trim_start().starts_with('@') {
        let target = text.split_whitespace().nth(1).map(|t| t.trim_end_matches(';'));
        if let Some(t) = target.and_then(|t| t.strip_prefix("0x")) {
            return u32::from_str_radix(t, 16).ok() == Some(offset);
        }
    }
    false
}

/// ptxas's side of one kernel.
#[derive(Clone, Debug, Default)]
pub struct PtxasResult {
    /// `REG:` from `cuobjdump -res-usage`.
    pub regs: Option<u32>,
    /// Instructions without padding.
    pub instrs: u32,
    /// Mnemonic of each counted instruction.
    pub mnemonics: Vec<String>,
}

/// The `REG:N` figure of `cuobjdump -res-usage` output (the first function).
pub fn parse_reg_count(res_usage: &str) -> Option<u32> {
    let at = res_usage.find("REG:")?;
    let digits: String = res_usage[at + 4..].chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// Counts the instructions of a `cuobjdump -sass` listing without padding;
/// also returns their mnemonics.
pub fn count_ptxas_instrs(listing: &str) -> (u32, Vec<String>) {
    let lines = oracle::disasm_instructions(listing);
    let kept: Vec<String> = lines
        .iter()
        .filter(|l| !is_padding(&l.text, l.offset))
        .map(|l| mnemonic(&l.text).to_string())
        .collect();
    (kept.len() as u32, kept)
}

fn opcode_diff(atomc: &[String], ptxas: &[String]) -> String {
    let mut count: BTreeMap<&str, i64> = BTreeMap::new();
    for m in atomc {
        *count.entry(m).or_default() += 1;
    }
    for m in ptxas {
        *count.entry(m).or_default() -= 1;
    }
    let mut diffs: Vec<(&str, i64)> = count.into_iter().filter(|(_, d)| *d != 0).collect();
    diffs.sort_by(|a, b| b.1.abs().cmp(&a.1.abs()).then(a.0.cmp(b.0)));
    diffs
        .iter()
        .take(5)
        .map(|(m, d)| format!("{d:+} {m}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Measures one kernel on one target; failures end up in `Row::status`.
pub(super) fn measure(k: &Kernel, target: Target, config: &Config, scratch: &Scratch) -> Row {
    let mut row = Row {
        kernel: k.name.clone(),
        target: target.to_string(),
        ..Row::default()
    };
    let mut notes: Vec<String> = Vec::new();

    // Code quality, atomc side.
    let sass = match atomc::pipeline::compile_sass(&k.func, target) {
        Ok(s) => s,
        Err(e) => {
            row.status = format!("atomc failed: {e}");
            return row;
        }
    };
    row.atomc_regs = Some(sass.allocated.alloc.num_regs as u32);
    let word = sass.arch.word_bytes;
    let atomc_mnemonics: Vec<String> = sass.kernel.instrs[..sass.kernel.body_len]
        .iter()
        .enumerate()
        .map(|(i, ins)| sass.arch.print_at(ins, (i * word) as u64))
        .enumerate()
        .filter(|(i, t)| !is_padding(t, (i * word) as u32))
        .map(|(_, t)| mnemonic(&t).to_string())
        .collect();
    row.atomc_instrs = Some(atomc_mnemonics.len() as u32);

    // The PTX for ptxas, and ptxas itself.
    let sm = sm_of(target);
    let stem = format!("{}-{}", k.name, target);
    let ptx_path = scratch.0.join(format!("{stem}.ptx"));
    let ptxas_cubin = scratch.0.join(format!("{stem}.ptxas.cubin"));
    let atomc_cubin = scratch.0.join(format!("{stem}.atomc.cubin"));
    let ptxas = match atomc::compile(&k.func, target, Emit::Ptx) {
        Ok(atomc::Output::Text(ptx)) => match std::fs::write(&ptx_path, ptx) {
            Ok(()) => match oracle::tool(sm.ptxas_tool()) {
                Ok(p) => Some(p),
                Err(e) => {
                    notes.push(format!("SKIPPED ptxas (tool missing): {e}"));
                    None
                }
            },
            Err(e) => {
                notes.push(format!("cannot write PTX: {e}"));
                None
            }
        },
        Ok(_) => None,
        Err(e) => {
            notes.push(format!("no PTX: {e}"));
            None
        }
    };

    // Alternate the three measurements inside each repeat.
    let (mut t_in, mut t_proc, mut t_ptxas, mut t_floor) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut c_proc, mut c_ptxas) = (Vec::new(), Vec::new());
    let (mut in_ok, mut proc_ok, mut ptxas_ok) = (true, true, ptxas.is_some());
    let arch_flag = format!("-arch={}", sm.ptx_arch());
    for _ in 0..config.repeat.max(1) {
        if in_ok {
            match compile_in_process(k, target) {
                Ok(us) => t_in.push(us),
                Err(e) => {
                    notes.push(format!("atomc cubin: {e}"));
                    in_ok = false;
                }
            }
        }
        if proc_ok {
            let mut cmd = Command::new(&config.atomc_exe);
            cmd.arg("compile")
                .arg(&k.path)
                .args(["--target", &target.to_string(), "--emit", "cubin", "-o"]);
            cmd.arg(&atomc_cubin);
            // Both compilers write a fresh file: overwriting one on ext4 (truncate, then
            // rewrite) forces a flush at close that would be timed as compile time.
            let _ = std::fs::remove_file(&atomc_cubin);
            proc_ok &= time_into(&mut cmd, (&mut t_proc, &mut c_proc), &mut notes, "atomc process");
        }
        if let Ok(t) = time_process(Command::new(&config.atomc_exe).arg("--version")) {
            t_floor.push(t.wall);
        }
        if let (true, Some(exe)) = (ptxas_ok, &ptxas) {
            let mut cmd = Command::new(exe);
            cmd.arg(&arch_flag).arg(&ptx_path).arg("-o").arg(&ptxas_cubin);
            let _ = std::fs::remove_file(&ptxas_cubin);
            ptxas_ok &= time_into(&mut cmd, (&mut t_ptxas, &mut c_ptxas), &mut notes, "ptxas");
        }
    }
    row.atomc_inproc_us = median(t_in);
    row.atomc_process_us = median(t_proc);
    row.ptxas_process_us = median(t_ptxas);
    row.spawn_floor_us = median(t_floor);
    row.atomc_process_cpu_us = median(c_proc);
    row.ptxas_process_cpu_us = median(c_ptxas);
    if proc_ok {
        row.atomc_regcount = read_regcount(sm, &atomc_cubin);
    }

    // Code quality, ptxas side.
    if ptxas_ok {
        match read_ptxas(sm, &ptxas_cubin) {
            Ok(p) => {
                row.ptxas_regcount = p.regs;
                row.ptxas_regs = p.regs.map(|r| r.saturating_sub(reserved_regs(target)));
                row.ptxas_instrs = Some(p.instrs);
                row.opcode_diff = opcode_diff(&atomc_mnemonics, &p.mnemonics);
            }
            Err(e) => notes.push(format!("reading ptxas's cubin: {e}")),
        }
    }
    row.status = if notes.is_empty() {
        "ok".into()
    } else {
        notes.join("; ")
    };
    row
}

/// Registers the architecture keeps out of the kernel's own (counted in
/// REGCOUNT but never named by the code).
fn reserved_regs(target: Target) -> u32 {
    let arch = if target == Target::Sm50 {
        atomc_emit::sass::Sm::Sm50
    } else {
        atomc_emit::sass::Sm::Sm90
    };
    arch.reserved_regs()
}

fn read_regcount(sm: Sm, cubin: &Path) -> Option<u32> {
    let bytes = std::fs::read(cubin).ok()?;
    parse_reg_count(&oracle::cuobjdump(sm, &bytes, &["-res-usage"]).ok()?)
}

fn read_ptxas(sm: Sm, cubin: &Path) -> Result<PtxasResult, String> {
    let bytes = std::fs::read(cubin).map_err(|e| e.to_string())?;
    let res = oracle::cuobjdump(sm, &bytes, &["-res-usage"]).map_err(|e| e.to_string())?;
    let listing = oracle::cuobjdump_sass(sm, &bytes).map_err(|e| e.to_string())?;
    let (instrs, mnemonics) = count_ptxas_instrs(&listing);
    Ok(PtxasResult {
        regs: parse_reg_count(&res),
        instrs,
        mnemonics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn padding_and_mnemonics() {
        assert!(is_padding("BRA 0xa0", 0xa0));
        assert!(!is_padding("BRA 0x40", 0xa0));
        assert!(!is_padding("@P0 BRA 0xa0", 0xa0));
        assert!(is_padding("NOP", 0x10));
        assert_eq!(mnemonic("@!P0 IMAD.WIDE.U32 R0, R4, 0x4, R0"), "IMAD");
        assert_eq!(mnemonic("EXIT ;"), "EXIT");
        assert_eq!(mnemonic("{         VOTE.ANY R0, PT, PT"), "VOTE");
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 3.0]), Some(2.5));
    }

    #[test]
    fn reg_count_from_res_usage() {
        let text = " Function k:\n  REG:8 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:536\n";
        assert_eq!(parse_reg_count(text), Some(8));
        assert_eq!(parse_reg_count("nothing"), None);
    }
}
