//! The propagation predicate (spec 004, "Matching Predicate" and
//! "Algorithm"): which values are derived from which restricted roots, and
//! which memory accesses go through them.
//!
//! The spec's worker is a flat def-use walk; a walk alone cannot decide a
//! PHI whose other incoming value has not been seen yet (or never will be),
//! so the walk here only *discovers* candidates and a monotone fixpoint then
//! evaluates them:
//!
//! - a root is derived from itself;
//! - `getelementptr` (root as base), `bitcast`, `addrspacecast` copy the
//!   set of their pointer operand;
//! - `phi` and `select` join the sets of all incoming values, and are
//!   derived only if *every* incoming value is (`undef`/`poison` incoming
//!   values are neutral); one underived input poisons the join, and poison
//!   flows on through copies and joins;
//! - with `apply-multi-level-restrict`, a pointer loaded through a derived
//!   pointer copies that pointer's set (the spec's `isPointerLoad` edge);
//! - a derived value spilled to a private stack slot (an `alloca` written by
//!   exactly that one `store`, otherwise only loaded with the same type or
//!   passed to `llvm.lifetime.*`) reappears in every load of the slot. This
//!   is what makes front-end (`-O0`) IR, where every parameter is first
//!   stored to an `alloca`, reachable.
//!
//! Sets start empty and only grow, poison is absorbing, so the fixpoint is
//! reached in at most (roots + 1) sweeps per value.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use hashbrown::HashMap;
use nvpass_core::ir::{
    Callee, ConstKind, InstId, IrView, Opcode, TypeKind, User, ValueId, ValueKind,
};
use smallvec::SmallVec;

use super::roots::Root;
use super::LIFETIME_INTRINSIC_PREFIX;

/// Sorted indices into the function's root list.
pub type RootSet = SmallVec<[u32; 4]>;

/// How a candidate value is defined.
enum Def {
    Root(u32),
    Copy(ValueId),
    Join(SmallVec<[ValueId; 4]>),
}

#[derive(Clone, Default, PartialEq, Eq)]
struct State {
    poisoned: bool,
    set: RootSet,
}

fn is_ptr<M: IrView + ?Sized>(m: &M, v: ValueId) -> bool {
    matches!(m.type_kind(m.value_type(v)), TypeKind::Ptr(_))
}

/// Whether `i` is a memory access the pass stamps: `load`, `store`,
/// `atomicrmw`, `cmpxchg`.
pub fn is_access(op: Opcode) -> bool {
    matches!(
        op,
        Opcode::Load | Opcode::Store | Opcode::AtomicRmw | Opcode::AtomicCmpXchg
    )
}

/// The loads of `slot` if it is a private spill slot written only by
/// `store` (see the module docs), else `None`. The slot may be reached
/// through `addrspacecast`/`bitcast` views of its `alloca` (as
/// `memspace-opt` leaves it: `store ptr %p, ptr addrspace(5) %slot.local`);
/// every use of the alloca and of each view must then be `store`, a load,
/// a lifetime marker or another view.
fn spill_slot_loads<M: IrView + ?Sized>(
    m: &M,
    slot: ValueId,
    store: InstId,
    stored: ValueId,
) -> Option<SmallVec<[ValueId; 4]>> {
    if m.is_volatile(store) {
        return None;
    }
    let is_view = |op: Opcode| matches!(op, Opcode::AddrSpaceCast | Opcode::BitCast);
    // Walk back from the stored-to pointer to its alloca.
    let mut base = slot;
    loop {
        let ValueKind::Inst(i) = m.value_kind(base) else {
            return None;
        };
        match m.opcode(i) {
            Opcode::Alloca => break,
            op if is_view(op) => base = m.operand(i, 0)?,
            _ => return None,
        }
    }
    let mut loads = SmallVec::new();
    let mut views: SmallVec<[ValueId; 4]> = SmallVec::new();
    views.push(base);
    let mut next = 0;
    while let Some(&view) = views.get(next) {
        next += 1;
        for u in m.users(view) {
            let User::Inst(i) = u else { return None };
            if i == store {
                continue;
            }
            match m.opcode(i) {
                Opcode::Load if m.mem_ptr(i) == Some(view) && !m.is_volatile(i) => {
                    let r = m.inst_result(i)?;
                    if m.value_type(r) != m.value_type(stored) {
                        return None;
                    }
                    loads.push(r);
                }
                op if is_view(op) => views.push(m.inst_result(i)?),
                Opcode::Call => match m.callee(i) {
                    Some(Callee::Direct(g))
                        if m.func_name(g).starts_with(LIFETIME_INTRINSIC_PREFIX) => {}
                    _ => return None,
                },
                _ => return None,
            }
        }
    }
    Some(loads)
}

