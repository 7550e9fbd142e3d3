//! `kernel-info` (KernelInfoPrinter): one analysis remark per metric per
//! kernel.
//!
//! Spec 002, "Kernel Info Printer": a read-only pass that "walks every
//! function that satisfies isKernelFunction and emits one Remark per metric
//! in a fixed `kernel-info: <Metric> in function '<fn>' = <value>` format",
//! nineteen metrics in the order of [`METRICS`]; "downstream tooling parses
//! the remark stream positionally".
//!
//! # Output
//! For each kernel *definition*, in module order, nineteen `Analysis`
//! remarks, in [`METRICS`] order, with `Name` = the metric and message
//! `kernel-info: <metric> in function '<kernel>' = <value>`. Show them with
//! `--pass-remarks-analysis=kernel-info`, or write them with
//! `--pass-remarks-output=FILE` (YAML, `--- !Analysis`). Arguments: `Metric`,
//! `Function`, `Value`. The IR is never changed (a [`ModuleAnalysis`]).
//!
//! Kernels are [`KernelSet`] members: the one predicate
//! [`is_kernel_function`](nvpass_core::kernel::is_kernel_function) plus
//! legacy `!nvvm.annotations` kernel marks, so clang-19 output (marked only
//! by metadata) is reported without running `kernel-attr` first. Kernel
//! declarations have no body and are skipped.
//!
//! # How each metric is computed
//! The pass sees IR, not machine code, so every metric is a deterministic
//! function of the IR. The *closure* of a kernel is the kernel plus every
//! function definition reachable from it through direct calls, each counted
//! once. "Calls to `p*`" means direct calls whose callee name starts with
//! one of the prefixes `p`.
//!
//! | metric | value |
//! |---|---|
//! | `regs` | peak number of SSA values (arguments and instruction results other than `alloca`s, which are frame offsets rematerialized from the stack pointer) live at one program point, by backward liveness over the CFG (phi operands live out of their incoming block); maximum over the closure. One value counts once whatever its width. |
//! | `smem` | bytes (alloc size) of the distinct `addrspace(3)` globals referenced by instructions of the closure, directly or through constant expressions |
//! | `cmem` | the same for `addrspace(4)` globals |
//! | `tex` | calls to `llvm.nvvm.tex.`, `llvm.nvvm.tld4.`, `llvm.nvvm.suld.`, `llvm.nvvm.sust.`, `llvm.nvvm.txq.`, `llvm.nvvm.suq.`, `llvm.nvvm.texsurf.handle` in the closure |
//! | `params` | bytes of the kernel's parameter space: parameters laid out in order, each at its ABI alignment (`byval`: the pointee type and its `align`), total size |
//! | `local` | bytes of the kernel's own `alloca`s (alloc size × constant count) |
//! | `stack` | worst-case frame chain: `local` of a function plus the largest `stack` of its direct callees (a recursive edge adds nothing) |
//! | `barriers` | calls to `llvm.nvvm.barrier`, `llvm.nvvm.bar.` in the closure |
//! | `loads` | `load` instructions in the closure |
//! | `stores` | `store` instructions in the closure |
//! | `branches` | conditional `br`, `switch` and `indirectbr` in the closure |
//! | `fp_ops` | `fneg`, `fadd`, `fsub`, `fmul`, `fdiv`, `frem`, `fcmp`, and calls to `llvm.fma.`, `llvm.fmuladd.` in the closure |
//! | `int_ops` | integer `add` ... `xor` (the binary opcodes on integers) and `icmp` in the closure |
//! | `divergence` | branches (as in `branches`) whose condition depends, through SSA data flow within its function, on `llvm.nvvm.read.ptx.sreg.tid.*` / `laneid` or an `atomicrmw` / `cmpxchg` result (control dependence is not followed) |
//! | `predicated` | `select` instructions in the closure (PTX `selp` / predicated moves) |
//! | `vector_ops` | instructions with a vector result or vector operand in the closure |
//! | `mma_ops` | calls to `llvm.nvvm.wgmma.`, `llvm.nvvm.mma.`, and `llvm.nvvm.wmma.*` names containing `.mma` in the closure |
//! | `tcgen05_ops` | calls to `llvm.nvvm.tcgen05.` in the closure |
//! | `tma_ops` | calls to `llvm.nvvm.cp.async.bulk.` in the closure |
//!
//! # Threads
//! The pass only reads, so nothing it computes can change what it computes
//! next. The metrics of each kernel and its nineteen remarks (building
//! their text is about half of the pass's time, the metrics the other half,
//! by `perf` on a generated module) are computed on
//! [`PassContext::threads`] threads ([`par_map_funcs`]), then emitted
//! kernel by kernel in module order: the remark stream does not depend on
//! the thread count.
//!
//! # Knobs
//! None.
//!
//! # Diagnostics
//! Only the remarks above. They are the pass's whole output, so when the
//! session drops remarks ([`PassContext::remarks_enabled`] is false: the
//! CLI without any `-pass-remarks*` option) the pass computes nothing.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use hashbrown::{HashMap, HashSet};
use nvpass_core::diag::{Diagnostic, RemarkKind};
use nvpass_core::ir::{
    AttrKind, AttrSlot, BlockId, Callee, FuncId, GlobalId, InstId, IrEdit, IrView, Opcode,
    TypeKind, ValueId, ValueKind,
};
use nvpass_core::kernel::KernelSet;
use nvpass_core::names;
use nvpass_core::par::par_map_funcs;

