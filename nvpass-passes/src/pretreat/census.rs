//! One walk over a function that tells which function rules can possibly
//! rewrite something in it, so the other rules are not run at all.
//!
//! Each function rule scans the whole body for one shape (a `bitcast`, a
//! call of `llvm.assume`, an `!llvm.loop` attachment, ...). Most bodies
//! contain none of most shapes, so 18 scans per round cost far more than
//! the rewrites. The census records, in one scan, every opcode, direct
//! callee family, constant-expression operand and attachment a rule
//! starts from; a rule whose starting shape is absent is skipped.
//!
//! For rules 2, 3, 6, 7, 8, 12, 15, 16 and 18 the census asks the rule's
//! own shape predicate (`casts::may_shorten_bitcast`, `casts::noop_addrspace_cast_*`,
//! `casts::may_fold_bitcast`, `casts::zero_index_gep_*`,
//! `casts::widenable_sext`, `select::may_flip_select`,
//! `fp::noncanonical_nan`, `loops::has_discarded_property`,
//! `cfg::has_unreachable_block`), since their opcodes or attachments alone
//! are in nearly every body (libdevice reinterprets floats as integers with
//! `bitcast` throughout; clang marks every loop `llvm.loop.mustprogress`,
//! which rule 16 keeps; nearly every body with a branch has all its blocks
//! reachable). Rule 18's reachability walk so moves onto the census's
//! threads (`-j`), and the rule itself runs only on a body that has an
//! unreachable block.
//!
//! The census over-approximates: a set bit only means the rule has to look.
//! A clear bit must mean the rule would rewrite nothing; that equivalence
//! is what `tests::census_matches_full_runs` checks (every lit input, with
//! and without the census, same counts and same output). As soon as a rule
//! changes the function, a new census is taken for the rules still to run
//! in that round (a rewrite can create shapes the old one did not see), and
//! every round starts with one. The function-level rules 1 and 17 are the
//! exception: what they change no rule reads (see [`FUNCTION_LEVEL`]), so
//! a change by them takes no new census and starts no new round.

use hashbrown::HashMap;

use nvpass_core::ir::{
    AttrKey, AttrKind, AttrSlot, Callee, ConstKind, FuncId, IrView, Opcode, ValueKind,
};

use super::casts::{
    may_fold_bitcast, may_shorten_bitcast, noop_addrspace_cast_const, noop_addrspace_cast_inst,
    widenable_sext, zero_index_gep_const, zero_index_gep_inst,
};
use super::cfg::has_unreachable_block;
use super::fp::{nan_blind, noncanonical_nan};
use super::intrinsics::{needs_no_convergent, KERNEL_PLACEHOLDER, SREG_PLACEHOLDERS};
use super::loops::has_discarded_property;
use super::mem::{is_lifetime_marker, is_mem_intrinsic};
use super::select::may_flip_select;

/// A set of function rules, bit `n - 1` for rule `n`.
pub(super) type RuleMask = u32;

/// The bit of rule `n`.
pub(super) const fn bit(n: u8) -> RuleMask {
    1 << (n - 1)
}

/// Every function rule (1..=18).
pub(super) const ALL_FUNCTION_RULES: RuleMask = (1 << 18) - 1;

/// Rules whose check is per function, not per instruction, and cheap:
/// 1 and 17 read the function's attributes and annotations. They change
/// only those (rule 1 the `!nvvm.annotations` entry, rule 17 an attribute
/// of the function), which no other function rule reads, and neither can
/// enable the other on the same function (rule 1 needs the transplanted
/// marker, in whose presence rule 17 does nothing). So a change by one of
/// them leaves the census valid and gives a further round nothing to do.
pub(super) const FUNCTION_LEVEL: RuleMask = bit(1) | bit(17);

/// The rules a direct call of the function named `name` can start.
fn callee_rules(name: &str) -> RuleMask {
    if !name.starts_with("llvm.") {
        return 0;
    }
    let mut mask = 0;
    if needs_no_convergent(name) {
        mask |= bit(9);
    }
    if name == KERNEL_PLACEHOLDER || SREG_PLACEHOLDERS.iter().any(|e| e.0 == name) {
        mask |= bit(10);
    }
    if name == "llvm.dbg.declare" {
        mask |= bit(11);
    }
    if name == "llvm.assume" {
        mask |= bit(13);
    }
    if is_lifetime_marker(name) {
        mask |= bit(4);
    }
    if is_mem_intrinsic(name) {
        mask |= bit(5) | bit(14);
    }
    mask
}

/// Per-run memo of [`callee_rules`] by callee, with whether the callee is
/// a declaration carrying `convergent` that rule 9 would strip. Valid
/// while no function is declared, erased or loses `convergent`: the caller
/// clears it whenever one of [`STALE_CALLEE_RULES`] changed something.
#[derive(Default)]
pub(super) struct CalleeRules(HashMap<FuncId, (RuleMask, bool)>);

