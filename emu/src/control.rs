//! Control instructions of both targets: branches, exit, convergence barriers and the sm_50
//! reconvergence stack, block barriers, and the memory-ordering instructions, which do nothing
//! here: what a fence or an invalidation does to memory is done before, from the form's facts
//! ([`crate::order`]).

use crate::exec::Ctx;
use crate::simt::Flow;
use crate::EmuError;
use atomc_emit::sass::Operand;

/// Handles the control instructions; `None` for any other mnemonic. Runs even when no lane's
/// guard holds (the group still moves on).
pub fn control(c: &mut Ctx, m: &str) -> Result<Option<Flow>, EmuError> {
    let target = |c: &Ctx| -> Result<usize, EmuError> {
        let off = c
            .ins
            .ops
            .iter()
            .find_map(|o| match o {
                Operand::Target(t) => Some(*t),
                _ => None,
            })
            .ok_or_else(|| c.unsupported("no branch target"))?;
        c.k.branch_target(c.i, off).ok_or_else(|| EmuError::Control {
            at: c.at(),
            text: c.text(),
            why: "branch target outside the code".into(),
        })
    };
    Ok(Some(match m {
        "BRA" => {
            // sm_90's BRA also has a condition operand (PT unless `.DIV`/`.U` say otherwise).
            let mut taken = c.exec;
            if let Some(k) = c.ins.ops.iter().position(|o| matches!(o, Operand::Pred(_) | Operand::UPred(_))) {
                let mut t = 0;
                for lane in crate::exec::lanes(c.exec) {
                    if c.pred(k, lane)? {
                        t |= 1 << lane;
                    }
                }
                taken = t;
            }
            Flow::Branch { taken, target: target(c)? }
        }
        "EXIT" => Flow::Exit(c.exec),
        "BSSY" => {
            let Some(Operand::BReg(b)) = c.ins.ops.first().copied() else {
                return Err(c.unsupported("BSSY without a barrier register"));
            };
            target(c)?;
            Flow::Bssy(b)
        }
        "BSYNC" => {
            let Some(Operand::BReg(b)) = c.ins.ops.first().copied() else {
                return Err(c.unsupported("BSYNC without a barrier register"));
            };
            Flow::Bsync(b, c.exec)
        }
        "YIELD" => Flow::Yield,
        "BAR" => {
            if !c.has("SYNC") || c.ins.ops.iter().any(|o| matches!(o, Operand::Imm(x) if *x != 0)) {
                return Err(c.unsupported("only BAR.SYNC 0x0 is modelled"));
            }
            Flow::Bar(c.exec)
        }
        // sm_90 `CALL.REL.NOINC target`: the caller has put the return address in a register
        // (`MOV R8, 0x110`), which the callee's `RET.REL.NODEC R8 base` jumps back to.
        "CALL" if c.has("REL") => Flow::Branch { taken: c.exec, target: target(c)? },
        "RET" if c.has("REL") => {
            let base = c.k.addr(target(c)?);
            let mut back = None;
            for lane in crate::exec::lanes(c.exec) {
                let a = base.wrapping_add(c.raw(1, lane)? as u64);
                if back.is_some_and(|b| b != a) {
                    return Err(c.unsupported("lanes returning to different addresses"));
                }
                back = Some(a);
            }
            match back {
                None => Flow::Next,
                Some(a) => Flow::Branch {
                    taken: c.exec,
                    target: c.k.slot_at(a).ok_or_else(|| EmuError::Control {
                        at: c.at(),
                        text: c.text(),
                        why: format!("return address {a:#x} is not an instruction"),
                    })?,
                },
            }
        }
        // sm_50 `CAL target` pushes the return address on the reconvergence stack; `RET` pops it.
        "CAL" => Flow::Call { target: target(c)? },
        "RET" => Flow::Ret,
        "SSY" | "PBK" => {
            let t = target(c)?;
            Flow::Push { brk: m == "PBK", target: t }
        }
        "SYNC" | "BRK" => Flow::Park { brk: m == "BRK", mask: c.exec },
        "WARPSYNC" if c.has("ALL") => Flow::WarpSync(c.exec, u32::MAX),
        // `WARPSYNC Rn`: the mask of the lanes to meet (every waiting lane names the same one).
        "WARPSYNC" => {
            let k = c
                .ins
                .ops
                .iter()
                .position(|o| matches!(o, Operand::Reg(_)))
                .ok_or_else(|| c.unsupported("WARPSYNC without a mask"))?;
            let mut mask = 0;
            for lane in crate::exec::lanes(c.exec) {
                mask |= c.int(k, lane)?;
            }
            Flow::WarpSync(c.exec, mask | c.exec)
        }
        "NOP" | "MEMBAR" | "CCTL" | "ERRBAR" | "CGAERRBAR" | "DEPBAR" | "FENCE" => Flow::Next,
        "CALL" | "BRX" | "JMP" | "JMX" | "KILL" | "BPT" | "CONT" | "PCNT" => {
            return Err(c.unsupported("this control instruction is not modelled"))
        }
        _ => return Ok(None),
    }))
}