use crate::uses::direct_callees;
use nvpass_core::pass::{AnyPass, ModuleAnalysis, PassContext, PassFailure, PassInfo, PassOptions};

/// The nineteen metrics, in the order spec 002 "Kernel Info Printer" fixes:
/// "regs, smem, cmem, tex, params, local, stack, barriers, loads, stores,
/// branches, fp_ops, int_ops, divergence, predicated, vector_ops, mma_ops,
/// tcgen05_ops, tma_ops". Remarks are emitted in exactly this order.
pub const METRICS: [&str; 19] = [
    "regs",
    "smem",
    "cmem",
    "tex",
    "params",
    "local",
    "stack",
    "barriers",
    "loads",
    "stores",
    "branches",
    "fp_ops",
    "int_ops",
    "divergence",
    "predicated",
    "vector_ops",
    "mma_ops",
    "tcgen05_ops",
    "tma_ops",
];

/// Prefix of every remark message (spec 002 "Kernel Info Printer").
pub const MESSAGE_PREFIX: &str = "kernel-info: ";

/// Registry entry of `kernel-info`.
pub const INFO: PassInfo = PassInfo {
    name: "kernel-info",
    class_name: names::KERNEL_INFO_PRINTER,
    description: "emit \"kernel-info: <metric> in function '<fn>' = <value>\" analysis remarks",
    knobs: &[],
    options: &[],
};

const TEX_PREFIXES: &[&str] = &[
    "llvm.nvvm.tex.",
    "llvm.nvvm.tld4.",
    "llvm.nvvm.suld.",
    "llvm.nvvm.sust.",
    "llvm.nvvm.txq.",
    "llvm.nvvm.suq.",
    "llvm.nvvm.texsurf.handle",
];
const BARRIER_PREFIXES: &[&str] = &["llvm.nvvm.barrier", "llvm.nvvm.bar."];
const FP_CALL_PREFIXES: &[&str] = &["llvm.fma.", "llvm.fmuladd."];
const MMA_PREFIXES: &[&str] = &["llvm.nvvm.wgmma.", "llvm.nvvm.mma."];
const WMMA_PREFIX: &str = "llvm.nvvm.wmma.";
const TCGEN05_PREFIXES: &[&str] = &["llvm.nvvm.tcgen05."];
const TMA_PREFIXES: &[&str] = &["llvm.nvvm.cp.async.bulk."];
const DIVERGENT_SREG_PREFIXES: &[&str] = &[
    "llvm.nvvm.read.ptx.sreg.tid.",
    "llvm.nvvm.read.ptx.sreg.laneid",
];

/// The pass. Stateless.
#[derive(Copy, Clone, Default, Debug)]
pub struct KernelInfoPrinter;

