//! sm_90 atomics: `atomic_cas`, with the compare and swap values in separate fields (sm_50 packs
//! them into one register group, `sm50/memory.rs`). The other atomics are the shared selector's
//! (`memory.rs`), spelled by [`Isa::rmw`](crate::sass::isel::Isa::rmw).

use crate::sass::inst::{MOp, SassInst};
use crate::sass::isel::{Isel, IselError};
use crate::vcode::{RegClass, RegForm};
use atomc_ir::{AddrSpace, InstData};
use atomc_sass::op;
use atomc_sass::op::t;

impl Isel<'_> {
    /// `atomic_cas` with the compare and swap values in separate fields (sm_70+: `ATOMG.E.CAS
    /// PT, Rd, [a], Rb, Rc`, `ATOMS.CAS Rd, [a], Rb, Rc`); sm_50 packs them (`sm50/memory.rs`).
    pub(super) fn cas(&mut self, data: &InstData) -> Result<(), IselError> {
        let InstData::AtomicCas { ty, scope, addr, expected, replacement, .. } = data else {
            unreachable!("called for atomic_cas only")
        };
        let tg = self.target;
        let used = self.result_used();
        let (m, space) = self.mem(addr);
        let (e, r) = (self.data(*expected), self.data(*replacement));
        let wide = ty.bits() == 64;
        let size = wide.then_some(t::_64);
        let strong = tg.strong(*scope);
        let (d, _) = self.def_or_rz(used);
        let inst = match space {
            AddrSpace::Global | AddrSpace::Generic => {
                let mnemonic = if space == AddrSpace::Global { op!(ATOMG) } else { op!(ATOM) };
                SassInst::new(mnemonic.with([t::E, t::CAS]).with(size).with(strong), [MOp::pt(), d, m, e, r])
            }
            AddrSpace::Shared => {
                let m = self.without_ubase(m);
                SassInst::new(op!(ATOMS.CAS).with(size), [d, m, e, r])
            }
        };
        self.emit(inst.with_form(RegForm::AtomCas { wide }));
        Ok(())
    }

    /// `m` without a uniform base, for forms that have no `[Rx+URy]` variant (`ATOMS.CAS`):
    /// the base is added into a fresh register first.
    fn without_ubase(&mut self, m: MOp) -> MOp {
        let MOp::Mem { base, width, offset, ubase: Some(u) } = m else { return m };
        let sum = self.b.new_vreg(RegClass::Single);
        self.emit(self.isa.add(MOp::def(sum.reg(), 1), MOp::use_(base), MOp::UReg(u)));
        MOp::Mem { base: sum.reg(), width, offset, ubase: None }
    }
}
