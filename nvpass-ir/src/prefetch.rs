//! Asking the processor for an instruction record before it is needed.
//!
//! A walk over a block follows the `next` links of the instructions'
//! records, so each record's address is known only once the one before is
//! loaded: on a module larger than the caches, every step waits for
//! memory. The reader lays records out in text order, so in a body as
//! read (and in most bodies a pass has edited) the record a few steps
//! ahead is a few ids ahead; [`insts_ahead`] asks for that one while the
//! walk goes on. A wrong guess (records spread by edits) costs one
//! useless load of a cache line.

use crate::entity::Inst;
use crate::inst::InstData;
use cranelift_entity::{EntityRef, PrimaryMap};

/// How many ids past the current one a walk asks for: far enough that the
/// line arrives before the walk gets there (a step costs a few dozen
/// cycles), near enough that it is still in the cache then.
pub const INSTS_AHEAD: usize = 8;

/// Asks for the record [`INSTS_AHEAD`] ids past `i`, if there is one.
/// Changes nothing that can be observed but time.
#[inline(always)]
pub fn insts_ahead(insts: &PrimaryMap<Inst, InstData>, i: Inst) {
    #[cfg(target_arch = "x86_64")]
    if let Some(d) = insts.as_values_slice().get(i.index() + INSTS_AHEAD) {
        // SAFETY: a prefetch reads nothing into the program and cannot
        // fault; the pointer is a live record's besides.
        unsafe {
            core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                (d as *const InstData).cast(),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (insts, i);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every id may be asked ahead of, the last ones included (their
    /// records ahead do not exist).
    #[test]
    fn asking_past_the_last_record_is_harmless() {
        let m = crate::parse_module(b"define i32 @f(i32 %x) {\n  %a = add i32 %x, 1\n  %b = add i32 %a, 2\n  ret i32 %b\n}\n")
            .unwrap();
        for i in m.insts.keys() {
            insts_ahead(&m.insts, i);
        }
        insts_ahead(&m.insts, Inst::new(m.insts.len() + 1000));
    }
}