/// The metric values of one kernel, in [`METRICS`] order.
pub fn kernel_metrics<M: IrView + ?Sized>(m: &M, kernel: FuncId) -> [u64; 19] {
    let closure = call_closure(m, kernel);
    let mut v = [0u64; 19];
    let mut shared: HashSet<GlobalId> = HashSet::new();
    let mut constant: HashSet<GlobalId> = HashSet::new();
    for &f in &closure {
        v[0] = v[0].max(peak_live_values(m, f));
        let mut globals = HashSet::new();
        let mut seen = HashSet::new();
        for b in m.blocks(f) {
            for i in m.insts(b) {
                for op in m.operands(i) {
                    collect_globals(m, op, &mut globals, &mut seen);
                }
                count_inst(m, i, &mut v);
            }
        }
        for g in globals {
            match m.global_addr_space(g) {
                3 => shared.insert(g),
                4 => constant.insert(g),
                _ => false,
            };
        }
        v[13] += divergent_branches(m, f);
    }
    let bytes = |set: &HashSet<GlobalId>| -> u64 {
        set.iter()
            .map(|&g| m.alloc_size(m.global_value_type(g)).unwrap_or(0))
            .sum()
    };
    v[1] = bytes(&shared);
    v[2] = bytes(&constant);
    v[4] = param_bytes(m, kernel);
    v[5] = frame_bytes(m, kernel);
    v[6] = stack_bytes(m, kernel);
    v
}

/// The nineteen remarks of `kernel`, in [`METRICS`] order.
fn kernel_remarks<M: IrView + ?Sized>(m: &M, kernel: FuncId) -> Vec<Diagnostic> {
    let values = kernel_metrics(m, kernel);
    let name = m.func_name(kernel);
    METRICS
        .iter()
        .zip(values)
        .map(|(metric, value)| {
            Diagnostic::remark(RemarkKind::Analysis, INFO.name, *metric)
                .in_function(name)
                .text(MESSAGE_PREFIX)
                .arg("Metric", *metric)
                .text(" in function '")
                .arg("Function", name.to_string())
                .text("' = ")
                .arg("Value", value.to_string())
        })
        .collect()
}

/// The kernel and the definitions reachable through direct calls, in
/// discovery order.
fn call_closure<M: IrView + ?Sized>(m: &M, kernel: FuncId) -> Vec<FuncId> {
    let mut out = vec![kernel];
    let mut seen: HashSet<FuncId> = out.iter().copied().collect();
    let mut next = 0;
    while next < out.len() {
        let f = out[next];
        next += 1;
        for c in direct_callees(m, f) {
            if !m.func_is_declaration(c) && seen.insert(c) {
                out.push(c);
            }
        }
    }
    out
}

fn callee_name<M: IrView + ?Sized>(m: &M, i: InstId) -> Option<&str> {
    match m.callee(i)? {
        Callee::Direct(f) => Some(m.func_name(f)),
        Callee::Indirect(_) => None,
    }
}

fn starts_with_any(name: &str, prefixes: &[&str]) -> bool {
    prefixes.iter().any(|p| name.starts_with(p))
}

fn is_branch<M: IrView + ?Sized>(m: &M, i: InstId) -> bool {
    match m.opcode(i) {
        Opcode::Br => m.num_operands(i) == 1,
        Opcode::Switch | Opcode::IndirectBr => true,
        _ => false,
    }
}

fn is_vector<M: IrView + ?Sized>(m: &M, v: ValueId) -> bool {
    matches!(m.type_kind(m.value_type(v)), TypeKind::Vector { .. })
}

/// Adds the per-instruction counts of `i` to `v`.
fn count_inst<M: IrView + ?Sized>(m: &M, i: InstId, v: &mut [u64; 19]) {
    let op = m.opcode(i);
    let mut bump = |k: usize| v[k] += 1;
    if let Some(name) = callee_name(m, i) {
        if starts_with_any(name, TEX_PREFIXES) {
            bump(3);
        }
        if starts_with_any(name, BARRIER_PREFIXES) {
            bump(7);
        }
        if starts_with_any(name, FP_CALL_PREFIXES) {
            bump(11);
        }
        if starts_with_any(name, MMA_PREFIXES)
            || (name.starts_with(WMMA_PREFIX) && name.contains(".mma"))
        {
            bump(16);
        }
        if starts_with_any(name, TCGEN05_PREFIXES) {
            bump(17);
        }
        if starts_with_any(name, TMA_PREFIXES) {
            bump(18);
        }
    }
    match op {
        Opcode::Load => bump(8),
        Opcode::Store => bump(9),
        Opcode::FNeg
        | Opcode::FAdd
        | Opcode::FSub
        | Opcode::FMul
        | Opcode::FDiv
        | Opcode::FRem
        | Opcode::FCmp => bump(11),
        Opcode::ICmp => bump(12),
        Opcode::Select => bump(14),
        o if o.is_binary() => bump(12),
        _ => {}
    }
    if is_branch(m, i) {
        bump(10);
    }
    let vector =
        m.inst_result(i).is_some_and(|r| is_vector(m, r)) || m.operands(i).any(|o| is_vector(m, o));
    if vector {
        bump(15);
    }
}

