//! The targets atomc compiles for, named as ptxas and GenX_IR name them.

use atomc_emit::sass::Sm;
use std::fmt;
use std::str::FromStr;

/// A compilation target.
///
/// Build one from the enum, from an SM number, or from a name:
///
/// ```
/// use atomc::{Target, VisaPlatform};
/// assert_eq!(Target::from_sm(90), Some(Target::Sm90));
/// assert_eq!(Target::try_from(50), Ok(Target::Sm50));
/// assert_eq!("visa:DG2".parse::<Target>(), Ok(Target::Visa(VisaPlatform::Dg2)));
/// assert_eq!("sm_90".parse::<Target>().map(Target::sm), Ok(Some(90)));
/// assert!("sm_80".parse::<Target>().unwrap_err().to_string().contains("sm_50, sm_90"));
/// ```
///
/// There is no conversion from a `target_lexicon::Triple`: `nvptx64-nvidia-cuda` names every
/// NVIDIA GPU (the SM is a separate choice, as ptxas's `-arch` is), and target-lexicon has no
/// Intel GPU architecture. Take the SM or the platform from the user, as ptxas and GenX_IR do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    /// NVIDIA Maxwell.
    Sm50,
    /// NVIDIA Hopper.
    Sm90,
    /// Intel vISA for the given Gen platform.
    Visa(VisaPlatform),
}

/// An Intel platform as GenX_IR's `-platform` names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VisaPlatform {
    /// Tiger Lake (Gen12LP).
    Tgllp,
    /// DG2 (Xe-HPG).
    Dg2,
    /// Ponte Vecchio (Xe-HPC).
    Pvc,
}

impl VisaPlatform {
    /// Every platform.
    pub const ALL: [VisaPlatform; 3] = [VisaPlatform::Tgllp, VisaPlatform::Dg2, VisaPlatform::Pvc];

    /// GenX_IR's spelling.
    pub fn name(self) -> &'static str {
        match self {
            VisaPlatform::Tgllp => "TGLLP",
            VisaPlatform::Dg2 => "DG2",
            VisaPlatform::Pvc => "PVC",
        }
    }

    /// Parses GenX_IR's spelling (case-insensitive).
    pub fn from_name(s: &str) -> Option<VisaPlatform> {
        VisaPlatform::ALL.into_iter().find(|p| p.name().eq_ignore_ascii_case(s))
    }
}

/// A target name or SM number atomc does not know; its message lists the ones it does.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown target `{0}`: atomc compiles for sm_50, sm_90, visa (TGLLP), visa:DG2 and visa:PVC")]
pub struct UnknownTarget(pub String);

impl Target {
    /// Every target, the vISA platforms included.
    pub const ALL: [Target; 5] = [
        Target::Sm50,
        Target::Sm90,
        Target::Visa(VisaPlatform::Tgllp),
        Target::Visa(VisaPlatform::Dg2),
        Target::Visa(VisaPlatform::Pvc),
    ];

    /// Parses `sm_50`, `sm_90`, `visa` (TGLLP) or `visa:DG2`-style names.
    pub fn from_name(s: &str) -> Option<Target> {
        match s {
            "sm_50" => Some(Target::Sm50),
            "sm_90" => Some(Target::Sm90),
            "visa" => Some(Target::Visa(VisaPlatform::Tgllp)),
            _ => s.strip_prefix("visa:").and_then(VisaPlatform::from_name).map(Target::Visa),
        }
    }

    /// The SASS target of an SM number (50 or 90, as in ptxas's `-arch sm_NN`).
    pub fn from_sm(sm: u32) -> Option<Target> {
        match sm {
            50 => Some(Target::Sm50),
            90 => Some(Target::Sm90),
            _ => None,
        }
    }

    /// The SM number of a SASS target; `None` for vISA.
    pub fn sm(self) -> Option<u32> {
        self.sass().map(Sm::number)
    }

    /// The SASS architecture of an NVIDIA target (the type the form tables, register rules,
    /// cubin writer and emulator share); `None` for vISA.
    pub fn sass(self) -> Option<Sm> {
        match self {
            Target::Sm50 => Some(Sm::Sm50),
            Target::Sm90 => Some(Sm::Sm90),
            Target::Visa(_) => None,
        }
    }
}

impl From<Sm> for Target {
    fn from(sm: Sm) -> Target {
        match sm {
            Sm::Sm50 => Target::Sm50,
            Sm::Sm90 => Target::Sm90,
        }
    }
}

impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(s: &str) -> Result<Target, UnknownTarget> {
        Target::from_name(s).ok_or_else(|| UnknownTarget(s.to_string()))
    }
}

impl TryFrom<u32> for Target {
    type Error = UnknownTarget;

    /// An SM number ([`Target::from_sm`]).
    fn try_from(sm: u32) -> Result<Target, UnknownTarget> {
        Target::from_sm(sm).ok_or_else(|| UnknownTarget(format!("sm_{sm}")))
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Sm50 => f.write_str("sm_50"),
            Target::Sm90 => f.write_str("sm_90"),
            Target::Visa(p) => write!(f, "visa:{}", p.name()),
        }
    }
}
