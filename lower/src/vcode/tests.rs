//! Unit tests of the VCode container with a toy instruction set.

use super::*;

#[derive(Clone, Debug)]
enum Toy {
    /// dst = imm
    Const {
        dst: Reg,
        width: u8,
    },
    /// dst = a + b (width 1 or 2)
    Add {
        dst: Reg,
        a: Reg,
        b: Reg,
        width: u8,
    },
    /// in-place write of `dst` (a part of a new tuple) over field 0's tuple
    SetPart {
        old: Reg,
        dst: Reg,
    },
    Jump,
    Branch,
    Exit {
        val: Reg,
        width: u8,
    },
    Copy {
        dst: Reg,
        src: Reg,
        width: u8,
    },
}

impl std::fmt::Display for Toy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self:?}")
    }
}

impl Toy {
    fn konst(dst: Reg, width: u8) -> Toy {
        Toy::Const { dst, width }
    }
    fn add(dst: Reg, a: Reg, b: Reg, width: u8) -> Toy {
        Toy::Add { dst, a, b, width }
    }
    fn set_part(old: Reg, dst: Reg) -> Toy {
        Toy::SetPart { old, dst }
    }
    fn exit(val: Reg, width: u8) -> Toy {
        Toy::Exit { val, width }
    }
}

impl MachInst for Toy {
    fn visit_operands(&mut self, v: &mut dyn OperandVisitor) {
        match self {
            Toy::Const { dst, width } => v.def_reg(dst, *width),
            Toy::Add { dst, a, b, width } => {
                v.use_reg(a, *width);
                v.use_reg(b, *width);
                v.def_reg(dst, *width);
            }
            Toy::SetPart { old, dst } => {
                v.use_reg(old, 2);
                v.reuse_def(dst, 1, 0);
            }
            Toy::Jump | Toy::Branch => {}
            Toy::Exit { val, width } => v.use_reg(val, *width),
            Toy::Copy { dst, src, width } => {
                v.use_reg(src, *width);
                v.def_reg(dst, *width);
            }
        }
    }
    fn is_branch(&self) -> bool {
        matches!(self, Toy::Jump | Toy::Branch)
    }
    fn is_ret(&self) -> bool {
        matches!(self, Toy::Exit { .. })
    }
    fn is_move(&self) -> Option<(Reg, Reg)> {
        match self {
            Toy::Copy { dst, src, .. } => Some((*dst, *src)),
            _ => None,
        }
    }
    fn gen_move(dst: HwReg, src: HwReg, class: RegClass, out: &mut Vec<Self>) {
        out.push(Toy::Copy {
            dst: dst.into(),
            src: src.into(),
            width: class.width(),
        });
    }
    fn gen_spill(_: SpillSlot, _: HwReg, _: RegClass, _: &mut Vec<Self>) {}
    fn gen_reload(_: HwReg, _: SpillSlot, _: RegClass, _: &mut Vec<Self>) {}
}

#[test]
fn classes_and_registers() {
    assert_eq!(RegClass::Pair.width(), 2);
    assert_eq!(RegClass::for_width(3), Some(RegClass::Quad));
    assert_eq!(RegClass::for_width(5), None);
    assert_eq!(HwReg::new(255), None);
    assert_eq!(HwReg::new(7).map(|r| r.number()), Some(7));
    assert_eq!(Reg::Zero.encoding(), Some(255));
    assert_eq!(HwReg::new(254).and_then(|r| r.offset(1)), None);
}

#[test]
fn loop_with_block_params_and_part_fields() {
    let mut b = VCodeBuilder::<Toy>::new();
    let entry = b.new_block();
    let head = b.new_block();
    let exit = b.new_block();
    let init = b.new_vreg(RegClass::Pair);
    b.push(entry, Toy::konst(init.reg(), 2));
    b.push_branch(entry, Toy::Jump, &[(head, &[init])]);
    let p = b.append_block_param(head, RegClass::Pair);
    let next = b.new_vreg(RegClass::Pair);
    b.push(head, Toy::set_part(p.reg(), next.hi()));
    b.push_branch(head, Toy::Branch, &[(head, &[next]), (exit, &[])]);
    b.push(exit, Toy::exit(next.lo(), 1));
    let vc = b.finish().expect("valid vcode");

    assert_eq!(vc.num_blocks(), 3);
    assert_eq!(vc.num_insts(), 5);
    assert_eq!(vc.num_vregs(), 3);
    assert_eq!(vc.block(head).preds.as_slice(), &[entry, head]);
    assert_eq!(vc.block(head).succs.as_slice(), &[head, exit]);
    // SetPart: a use of the whole old pair and a def reusing operand 0.
    let ops = vc.inst_operands(2);
    assert_eq!(ops.len(), 2);
    assert_eq!(ops[0].kind, OperandKind::Use);
    assert_eq!(ops[1].kind, OperandKind::Def);
    assert_eq!(ops[1].reuse, Some(0));
    let f = vc.inst_fields(2);
    assert_eq!(f[1].reg, next.hi());
    assert_eq!(f[1].width, 1);
    // The exit reads half of a pair: one use of the whole pair.
    assert_eq!(vc.inst_operands(4)[0].vreg, next);
    let text = vc.to_string();
    assert!(text.contains("block1(%1p):"), "{text}");
}