/// Globals referenced by `v`, looking through constant expressions and
/// aggregates.
fn collect_globals<M: IrView + ?Sized>(
    m: &M,
    v: ValueId,
    out: &mut HashSet<GlobalId>,
    seen: &mut HashSet<ValueId>,
) {
    match m.value_kind(v) {
        ValueKind::Global(g) => {
            out.insert(g);
        }
        ValueKind::Constant(_) if seen.insert(v) => {
            let ops: Vec<ValueId> = m.const_operands(v).collect();
            for o in ops {
                collect_globals(m, o, out, seen);
            }
        }
        _ => {}
    }
}

fn align_to(x: u64, a: u64) -> u64 {
    if a <= 1 {
        x
    } else {
        x.div_ceil(a) * a
    }
}

fn param_bytes<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
    let mut off = 0u64;
    for (i, p) in m.params(f).enumerate() {
        let slot = AttrSlot::Param(i as u32);
        let (size, align) = match m.type_attr(f, slot, AttrKind::ByVal) {
            Some(t) => (
                m.alloc_size(t).unwrap_or(0),
                m.int_attr(f, slot, AttrKind::Align)
                    .or_else(|| m.abi_align(t))
                    .unwrap_or(1),
            ),
            None => {
                let t = m.value_type(p);
                (m.alloc_size(t).unwrap_or(0), m.abi_align(t).unwrap_or(1))
            }
        };
        off = align_to(off, align) + size;
    }
    off
}

fn frame_bytes<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
    let mut total = 0u64;
    for b in m.blocks(f) {
        for i in m.insts(b) {
            if let Some(t) = m.alloca_type(i) {
                let count = m
                    .operand(i, 0)
                    .and_then(|c| m.const_int(c))
                    .and_then(|c| u64::try_from(c).ok())
                    .unwrap_or(1);
                total += m.alloc_size(t).unwrap_or(0).saturating_mul(count);
            }
        }
    }
    total
}

/// `stack`: frame bytes of `root` plus the deepest chain of frames through
/// its direct callees, cutting recursion at functions already on the path.
/// An explicit stack instead of recursion, so a 10,000-deep call chain
/// cannot overflow the native stack.
fn stack_bytes<M: IrView + ?Sized>(m: &M, root: FuncId) -> u64 {
    let mut memo: HashMap<FuncId, u64> = HashMap::new();
    let mut on_path: HashSet<FuncId> = HashSet::new();
    // (function, its callees, next callee, deepest callee chain so far)
    let mut path: Vec<(FuncId, Vec<FuncId>, usize, u64)> = Vec::new();
    on_path.insert(root);
    path.push((root, direct_callees(m, root), 0, 0));
    while let Some(top) = path.last_mut() {
        if let Some(&c) = top.1.get(top.2) {
            top.2 += 1;
            if m.func_is_declaration(c) || on_path.contains(&c) {
                continue;
            }
            if let Some(&s) = memo.get(&c) {
                top.3 = top.3.max(s);
                continue;
            }
            on_path.insert(c);
            path.push((c, direct_callees(m, c), 0, 0));
        } else {
            let (f, _, _, deepest) = path.pop().expect("non-empty path");
            on_path.remove(&f);
            let s = frame_bytes(m, f) + deepest;
            memo.insert(f, s);
            if let Some(parent) = path.last_mut() {
                parent.3 = parent.3.max(s);
            }
        }
    }
    memo.get(&root).copied().unwrap_or(0)
}

/// A fixed-size bit set over local value numbers.
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Bits {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }
    /// Sets bit `i`; returns whether it was clear.
    fn set(&mut self, i: usize) -> bool {
        let (w, b) = (&mut self.0[i / 64], 1u64 << (i % 64));
        let was_clear = *w & b == 0;
        *w |= b;
        was_clear
    }
    /// Clears bit `i`; returns whether it was set.
    fn clear(&mut self, i: usize) -> bool {
        let (w, b) = (&mut self.0[i / 64], 1u64 << (i % 64));
        let was_set = *w & b != 0;
        *w &= !b;
        was_set
    }
}

