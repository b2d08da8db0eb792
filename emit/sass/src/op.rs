//! Typed opcodes: a mnemonic and its modifier tokens as ids of the form tables' vocabulary,
//! which the build script collects from both tables' modifier groups. A selector names them
//! with [`op!`](crate::op!) (`op!(ATOMG.E.ADD.STRONG.GPU)`), so a misspelled token is a compile
//! error, and resolution matches token ids against a form's groups without reading text. The
//! nvdisasm spelling is what [`Opcode`] prints, and what the assembler reads back into tokens.

pub use crate::form::{Mnemonic, Tok};
use std::fmt;

include!(concat!(env!("OUT_DIR"), "/vocab.rs"));

/// Builds an [`Opcode`] from its nvdisasm spelling, checked and built when compiled:
/// `op!(LDG.E.64)`. A token that starts with a digit is written as is (`.64`, `.1D`).
///
/// ```
/// use atomc_sass::op;
/// assert_eq!(op!(ATOMG.E.CAS.64.STRONG.GPU).to_string(), "ATOMG.E.CAS.64.STRONG.GPU");
/// ```
///
/// A token no form table spells does not compile:
///
/// ```compile_fail
/// let _ = atomc_sass::op!(ATOMG.E.FROB);
/// ```
#[macro_export]
macro_rules! op {
    ($m:ident $(. $t:tt)*) => {
        const { $crate::op::Opcode::of($crate::op::m::$m, &[$($crate::__tok!($t)),*]) }
    };
}

/// One token of [`op!`](crate::op!) as a [`Tok`]: an identifier names itself, a number its `_`
/// constant (the build script checks this list against the tables).
#[doc(hidden)]
#[macro_export]
macro_rules! __tok {
    (128) => { $crate::op::t::_128 };
    (1D) => { $crate::op::t::_1D };
    (1D_ARRAY) => { $crate::op::t::_1D_ARRAY };
    (1D_BUFFER) => { $crate::op::t::_1D_BUFFER };
    (2D) => { $crate::op::t::_2D };
    (2D_ARRAY) => { $crate::op::t::_2D_ARRAY };
    (32) => { $crate::op::t::_32 };
    (3D) => { $crate::op::t::_3D };
    (64) => { $crate::op::t::_64 };
    ($t:ident) => { $crate::op::t::$t };
}

/// The tokens of a spelling written as `op!`'s modifiers: `toks!(STRONG.GPU)` is
/// `[t::STRONG, t::GPU]`, for the helpers that supply part of an opcode.
#[macro_export]
macro_rules! toks {
    ($($t:tt).*) => {
        [$($crate::__tok!($t)),*]
    };
}

/// The most modifier tokens an [`Opcode`] holds (the longest selected spelling, a surface
/// atomic's `SUATOM.D.BA.2D_ARRAY.ADD.F16x2.RN.STRONG.GPU.IGN`, has nine).
pub const MAX_TOKENS: usize = 14;
// With the mnemonic and the length, an opcode is one 128-bit word (`Opcode::key`).
const _: () = assert!(MAX_TOKENS + 2 == 16 && std::mem::size_of::<Opcode>() == 16);

impl Tok {
    /// Not in the vocabulary: what the assembler reads an unknown token as. No group spells it.
    pub const UNKNOWN: Tok = Tok(u8::MAX);

    /// The token's spelling (`?` for [`Tok::UNKNOWN`]).
    pub fn name(self) -> &'static str {
        TOKEN_NAMES.get(self.0 as usize).copied().unwrap_or("?")
    }

    /// The token spelled `s`, or [`Tok::UNKNOWN`].
    pub fn named(s: &str) -> Tok {
        TOKEN_NAMES.binary_search(&s).map_or(Tok::UNKNOWN, |i| Tok(i as u8))
    }
}

impl Mnemonic {
    /// The mnemonic's spelling.
    pub fn name(self) -> &'static str {
        MNEMONIC_NAMES[self.0 as usize]
    }

    /// The mnemonic spelled `s`, if either table has it.
    pub fn named(s: &str) -> Option<Mnemonic> {
        MNEMONIC_NAMES.binary_search(&s).ok().map(|i| Mnemonic(i as u8))
    }
}

