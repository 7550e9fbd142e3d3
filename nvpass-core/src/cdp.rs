//! CUDA Dynamic Parallelism entry points and runtime stub tables.
//!
//! Spec 002 "CDP Variant Selection": the stub names live in two lookup
//! tables, one for launch stubs and one for parameter-buffer stubs, indexed
//! by the CDP variant, "so a future CDP-3 variant slots in by adding the new
//! entries to those arrays without touching the rewriter logic". This module
//! is that data; the rewriting is the `cdp` pass's.

/// A CDP runtime ABI variant.
///
/// Spec 002 "CDP Variant Selection": CDP-1 is the single-grid form, CDP-2 the
/// two-grid form. The variant comes from the call site's flag.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub enum CdpVariant {
    /// CDP-1 (single grid). The default when a call site has no readable
    /// variant flag (spec 002 "Failure Modes": "Variant flag missing ...
    /// rewritten to CDP-1 by default").
    #[default]
    Cdp1,
    /// CDP-2 (two grids).
    Cdp2,
}

impl CdpVariant {
    /// Every variant, in table order.
    pub const ALL: [CdpVariant; 2] = [CdpVariant::Cdp1, CdpVariant::Cdp2];

    /// The variant for a call-site flag value (1 or 2); `None` otherwise.
    pub const fn from_flag(flag: u64) -> Option<CdpVariant> {
        match flag {
            1 => Some(CdpVariant::Cdp1),
            2 => Some(CdpVariant::Cdp2),
            _ => None,
        }
    }

    /// The flag value (1 or 2).
    pub const fn flag(self) -> u64 {
        self.index() as u64 + 1
    }

    /// Index into [`LAUNCH_STUBS`] and [`PARAM_BUFFER_STUBS`].
    pub const fn index(self) -> usize {
        match self {
            CdpVariant::Cdp1 => 0,
            CdpVariant::Cdp2 => 1,
        }
    }
}

/// Launch stubs, indexed by [`CdpVariant::index`].
///
/// Spec 002 "CDP Variant Selection" table: `__cudaCDP1LaunchDeviceV2`
/// (CDP-1), `__cudaCDP2LaunchDeviceV2` (CDP-2).
pub const LAUNCH_STUBS: [&str; 2] = ["__cudaCDP1LaunchDeviceV2", "__cudaCDP2LaunchDeviceV2"];

/// Parameter-buffer allocation stubs, indexed by [`CdpVariant::index`].
///
/// Spec 002 "CDP Variant Selection" table: `__cudaCDP1GetParameterBufferV2`
/// (CDP-1), `__cudaCDP2GetParameterBufferV2` (CDP-2).
pub const PARAM_BUFFER_STUBS: [&str; 2] = [
    "__cudaCDP1GetParameterBufferV2",
    "__cudaCDP2GetParameterBufferV2",
];

/// Which kind of high-level CDP call a function name is.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum CdpEntryKind {
    /// `cudaLaunchDevice` / `cudaLaunchDeviceV2`.
    Launch,
    /// `cudaGetParameterBuffer` / `cudaGetParameterBufferV2`.
    ParameterBuffer,
}

impl CdpEntryKind {
    /// The stub this kind of call is rewritten to for `variant`.
    pub const fn stub(self, variant: CdpVariant) -> &'static str {
        match self {
            CdpEntryKind::Launch => LAUNCH_STUBS[variant.index()],
            CdpEntryKind::ParameterBuffer => PARAM_BUFFER_STUBS[variant.index()],
        }
    }
}

/// A recognized high-level CDP entry point.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct CdpEntry {
    /// Launch or parameter buffer.
    pub kind: CdpEntryKind,
    /// The `...V2` form of the runtime API.
    pub is_v2: bool,
}

/// `cudaLaunchDevice`.
///
/// Spec 002 "CDP Launch Expansion", "Matching Predicate": one of the four
/// high-level entry points.
pub const CUDA_LAUNCH_DEVICE: &str = "cudaLaunchDevice";
/// `cudaLaunchDeviceV2` (spec 002 "Matching Predicate").
pub const CUDA_LAUNCH_DEVICE_V2: &str = "cudaLaunchDeviceV2";
/// `cudaGetParameterBuffer` (spec 002 "Matching Predicate").
pub const CUDA_GET_PARAMETER_BUFFER: &str = "cudaGetParameterBuffer";
/// `cudaGetParameterBufferV2` (spec 002 "Matching Predicate").
pub const CUDA_GET_PARAMETER_BUFFER_V2: &str = "cudaGetParameterBufferV2";