/// How a value occurs in a block, for liveness.
#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum Occurrence {
    /// Read by a non-phi instruction before any definition in the block
    /// (upward exposed): live on entry.
    Exposed,
    /// Read by a phi of a successor along the edge from the block: live on
    /// exit.
    Edge,
}

/// `regs`: peak number of live SSA values of `f` (see module docs).
///
/// Liveness is computed per value, by walking backwards from each of its
/// upward-exposed uses (and phi uses, from the end of the incoming block)
/// through predecessors until its definition: the "path exploration" of
/// Boissinot et al., *Computing Liveness Sets for SSA-Form Programs*. Each
/// block's live-out set is a list holding only the values live there, so
/// time and memory grow with the size of the liveness sets themselves, not
/// with blocks times values as bit vectors per block would. The result is
/// the least solution of the usual backward equations (live-out: live-in of
/// the successors, less their phi results, plus the phi operands of each
/// edge; live-in: upward-exposed uses, plus live-out less the block's
/// definitions), each block is then walked backwards from its live-out set.
fn peak_live_values<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
    const NONE: u32 = u32::MAX;
    let blocks: Vec<BlockId> = m.blocks(f).collect();
    if blocks.is_empty() {
        return 0;
    }
    let bidx: HashMap<BlockId, usize> = blocks.iter().enumerate().map(|(k, &b)| (b, k)).collect();
    // Number the function's values; remember each one's defining block and
    // whether it is a phi result.
    let mut num: HashMap<ValueId, usize> = HashMap::new();
    let mut def_block: Vec<u32> = Vec::new();
    let mut is_phi: Vec<bool> = Vec::new();
    for p in m.params(f) {
        num.insert(p, def_block.len());
        def_block.push(NONE);
        is_phi.push(false);
    }
    let mut phi_results: Vec<Vec<usize>> = vec![Vec::new(); blocks.len()];
    for (k, &b) in blocks.iter().enumerate() {
        for i in m.insts(b) {
            let op = m.opcode(i);
            if op == Opcode::Alloca {
                continue;
            }
            if let Some(r) = m.inst_result(i) {
                let x = def_block.len();
                num.insert(r, x);
                def_block.push(k as u32);
                is_phi.push(op == Opcode::Phi);
                if op == Opcode::Phi {
                    phi_results[k].push(x);
                }
            }
        }
    }
    let n = def_block.len();
    // Occurrences, in one forward scan: a non-phi use is upward exposed
    // unless the value was defined earlier in the same block.
    let mut occ: Vec<(u32, Occurrence, u32)> = Vec::new();
    let mut defined = Bits::new(n);
    for (k, &b) in blocks.iter().enumerate() {
        for i in m.insts(b) {
            if m.opcode(i) == Opcode::Phi {
                for (v, pred) in m.phi_incoming(i) {
                    if let (Some(&x), Some(&p)) = (num.get(&v), bidx.get(&pred)) {
                        occ.push((x as u32, Occurrence::Edge, p as u32));
                    }
                }
            } else {
                for o in m.operands(i) {
                    if let Some(&x) = num.get(&o) {
                        if !(defined.contains(x) && def_block[x] == k as u32) {
                            occ.push((x as u32, Occurrence::Exposed, k as u32));
                        }
                    }
                }
            }
            if let Some(&r) = m.inst_result(i).and_then(|r| num.get(&r)) {
                defined.set(r);
            }
        }
    }
    occ.sort_unstable();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); blocks.len()];
    for (k, &b) in blocks.iter().enumerate() {
        for s in m.successors(b) {
            if let Some(&s) = bidx.get(&s) {
                preds[s].push(k as u32);
            }
        }
    }
    // Path exploration, one value at a time: `in_stamp[b] == x` marks `x`
    // live on entry to `b`, `out_stamp[b] == x` marks it live on exit (and
    // listed in `live_out[b]`).
    let mut live_out: Vec<Vec<u32>> = vec![Vec::new(); blocks.len()];
    let mut in_stamp = vec![NONE; blocks.len()];
    let mut out_stamp = vec![NONE; blocks.len()];
    let mut work: Vec<u32> = Vec::new();
    for &(x, kind, b) in &occ {
        let (xi, bi) = (x as usize, b as usize);
        let entry = match kind {
            Occurrence::Exposed => Some(b),
            Occurrence::Edge => {
                if out_stamp[bi] != x {
                    out_stamp[bi] = x;
                    live_out[bi].push(x);
                }
                (def_block[xi] != b).then_some(b)
            }
        };
        let Some(start) = entry else { continue };
        if in_stamp[start as usize] == x {
            continue;
        }
        in_stamp[start as usize] = x;
        work.push(start);
        while let Some(blk) = work.pop() {
            // A phi result is live on entry to its own block only.
            if is_phi[xi] && def_block[xi] == blk {
                continue;
            }
            for &p in &preds[blk as usize] {
                let pi = p as usize;
                if out_stamp[pi] != x {
                    out_stamp[pi] = x;
                    live_out[pi].push(x);
                }
                if def_block[xi] != p && in_stamp[pi] != x {
                    in_stamp[pi] = x;
                    work.push(p);
                }
            }
        }
    }
    // Walk each block backwards from its live-out set, in one bit set that
    // is emptied again after each block.
    let mut live = Bits::new(n);
    let mut touched: Vec<usize> = Vec::new();
    let mut peak = 0;
    for (k, &b) in blocks.iter().enumerate() {
        for &x in &live_out[k] {
            live.set(x as usize);
            touched.push(x as usize);
        }
        let mut size = live_out[k].len() as u64;
        peak = peak.max(size);
        let insts: Vec<InstId> = m.insts(b).collect();
        for &i in insts.iter().rev() {
            if m.opcode(i) == Opcode::Phi {
                break;
            }
            if let Some(&r) = m.inst_result(i).and_then(|r| num.get(&r)) {
                size -= u64::from(live.clear(r));
            }
            for o in m.operands(i) {
                if let Some(&x) = num.get(&o) {
                    if live.set(x) {
                        size += 1;
                        touched.push(x);
                    }
                }
            }
            peak = peak.max(size);
        }
        let phis_not_live = phi_results[k]
            .iter()
            .filter(|&&p| !live.contains(p))
            .count();
        peak = peak.max(size + phis_not_live as u64);
        for x in touched.drain(..) {
            live.clear(x);
        }
    }
    peak
}

