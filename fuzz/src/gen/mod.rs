//! The kernel generator: one seed gives one [`Program`], a kernel in IR text plus the launch
//! that runs it (a run line without checks). The shape:
//!
//! * parameters: three global buffers of contended counters (`g32`, `g64`, `gf`), two of
//!   per-thread private slots (`p32`, `p64`), a ticket buffer (`tk`), and scalars `k: i32`,
//!   `q: i64`;
//! * phase 0: thread 0 of each block initialises the shared counters, every thread its own
//!   elements of the shared per-thread arrays, then a barrier (shared memory starts undefined on
//!   a GPU, so the kernel never relies on it being zero);
//! * phases 1..: random statements (see `stmt.rs`) separated by top-level barriers;
//! * last, every thread stores some of its values into its private slots, so the arithmetic is
//!   observable.
//!
//! The interleaving-independence rule lives in `slots.rs` and the crate docs.

pub mod edge;
mod sites;
mod slots;
mod stmt;
mod text;

use crate::rng::Rng;
use slots::{Array, Olds, Phases, Slot, Space};
pub use text::{Text, Ty, Val};

/// How a buffer's final contents are compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Compare {
    /// Byte for byte.
    Exact,
    /// Each listed element range as a multiset (`sorted`), the rest not at all.
    Multisets(Vec<(usize, usize)>),
}

/// A declared global buffer.
#[derive(Clone, Debug)]
pub struct Buffer {
    pub name: &'static str,
    /// The run line's element type (`i32`, `i64`, `f32`).
    pub elem: &'static str,
    pub len: usize,
    pub compare: Compare,
}

/// A generated kernel and its launch.
#[derive(Clone, Debug)]
pub struct Program {
    pub seed: u64,
    /// The kernel (`function %fuzz...`), parseable IR text.
    pub text: String,
    /// The run line's launch part: sizes, arguments, declarations with initial values.
    pub launch: String,
    pub buffers: Vec<Buffer>,
}

/// Private slots per thread in `p32` and in `p64`.
const PRIVATE_SLOTS: u32 = 4;
/// The most ticket sites (ranges of `tk`).
const MAX_TICKETS: u32 = 4;

/// Constructs some target refuses (atomc's documented `Unsupported` cases). Each is enabled in
/// a minority of programs, so most programs compile for every target and reach the later
/// stages, while the refusals stay exercised.
#[derive(Clone, Copy, Debug)]
pub struct Features {
    /// `udiv`/`sdiv`/`urem`/`srem`.
    pub division: bool,
    /// `fdiv`.
    pub fdiv: bool,
    /// 64-bit `smin`/`smax`/`umin`/`umax` arithmetic and 64-bit variable shifts.
    pub wide_alu: bool,
    /// Integer/float conversions (`fcvt_*`); without them floats come from constants.
    pub fcvt: bool,
    /// `ptr_to_generic` and atomics through generic pointers.
    pub generic: bool,
    /// `sys` scope on atomics.
    pub sys_scope: bool,
    /// Shared memory at all (vISA addresses none of it).
    pub shared: bool,
}

impl Features {
    fn random(rng: &mut Rng) -> Features {
        Features {
            division: rng.chance(10),
            fdiv: rng.chance(10),
            wide_alu: rng.chance(10),
            fcvt: rng.chance(15),
            generic: rng.chance(10),
            sys_scope: rng.chance(15),
            shared: rng.chance(75),
        }
    }
}

/// Per-context facts the statements need.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    /// Every thread of the block runs this code together (a barrier is allowed).
    uniform: bool,
    /// Inside a loop: a statement may run more than once per thread.
    in_loop: bool,
    depth: u32,
}

/// The generator's state while one kernel is written.
struct Gen<'a> {
    rng: &'a mut Rng,
    features: Features,
    t: Text,
    slots: Vec<Slot>,
    arrays: Vec<Array>,
    /// Values a statement may use: deterministic per thread (see the crate docs). Scoped by
    /// truncation when a branch or loop body ends.
    pool: Vec<Val>,
    phase: u32,
    tickets: u32,
    /// Statements left to write.
    budget: u32,
    block_threads: u32,
    total_threads: u32,
    grid: u32,
    /// Entry-block values every statement may use.
    tid: Val,
    gtid: Val,
    params: Vec<Val>,
    pbase: [Val; 2],
    tkbase: Val,
    sbase: Val,
    own: Vec<Val>,
}

