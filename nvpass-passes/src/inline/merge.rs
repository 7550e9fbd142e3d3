//! Inlining into one caller with an inline history and post-inline alloca
//! merging (spec 001 "Alloca Merging"; knob
//! [`KNOB_DISABLE_INLINED_ALLOCA_MERGING`](nvpass_core::inline_cost::KNOB_DISABLE_INLINED_ALLOCA_MERGING)).
//!
//! # Regions
//!
//! Every successful inlining into a caller opens a *region*: the copy of
//! the callee body. Its parent is the region holding the inlined call site
//! (region 0 is the caller's own code). Regions give two things:
//!
//! - **Inline history** (LLVM's `InlineHistory`): a call copied from
//!   callee `F`'s body is not inlined again if `F` is already on its region
//!   chain; this breaks recursive cycles after one unrolling instead of
//!   looping.
//! - **Alloca lifetimes.** A static alloca the inlining brings in (reported
//!   by [`IrEdit::inline_call_with_info`]) lives only while its region runs.
//!   Two regions where neither contains the other never run at the same
//!   time, even in a loop: each run of a callee starts with undefined alloca
//!   contents. So an alloca of a new region may *reuse* an alloca that
//!   earlier inlinings brought in, provided none of the regions already
//!   using it is an ancestor of the new region (or the new region itself).
//!   The caller's own allocas (region 0, the ancestor of every region) are
//!   never reused.
//!
//! # Compatibility
//!
//! As in LLVM's legacy inliner (`InlinedArrayAllocas`), only aggregate
//! allocas (arrays and structs) take part, and an alloca is merged into a
//! pool alloca of the *same* allocated type and address space whose
//! alignment (explicit `align`, else the type's ABI alignment) is at least
//! its own. Scalars are left alone on purpose: ptxas promotes a scalar
//! local whose address does not escape to a register, and folding it into
//! a larger buffer would block that (measured on `cub_kernels.fe`: merging
//! scalars into any large-enough buffer grew the summed stack frames from
//! 360 to 848 bytes). Only single-element allocas take part (`alloca T` or
//! `alloca T, i32 1`). Merging replaces every use of the new alloca,
//! lifetime markers included, and erases it.

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::inline_cost::is_free_marker;
use nvpass_core::ir::{EditError, FuncId, InstId, IrEdit, IrView, TypeId, TypeKind};

#[derive(Clone, Debug)]
struct PoolEntry {
    alloca: InstId,
    ty: TypeId,
    align: u64,
    addr_space: u32,
    /// How many of the regions using it are on the marked chain
    /// ([`CallerInliner::on_chain`]); it may be reused while none is.
    blocked: u32,
}

/// What one inlining did, for the pass's bookkeeping.
#[derive(Clone, Debug, Default)]
pub struct Inlined {
    /// Call sites copied from the callee body.
    pub new_calls: Vec<InstId>,
    /// Allocas merged into earlier ones.
    pub merged_allocas: u64,
    /// Bytes of local memory those merges saved.
    pub merged_bytes: u64,
    /// Instructions that survive code generation (not [`is_free_marker`])
    /// the inlining left in the caller, merged allocas taken off; kept
    /// only when counting sizes ([`CallerInliner::counting_sizes`]) and
    /// when the host reports [`InlineInfo::added_insts`].
    ///
    /// [`InlineInfo::added_insts`]: nvpass_core::ir::InlineInfo::added_insts
    pub added_size: Option<usize>,
}

