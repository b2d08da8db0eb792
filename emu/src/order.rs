//! The weak ordering of global memory across SMs (one SM per block), under the random schedule.
//!
//! * **Store buffer per SM.** A global store (weak or strong) waits in its SM's buffer, one entry
//!   per warp instruction, and reaches global memory (L2) later, in an order the seed picks: not
//!   FIFO, except that entries writing the same bytes keep their order (coherence). A fence of
//!   GPU or system scope drains the SM's whole buffer; a CTA-scope fence does nothing, because
//!   the SM sees its own buffer. Loads of the SM read through its buffer.
//! * **L1 per SM, not coherent.** A weak global load reads a 128-byte line of the SM's L1, filled
//!   from L2 when first missed, so a line filled earlier may hold a value another SM has since
//!   changed. The SM's own stores update its lines. A strong load of GPU or system scope, or an
//!   sm_50 `.CV`/`.CG` load, reads L2; an invalidation (`CCTL.IVALL`, `MEMBAR.*.IVALLD`) drops
//!   every line. Lines are also evicted at random, as a real L1 eventually does.
//! * **Atomics at L2.** An atomic first drains its SM's entries for the bytes it touches (its
//!   own earlier stores stay ordered before it) and drops the line it touches.
//!
//! Which instruction is a fence, a strong or uncached load, or an invalidation comes from the
//! form table's facts (`Facts::fence`, `Meaning::{scope, strong, uncached, invalidates}`). Under
//! the round-robin schedule there is no buffer and no L1: memory is sequentially consistent, as
//! before, and deterministic. Shared memory is one SM's and stays coherent.

use crate::rng::Rng;
use atomc_emit::sass::facts::MemScope;
use atomc_emit::sass::Form;

const LINE: usize = 128;
/// Entries a buffer holds before one drains to make room.
const BUFFER: usize = 16;
/// One clock step in this many drains an entry: stores take several instructions to reach L2.
const DRAIN: usize = 8;
/// Lines an L1 holds before one is evicted.
const LINES: usize = 32;

/// What an instruction does to the ordering model, from its form's facts and modifier meanings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OrderInfo {
    /// Drains the SM's store buffer (a fence of GPU or system scope).
    pub drains: bool,
    /// Drops the SM's L1 lines.
    pub invalidates: bool,
    /// A load that reads L2, not L1.
    pub bypasses_l1: bool,
}

impl OrderInfo {
    pub fn of(form: &Form, mods: &[u64]) -> OrderInfo {
        let (mut scope, mut strong, mut uncached, mut invalidates) = (None, false, false, false);
        for m in form.meanings(mods) {
            scope = scope.max(m.scope);
            strong |= m.strong;
            uncached |= m.uncached;
            invalidates |= m.invalidates;
        }
        let wide = scope >= Some(MemScope::Gpu);
        OrderInfo { drains: form.facts.fence && wide, invalidates, bypasses_l1: uncached || (strong && wide) }
    }
}

/// One lane's buffered write: global buffer, offset, size, value.
#[derive(Clone, Copy, Debug)]
pub struct Write {
    pub owner: usize,
    pub offset: usize,
    pub size: u32,
    pub v: u128,
}

impl Write {
    fn overlaps(&self, owner: usize, lo: usize, hi: usize) -> bool {
        self.owner == owner && self.offset < hi && lo < self.offset + self.size as usize
    }
}

/// One warp instruction's writes, with the bytes they span when they are all in one buffer
/// (`None`: several), so most lookups skip the entry at once.
struct Entry {
    writes: Vec<Write>,
    span: Option<(usize, usize, usize)>,
}

impl Entry {
    fn new(writes: Vec<Write>) -> Entry {
        let owner = writes[0].owner;
        let span = writes.iter().all(|w| w.owner == owner).then(|| {
            let lo = writes.iter().map(|w| w.offset).min().unwrap_or(0);
            let hi = writes.iter().map(|w| w.offset + w.size as usize).max().unwrap_or(0);
            (owner, lo, hi)
        });
        Entry { writes, span }
    }