/// Generates the program for `seed`.
pub fn generate(seed: u64) -> Program {
    if seed % edge::EDGE_EVERY == edge::EDGE_EVERY - 1 {
        return edge::generate(seed);
    }
    let mut rng = Rng::new(seed);
    let features = Features::random(&mut rng);
    let grid = *rng.pick(&[1u32, 1, 2, 3]);
    let block: [u32; 2] = match rng.below(10) {
        0 => [1, 1],
        1 => [8, 4],
        2 => [16, 2],
        _ => [*rng.pick(&[7u32, 32, 33, 64, 96]), 1],
    };
    let block_threads = block[0] * block[1];
    let total_threads = grid * block_threads;

    let mut slots = Vec::new();
    let mut sizes = [0u32; 3];
    for (i, ty) in [Ty::I32, Ty::I64, Ty::F32].into_iter().enumerate() {
        let n = if ty == Ty::F32 {
            rng.range(1, 2)
        } else {
            rng.range(2, 5)
        } as u32;
        for _ in 0..n {
            let class = slots::random_class(&mut rng, ty, false);
            let init = slots::random_init(&mut rng, ty);
            let offset = sizes[i] * ty.bytes();
            sizes[i] += 1;
            slots.push(Slot {
                space: Space::Global,
                ty,
                offset,
                class,
                init,
                phases: Phases::default(),
                olds: Olds::Undecided,
            });
        }
    }
    let shared_count = if features.shared {
        rng.range(1, 5) as u32
    } else {
        0
    };
    for i in 0..shared_count {
        let ty = *rng.pick(&[Ty::I32, Ty::I32, Ty::I64, Ty::F32]);
        let class = slots::random_class(&mut rng, ty, ty == Ty::I64 && !features.wide_alu);
        let init = slots::random_init(&mut rng, ty);
        slots.push(Slot {
            space: Space::Shared,
            ty,
            offset: 8 * i,
            class,
            init,
            phases: Phases::default(),
            olds: Olds::Undecided,
        });
    }
    let a32 = 8 * shared_count;
    let a64 = a32 + (4 * block_threads).div_ceil(8) * 8;
    let shared_bytes = if features.shared {
        a64 + 8 * block_threads
    } else {
        0
    };
    let arrays = vec![
        Array {
            ty: Ty::I32,
            offset: a32,
            phases: Phases::default(),
        },
        Array {
            ty: Ty::I64,
            offset: a64,
            phases: Phases::default(),
        },
    ];

    let params = [
        Ty::PtrGlobal,
        Ty::PtrGlobal,
        Ty::PtrGlobal,
        Ty::PtrGlobal,
        Ty::PtrGlobal,
        Ty::PtrGlobal,
        Ty::I32,
        Ty::I64,
    ];
    let (mut t, mut pvals) = Text::new(&format!("fuzz{seed}"), &params);
    for v in &mut pvals {
        v.uniform = true;
    }
    let k = slots::small_const(&mut rng);
    let q = slots::random_init(&mut rng, Ty::I64);

    // Entry: thread ids and the per-thread base pointers.
    let tx = t.def(Ty::I32, false, "thread_id.x");
    let bdx = t.def(Ty::I32, true, "block_dim.x");
    let tid = if block[1] > 1 {
        let ty_ = t.def(Ty::I32, false, "thread_id.y");
        let row = t.def(Ty::I32, false, format_args!("imul {ty_}, {bdx}"));
        t.def(Ty::I32, false, format_args!("iadd {row}, {tx}"))
    } else {
        tx
    };
    let bid = t.def(Ty::I32, true, "block_id.x");
    let bthreads = t.iconst(Ty::I32, block_threads as i64);
    let first = t.def(Ty::I32, true, format_args!("imul {bid}, {bthreads}"));
    let gtid = t.def(Ty::I32, false, format_args!("iadd {first}, {tid}"));
    let g64 = t.def(Ty::I64, false, format_args!("uextend.i64 {gtid}"));
    let base = |t: &mut Text, buf: Val, stride: i64| {
        let s = t.iconst(Ty::I64, stride);
        let off = t.def(Ty::I64, false, format_args!("imul {g64}, {s}"));
        t.def(Ty::PtrGlobal, false, format_args!("ptr_add {buf}, {off}"))
    };
    let pbase = [
        base(&mut t, pvals[3], 4 * PRIVATE_SLOTS as i64),
        base(&mut t, pvals[4], 8 * PRIVATE_SLOTS as i64),
    ];
    let tkbase = base(&mut t, pvals[5], 8);
    // Without shared memory nothing is addressed through these; `tid` stands in.
    let (mut sbase, mut own) = (tid, vec![tid, tid]);
    if features.shared {
        let zero = t.iconst(Ty::I32, 0);
        sbase = t.def(
            Ty::PtrShared,
            true,
            format_args!("bitcast.ptr.shared {zero}"),
        );
        own.clear();
    }
    for size in [4, 8].into_iter().filter(|_| features.shared) {
        // The thread's own element, less the array's offset (a constant address offset).
        let s = t.iconst(Ty::I32, size);
        let off = t.def(Ty::I32, false, format_args!("imul {tid}, {s}"));
        own.push(t.def(Ty::PtrShared, false, format_args!("ptr_add {sbase}, {off}")));
    }

    let pool = vec![
        tid,
        gtid,
        bid,
        pvals[6],
        pvals[7],
        t.def(Ty::I32, false, "lane_id"),
    ];
    let budget = rng.range(8, 40) as u32;
    let mut g = Gen {
        rng: &mut rng,
        features,
        t,
        slots,
        arrays,
        pool,
        phase: 0,
        tickets: 0,
        budget,
        block_threads,
        total_threads,
        grid,
        tid,
        gtid,
        params: pvals,
        pbase,
        tkbase,
        sbase,
        own,
    };
    if features.shared {
        g.init_shared();
    }
    let phases = g.rng.range(1, 4) as u32;
    let top = Ctx {
        uniform: true,
        in_loop: false,
        depth: 0,
    };
    for p in 1..=phases {
        g.phase = p;
        let n = g.budget / (phases + 1 - p);
        g.stmts(top, n.max(1));
        if p < phases {
            g.t.stmt("barrier");
        }
    }
    g.epilogue();
    let tickets = g.tickets;
    let slots = std::mem::take(&mut g.slots);
    let text = g.t.finish();

    let b = |name, elem, len: u32, compare| Buffer {
        name,
        elem,
        len: len.max(1) as usize,
        compare,
    };
    let tk_ranges = (0..tickets as usize)
        .map(|i| (i * total_threads as usize, (i + 1) * total_threads as usize))
        .collect();
    let buffers = vec![
        b("g32", "i32", sizes[0], Compare::Exact),
        b("g64", "i64", sizes[1], Compare::Exact),
        b("gf", "f32", sizes[2], Compare::Exact),
        b("p32", "i32", total_threads * PRIVATE_SLOTS, Compare::Exact),
        b("p64", "i64", total_threads * PRIVATE_SLOTS, Compare::Exact),
        b(
            "tk",
            "i64",
            total_threads * tickets,
            Compare::Multisets(tk_ranges),
        ),
    ];
    let mut launch = format!("grid {grid} block {}", block[0]);
    if block[1] > 1 {
        launch += &format!("x{}", block[1]);
    }
    launch += &format!(" shared {shared_bytes} args(g32, g64, gf, p32, p64, tk, {k}, {q})");
    let fill = rng.range(-3, 3);
    for (buf, ty) in buffers
        .iter()
        .zip([Ty::I32, Ty::I64, Ty::F32, Ty::I32, Ty::I64, Ty::I64])
    {
        let init = match buf.name {
            "p32" | "p64" => format!(" = {fill}"),
            "tk" => String::new(),
            _ => {
                let mut globals: Vec<&Slot> = slots
                    .iter()
                    .filter(|s| s.space == Space::Global && s.ty == ty)
                    .collect();
                globals.sort_by_key(|s| s.offset);
                let vals: Vec<String> = globals.iter().map(|s| literal(ty, s.init)).collect();
                format!(" = [{}]", vals.join(", "))
            }
        };
        launch += &format!(" {}: {}[{}]{init}", buf.name, buf.elem, buf.len);
    }
    Program {
        seed,
        text,
        launch,
        buffers,
    }
}

/// A constant as IR text and run-line literal: integers in decimal, `f32` as a small float.
fn literal(ty: Ty, n: i64) -> String {
    if ty == Ty::F32 {
        format!("{n}.0")
    } else {
        n.to_string()
    }
}