/// Inlining state of one caller: regions, history and the alloca pool.
#[derive(Clone, Debug)]
pub struct CallerInliner {
    /// `(parent region, inlined callee)`; region 0 is the caller itself.
    regions: Vec<(Option<usize>, Option<FuncId>)>,
    /// By region: whether it is on the chain (itself and its ancestors)
    /// of [`CallerInliner::head`], so that the history and the pool's
    /// compatibility check ask "is `r` on this chain" with one load.
    on_chain: Vec<bool>,
    /// The region whose chain `on_chain` marks. [`CallerInliner::focus`]
    /// moves it by the path between the two regions only: inlining down a
    /// chain of N callees costs O(N) in all, not O(N^2) walks to the root.
    head: usize,
    /// By callee: how many regions on the marked chain inline it.
    on_chain_callees: HashMap<FuncId, u32>,
    /// Regions entering the chain in [`CallerInliner::focus`] (kept for its
    /// buffer).
    entering: Vec<usize>,
    /// By region: the pool entries it uses.
    region_entries: Vec<Vec<usize>>,
    /// By address space and type: the pool entries no region on the marked
    /// chain uses, in pool order, so that picking one does not scan the
    /// entries a chain of nested inlinings has blocked.
    usable: HashMap<(u32, TypeId), BTreeSet<usize>>,
    region_of_call: HashMap<InstId, usize>,
    pool: Vec<PoolEntry>,
    /// Allocation size of each alloca type seen (`None`: unsized), so
    /// the data layout walks a struct once per caller, not once per
    /// inlined copy of an alloca.
    sizes: HashMap<TypeId, Option<u64>>,
    merge: bool,
    count_sizes: bool,
}

impl CallerInliner {
    /// A fresh state; `merge` enables alloca merging.
    pub fn new(merge: bool) -> CallerInliner {
        CallerInliner {
            regions: alloc::vec![(None, None)],
            on_chain: alloc::vec![true],
            head: 0,
            on_chain_callees: HashMap::new(),
            entering: Vec::new(),
            region_entries: alloc::vec![Vec::new()],
            usable: HashMap::new(),
            region_of_call: HashMap::new(),
            pool: Vec::new(),
            sizes: HashMap::new(),
            merge,
            count_sizes: false,
        }
    }

    /// Also reports [`Inlined::added_size`].
    pub fn counting_sizes(mut self) -> CallerInliner {
        self.count_sizes = true;
        self
    }

    /// The region holding call site `call` (0 if it was not copied by an
    /// inlining tracked here).
    pub fn region_of(&self, call: InstId) -> usize {
        self.region_of_call.get(&call).copied().unwrap_or(0)
    }

    /// Whether inlining `callee` at `call` would re-enter a callee already
    /// being inlined on this call's region chain (a recursive cycle).
    pub fn in_history(&mut self, call: InstId, callee: FuncId) -> bool {
        self.focus(self.region_of(call));
        self.on_chain_callees.get(&callee).is_some_and(|&n| n > 0)
    }

    /// Makes [`CallerInliner::on_chain`] mark the chain of `region`: the
    /// regions from the old head up to the first one shared with the new
    /// chain leave it, those from `region` up to that one enter it.
    fn focus(&mut self, region: usize) {
        if region == self.head {
            return;
        }
        let mut entering = core::mem::take(&mut self.entering);
        entering.clear();
        // Region 0, the root, is on every chain.
        let mut shared = region;
        while !self.on_chain[shared] {
            entering.push(shared);
            shared = self.regions[shared].0.unwrap_or(0);
        }
        let mut r = self.head;
        while r != shared {
            self.on_chain[r] = false;
            if let Some(f) = self.regions[r].1 {
                if let Some(n) = self.on_chain_callees.get_mut(&f) {
                    *n -= 1;
                }
            }
            for i in 0..self.region_entries[r].len() {
                self.unblock(self.region_entries[r][i]);
            }
            r = self.regions[r].0.unwrap_or(0);
        }
        for &r in &entering {
            self.on_chain[r] = true;
            if let Some(f) = self.regions[r].1 {
                *self.on_chain_callees.entry(f).or_insert(0) += 1;
            }
            for i in 0..self.region_entries[r].len() {
                self.block(self.region_entries[r][i]);
            }
        }
        self.entering = entering;
        self.head = region;
    }

    /// Counts one region fewer on the marked chain using pool entry `k`;
    /// at none, the entry is usable again.
    fn unblock(&mut self, k: usize) {
        let e = &mut self.pool[k];
        e.blocked -= 1;
        if e.blocked == 0 {
            self.usable
                .entry((e.addr_space, e.ty))
                .or_default()
                .insert(k);
        }
    }

