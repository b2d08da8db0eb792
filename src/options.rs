//! Compile options beyond the target and the output kind.

/// Compile options beyond the target and the output kind.
///
/// ```
/// use atomc::{OptLevel, Options, SimdWidth};
/// let opts = Options { max_registers: Some(32), opt_level: OptLevel::None, simd: SimdWidth::from_lanes(16).unwrap() };
/// assert_eq!(opts.simd.lanes(), 16);
/// assert_eq!(Options::default().opt_level, OptLevel::Speed);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Use at most this many general registers per thread (SASS targets), like ptxas's
    /// `--maxrregcount`: values beyond them are spilled to local memory. `None`: the whole
    /// register file (R0..R252 on sm_90, R0..R254 on sm_50). Values below 16 count as 16.
    pub max_registers: Option<u32>,
    /// How hard to optimise.
    pub opt_level: OptLevel,
    /// vISA: lanes per hardware thread (the kernel's SIMD width). SASS targets ignore it.
    pub simd: SimdWidth,
}

/// How hard to optimise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OptLevel {
    /// Every atomic as written: no warp aggregation, so each active lane issues its own
    /// atomic. For comparing with an aggregated build, or for counting atomics per lane.
    None,
    /// Aggregate atomics on addresses uniform across the warp (SASS) or the hardware thread
    /// (vISA) into one per warp, as ptxas and Intel's compiler do (the default).
    #[default]
    Speed,
}

impl OptLevel {
    /// Whether atomics on uniform addresses are aggregated.
    pub fn aggregates(self) -> bool {
        self == OptLevel::Speed
    }
}

/// Lanes per vISA hardware thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SimdWidth {
    /// 1 lane.
    Simd1,
    /// 2 lanes.
    Simd2,
    /// 4 lanes.
    Simd4,
    /// 8 lanes, the width of one `svm_atomic` message (the default).
    #[default]
    Simd8,
    /// 16 lanes, issued as SIMD8 halves as Intel's compiler does.
    Simd16,
    /// 32 lanes, issued as SIMD8 quarters.
    Simd32,
}

impl SimdWidth {
    /// Every width, narrowest first.
    pub const ALL: [SimdWidth; 6] =
        [SimdWidth::Simd1, SimdWidth::Simd2, SimdWidth::Simd4, SimdWidth::Simd8, SimdWidth::Simd16, SimdWidth::Simd32];

    /// The number of lanes.
    pub fn lanes(self) -> u32 {
        1 << SimdWidth::ALL.iter().position(|&w| w == self).unwrap_or(3)
    }

    /// The width of `lanes` lanes (1, 2, 4, 8, 16 or 32).
    pub fn from_lanes(lanes: u32) -> Option<SimdWidth> {
        SimdWidth::ALL.into_iter().find(|w| w.lanes() == lanes)
    }

    pub(crate) fn exec_size(self) -> atomc_emit::visa::ExecSize {
        use atomc_emit::visa::ExecSize;
        match self {
            SimdWidth::Simd1 => ExecSize::S1,
            SimdWidth::Simd2 => ExecSize::S2,
            SimdWidth::Simd4 => ExecSize::S4,
            SimdWidth::Simd8 => ExecSize::S8,
            SimdWidth::Simd16 => ExecSize::S16,
            SimdWidth::Simd32 => ExecSize::S32,
        }
    }
}

impl Options {
    /// The vISA lowering's options.
    pub fn visa(&self) -> atomc_lower::visa::Options {
        atomc_lower::visa::Options { simd: self.simd.exec_size(), aggregate: self.opt_level.aggregates() }
    }
}