/// `cudaLaunchDevice` as clang mangles it when CUDA headers declare it
/// without `extern "C"` (`cudaError_t cudaLaunchDevice(void *, void *, dim3,
/// dim3, unsigned, cudaStream_t)`), as emitted for device-side `<<<>>>`
/// launches (clang `test/CodeGenCUDA/device-kernel-call.cu`).
pub const CUDA_LAUNCH_DEVICE_MANGLED: &str = "_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream";

/// `cudaGetParameterBuffer(size_t, size_t)` as clang mangles it (clang
/// `test/CodeGenCUDA/device-kernel-call.cu`).
pub const CUDA_GET_PARAMETER_BUFFER_MANGLED: &str = "_Z22cudaGetParameterBuffermm";

/// Every recognized entry name with its classification.
pub const CDP_ENTRY_POINTS: [(&str, CdpEntry); 6] = [
    (
        CUDA_LAUNCH_DEVICE,
        CdpEntry {
            kind: CdpEntryKind::Launch,
            is_v2: false,
        },
    ),
    (
        CUDA_LAUNCH_DEVICE_MANGLED,
        CdpEntry {
            kind: CdpEntryKind::Launch,
            is_v2: false,
        },
    ),
    (
        CUDA_LAUNCH_DEVICE_V2,
        CdpEntry {
            kind: CdpEntryKind::Launch,
            is_v2: true,
        },
    ),
    (
        CUDA_GET_PARAMETER_BUFFER,
        CdpEntry {
            kind: CdpEntryKind::ParameterBuffer,
            is_v2: false,
        },
    ),
    (
        CUDA_GET_PARAMETER_BUFFER_MANGLED,
        CdpEntry {
            kind: CdpEntryKind::ParameterBuffer,
            is_v2: false,
        },
    ),
    (
        CUDA_GET_PARAMETER_BUFFER_V2,
        CdpEntry {
            kind: CdpEntryKind::ParameterBuffer,
            is_v2: true,
        },
    ),
];

/// Classifies a callee name: spec 002's `classify_cdp_entry`. `None` for
/// anything that is not a high-level CDP entry point (including the stubs
/// themselves, so rewriting is idempotent).
pub fn classify_cdp_entry(name: &str) -> Option<CdpEntry> {
    CDP_ENTRY_POINTS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, e)| e)
}

/// Call-site string attribute carrying the CDP variant flag:
/// `call i32 @cudaLaunchDevice(...) #1` with
/// `attributes #1 = { "nvvm.cdp.variant"="2" }`.
///
/// Spec 002 "Matching Predicate": "the call site carries a CDP-variant flag
/// (1 or 2)"; the spec does not say how the flag is spelled in IR, so nvpass
/// uses this string attribute (it survives printing and `opt`/`llc`, and
/// LLVM ignores string attributes it does not know). The value is the flag
/// in decimal ([`CdpVariant::flag`]). A missing or unreadable value means
/// CDP-1 ([`CdpVariant::default`]).
pub const CDP_VARIANT_ATTR: &str = "nvvm.cdp.variant";

/// Reads a [`CDP_VARIANT_ATTR`] value (`"1"`, `"2"`); `None` when it is not
/// a known variant's flag.
pub fn parse_variant_flag(value: &str) -> Option<CdpVariant> {
    value
        .trim()
        .parse::<u64>()
        .ok()
        .and_then(CdpVariant::from_flag)
}

/// Classifies a runtime stub name (an entry of [`LAUNCH_STUBS`] or
/// [`PARAM_BUFFER_STUBS`]) by kind and variant, by searching the tables, so
/// that a variant added to the tables is recognized here too. `None` for
/// every other name.
pub fn classify_cdp_stub(name: &str) -> Option<(CdpEntryKind, CdpVariant)> {
    CdpVariant::ALL.into_iter().find_map(|v| {
        [CdpEntryKind::Launch, CdpEntryKind::ParameterBuffer]
            .into_iter()
            .find(|k| k.stub(v) == name)
            .map(|k| (k, v))
    })
}

