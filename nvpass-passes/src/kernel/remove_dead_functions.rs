//! `remove-dead-functions` (RemoveDeadFunctions): delete function
//! definitions nothing can reach.
//!
//! Spec 002, "Pass Registration Table": RemoveDeadFunctions, "dead-fn DCE".
//!
//! # What it does
//! A *candidate* is a function definition whose linkage LLVM calls
//! discardable-if-unused (`internal`, `private`, `linkonce`, `linkonce_odr`,
//! `available_externally`) and which is not a kernel ([`KernelSet`]:
//! the one predicate plus legacy `!nvvm.annotations` kernel marks, because a
//! metadata reference is not a use and clang-19 kernels are known only
//! through it). A candidate is *live* if
//! - it has a use that is not an instruction of a candidate's body (a use
//!   by a non-candidate function, a global initializer such as
//!   `@llvm.used` / `@llvm.compiler.used`, an alias, or any constant
//!   expression; constants are not traced further), or
//! - an instruction of a live candidate's body uses it.
//!
//! Every other candidate is deleted. This is the fixpoint of "delete unused
//! discardable functions, repeat" and also removes dead cycles (mutually
//! recursive or self-recursive helpers nobody calls), which the repeated
//! "no uses" rule cannot: uses between dead functions are first redirected
//! to `null` and then the bodies are erased together.
//!
//! # Kept
//! - Kernels, declarations, and definitions with any other linkage
//!   (`external`, `weak`, `weak_odr`, `common`, `extern_weak`, `appending`):
//!   another module may call them.
//! - Functions referenced from `@llvm.used` / `@llvm.compiler.used` (those
//!   references are global-initializer uses).
//! - References from metadata do not keep a function alive (as in LLVM);
//!   they become `null` when it is deleted.
//! - Comdats are not modelled by the traits; a deleted `linkonce_odr`
//!   member leaves its `$name = comdat any` line (NVPTX ignores comdats).
//!
//! # Knobs
//! None.
//!
//! # Diagnostics
//! - `Passed` remark `DeadFunctionRemoved` per deleted function:
//!   `removed dead function 'f' (linkage internal)`.
//! - Error `RemoveFailed` (and pass failure) if the host refuses an
//!   erase; the IR may then be partly changed.
//! - Statistic `NumDeadFunctions`.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use nvpass_core::diag::RemarkKind;
use nvpass_core::ir::{FuncId, IrEdit, IrView, Linkage, User};
use nvpass_core::kernel::KernelSet;
use nvpass_core::names;
use nvpass_core::pass::{
    AnyPass, ModulePass, PassContext, PassFailure, PassInfo, PassOptions, PreservedOrChanged,
};
use nvpass_core::stats::StatInfo;

/// Registry entry of `remove-dead-functions`.
pub const INFO: PassInfo = PassInfo {
    name: "remove-dead-functions",
    class_name: names::REMOVE_DEAD_FUNCTIONS,
    description: "delete unreachable internal/discardable non-kernel functions",
    knobs: &[],
    options: &[],
};

/// Functions deleted.
pub const NUM_DEAD: StatInfo = StatInfo {
    name: "NumDeadFunctions",
    description: "Number of dead functions deleted",
};

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct RemoveDeadFunctions;

/// The dead functions of `m`, in module order (see module docs).
///
/// The sets are arrays by function index and the edges one list grouped
/// by user (a counting sort), not hash tables and a list per function:
/// every candidate and every call of one is looked up, and on a module of
/// 100,000 functions the tables outgrow the caches.
pub fn dead_functions<M: IrView + ?Sized>(m: &M) -> Vec<FuncId> {
    let kernels = KernelSet::compute(m);
    let funcs: Vec<FuncId> = m.funcs().collect();
    let ids = funcs.iter().map(|f| f.index() + 1).max().unwrap_or(0);
    let mut candidate = vec![false; ids];
    for &f in &funcs {
        candidate[f.index()] = !m.func_is_declaration(f)
            && m.func_linkage(f).is_discardable_if_unused()
            && !kernels.contains(f);
    }
    let is_candidate = |f: FuncId| candidate.get(f.index()).copied().unwrap_or(false);
    // Edges "body of g uses candidate c" as (g, c), and the candidates
    // live on their own.
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut live: Vec<FuncId> = Vec::new();
    for &f in funcs.iter().filter(|&&f| is_candidate(f)) {
        let mut is_live = false;
        for u in m.users(m.func_value(f)) {
            match u {
                User::Inst(i) => {
                    let g = m.inst_func(i);
                    if is_candidate(g) {
                        edges.push((g.as_u32(), f.as_u32()));
                    } else {
                        is_live = true;
                    }
                }
                User::Global(_) | User::Const(_) => is_live = true,
            }
        }
        if is_live {
            live.push(f);
        }
    }
    let (first, used) = crate::uses::group_edges(ids, &edges);
    drop(edges);
    let mut seen = vec![false; ids];
    for f in &live {
        seen[f.index()] = true;
    }
    while let Some(g) = live.pop() {
        let (lo, hi) = (first[g.index()] as usize, first[g.index() + 1] as usize);
        for &c in &used[lo..hi] {
            if !seen[c as usize] {
                seen[c as usize] = true;
                live.push(FuncId::new(c));
            }
        }
    }
    funcs
        .into_iter()
        .filter(|&f| is_candidate(f) && !seen[f.index()])
        .collect()
}

impl<M: IrEdit + ?Sized> ModulePass<M> for RemoveDeadFunctions {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(
        &mut self,
        m: &mut M,
        cx: &mut PassContext<'_>,
    ) -> Result<PreservedOrChanged, PassFailure> {
        let dead = dead_functions(m);
        let info: Vec<(String, Linkage)> = dead
            .iter()
            .map(|&f| (String::from(m.func_name(f)), m.func_linkage(f)))
            .collect();
        // Uses left are instructions of other dead bodies: cut them first.
        for (&f, (name, _)) in dead.iter().zip(&info) {
            let v = m.func_value(f);
            if !m.has_no_uses(v) {
                let ty = m.value_type(v);
                let null = m.const_null(ty);
                if let Err(e) = m.replace_all_uses(v, null) {
                    return Err(fail(cx, name, &e));
                }
            }
        }
        for (&f, (name, linkage)) in dead.iter().zip(&info) {
            if let Err(e) = m.erase_function(f) {
                return Err(fail(cx, name, &e));
            }
            if cx.remarks_enabled() {
                let d = cx
                    .remark(RemarkKind::Passed, "DeadFunctionRemoved")
                    .in_function(name.clone())
                    .text("removed dead function '")
                    .arg("Function", name.clone())
                    .text("' (linkage ")
                    .arg("Linkage", linkage.keyword())
                    .text(")");
                cx.emit(d);
            }
        }
        cx.add_stat(&NUM_DEAD, dead.len() as u64);
        Ok(PreservedOrChanged::from_changed(!dead.is_empty()))
    }
}

fn fail(cx: &mut PassContext<'_>, name: &str, e: &nvpass_core::ir::EditError) -> PassFailure {
    let msg = format!("cannot remove dead function '{name}': {e}");
    let d = cx.error("RemoveFailed").in_function(name).text(msg.clone());
    cx.emit(d);
    PassFailure::new(msg)
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Transform(Box::new(RemoveDeadFunctions)))
}