#[test]
fn two_fields_of_one_tuple_share_an_operand() {
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let q = b.new_vreg(RegClass::Pair);
    let s = b.new_vreg(RegClass::Single);
    b.push(e, Toy::konst(q.reg(), 2));
    b.push(e, Toy::add(s.reg(), q.lo(), q.hi(), 1));
    b.push(e, Toy::exit(s.reg(), 1));
    let vc = b.finish().expect("valid");
    assert_eq!(vc.inst_fields(1).len(), 3);
    assert_eq!(vc.inst_operands(1).len(), 2);
}

#[test]
fn rz_fields_are_not_operands() {
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let s = b.new_vreg(RegClass::Single);
    b.push(e, Toy::add(s.reg(), Reg::Zero, Reg::Zero, 1));
    b.push(e, Toy::exit(s.reg(), 1));
    let vc = b.finish().expect("valid");
    assert_eq!(vc.inst_fields(0).len(), 3);
    assert_eq!(vc.inst_operands(0).len(), 1);
    assert_eq!(vc.inst_fields(0)[0].operand, None);
}

#[test]
fn builder_errors() {
    // Missing terminator.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let s = b.new_vreg(RegClass::Single);
    b.push(e, Toy::konst(s.reg(), 1));
    assert_eq!(b.finish().unwrap_err(), VCodeError::MissingTerminator(e));

    // A half that does not fit: 2 registers from part 1 of a pair.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let p = b.new_vreg(RegClass::Pair);
    b.push(e, Toy::konst(p.hi(), 2));
    b.push(e, Toy::exit(Reg::Zero, 1));
    assert!(matches!(
        b.finish(),
        Err(VCodeError::BadPart { inst: 0, .. })
    ));

    // Argument count mismatch.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let t = b.new_block();
    b.append_block_param(t, RegClass::Single);
    b.push_branch(e, Toy::Jump, &[(t, &[])]);
    b.push(t, Toy::exit(Reg::Zero, 1));
    assert!(matches!(b.finish(), Err(VCodeError::ArgCount { .. })));

    // Reuse of a field that is not a use.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let n = b.new_vreg(RegClass::Pair);
    b.push(e, Toy::set_part(Reg::Zero, n.hi()));
    b.push(e, Toy::exit(Reg::Zero, 1));
    assert!(matches!(b.finish(), Err(VCodeError::BadReuse { .. })));

    // Read and written by one instruction.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    let s = b.new_vreg(RegClass::Single);
    b.push(e, Toy::add(s.reg(), s.reg(), Reg::Zero, 1));
    b.push(e, Toy::exit(s.reg(), 1));
    assert!(matches!(b.finish(), Err(VCodeError::UseAndDef { .. })));

    // Terminator in the middle.
    let mut b = VCodeBuilder::<Toy>::new();
    let e = b.new_block();
    b.push(e, Toy::exit(Reg::Zero, 1));
    b.push(e, Toy::exit(Reg::Zero, 1));
    assert!(matches!(
        b.finish(),
        Err(VCodeError::TerminatorInMiddle { .. })
    ));
}

#[test]
fn fields_of_reads_without_changing() {
    let i = Toy::Copy {
        dst: Reg::Zero,
        src: Reg::Hw(HwReg::new(3).unwrap()),
        width: 1,
    };
    let f = fields_of(&i);
    assert_eq!(f.len(), 2);
    assert_eq!(f[0].2, OperandRule::Use);
    assert!(f[1].2.is_def());
}