    fn overlaps(&self, owner: usize, lo: usize, hi: usize) -> bool {
        if let Some((o, a, b)) = self.span {
            if o != owner || b <= lo || hi <= a {
                return false;
            }
        }
        self.writes.iter().any(|w| w.overlaps(owner, lo, hi))
    }

    fn overlaps_entry(&self, other: &Entry) -> bool {
        if let (Some((o, a, b)), Some((p, c, d))) = (self.span, other.span) {
            if o != p || b <= c || d <= a {
                return false;
            }
        }
        other.writes.iter().any(|w| self.overlaps(w.owner, w.offset, w.offset + w.size as usize))
    }
}

struct Line {
    owner: usize,
    base: usize,
    bytes: Vec<u8>,
}

impl Line {
    /// Writes the bytes of `w` that fall in the line.
    fn write(&mut self, w: &Write) {
        if w.owner != self.owner {
            return;
        }
        let v = w.v.to_le_bytes();
        for (i, x) in v.iter().enumerate().take(w.size as usize) {
            let a = w.offset + i;
            if a >= self.base && a < self.base + self.bytes.len() {
                self.bytes[a - self.base] = *x;
            }
        }
    }
}

#[derive(Default)]
struct SmState {
    buffer: Vec<Entry>,
    l1: Vec<Line>,
    /// In `Weak::pending`.
    listed: bool,
}

/// The per-SM buffers and caches of a launch under the random schedule.
pub struct Weak {
    rng: Rng,
    sms: Vec<SmState>,
    /// SMs whose buffers may hold entries.
    pending: Vec<usize>,
}

impl Weak {
    /// A model for `blocks` SMs; its choices come from `seed` (apart from the warp schedule's).
    pub fn new(blocks: usize, seed: u64) -> Weak {
        Weak {
            rng: Rng::new(seed ^ 0x5eed_0f0b_deb0_0fff),
            sms: (0..blocks).map(|_| SmState::default()).collect(),
            pending: Vec::new(),
        }
    }

    /// Reads `size` bytes at `offset` of buffer `owner` as SM `sm` sees them.
    pub fn load(&mut self, global: &[Vec<u8>], sm: usize, owner: usize, offset: usize, size: u32, l1: bool) -> u128 {
        let end = offset + size as usize;
        let mut b = [0u8; 16];
        let base = offset & !(LINE - 1);
        let s = &mut self.sms[sm];
        if l1 {
            let k = match s.l1.iter().position(|l| l.owner == owner && l.base == base) {
                Some(k) => k,
                None => {
                    if s.l1.len() >= LINES {
                        let victim = self.rng.below(s.l1.len());
                        s.l1.swap_remove(victim);
                    }
                    // Filled from L2, with the SM's own buffered stores over it (they are in its
                    // view, and stay there after they drain).
                    let g = &global[owner];
                    let mut line = Line { owner, base, bytes: g[base..(base + LINE).min(g.len())].to_vec() };
                    for w in s.buffer.iter().flat_map(|e| &e.writes) {
                        line.write(w);
                    }
                    s.l1.push(line);
                    s.l1.len() - 1
                }
            };
            b[..size as usize].copy_from_slice(&s.l1[k].bytes[offset - base..end - base]);
        } else {
            b[..size as usize].copy_from_slice(&global[owner][offset..end]);
        }
        for e in s.buffer.iter().filter(|e| e.overlaps(owner, offset, end)) {
            for w in e.writes.iter().filter(|w| w.overlaps(owner, offset, end)) {
                let wb = w.v.to_le_bytes();
                for (i, x) in b.iter_mut().enumerate().take(size as usize) {
                    let a = offset + i;
                    if a >= w.offset && a < w.offset + w.size as usize {
                        *x = wb[a - w.offset];
                    }
                }
            }
        }
        u128::from_le_bytes(b)
    }