/// A mnemonic with its modifier tokens in printing order: an instruction's opcode without its
/// operands. Sixteen bytes, copied and compared as a whole (no interning, no text).
#[derive(Clone, Copy)]
pub struct Opcode {
    mnemonic: Mnemonic,
    mods: Toks,
}

impl Opcode {
    /// `mnemonic` with `toks` (see [`op!`](crate::op!)).
    pub const fn of(mnemonic: Mnemonic, toks: &[Tok]) -> Opcode {
        Opcode { mnemonic, mods: Toks::of(toks) }
    }

    /// The mnemonic.
    pub fn mnemonic(&self) -> Mnemonic {
        self.mnemonic
    }

    /// The modifier tokens, in printing order.
    pub fn toks(&self) -> &[Tok] {
        self.mods.toks()
    }

    /// Whether a modifier token is `t`.
    pub fn has(&self, t: Tok) -> bool {
        self.mods.has(t)
    }

    /// Whether this opcode is `prefix` or `prefix` with more tokens (`BAR.SYNC.DEFER_BLOCKING`
    /// starts with `BAR.SYNC`).
    pub fn starts_with(&self, prefix: Opcode) -> bool {
        self.mnemonic == prefix.mnemonic && self.toks().starts_with(prefix.toks())
    }

    /// This opcode followed by the tokens `more` (a token, an optional one, or a list).
    #[must_use]
    pub fn with(self, more: impl Mods) -> Opcode {
        Opcode { mods: self.mods.with(more), ..self }
    }

    /// This opcode without the tokens `keep` refuses.
    #[must_use]
    pub fn retain(self, keep: impl Fn(Tok) -> bool) -> Opcode {
        let mut mods = Toks::default();
        for &t in self.toks().iter().filter(|t| keep(**t)) {
            mods = mods.with(t);
        }
        Opcode { mods, ..self }
    }

    /// The opcode of a dotted spelling (`ATOMG.E.ADD.STRONG.GPU`), if its mnemonic and every
    /// token are in the vocabulary and it has at most [`MAX_TOKENS`] tokens.
    pub fn parse(s: &str) -> Option<Opcode> {
        let mut parts = s.split('.');
        let mut op = Opcode::of(Mnemonic::named(parts.next()?)?, &[]);
        for p in parts {
            let t = Tok::named(p);
            if t == Tok::UNKNOWN || op.toks().len() == MAX_TOKENS {
                return None;
            }
            op = op.with(t);
        }
        Some(op)
    }

    /// The sixteen bytes as one word, for comparing and hashing (selection compares an
    /// instruction's opcode with its resolution's on every query). Every constructor leaves
    /// the slots past the length at `Tok(0)`, so equal spellings give equal words.
    fn key(&self) -> u128 {
        let mut b = [0u8; 16];
        b[0] = self.mnemonic.0;
        b[1] = self.mods.len;
        for (d, t) in b[2..].iter_mut().zip(&self.mods.toks) {
            *d = t.0;
        }
        u128::from_le_bytes(b)
    }
}

impl PartialEq for Opcode {
    fn eq(&self, other: &Opcode) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Opcode {}

impl std::hash::Hash for Opcode {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u128(self.key());
    }
}

impl fmt::Display for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.mnemonic.name())?;
        for t in self.toks() {
            f.write_str(".")?;
            f.write_str(t.name())?;
        }
        Ok(())
    }
}

/// Quoted, as the spelling it replaced was shown (`"ATOMG.E.ADD"`).
impl fmt::Debug for Opcode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{self}\"")
    }
}

impl From<Mnemonic> for Opcode {
    fn from(m: Mnemonic) -> Opcode {
        Opcode::of(m, &[])
    }
}