/// `divergence`: branches of `f` whose condition is data-dependent on a
/// thread-varying source.
fn divergent_branches<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
    let mut tainted: HashSet<ValueId> = HashSet::new();
    let mut work: Vec<ValueId> = Vec::new();
    let mut branches: Vec<InstId> = Vec::new();
    for b in m.blocks(f) {
        for i in m.insts(b) {
            if is_branch(m, i) {
                branches.push(i);
            }
            let seed = matches!(m.opcode(i), Opcode::AtomicRmw | Opcode::AtomicCmpXchg)
                || callee_name(m, i).is_some_and(|n| starts_with_any(n, DIVERGENT_SREG_PREFIXES));
            if let (true, Some(r)) = (seed, m.inst_result(i)) {
                if tainted.insert(r) {
                    work.push(r);
                }
            }
        }
    }
    while let Some(v) = work.pop() {
        for u in m.inst_users(v) {
            if let Some(r) = m.inst_result(u) {
                if tainted.insert(r) {
                    work.push(r);
                }
            }
        }
    }
    branches
        .into_iter()
        .filter(|&i| m.operand(i, 0).is_some_and(|c| tainted.contains(&c)))
        .count() as u64
}

impl<M: IrView + ?Sized> ModuleAnalysis<M> for KernelInfoPrinter {
    fn info(&self) -> &'static PassInfo {
        &INFO
    }

    fn run(&mut self, m: &M, cx: &mut PassContext<'_>) -> Result<(), PassFailure> {
        if !cx.remarks_enabled() {
            return Ok(());
        }
        let kernels = KernelSet::compute(m);
        let defined: Vec<FuncId> = m
            .funcs()
            .filter(|&k| kernels.contains(k) && !m.func_is_declaration(k))
            .collect();
        let per_kernel = par_map_funcs(m, &defined, cx.threads(), kernel_remarks);
        for d in per_kernel.into_iter().flatten() {
            cx.emit(d);
        }
        Ok(())
    }
}