/// Every access of function code reachable from `roots`, with the roots its
/// pointer is derived from, in no particular order.
pub fn derived_accesses<M: IrView + ?Sized>(
    m: &M,
    roots: &[Root],
    multi_level: bool,
) -> HashMap<InstId, RootSet> {
    let mut index: HashMap<ValueId, usize> = HashMap::new();
    let mut nodes: Vec<(ValueId, Def)> = Vec::new();
    let mut queue: VecDeque<usize> = VecDeque::new();
    let mut add = |v: ValueId, d: Def, nodes: &mut Vec<(ValueId, Def)>, q: &mut VecDeque<usize>| {
        if let hashbrown::hash_map::Entry::Vacant(e) = index.entry(v) {
            e.insert(nodes.len());
            q.push_back(nodes.len());
            nodes.push((v, d));
        }
    };
    for (k, r) in roots.iter().enumerate() {
        for &v in &r.values {
            add(v, Def::Root(k as u32), &mut nodes, &mut queue);
        }
    }
    while let Some(n) = queue.pop_front() {
        let v = nodes[n].0;
        let users: SmallVec<[InstId; 8]> = m.inst_users(v).collect();
        for i in users {
            let result = m.inst_result(i);
            match m.opcode(i) {
                Opcode::GetElementPtr if m.operand(i, 0) == Some(v) => {
                    if let Some(r) = result {
                        add(r, Def::Copy(v), &mut nodes, &mut queue);
                    }
                }
                Opcode::BitCast | Opcode::AddrSpaceCast => {
                    if let Some(r) = result.filter(|&r| is_ptr(m, r)) {
                        add(r, Def::Copy(v), &mut nodes, &mut queue);
                    }
                }
                Opcode::Phi => {
                    if let Some(r) = result {
                        let ins = m.phi_incoming(i).map(|(x, _)| x).collect();
                        add(r, Def::Join(ins), &mut nodes, &mut queue);
                    }
                }
                Opcode::Select if m.operand(i, 0) != Some(v) => {
                    if let (Some(r), Some(a), Some(b)) = (result, m.operand(i, 1), m.operand(i, 2))
                    {
                        add(
                            r,
                            Def::Join(SmallVec::from_slice(&[a, b])),
                            &mut nodes,
                            &mut queue,
                        );
                    }
                }
                Opcode::Store if m.operand(i, 0) == Some(v) => {
                    let Some(slot) = m.operand(i, 1).filter(|&s| s != v) else {
                        continue;
                    };
                    for l in spill_slot_loads(m, slot, i, v).unwrap_or_default() {
                        add(l, Def::Copy(v), &mut nodes, &mut queue);
                    }
                }
                Opcode::Load if multi_level && m.mem_ptr(i) == Some(v) => {
                    if let Some(r) = result.filter(|&r| is_ptr(m, r)) {
                        add(r, Def::Copy(v), &mut nodes, &mut queue);
                    }
                }
                _ => {}
            }
        }
    }

    let mut state: Vec<State> = alloc::vec![State::default(); nodes.len()];
    loop {
        let mut changed = false;
        for n in 0..nodes.len() {
            let new = match &nodes[n].1 {
                Def::Root(k) => State {
                    poisoned: false,
                    set: SmallVec::from_slice(&[*k]),
                },
                Def::Copy(src) => state[index[src]].clone(),
                Def::Join(ops) => {
                    let mut s = State::default();
                    for op in ops {
                        match index.get(op) {
                            Some(&j) => {
                                s.poisoned |= state[j].poisoned;
                                for &k in &state[j].set {
                                    if let Err(pos) = s.set.binary_search(&k) {
                                        s.set.insert(pos, k);
                                    }
                                }
                            }
                            None => {
                                let neutral = matches!(
                                    m.value_kind(*op),
                                    ValueKind::Constant(ConstKind::Undef | ConstKind::Poison)
                                );
                                s.poisoned |= !neutral;
                            }
                        }
                    }
                    s
                }
            };
            if new != state[n] {
                state[n] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    let mut accesses: HashMap<InstId, RootSet> = HashMap::new();
    for (n, (v, _)) in nodes.iter().enumerate() {
        let s = &state[n];
        if s.poisoned || s.set.is_empty() {
            continue;
        }
        for i in m.inst_users(*v) {
            if is_access(m.opcode(i)) && m.mem_ptr(i) == Some(*v) {
                accesses.insert(i, s.set.clone());
            }
        }
    }
    accesses
}