/// A few modifier tokens that make part of an opcode (`MIN.S32` of `ATOM.E.MIN.S32`), for the
/// helpers that spell a dynamic part: [`Opcode::with`] appends them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Toks {
    len: u8,
    toks: [Tok; MAX_TOKENS],
}

impl Default for Toks {
    fn default() -> Toks {
        Toks { len: 0, toks: [Tok(0); MAX_TOKENS] }
    }
}

impl Toks {
    /// The tokens `toks`.
    pub const fn of(toks: &[Tok]) -> Toks {
        assert!(toks.len() <= MAX_TOKENS, "more modifier tokens than an Opcode holds");
        let mut out = Toks { len: toks.len() as u8, toks: [Tok(0); MAX_TOKENS] };
        let mut i = 0;
        while i < toks.len() {
            out.toks[i] = toks[i];
            i += 1;
        }
        out
    }

    /// These tokens followed by `more`.
    #[must_use]
    pub fn with(mut self, more: impl Mods) -> Toks {
        for &t in more.toks() {
            assert!((self.len as usize) < MAX_TOKENS, "more modifier tokens than an Opcode holds");
            self.toks[self.len as usize] = t;
            self.len += 1;
        }
        self
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The tokens, in printing order.
    pub fn toks(&self) -> &[Tok] {
        &self.toks[..self.len as usize]
    }

    /// Whether a token is `t`.
    pub fn has(&self, t: Tok) -> bool {
        self.toks().contains(&t)
    }

    /// Each token through `f`.
    #[must_use]
    pub fn map(mut self, f: impl Fn(Tok) -> Tok) -> Toks {
        for t in &mut self.toks[..self.len as usize] {
            *t = f(*t);
        }
        self
    }
}

impl Mods for Toks {
    fn toks(&self) -> &[Tok] {
        Toks::toks(self)
    }
}

impl fmt::Display for Toks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, t) in self.toks().iter().enumerate() {
            if i > 0 {
                f.write_str(".")?;
            }
            f.write_str(t.name())?;
        }
        Ok(())
    }
}

/// Modifier tokens that [`Opcode::with`] appends: a token, an optional token, or a list.
pub trait Mods {
    /// The tokens, in printing order.
    fn toks(&self) -> &[Tok];
}

impl Mods for Tok {
    fn toks(&self) -> &[Tok] {
        std::slice::from_ref(self)
    }
}

impl Mods for Option<Tok> {
    fn toks(&self) -> &[Tok] {
        self.as_slice()
    }
}

impl Mods for &[Tok] {
    fn toks(&self) -> &[Tok] {
        self
    }
}

impl<const N: usize> Mods for [Tok; N] {
    fn toks(&self) -> &[Tok] {
        self
    }
}

impl<const N: usize> Mods for &[Tok; N] {
    fn toks(&self) -> &[Tok] {
        *self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_opcode_prints_and_parses_as_nvdisasm_spells_it() {
        let atom = op!(ATOMG.E.CAS.64.STRONG.GPU);
        assert_eq!(atom.to_string(), "ATOMG.E.CAS.64.STRONG.GPU");
        assert_eq!(Opcode::parse("ATOMG.E.CAS.64.STRONG.GPU"), Some(atom));
        assert_eq!(op!(LDG.E).with(Some(t::_64)).with(toks!(STRONG.GPU)), op!(LDG.E.64.STRONG.GPU));
        assert_eq!(Opcode::parse("ATOMG.E.FROB"), None);
        assert_eq!(std::mem::size_of::<Opcode>(), 16);
    }

    /// The spellings that come from code rather than a table group are tokens too: IMAD's
    /// printed aliases (`alias.rs`) and the sm_50 hook's input spellings.
    #[test]
    fn alias_and_hook_spellings_are_tokens() {
        for s in ["MOV", "IADD", "SHL", "CC", "AH1", "BH1"] {
            assert_ne!(Tok::named(s), Tok::UNKNOWN, "{s}");
        }
        assert_eq!(Opcode::parse("IMAD.MOV.U32"), Some(op!(IMAD.MOV.U32)));
    }
}
