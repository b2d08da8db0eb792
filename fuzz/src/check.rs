//! One seed through every stage: generate, verify, interpret, compile for each target, hand
//! atomc's PTX to ptxas, (with the `emu` feature) run both compilers' cubins on the emulator, and
//! compare. Each stage ends in one [`Verdict`].

use std::time::{Duration, Instant};

use atomc::ir::interp::{parse_run_line, RunSpec};
use atomc::ir::Function;
use atomc::{CompileError, Emit, Output, Target, VisaPlatform};
use atomc_oracle::{self as oracle, OracleError, Sm};

use crate::gen::{self, Compare, Program};
use crate::guard::guarded;

/// How one stage ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    Ok,
    /// The target legitimately cannot express an instruction (atomc's `Unsupported` error).
    Refused(String),
    /// Two stages disagree, or an oracle rejects atomc's output: a bug somewhere.
    Mismatch(String),
    /// A panic or an error other than a refusal from atomc on a verified kernel.
    Ice(String),
    /// The emulator does not model an instruction.
    EmuUnsupported(String),
    /// The stage could not run (a tool is missing, an earlier stage failed).
    Skipped(String),
    /// The generator broke its own contract (a kernel that does not verify or run): a fuzzer bug.
    Generator(String),
}

impl Verdict {
    /// Whether this verdict fails a run.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Verdict::Mismatch(_) | Verdict::Ice(_) | Verdict::Generator(_)
        )
    }

    /// The class name used in summaries.
    pub fn class(&self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::Refused(_) => "refused",
            Verdict::Mismatch(_) => "mismatch",
            Verdict::Ice(_) => "ice",
            Verdict::EmuUnsupported(_) => "emu-unsupported",
            Verdict::Skipped(_) => "skipped",
            Verdict::Generator(_) => "generator",
        }
    }

    /// The detail text (empty for `Ok`).
    pub fn detail(&self) -> &str {
        match self {
            Verdict::Ok => "",
            Verdict::Refused(s)
            | Verdict::Mismatch(s)
            | Verdict::Ice(s)
            | Verdict::EmuUnsupported(s)
            | Verdict::Skipped(s)
            | Verdict::Generator(s) => s,
        }
    }
}

/// Which stages run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// Hand atomc's PTX to ptxas (sm_90: CUDA 13, sm_50: CUDA 11.8).
    pub ptxas: bool,
    /// Hand atomc's vISA text to GenX_IR.
    pub genx: bool,
    /// Run the cubins on the SASS emulator (only with the `emu` feature; ignored without it).
    pub emu: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            ptxas: true,
            genx: false,
            emu: cfg!(feature = "emu"),
        }
    }
}

/// Everything one seed produced.
pub struct Report {
    pub program: Program,
    /// The full run line, checks included, once the interpreter has run.
    pub run_line: Option<String>,
    pub stages: Vec<(String, Verdict)>,
    pub elapsed: Duration,
}

impl Report {
    /// The failing stages.
    pub fn failures(&self) -> impl Iterator<Item = &(String, Verdict)> {
        self.stages.iter().filter(|(_, v)| v.is_failure())
    }

    /// Whether any stage failed.
    pub fn failed(&self) -> bool {
        self.failures().next().is_some()
    }