    /// Counts one more region on the marked chain using pool entry `k`.
    fn block(&mut self, k: usize) {
        let e = &mut self.pool[k];
        e.blocked += 1;
        if e.blocked == 1 {
            if let Some(set) = self.usable.get_mut(&(e.addr_space, e.ty)) {
                set.remove(&k);
            }
        }
    }

    /// Inlines `call` (whose direct callee is `callee`), tracks the region
    /// and merges the allocas it brings in.
    pub fn inline<M: IrEdit + ?Sized>(
        &mut self,
        m: &mut M,
        call: InstId,
        callee: FuncId,
    ) -> Result<Inlined, EditError> {
        let parent = self.region_of(call);
        let info = m.inline_call_with_info(call)?;
        self.region_of_call.remove(&call);
        let region = self.regions.len();
        self.regions.push((Some(parent), Some(callee)));
        self.on_chain.push(false);
        self.region_entries.push(Vec::new());
        for &c in &info.inlined_calls {
            self.region_of_call.insert(c, region);
        }
        let added_size = match (&info.added_insts, self.count_sizes) {
            (Some(added), true) => Some(added.iter().filter(|&&i| !is_free_marker(m, i)).count()),
            _ => None,
        };
        let mut out = Inlined {
            new_calls: info.inlined_calls,
            added_size,
            ..Inlined::default()
        };
        if self.merge && !info.static_allocas.is_empty() {
            self.focus(region);
        }
        for a in info.static_allocas {
            let Some(shape) = alloca_shape(m, a, &mut self.sizes) else {
                continue;
            };
            if !self.merge {
                continue;
            }
            // The first usable entry of the type (entries of one type have
            // one size) aligned at least as much.
            let pool = &self.pool;
            let pick = self
                .usable
                .get(&(shape.2, shape.3))
                .and_then(|set| set.iter().copied().find(|&k| pool[k].align >= shape.1));
            match pick {
                Some(k) => {
                    let (Some(old), Some(new)) =
                        (m.inst_result(a), m.inst_result(self.pool[k].alloca))
                    else {
                        continue;
                    };
                    if m.replace_all_uses(old, new).is_ok() && m.erase_inst(a).is_ok() {
                        // An alloca is never a free marker: it was counted.
                        if let Some(n) = out.added_size.as_mut() {
                            *n -= 1;
                        }
                        // `region` is on the marked chain: the entry is
                        // blocked until the chain leaves it.
                        self.region_entries[region].push(k);
                        self.block(k);
                        out.merged_allocas += 1;
                        out.merged_bytes += shape.0;
                    }
                }
                None => {
                    self.region_entries[region].push(self.pool.len());
                    self.pool.push(PoolEntry {
                        alloca: a,
                        ty: shape.3,
                        align: shape.1,
                        addr_space: shape.2,
                        blocked: 1,
                    });
                }
            }
        }
        Ok(out)
    }
}

/// `(size, alignment, address space, type)` of a single-element static
/// alloca of aggregate type.
fn alloca_shape<M: IrView + ?Sized>(
    m: &M,
    a: InstId,
    sizes: &mut HashMap<TypeId, Option<u64>>,
) -> Option<(u64, u64, u32, TypeId)> {
    let ty = m.alloca_type(a)?;
    if !matches!(
        m.type_kind(ty),
        TypeKind::Array { .. } | TypeKind::Struct { .. }
    ) {
        return None;
    }
    if let Some(n) = m.operand(a, 0) {
        if m.const_int(n) != Some(1) {
            return None;
        }
    }
    let size = (*sizes.entry(ty).or_insert_with(|| m.alloc_size(ty)))?;
    let align = m.alloca_align(a).or_else(|| m.abi_align(ty))?;
    let TypeKind::Ptr(addr_space) = m.type_kind(m.value_type(m.inst_result(a)?)) else {
        return None;
    };
    Some((size, align, addr_space, ty))
}