/// The function rules whose rewrites can make a [`CalleeRules`] entry
/// wrong: rule 9 strips `convergent` from declarations, rule 10 declares
/// and erases functions, rule 11 declares `llvm.dbg.value`. (A declared
/// function is a new id, which the memo has no entry for; an erased one
/// could give its id to a later function in a host IR that reuses ids.)
/// The other rules change instructions, metadata, or an attribute of the
/// function itself (rule 17 adds `"nvvm.kernel"` to a definition), none of
/// which an entry reads: a callee's name, whether it is a declaration and
/// whether it carries `convergent`. (In nvpass-ir, function ids are never
/// reused and no rule adds `convergent`, so even a stale entry could only
/// set a census bit too many, never clear one.) Clearing the memo after every
/// change made the census on cub_kernels.fe look up a callee's name 1,332
/// times; clearing it after these rules only, 279 times.
pub(super) const STALE_CALLEE_RULES: RuleMask = bit(9) | bit(10) | bit(11);

impl CalleeRules {
    fn of<M: IrView + ?Sized>(&mut self, m: &M, f: FuncId) -> (RuleMask, bool) {
        *self.0.entry(f).or_insert_with(|| {
            let mask = callee_rules(m.func_name(f));
            let convergent_decl = mask & bit(9) != 0
                && m.func_is_declaration(f)
                && m.has_attr(f, AttrSlot::Function, CONVERGENT);
            (mask, convergent_decl)
        })
    }

    /// Forgets every memoized callee.
    pub(super) fn clear(&mut self) {
        self.0.clear();
    }
}

/// The attribute rule 9 strips.
const CONVERGENT: AttrKey<'static> = AttrKey::Kind(AttrKind::Convergent);