/// Every name [`classify_cdp_entry`] or [`classify_cdp_stub`] accepts: the
/// entry points, then each variant's stubs. A module's CDP functions are
/// found by looking these few names up instead of classifying the name of
/// every function.
pub fn cdp_function_names() -> impl Iterator<Item = &'static str> {
    CDP_ENTRY_POINTS
        .iter()
        .map(|&(n, _)| n)
        .chain(CdpVariant::ALL.into_iter().flat_map(|v| {
            [CdpEntryKind::Launch, CdpEntryKind::ParameterBuffer]
                .into_iter()
                .map(move |k| k.stub(v))
        }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names_are_exactly_the_classified_ones() {
        let names: alloc::vec::Vec<&str> = cdp_function_names().collect();
        for n in &names {
            assert!(
                classify_cdp_entry(n).is_some() || classify_cdp_stub(n).is_some(),
                "{n}"
            );
        }
        let stubs = CdpVariant::ALL.len() * 2;
        assert_eq!(names.len(), CDP_ENTRY_POINTS.len() + stubs);
        let unique: alloc::collections::BTreeSet<&str> = names.iter().copied().collect();
        assert_eq!(unique.len(), names.len());
        for s in LAUNCH_STUBS.iter().chain(PARAM_BUFFER_STUBS.iter()) {
            assert!(names.contains(s), "{s}");
        }
    }

    #[test]
    fn stub_tables() {
        assert_eq!(
            CdpEntryKind::Launch.stub(CdpVariant::Cdp1),
            "__cudaCDP1LaunchDeviceV2"
        );
        assert_eq!(
            CdpEntryKind::Launch.stub(CdpVariant::Cdp2),
            "__cudaCDP2LaunchDeviceV2"
        );
        assert_eq!(
            CdpEntryKind::ParameterBuffer.stub(CdpVariant::Cdp1),
            "__cudaCDP1GetParameterBufferV2"
        );
        assert_eq!(
            CdpEntryKind::ParameterBuffer.stub(CdpVariant::Cdp2),
            "__cudaCDP2GetParameterBufferV2"
        );
    }

    #[test]
    fn variants() {
        assert_eq!(CdpVariant::default(), CdpVariant::Cdp1);
        for v in CdpVariant::ALL {
            assert_eq!(CdpVariant::from_flag(v.flag()), Some(v));
        }
        assert_eq!(CdpVariant::from_flag(0), None);
        assert_eq!(CdpVariant::from_flag(3), None);
    }

    #[test]
    fn classification() {
        let launch = |is_v2| {
            Some(CdpEntry {
                kind: CdpEntryKind::Launch,
                is_v2,
            })
        };
        let pbuf = |is_v2| {
            Some(CdpEntry {
                kind: CdpEntryKind::ParameterBuffer,
                is_v2,
            })
        };
        assert_eq!(classify_cdp_entry("cudaLaunchDevice"), launch(false));
        assert_eq!(
            classify_cdp_entry("_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream"),
            launch(false)
        );
        assert_eq!(classify_cdp_entry("cudaLaunchDeviceV2"), launch(true));
        assert_eq!(classify_cdp_entry("cudaGetParameterBuffer"), pbuf(false));
        assert_eq!(
            classify_cdp_entry("_Z22cudaGetParameterBuffermm"),
            pbuf(false)
        );
        assert_eq!(classify_cdp_entry("cudaGetParameterBufferV2"), pbuf(true));
        for stub in LAUNCH_STUBS.iter().chain(&PARAM_BUFFER_STUBS) {
            assert_eq!(classify_cdp_entry(stub), None);
        }
        assert_eq!(classify_cdp_entry("cudaLaunch"), None);
    }

    #[test]
    fn stub_classification() {
        for v in CdpVariant::ALL {
            for k in [CdpEntryKind::Launch, CdpEntryKind::ParameterBuffer] {
                assert_eq!(classify_cdp_stub(k.stub(v)), Some((k, v)));
            }
        }
        assert_eq!(classify_cdp_stub("cudaLaunchDevice"), None);
        assert_eq!(classify_cdp_stub("__cudaCDP3LaunchDeviceV2"), None);
    }

    #[test]
    fn variant_flags() {
        assert_eq!(parse_variant_flag("1"), Some(CdpVariant::Cdp1));
        assert_eq!(parse_variant_flag("2"), Some(CdpVariant::Cdp2));
        assert_eq!(parse_variant_flag(" 2 "), Some(CdpVariant::Cdp2));
        assert_eq!(parse_variant_flag("3"), None);
        assert_eq!(parse_variant_flag("two"), None);
        assert_eq!(parse_variant_flag(""), None);
    }
}
