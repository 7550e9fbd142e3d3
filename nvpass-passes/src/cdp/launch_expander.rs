//! `CDPLaunchExpander` (`cdp-launch-expander`): `cudaLaunchDevice` and
//! `cudaLaunchDeviceV2` become `__cudaCDP{1,2}LaunchDeviceV2`.
//!
//! Spec 002 "CDP Launch Expansion", "Algorithm": for each launch entry
//! point, check the child kernel, read the variant flag, and swap the callee
//! for the launch stub of that variant; operands are kept. The shared
//! behaviour (matching, flags, diagnostics) is documented on the parent
//! module.

use nvpass_core::cdp::CdpEntryKind;
use nvpass_core::ir::IrEdit;
use nvpass_core::names::CDP_LAUNCH_EXPANDER;
use nvpass_core::pass::{ModulePass, PassContext, PassFailure, PassInfo, PreservedOrChanged};

use super::matching::{self, Origin, Site};
use super::{retarget_to_stub, warn_unreadable_flag, NUM_LAUNCHES_EXPANDED};

/// `cdp-launch-expander` / `CDPLaunchExpander`.
pub const LAUNCH_EXPANDER_INFO: PassInfo = PassInfo {
    name: "cdp-launch-expander",
    class_name: CDP_LAUNCH_EXPANDER,
    description: "expand cudaLaunchDevice to __cudaCDP*LaunchDeviceV2",
    knobs: &[],
    options: &[],
};

/// Rewrites launch entry points to the launch stubs.
#[derive(Copy, Clone, Default, Debug)]
pub struct CdpLaunchExpander;

impl<M: IrEdit + ?Sized> ModulePass<M> for CdpLaunchExpander {
    fn info(&self) -> &'static PassInfo {
        &LAUNCH_EXPANDER_INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        super::run(m, cx, &[CdpEntryKind::Launch])
    }
}

/// Retargets every launch entry point of `sites`; returns whether anything
/// changed. Targets were checked by the caller.
pub(super) fn rewrite<M: IrEdit + ?Sized>(
    m: &mut M,
    cx: &mut PassContext<'_>,
    sites: &[Site],
) -> Result<bool, PassFailure> {
    // Decide every variant before the first edit.
    let plan: alloc::vec::Vec<_> = sites
        .iter()
        .filter(|s| s.kind == CdpEntryKind::Launch && s.origin == Origin::Entry)
        .map(|s| (s.call, matching::variant(m, s)))
        .collect();
    for (call, (variant, unreadable)) in &plan {
        if let Some(value) = unreadable {
            warn_unreadable_flag(m, cx, *call, value);
        }
        retarget_to_stub(m, *call, CdpEntryKind::Launch.stub(*variant))?;
    }
    cx.add_stat(&NUM_LAUNCHES_EXPANDED, plan.len() as u64);
    Ok(!plan.is_empty())
}
