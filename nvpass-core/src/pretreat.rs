//! The Pretreat rule table: the 19 cleanups of spec 002 "Pretreat", their
//! numbers, names and canonical order, as data.
//!
//! Spec 002 "Pretreat", table "The 19 Metric-Ordered Cleanups": "The numbering
//! is the canonical order." The rules themselves live in
//! `nvpass-passes/src/pretreat/`; this table is what tools and knobs name them
//! by (`--pretreat-disable=5,14`).

/// Whether a rule runs once per defined function or once per module.
///
/// Spec 002 "Pretreat", "Algorithm" (`pretreat_module`): rules 1–18 run on
/// each defined function in module order, rule 19 once on the module after.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum RuleScope {
    /// Runs on one function body at a time.
    Function,
    /// Runs once on the whole module, after every function.
    Module,
}

/// One Pretreat cleanup.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct PretreatRule {
    /// The spec's number, 1..=19: also its position in the canonical order.
    pub number: u8,
    /// Short kebab-case name (used in statistics and remarks).
    pub name: &'static str,
    /// The function name of the spec's `pretreat_module` listing.
    pub spec_fn: &'static str,
    /// The "Cleanup" column of the spec's table.
    pub cleanup: &'static str,
    /// Per function or per module.
    pub scope: RuleScope,
}

macro_rules! rules {
    ($( $n:literal $name:literal $spec_fn:literal $scope:ident $cleanup:literal ),* $(,)?) => {
        /// The 19 cleanups in canonical order (`PRETREAT_RULES[i].number == i + 1`).
        ///
        /// Spec 002 "Pretreat", "The 19 Metric-Ordered Cleanups" and
        /// "Algorithm".
        pub const PRETREAT_RULES: [PretreatRule; 19] = [
            $( PretreatRule {
                number: $n,
                name: $name,
                spec_fn: $spec_fn,
                cleanup: $cleanup,
                scope: RuleScope::$scope,
            }, )*
        ];
    };
}

rules! {
    1 "strip-consumed-annotations" "strip_consumed_annotations" Function
        "Strip already-consumed !nvvm.annotations entries",
    2 "bitcast-chains" "canonicalize_bitcast_chains" Function
        "Canonicalize trivial bitcast chains",
    3 "noop-addrspacecast" "drop_noop_addrspace_casts" Function
        "Drop no-op addrspacecast pairs",
    4 "lifetime-sizes" "normalize_lifetime_sizes" Function
        "Normalize llvm.lifetime.{start,end} sizes",
    5 "zero-length-mem" "delete_zero_length_mem_intrinsics" Function
        "Delete zero-length llvm.memcpy / llvm.memmove / llvm.memset",
    6 "fold-constant-casts" "constant_fold_casts" Function
        "Replace constant-fold-eligible casts",
    7 "zero-index-gep" "collapse_zero_index_geps" Function
        "Collapse getelementptr chains with zero indices",
    8 "int-extensions" "canonicalize_int_extensions" Function
        "Canonicalize integer extensions",
    9 "spurious-convergent" "strip_spurious_convergent" Function
        "Strip convergent from non-convergent intrinsics",
    10 "sreg-placeholders" "rewrite_sreg_placeholders" Function
        "Rewrite llvm.nvvm.read.ptx.sreg.* placeholder calls",
    11 "dbg-declare" "normalize_dbg_declare" Function
        "Normalize llvm.dbg.declare to llvm.dbg.value",
    12 "select-constants" "canonicalize_select_constants" Function
        "Canonicalize select of constants",
    13 "dead-assume" "strip_dead_assume" Function
        "Strip dead llvm.assume calls",
    14 "undef-mem-length" "normalize_undef_memcpy_lengths" Function
        "Replace undef operands in memcpy byte-count",
    15 "fp-specials" "canonicalize_fp_specials" Function
        "Canonicalize NaN/Inf floating-point literals",
    16 "loop-metadata" "strip_discarded_loop_metadata" Function
        "Strip discarded loop metadata",
    17 "lift-kernel-metadata" "lift_kernel_metadata_to_attr" Function
        "Lift nvvm.kernel metadata to function attribute",
    18 "unreachable-blocks" "remove_unreachable_blocks" Function
        "Remove unreachable basic blocks",
    19 "ctor-dtor-entries" "drop_empty_ctor_dtor_entries" Module
        "Drop empty llvm.global_ctors / llvm.global_dtors entries",
}

/// The rule with spec number `number` (1..=19).
pub fn rule(number: u8) -> Option<&'static PretreatRule> {
    PRETREAT_RULES.get(usize::from(number).checked_sub(1)?)
}

/// Named metadata holding legacy per-function NVVM annotations
/// (`!{ptr @f, !"kernel", i32 1}`).
///
/// Spec 002 "Kernel Identity" and "Pretreat" cleanups 1 and 17.
pub const NVVM_ANNOTATIONS: &str = "nvvm.annotations";

/// The annotation key marking a kernel in [`NVVM_ANNOTATIONS`] (with value 1).
///
/// Spec 002 "Pretreat", cleanup 17 ("Lift nvvm.kernel metadata").
pub const KERNEL_ANNOTATION_KEY: &str = "kernel";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_the_order() {
        for (i, r) in PRETREAT_RULES.iter().enumerate() {
            assert_eq!(usize::from(r.number), i + 1);
            assert_eq!(rule(r.number), Some(r));
        }
        assert_eq!(rule(0), None);
        assert_eq!(rule(20), None);
        let module_rules: alloc::vec::Vec<u8> = PRETREAT_RULES
            .iter()
            .filter(|r| r.scope == RuleScope::Module)
            .map(|r| r.number)
            .collect();
        assert_eq!(module_rules, [19]);
    }

    #[test]
    fn names_are_unique() {
        for a in &PRETREAT_RULES {
            for b in &PRETREAT_RULES {
                if a.number != b.number {
                    assert_ne!(a.name, b.name);
                    assert_ne!(a.spec_fn, b.spec_fn);
                }
            }
        }
    }
}