    /// Buffers one warp instruction's stores; its own lines see them at once.
    pub fn store(&mut self, global: &mut [Vec<u8>], sm: usize, writes: Vec<Write>) {
        if writes.is_empty() {
            return;
        }
        let s = &mut self.sms[sm];
        for w in &writes {
            for l in &mut s.l1 {
                l.write(w);
            }
        }
        s.buffer.push(Entry::new(writes));
        if !s.listed {
            s.listed = true;
            self.pending.push(sm);
        }
        if self.sms[sm].buffer.len() > BUFFER {
            let i = self.rng.below(BUFFER);
            self.drain_at(global, sm, i);
        }
    }

    /// Before an atomic at L2: the SM's earlier stores to its bytes reach L2 first, and its
    /// line is dropped.
    pub fn atomic(&mut self, global: &mut [Vec<u8>], sm: usize, owner: usize, offset: usize, size: u32) {
        let end = offset + size as usize;
        while let Some(i) = self.sms[sm].buffer.iter().rposition(|e| e.overlaps(owner, offset, end)) {
            self.drain_at(global, sm, i);
        }
        let base = offset & !(LINE - 1);
        self.sms[sm].l1.retain(|l| !(l.owner == owner && l.base == base));
    }

    /// A fence of GPU or system scope: every buffered store of the SM reaches L2.
    pub fn drain(&mut self, global: &mut [Vec<u8>], sm: usize) {
        for e in std::mem::take(&mut self.sms[sm].buffer) {
            apply(global, &e);
        }
    }

    /// Drops every L1 line of the SM.
    pub fn invalidate(&mut self, sm: usize) {
        self.sms[sm].l1.clear();
    }

    /// One step of the clock, after SM `sm` issued: maybe one buffered entry (of any SM)
    /// reaches L2, and maybe one of `sm`'s lines is evicted.
    pub fn tick(&mut self, global: &mut [Vec<u8>], sm: usize) {
        if self.rng.below(DRAIN) == 0 {
            self.drain_one(global);
        }
        if self.rng.below(16) == 0 && !self.sms[sm].l1.is_empty() {
            let k = self.rng.below(self.sms[sm].l1.len());
            self.sms[sm].l1.swap_remove(k);
        }
    }

    /// At the end of the launch: every buffer drains, in the seed's order.
    pub fn finish(&mut self, global: &mut [Vec<u8>]) {
        while self.drain_one(global) {}
    }

    /// Drains one entry of a random SM with a non-empty buffer; whether there was one.
    fn drain_one(&mut self, global: &mut [Vec<u8>]) -> bool {
        while !self.pending.is_empty() {
            let k = self.rng.below(self.pending.len());
            let sm = self.pending[k];
            let n = self.sms[sm].buffer.len();
            if n == 0 {
                self.pending.swap_remove(k);
                self.sms[sm].listed = false;
                continue;
            }
            let i = self.rng.below(n);
            self.drain_at(global, sm, i);
            return true;
        }
        false
    }

    /// Entry `i` of SM `sm` reaches L2, after every older entry writing bytes it (transitively)
    /// shares: one address's stores keep their order.
    fn drain_at(&mut self, global: &mut [Vec<u8>], sm: usize, i: usize) {
        let buf = &mut self.sms[sm].buffer;
        let mut take = vec![i];
        for j in (0..i).rev() {
            if take.iter().any(|&t| buf[j].overlaps_entry(&buf[t])) {
                take.push(j);
            }
        }
        take.sort_unstable();
        for &t in &take {
            apply(global, &buf[t]);
        }
        for &t in take.iter().rev() {
            buf.remove(t);
        }
    }
}

fn apply(global: &mut [Vec<u8>], e: &Entry) {
    for w in &e.writes {
        global[w.owner][w.offset..w.offset + w.size as usize].copy_from_slice(&w.v.to_le_bytes()[..w.size as usize]);
    }
}