    /// The kernel with its run line, as a `test interpret` filetest.
    pub fn filetest(&self) -> String {
        let run = self
            .run_line
            .clone()
            .unwrap_or_else(|| self.program.launch.clone());
        let mut s = format!("test interpret\n; atomc-fuzz seed {}\n", self.program.seed);
        for (stage, v) in self.failures() {
            s += &format!("; {stage}: {}: {}\n", v.class(), first_line(v.detail()));
        }
        s + "\n" + &self.program.text + "; run: " + &run + "\n"
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The SASS targets with their ptxas architectures.
const SASS: [(Target, Sm); 2] = [(Target::Sm90, Sm::Sm90), (Target::Sm50, Sm::Sm50)];
const VISA: [VisaPlatform; 3] = [VisaPlatform::Tgllp, VisaPlatform::Dg2, VisaPlatform::Pvc];

/// Runs every stage for `seed`.
pub fn check(seed: u64, opts: &Options) -> Report {
    let start = Instant::now();
    let mut stages = Vec::new();
    let program = match guarded(|| gen::generate(seed)) {
        Ok(p) => p,
        Err(e) => {
            let program = Program {
                seed,
                text: String::new(),
                launch: String::new(),
                buffers: Vec::new(),
            };
            stages.push(("generate".into(), Verdict::Generator(format!("panic: {e}"))));
            return Report {
                program,
                run_line: None,
                stages,
                elapsed: start.elapsed(),
            };
        }
    };
    let mut report = Report {
        program,
        run_line: None,
        stages,
        elapsed: Duration::ZERO,
    };
    run_stages(&mut report, opts);
    report.elapsed = start.elapsed();
    report
}

fn run_stages(report: &mut Report, opts: &Options) {
    match reference(&report.program) {
        Ok((func, line, spec)) => {
            report.run_line = Some(line);
            report.stages.push(("interpret".into(), Verdict::Ok));
            report
                .stages
                .extend(check_kernel(&func, &spec, opts, report.program.seed));
        }
        Err(v) => report.stages.push(("interpret".into(), v)),
    }
}

/// The stages after the interpreter, for any kernel with a run line whose checks its interpreted
/// run passes (a generated one, or a reproducer filetest). `seed` seeds the emulator's random
/// schedule.
pub fn check_kernel(
    func: &Function,
    spec: &RunSpec,
    opts: &Options,
    seed: u64,
) -> Vec<(String, Verdict)> {
    let mut stages = Vec::new();
    let mut cubins: Vec<(String, Vec<u8>)> = Vec::new();
    for (target, sm) in SASS {
        let (v, cubin) = compile(func, target, Emit::Cubin);
        stages.push((format!("atomc {target} cubin"), v));
        if let Some(Output::Binary(b)) = cubin {
            cubins.push((format!("atomc {target}"), b));
        }
        let (v, ptx) = compile(func, target, Emit::Ptx);
        stages.push((format!("atomc {target} ptx"), v));
        if !opts.ptxas {
            continue;
        }
        let verdict = match ptx {
            Some(Output::Text(ptx)) => match oracle::ptxas(sm, &ptx) {
                Ok(b) => {
                    cubins.push((format!("ptxas {target}"), b));
                    Verdict::Ok
                }
                Err(e @ (OracleError::Missing { .. } | OracleError::NoWorkspace { .. })) => {
                    Verdict::Skipped(e.to_string())
                }
                Err(e) => Verdict::Mismatch(format!("ptxas rejects atomc's PTX: {e}")),
            },
            _ => Verdict::Skipped("no PTX".into()),
        };
        stages.push((format!("ptxas {target}"), verdict));
    }
    for p in VISA {
        let target = Target::Visa(p);
        let (v, _) = compile(func, target, Emit::Isa);
        stages.push((format!("atomc {target} isa"), v));
        if opts.genx {
            let (v, text) = compile(func, target, Emit::Visaasm);
            let verdict = match (v, text) {
                (Verdict::Ok, Some(Output::Text(t))) => {
                    match oracle::genx_ir(oracle::GenxInput::Text(&t), p.name()) {
                        Ok(_) => Verdict::Ok,
                        Err(
                            e @ (OracleError::Missing { .. } | OracleError::NoWorkspace { .. }),
                        ) => Verdict::Skipped(e.to_string()),
                        Err(e) => Verdict::Mismatch(format!("GenX_IR rejects atomc's vISA: {e}")),
                    }
                }
                (v, _) => Verdict::Skipped(format!("no vISA text ({})", v.class())),
            };
            stages.push((format!("GenX_IR {target}"), verdict));
        }
    }
    #[cfg(feature = "emu")]
    if opts.emu {
        stages.extend(crate::emu_stage::run(func, spec, &cubins, seed));
    }
    #[cfg(not(feature = "emu"))]
    let _ = (spec, cubins, seed);
    stages
}

/// Parses and verifies the kernel, interprets it, and writes the run line's checks from the
/// interpreter's memory. Returns the function, the full line and its parsed form.
fn reference(p: &Program) -> Result<(Function, String, RunSpec), Verdict> {
    let generator = |what: &str, e: String| Verdict::Generator(format!("{what}: {e}"));
    let func = match atomc::ir::parse::parse(&p.text) {
        Ok(mut fs) if fs.len() == 1 => fs.remove(0),
        Ok(fs) => return Err(generator("parse", format!("{} functions", fs.len()))),
        Err(d) => return Err(generator("parse", messages(&d))),
    };
    atomc::ir::verify::verify(&func).map_err(|d| generator("verify", messages(&d)))?;
    let spec =
        parse_run_line(&func, &p.launch).map_err(|e| generator("run line", e.to_string()))?;
    // Buffers and surfaces, as `atomc run` sets them up.
    let want = guarded(|| atomc::emulate::interpret(&func, &spec))
        .map_err(|e| generator("interpreter panic", e))?
        .map_err(|e| generator("interpreter", e))?;
    let mut checks = Vec::new();
    for (buf, bytes) in p.buffers.iter().zip(&want) {
        let size = if matches!(buf.elem, "i64" | "f64") { 8 } else { 4 };
        let elems: Vec<String> = bytes.chunks(size).map(|c| literal(buf.elem, c)).collect();
        match &buf.compare {
            Compare::Exact => checks.push(format!("{} == [{}]", buf.name, elems.join(", "))),
            Compare::Multisets(ranges) => {
                for &(a, b) in ranges {
                    let part = elems.get(a..b).unwrap_or_default();
                    checks.push(format!(
                        "{}[{a}..{b}] sorted == [{}]",
                        buf.name,
                        part.join(", ")
                    ));
                }
            }
        }
    }
    let line = format!("{} => {}", p.launch, checks.join(", "));
    let full =
        parse_run_line(&func, &line).map_err(|e| generator("checked run line", e.to_string()))?;
    full.check_contents(&want)
        .map_err(|e| generator("the interpreter fails its own checks", e.to_string()))?;
    Ok((func, line, full))
}

/// One element as a run-line literal: integers in decimal, `f32` as its bit pattern.
fn literal(elem: &str, bytes: &[u8]) -> String {
    let mut b = [0u8; 8];
    b[..bytes.len()].copy_from_slice(bytes);
    match elem {
        "i32" => (u64::from_le_bytes(b) as u32 as i32).to_string(),
        "f32" => format!("{:#010x}", u64::from_le_bytes(b) as u32),
        // Bit patterns: a canonical NaN there matches any NaN (the run line's rule).
        "f64" => format!("{:#018x}", u64::from_le_bytes(b)),
        _ => (u64::from_le_bytes(b) as i64).to_string(),
    }
}

fn messages(d: &[atomc::ir::diagnostic::Diagnostic]) -> String {
    d.iter()
        .map(|d| format!("[{}] {}", d.rule, d.message))
        .collect::<Vec<_>>()
        .join("; ")
}

/// One compile, classified; the output when there is one.
fn compile(func: &Function, target: Target, emit: Emit) -> (Verdict, Option<Output>) {
    match guarded(|| atomc::compile(func, target, emit)) {
        Ok(Ok(out)) => (Verdict::Ok, Some(out)),
        Ok(Err(CompileError::Unsupported { target, op, reason, .. })) => (
            Verdict::Refused(format!("{target} cannot express `{op}`: {reason}")),
            None,
        ),
        Ok(Err(e)) => (Verdict::Ice(e.to_string()), None),
        Err(panic) => (Verdict::Ice(format!("panic: {panic}")), None),
    }
}