/// The rules that may rewrite something in `f`.
pub(super) fn census<M: IrView + ?Sized>(m: &M, f: FuncId, callees: &mut CalleeRules) -> RuleMask {
    let mut may = FUNCTION_LEVEL;
    let mut blocks = 0usize;
    for b in m.blocks(f) {
        blocks += 1;
        for i in m.insts(b) {
            let op = m.opcode(i);
            may |= match op {
                Opcode::BitCast => {
                    let mut b = 0;
                    if may_shorten_bitcast(m, i) {
                        b |= bit(2);
                    }
                    if may_fold_bitcast(m, i) {
                        b |= bit(6);
                    }
                    b
                }
                Opcode::AddrSpaceCast if noop_addrspace_cast_inst(m, i).is_some() => bit(3),
                Opcode::GetElementPtr if zero_index_gep_inst(m, i).is_some() => bit(7),
                Opcode::SExt if widenable_sext(m, i) => bit(8),
                Opcode::Select if may_flip_select(m, i) => bit(12),
                op if nan_blind(op) && m.operands(i).any(|v| noncanonical_nan(m, v).is_some()) => {
                    bit(15)
                }
                _ => 0,
            };
            if op.is_call() {
                if let Some(Callee::Direct(c)) = m.callee(i) {
                    let (mask, convergent_decl) = callees.of(m, c);
                    may |= mask & !bit(9);
                    // Rule 9 rewrites a call of its families only where the
                    // call site or the callee's declaration is convergent.
                    if mask & bit(9) != 0
                        && (convergent_decl || m.call_has_attr(i, AttrSlot::Function, CONVERGENT))
                    {
                        may |= bit(9);
                    }
                }
            }
            for v in m.operands(i) {
                if let ValueKind::Constant(ConstKind::Expr(e)) = m.value_kind(v) {
                    may |= match e {
                        Opcode::BitCast => bit(6),
                        Opcode::AddrSpaceCast if noop_addrspace_cast_const(m, v).is_some() => {
                            bit(3)
                        }
                        Opcode::GetElementPtr if zero_index_gep_const(m, v).is_some() => bit(7),
                        _ => 0,
                    };
                }
            }
            if m.inst_md(i, "llvm.loop")
                .is_some_and(|l| has_discarded_property(m, l))
            {
                may |= bit(16);
            }
        }
    }
    // Unreachable blocks need at least one block besides the entry.
    if blocks > 1 && has_unreachable_block(m, f, blocks) {
        may |= bit(18);
    }
    may
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bits of `rules` the census of function `name` of `m` sets.
    fn census_bits(m: &nvpass_ir::Module, name: &str, rules: RuleMask) -> RuleMask {
        let f = IrView::func_by_name(m, name).unwrap();
        census(m, f, &mut CalleeRules::default()) & rules
    }

    #[test]
    fn callee_families() {
        assert_eq!(callee_rules("foo"), 0);
        assert_eq!(callee_rules("llvm.assume") & bit(13), bit(13));
        assert_eq!(callee_rules("llvm.dbg.declare") & bit(11), bit(11));
        assert_eq!(
            callee_rules("llvm.memcpy.p0.p0.i64"),
            bit(5) | bit(14) | bit(9)
        );
        assert_eq!(callee_rules("llvm.lifetime.start.p0") & bit(4), bit(4));
        assert_eq!(callee_rules("llvm.ptx.read.tid.x"), bit(10));
        assert_eq!(callee_rules(KERNEL_PLACEHOLDER), bit(10));
        assert_eq!(callee_rules("llvm.nvvm.barrier0"), 0);
    }

    /// A `bitcast` starts rule 2 only as a chain or a no-op cast, and rule
    /// 6 only from a constant: reinterpreting a float as an integer, as
    /// libdevice does throughout, starts neither.
    #[test]
    fn bitcasts_start_rules_2_and_6_only_by_shape() {
        let m = nvpass_ir::parse_module(
            b"define i32 @reinterpret(float %x) {\n  %b = bitcast float %x to i32\n  ret i32 %b\n}\n\
              define float @constant() {\n  %b = bitcast i32 1065353216 to float\n  ret float %b\n}\n\
              define float @chain(float %x) {\n  %a = bitcast float %x to i32\n  %b = bitcast i32 %a to float\n  ret float %b\n}\n\
              define i32 @noop(i32 %x) {\n  %b = bitcast i32 %x to i32\n  ret i32 %b\n}\n",
        )
        .unwrap();
        let mask = |name: &str| census_bits(&m, name, bit(2) | bit(6));
        assert_eq!(mask("reinterpret"), 0);
        assert_eq!(mask("constant"), bit(6));
        assert_eq!(mask("chain"), bit(2));
        assert_eq!(mask("noop"), bit(2));
    }

    /// A `select` starts rule 12 only when its condition is a negation.
    #[test]
    fn selects_start_rule_12_only_on_a_negated_condition() {
        let m = nvpass_ir::parse_module(
            b"define i32 @plain(i1 %c) {\n  %s = select i1 %c, i32 1, i32 2\n  ret i32 %s\n}\n\
              define i32 @negated(i1 %c) {\n  %n = xor i1 %c, true\n  %s = select i1 %n, i32 1, i32 2\n  ret i32 %s\n}\n",
        )
        .unwrap();
        let mask = |name: &str| census_bits(&m, name, bit(12));
        assert_eq!(mask("plain"), 0);
        assert_eq!(mask("negated"), bit(12));
    }

    /// A latch starts rule 16 only when its loop node lists a property the
    /// rule discards: clang's `llvm.loop.mustprogress` alone starts nothing.
    #[test]
    fn loop_metadata_starts_rule_16_only_with_a_discarded_property() {
        let m = nvpass_ir::parse_module(
            b"define void @kept(i1 %c) {\nentry:\n  br label %l\nl:\n  br i1 %c, label %l, label %x, !llvm.loop !0\nx:\n  ret void\n}\n\
              define void @dropped(i1 %c) {\nentry:\n  br label %l\nl:\n  br i1 %c, label %l, label %x, !llvm.loop !2\nx:\n  ret void\n}\n\
              !0 = distinct !{!0, !1}\n!1 = !{!\"llvm.loop.mustprogress\"}\n\
              !2 = distinct !{!2, !1, !3}\n!3 = !{!\"llvm.loop.vectorize.enable\", i1 true}\n",
        )
        .unwrap();
        let mask = |name: &str| census_bits(&m, name, bit(16));
        assert_eq!(mask("kept"), 0);
        assert_eq!(mask("dropped"), bit(16));
    }

    /// Several blocks start rule 18 only when one of them is unreachable
    /// from the entry, by itself or in a cycle of unreachable blocks.
    #[test]
    fn blocks_start_rule_18_only_when_one_is_unreachable() {
        let m = nvpass_ir::parse_module(
            b"define void @one() {\n  ret void\n}\n\
              define void @reached(i1 %c) {\nentry:\n  br i1 %c, label %a, label %b\na:\n  br label %b\nb:\n  ret void\n}\n\
              define void @orphan() {\nentry:\n  ret void\ndead:\n  ret void\n}\n\
              define void @dead_cycle() {\nentry:\n  ret void\np:\n  br label %q\nq:\n  br label %p\n}\n",
        )
        .unwrap();
        let mask = |name: &str| census_bits(&m, name, bit(18));
        assert_eq!(mask("one"), 0);
        assert_eq!(mask("reached"), 0);
        assert_eq!(mask("orphan"), bit(18));
        assert_eq!(mask("dead_cycle"), bit(18));
    }

    #[test]
    fn masks() {
        assert_eq!(ALL_FUNCTION_RULES.count_ones(), 18);
        assert_eq!(bit(18), 1 << 17);
        assert_eq!(ALL_FUNCTION_RULES & bit(18), bit(18));
    }
}
