//! Executing a [`RunSpec`] and judging its expectations.

use super::literal::Elem;
use super::{CheckMode, DeclKind, Expected, RunLineError, RunSpec};
use crate::interp::memory::{read_le, write_le, BufferId, Memory, Surface, SurfaceId};
use crate::interp::sched::Launch;
use crate::interp::Program;
use crate::Function;

/// Lists longer than this are cut in messages.
const SHOW_MAX: usize = 64;

/// What a run line produced: the values a call returned and every declaration's final
/// contents, for printing (`atomc run` shows them).
#[derive(Clone, Debug, Default)]
pub struct RunReport {
    /// The returned values of a call line (`%f(args)`, with or without `== [...]`, on one
    /// thread); `None` for a launch.
    pub returned: Option<Vec<crate::interp::DataValue>>,
    /// Each declaration's name and final elements, as run lines spell them.
    pub memory: Vec<(String, Vec<String>)>,
}

impl RunReport {
    /// One line: the returned values, or nothing for a launch.
    pub fn returned_text(&self) -> Option<String> {
        self.returned
            .as_ref()
            .map(|v| format!("[{}]", v.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")))
    }
}

impl RunSpec {
    /// Sets up memory, runs, and checks every expectation.
    pub fn run(&self, func: &Function) -> Result<(), RunLineError> {
        self.execute(func).map(|_| ())
    }

    /// [`RunSpec::run`], returning what the run produced when every expectation holds.
    pub fn execute(&self, func: &Function) -> Result<RunReport, RunLineError> {
        let mut mem = Memory::new();
        enum Where {
            Buf(BufferId),
            Surf(SurfaceId),
        }
        let mut places = Vec::new();
        for d in &self.decls {
            let size = d.elem.bytes();
            let mut bytes = vec![0u8; d.init.len() * size];
            for (i, &v) in d.init.iter().enumerate() {
                write_le(&mut bytes[i * size..(i + 1) * size], v);
            }
            places.push(match d.kind {
                DeclKind::Buffer => Where::Buf(mem.add_buffer(bytes)),
                DeclKind::Surface { extent, slot } => {
                    let id = mem.add_surface(Surface {
                        extent,
                        elem_bytes: size as u32,
                        data: bytes,
                    });
                    if let Some(s) = slot {
                        mem.bind_slot(s, id);
                    }
                    Where::Surf(id)
                }
            });
        }
        let result = Program::new(func).and_then(|prog| {
            // A function with results called on one thread returns them, checked or not.
            let one_thread = self.grid.count() == 1 && self.block.count() == 1;
            if self.call.is_some() || (!func.returns.is_empty() && one_thread) {
                prog.call_with_memory(&self.args, &mut mem).map(Some)
            } else {
                let launch = Launch {
                    grid: self.grid,
                    block: self.block,
                    shared_bytes: self.shared_bytes,
                    step_limit: self.step_limit,
                    args: self.args.clone(),
                    subgroup_size: self.subgroup_size,
                };
                prog.launch(&launch, &mut mem).map(|_| None)
            }
        });
        let results = match (result, &self.expect_error) {
            (Err(e), Some(text)) => {
                let msg = e.to_string();
                return if msg.contains(text.as_str()) {
                    Ok(RunReport::default())
                } else {
                    Err(RunLineError::Mismatch(format!(
                        "expected an error containing \"{text}\", got: {msg}"
                    )))
                };
            }
            (Err(e), None) => return Err(RunLineError::Exec(e)),
            (Ok(_), Some(text)) => {
                return Err(RunLineError::Mismatch(format!(
                    "expected an error containing \"{text}\", but the run succeeded"
                )))
            }
            (Ok(r), None) => r,
        };
        let mut report = RunReport { returned: results.clone(), memory: Vec::new() };
        if let (Some((equal, want)), Some(got)) = (&self.call, results) {
            if (got == *want) != *equal {
                let show = |v: &[crate::interp::DataValue]| {
                    v.iter()
                        .map(|x| x.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                };
                let op = if *equal { "==" } else { "!=" };
                return Err(RunLineError::Mismatch(format!(
                    "%{}({}) returned [{}], expected {op} [{}]",
                    func.name,
                    show(&self.args),
                    show(&got),
                    show(want)
                )));
            }
        }
        for c in &self.checks {
            let d = &self.decls[c.decl];
            let bytes = match places[c.decl] {
                Where::Buf(id) => mem.buffer(id).to_vec(),
                Where::Surf(id) => mem.surface(id).map(|s| s.data.clone()).unwrap_or_default(),
            };
            let size = d.elem.bytes();
            let all: Vec<u64> = bytes.chunks(size).map(read_le).collect();
            let got = &all[c.range.0..c.range.1];
            let subject = c.subject(&d.name);
            if let Err(why) = judge(d.elem, c.mode, got, &c.expected, c.equal) {
                return Err(RunLineError::Mismatch(format!("{subject}: {why}")));
            }
        }
        for (d, place) in self.decls.iter().zip(&places) {
            let bytes = match place {
                Where::Buf(id) => mem.buffer(*id).to_vec(),
                Where::Surf(id) => mem.surface(*id).map(|s| s.data.clone()).unwrap_or_default(),
            };
            let elems = bytes.chunks(d.elem.bytes()).map(|c| d.elem.show(read_le(c))).collect();
            report.memory.push((d.name.clone(), elems));
        }
        Ok(report)
    }
}

/// Whether `got` meets the expectation; `Err` says how it does not.
pub(super) fn judge(
    elem: Elem,
    mode: CheckMode,
    got: &[u64],
    want: &Expected,
    equal: bool,
) -> Result<(), String> {
    let show = |v: &[u64]| show_list(elem, v);
    // (holds, what was found, what `==` wanted, extra detail)
    let (holds, found, wanted, extra) = match (mode, want) {
        (CheckMode::Sum, Expected::Scalar(x)) => {
            let sum = got.iter().fold(0u64, |a, &b| a.wrapping_add(b));
            let sum = crate::interp::decode::mask(sum, elem.ty.bits());
            (
                sum == *x,
                format!("sum is {}", elem.show(sum)),
                elem.show(*x),
                String::new(),
            )
        }
        (CheckMode::All, Expected::Scalar(x)) => {
            let bad = got.iter().position(|v| !elem.matches(*v, *x));
            let found = match bad {
                Some(i) => format!("element {i} is {}", elem.show(got[i])),
                None => format!("every element is {}", elem.show(*x)),
            };
            (
                bad.is_none(),
                found,
                format!("every element to be {}", elem.show(*x)),
                String::new(),
            )
        }
        (CheckMode::Exact, Expected::Scalar(x)) => (
            got.len() == 1 && elem.matches(got[0], *x),
            format!("is {}", show(got)),
            elem.show(*x),
            String::new(),
        ),
        (CheckMode::Exact, Expected::List(w)) => {
            let mut extra = String::new();
            if got.len() != w.len() {
                extra = format!(" ({} elements, {} expected)", got.len(), w.len());
            } else if let Some(i) = got.iter().zip(w).position(|(a, b)| !elem.matches(*a, *b)) {
                extra = format!(
                    " (first difference at {i}: {} vs {})",
                    elem.show(got[i]),
                    elem.show(w[i])
                );
            }
            (
                got.len() == w.len() && got.iter().zip(w).all(|(a, b)| elem.matches(*a, *b)),
                format!("is {}", show(got)),
                show(w),
                extra,
            )
        }
        (CheckMode::Sorted | CheckMode::Set, Expected::List(w)) => {
            let mut a = got.to_vec();
            let mut b = w.clone();
            a.sort_by(|x, y| elem.cmp(*x, *y));
            b.sort_by(|x, y| elem.cmp(*x, *y));
            if mode == CheckMode::Set {
                a.dedup();
                b.dedup();
            }
            let what = if mode == CheckMode::Set {
                "as a set"
            } else {
                "sorted"
            };
            (
                a == b,
                format!("{what} is {}", show(&a)),
                show(&b),
                String::new(),
            )
        }
        _ => (
            false,
            "cannot be checked this way".to_string(),
            String::new(),
            String::new(),
        ),
    };
    match (holds, equal) {
        (true, true) | (false, false) => Ok(()),
        (false, true) => Err(format!("{found}, expected {wanted}{extra}")),
        (true, false) => Err(format!("{found}, but `!=` expected something else")),
    }
}

fn show_list(elem: Elem, v: &[u64]) -> String {
    let mut parts: Vec<String> = v.iter().take(SHOW_MAX).map(|&x| elem.show(x)).collect();
    if v.len() > SHOW_MAX {
        parts.push(format!("... ({} more)", v.len() - SHOW_MAX));
    }
    format!("[{}]", parts.join(", "))
}