/// Registry constructor.
pub fn ctor<M: IrEdit + ?Sized>(_: &PassOptions) -> Result<AnyPass<M>, String> {
    Ok(AnyPass::Analysis(Box::new(KernelInfoPrinter)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};

    /// The dense reference: bit vectors per block, iterated to a fixed
    /// point over the backward equations the sparse version solves.
    fn dense_peak_live_values<M: IrView + ?Sized>(m: &M, f: FuncId) -> u64 {
        #[derive(Clone, PartialEq)]
        struct D(Vec<u64>);
        impl D {
            fn new(n: usize) -> D {
                D(vec![0; n.div_ceil(64)])
            }
            fn has(&self, i: usize) -> bool {
                self.0[i / 64] & (1 << (i % 64)) != 0
            }
            fn set(&mut self, i: usize) {
                self.0[i / 64] |= 1 << (i % 64);
            }
            fn clear(&mut self, i: usize) {
                self.0[i / 64] &= !(1 << (i % 64));
            }
            fn or(&mut self, o: &D) {
                self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a |= b);
            }
            fn minus(&mut self, o: &D) {
                self.0.iter_mut().zip(&o.0).for_each(|(a, b)| *a &= !b);
            }
            fn count(&self) -> u64 {
                self.0.iter().map(|w| u64::from(w.count_ones())).sum()
            }
        }
        let blocks: Vec<BlockId> = m.blocks(f).collect();
        if blocks.is_empty() {
            return 0;
        }
        let mut num: HashMap<ValueId, usize> = HashMap::new();
        for p in m.params(f) {
            let k = num.len();
            num.insert(p, k);
        }
        for &b in &blocks {
            for i in m.insts(b) {
                if let (false, Some(r)) = (m.opcode(i) == Opcode::Alloca, m.inst_result(i)) {
                    let k = num.len();
                    num.insert(r, k);
                }
            }
        }
        let n = num.len();
        let nb = blocks.len();
        let bidx: HashMap<BlockId, usize> =
            blocks.iter().enumerate().map(|(k, &b)| (b, k)).collect();
        let (mut ue, mut defs, mut phis) = (
            vec![D::new(n); nb],
            vec![D::new(n); nb],
            vec![D::new(n); nb],
        );
        let mut edge: HashMap<(usize, usize), D> = HashMap::new();
        for (k, &b) in blocks.iter().enumerate() {
            for i in m.insts(b) {
                if m.opcode(i) == Opcode::Phi {
                    for (v, p) in m.phi_incoming(i) {
                        if let (Some(&x), Some(&p)) = (num.get(&v), bidx.get(&p)) {
                            edge.entry((p, k)).or_insert_with(|| D::new(n)).set(x);
                        }
                    }
                } else {
                    for o in m.operands(i) {
                        if let Some(&x) = num.get(&o) {
                            if !defs[k].has(x) {
                                ue[k].set(x);
                            }
                        }
                    }
                }
                if let Some(&r) = m.inst_result(i).and_then(|r| num.get(&r)) {
                    defs[k].set(r);
                    if m.opcode(i) == Opcode::Phi {
                        phis[k].set(r);
                    }
                }
            }
        }
        let succs: Vec<Vec<usize>> = blocks
            .iter()
            .map(|&b| {
                m.successors(b)
                    .filter_map(|s| bidx.get(&s).copied())
                    .collect()
            })
            .collect();
        let (mut lin, mut lout) = (vec![D::new(n); nb], vec![D::new(n); nb]);
        let mut changed = true;
        while changed {
            changed = false;
            for k in (0..nb).rev() {
                let mut out = D::new(n);
                for &s in &succs[k] {
                    let mut t = lin[s].clone();
                    t.minus(&phis[s]);
                    out.or(&t);
                    if let Some(e) = edge.get(&(k, s)) {
                        out.or(e);
                    }
                }
                let mut inn = out.clone();
                inn.minus(&defs[k]);
                inn.or(&ue[k]);
                inn.or(&phis[k]);
                if out != lout[k] || inn != lin[k] {
                    (lout[k], lin[k], changed) = (out, inn, true);
                }
            }
        }
        let mut peak = 0;
        for (k, &b) in blocks.iter().enumerate() {
            let mut live = lout[k].clone();
            peak = peak.max(live.count());
            let insts: Vec<InstId> = m.insts(b).collect();
            for &i in insts.iter().rev() {
                if m.opcode(i) == Opcode::Phi {
                    break;
                }
                if let Some(&r) = m.inst_result(i).and_then(|r| num.get(&r)) {
                    live.clear(r);
                }
                for o in m.operands(i) {
                    if let Some(&x) = num.get(&o) {
                        live.set(x);
                    }
                }
                peak = peak.max(live.count());
            }
            live.or(&phis[k]);
            peak = peak.max(live.count());
        }
        peak
    }

    fn ll_files(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for p in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if p.is_dir() {
                ll_files(&p, out);
            } else if p.extension().is_some_and(|e| e == "ll") {
                out.push(p);
            }
        }
    }

    /// A chain of `n` if-then diamonds, each joining in a phi, closed into
    /// a loop, plus a value live across the whole function.
    fn diamonds(n: usize) -> String {
        let mut t = String::from(
            "define void @k(ptr %out, float %a, i32 %n) {\nentry:\n  %keep = fadd float %a, 3.0\n  br label %d0\n",
        );
        let mut prev = String::from("%a");
        for i in 0..n {
            let next = if i + 1 < n {
                format!("d{}", i + 1)
            } else {
                "latch".into()
            };
            t += &format!(
                "d{i}:\n  %c{i} = icmp sgt i32 %n, {i}\n  %x{i} = fadd float {prev}, 1.0\n  br i1 %c{i}, label %t{i}, label %j{i}\n\
                 t{i}:\n  %y{i} = fmul float %x{i}, 2.0\n  br label %j{i}\n\
                 j{i}:\n  %p{i} = phi float [ %y{i}, %t{i} ], [ %x{i}, %d{i} ]\n  br label %{next}\n"
            );
            prev = format!("%p{i}");
        }
        t += &format!(
            "latch:\n  %s = fadd float {prev}, %keep\n  store float %s, ptr %out, align 4\n  %again = fcmp olt float %s, 1.0e3\n  br i1 %again, label %d0, label %exit\nexit:\n  ret void\n}}\n"
        );
        t
    }

    /// The sparse liveness gives the dense fixed point's peak on every
    /// function of the lit inputs, the corpus and generated diamond chains.
    #[test]
    fn sparse_liveness_matches_dense() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = Vec::new();
        ll_files(&root.join("tests/lit"), &mut files);
        let corpus = std::env::var_os("NVPASS_CORPUS_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/root/.cache/nvpass-corpus/ll"));
        ll_files(&corpus, &mut files);
        let mut sources: Vec<Vec<u8>> = files
            .iter()
            .map(|p| std::fs::read(p).expect("read"))
            .collect();
        for n in [1, 2, 7, 40] {
            sources.push(diamonds(n).into_bytes());
        }
        // Not valid IR (a phi after another instruction, whose result that
        // instruction reads first), which the pass may still be run on
        // with verification off: both agree there too.
        sources.push(
            b"define void @late_phi(i1 %c, float %a) {\nentry:\n  %x1 = fadd float %a, 1.0\n  \
              %x2 = fadd float %a, 2.0\n  %x3 = fadd float %a, 3.0\n  %x4 = fadd float %x1, %x2\n  \
              %x5 = fadd float %x4, %x3\n  br label %b\nb:\n  \
              %u = fadd float %p, 1.0\n  %p = phi float [ %a, %entry ], [ %u, %b ]\n  \
              br i1 %c, label %b, label %e\ne:\n  ret void\n}\n"
                .to_vec(),
        );
        let (mut funcs, mut nonzero) = (0, 0);
        for src in &sources {
            let Ok(m) = nvpass_ir::parse_module(src) else {
                continue;
            };
            let defined: Vec<FuncId> = IrView::funcs(&m)
                .filter(|&f| !IrView::func_is_declaration(&m, f))
                .collect();
            for f in defined {
                let sparse = peak_live_values(&m, f);
                let name = IrView::func_name(&m, f);
                assert_eq!(sparse, dense_peak_live_values(&m, f), "{name}");
                funcs += 1;
                nonzero += usize::from(sparse > 0);
            }
        }
        assert!(
            funcs > 100 && nonzero > 50,
            "{funcs} functions, {nonzero} with live values"
        );
        // The last diamond chain keeps `%keep`, one diamond's value and the
        // loop-carried chain live at once.
        let m = nvpass_ir::parse_module(diamonds(40).as_bytes()).unwrap();
        let k = IrView::funcs(&m).next().unwrap();
        assert!(peak_live_values(&m, k) >= 4);
    }

    #[test]
    fn nineteen_metrics_in_spec_order() {
        assert_eq!(METRICS.len(), 19);
        assert_eq!(METRICS[0], "regs");
        assert_eq!(METRICS[16..], ["mma_ops", "tcgen05_ops", "tma_ops"]);
    }
}
