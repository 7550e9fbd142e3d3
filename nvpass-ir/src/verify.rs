//! The verifier: checks that a [`Module`] is well formed.
//!
//! [`verify_module`] never panics, whatever the module holds (dangling ids,
//! cyclic layout lists, bogus operand counts); it reports every problem it
//! finds and runs in time linear in the module size (plus a sort of each
//! phi's incoming list). It checks the invariants below; the tag in
//! brackets starts the message of the corresponding [`VerifyError`].
//!
//! Module level:
//! * `[use-list]` every operand slot (instruction operands, constant and
//!   metadata-value operands, global initializers, alias targets, function
//!   personality/prefix/prologue) names a use at `pos` in its value's user
//!   list that points back to that slot, and every entry of every user list
//!   points at a slot reading that value at that position (see
//!   [`verify_use_lists`]). [`verify_parsed_module`], for a module as the
//!   reader returned it, skips this one: the reader keeps it by
//!   construction.
//! * `[function]` each function listed in `Module::order` exists, its value
//!   is a `ValueKind::Func` naming it, its type is a function type whose
//!   parameter count and types match its parameters, each parameter value
//!   is `ValueKind::Arg` with the right function and index; declarations have
//!   no blocks and definitions have at least one.
//! * `[global]` a global's value is `ValueKind::Global` naming it and a
//!   pointer in the global's address space; its initializer, if any, has the
//!   global's value type and is not function-local (argument, instruction).
//!
//! Layout:
//! * `[layout]` a function's block list and each block's instruction list
//!   are well-linked (`prev`/`next` agree, no cycles), blocks name their
//!   function and are not erased, instructions name their block.
//!
//! Blocks:
//! * `[terminator]` every block is non-empty and ends in exactly one
//!   terminator, with no terminator before its end; successors are live
//!   blocks of the same function; the entry block has no predecessors.
//! * `[phi]` phis appear only at the start of a block; a phi has as many
//!   incoming blocks as values, each value of the phi's type; its incoming
//!   blocks equal the block's predecessors as a multiset (one entry per CFG
//!   edge) and entries for the same block carry the same value (equal
//!   constant expressions and aggregates count as the same value, as in
//!   LLVM where constants are uniqued).
//!
//! Instructions:
//! * `[result]` an instruction has a result exactly when its type is not
//!   `void`, and that result is `ValueKind::Inst` naming it with the same
//!   type.
//! * `[operand]` operands are live values: not placeholders, not results of
//!   detached or erased instructions, not arguments or instructions of
//!   another function.
//! * `[dominance]` every use of an instruction result is dominated by its
//!   definition (same block: defined earlier; phi uses: the definition
//!   dominates the end of the incoming block). Dominators are computed with
//!   the Cooper-Harvey-Kennedy algorithm over reverse post-order; uses in
//!   unreachable blocks are exempt, as in LLVM.
//! * `[type]` operand counts and types per opcode: binary operators take
//!   two operands of the result type (integer or float as the opcode
//!   requires); `fneg`/`freeze` keep their operand's type; `icmp`/`fcmp`
//!   compare two operands of one type and yield `i1` or a vector of `i1` of
//!   the same length; `select` takes an `i1` (or `i1` vector) and two values
//!   of the result type; `load` and `store` (and atomics, `getelementptr`)
//!   take a pointer operand, `store` stores any first-class value and has no
//!   result; `cmpxchg` compares and stores values of one type; casts are
//!   legal for their opcode (`trunc`/`zext`/`sext` between integers of
//!   decreasing/increasing width, `fptrunc`/`fpext` between float formats,
//!   float/int conversions, `ptrtoint`/`inttoptr`, `bitcast` between
//!   non-aggregate types of the same size and pointers of the same address
//!   space, `addrspacecast` between pointers of different address spaces;
//!   vectors element-wise with equal lengths); `ret` matches the
//!   function's return type; `br` has one block and no operand or an `i1`
//!   and two blocks; `switch` cases are integer constants of the
//!   condition's type, one per case block; `extractvalue`/`insertvalue`
//!   indices are in range and types agree; `extractelement`/`insertelement`
//!   operate on vectors; call-like instructions have a function type whose
//!   parameters match the arguments (extra arguments only when vararg),
//!   whose return type is the result type, and bundles that lie within the
//!   operands.

use crate::entity::{Block, Func, Inst, Type, Value};
use crate::inst::{Extra, InstData, Opcode};
use crate::module::{Module, TopLevel};
use crate::types::{FloatKind, TypeData};
use crate::value::{Const, Operand, Use, User, ValueKind};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use cranelift_entity::EntityRef;

/// One verification failure.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    /// The function, for errors inside one.
    pub func: Option<Func>,
    /// The function's name (empty for module-level errors and unnamed
    /// functions).
    pub func_name: String,
    /// The offending instruction, if any.
    pub inst: Option<Inst>,
    /// What is wrong; starts with the invariant's `[tag]`.
    pub message: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.func, self.func_name.is_empty()) {
            (Some(_), false) => write!(f, "in @{}", self.func_name)?,
            (Some(func), true) => write!(f, "in {func}")?,
            (None, _) => f.write_str("in module")?,
        }
        if let Some(i) = self.inst {
            write!(f, " at {i}")?;
        }
        write!(f, ": {}", self.message)
    }
}

impl VerifyError {
    /// The error with the offending instruction printed (best effort).
    pub fn describe(&self, m: &Module) -> String {
        let mut s = format!("{self}");
        if let Some(i) = self.inst {
            if printable(m, i) {
                s.push_str("\n    ");
                s.push_str(&crate::print::inst_to_string(m, i));
            }
        }
        s
    }
}

/// True when printing `i` cannot hit a dangling id.
fn printable(m: &Module, i: Inst) -> bool {
    let Some(d) = m.insts.get(i) else {
        return false;
    };
    let ok_ty = |t: Type| t.index() < m.types.len();
    d.result
        .expand()
        .is_none_or(|r| m.values.get(r).is_some_and(|v| ok_ty(v.ty)))
        && m.ops_of(d).iter().all(|o| {
            m.values.get(o.value).is_some_and(|v| {
                ok_ty(v.ty)
                    && (m.value_ops(o.value).iter()).all(|x| x.value.index() < m.values.len())
            })
        })
        && m.block_ops_of(d).iter().all(|b| b.index() < m.blocks.len())
        && m.seg_block(d.seg).is_some_and(|b| {
            m.blocks.get(b).is_some_and(|bd| {
                m.funcs
                    .get(bd.func)
                    .is_some_and(|f| f.params.iter().all(|p| p.value.index() < m.values.len()))
            })
        })
}

/// Verifies the whole module. Returns every error found.
pub fn verify_module(m: &Module) -> Result<(), Vec<VerifyError>> {
    verify_checks(m, Checks::All)
}

/// Which checks a verification makes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Checks {
    /// Every check.
    All,
    /// Every check but `[use-list]` (see [`verify_parsed_module`]).
    Parsed,
}

/// [`verify_module`] for a module exactly as the reader returned it
/// ([`crate::parse_module`], [`crate::parse::ModuleReader`]): every check
/// but `[use-list]`, whose invariant the reader keeps by construction. It
/// makes each operand slot together with its use, and a forward
/// reference's placeholder value becomes the definition itself, so its
/// uses stand. The `[use-list]` walk is the one check that visits every
/// value and every operand of the module in scattered order (about a third of
/// a whole verification's time on a 50 MB module); the other checks are what
/// LLVM's verifier checks of a file. A module a pass or an edit has
/// touched since it was read needs [`verify_module`].
pub fn verify_parsed_module(m: &Module) -> Result<(), Vec<VerifyError>> {
    verify_checks(m, Checks::Parsed)
}

fn verify_checks(m: &Module, checks: Checks) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier::new(m);
    if checks == Checks::All {
        v.use_lists();
    }
    v.globals();
    for t in &m.order {
        v.top_level_func(*t);
    }
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// [`verify_module`] on `threads` threads (feature `parallel`).
///
/// The work is cut into items: the module-wide use-list check, and the
/// module order in [`VERIFY_CHUNKS_PER_THREAD`] times `threads` runs of
/// consecutive top-level entities. Each function's checks read only the
/// module and the function (the per-function tables are reset after each
/// one), so the items are independent. The threads (this one and
/// `threads - 1` more) take the next unclaimed item until none is left,
/// which balances them whatever the functions' sizes, with nothing counted
/// beforehand; the use-list check is the first item, as it is the largest.
/// The errors of each item are kept apart and concatenated in the order
/// [`verify_module`] finds them (use lists, globals, functions in module
/// order), so the result is exactly its result.
#[cfg(feature = "parallel")]
pub fn verify_module_parallel(m: &Module, threads: usize) -> Result<(), Vec<VerifyError>> {
    verify_checks_parallel(m, threads, Checks::All)
}

/// [`verify_parsed_module`] on `threads` threads, as
/// [`verify_module_parallel`] divides the work (feature `parallel`).
#[cfg(feature = "parallel")]
pub fn verify_parsed_module_parallel(m: &Module, threads: usize) -> Result<(), Vec<VerifyError>> {
    verify_checks_parallel(m, threads, Checks::Parsed)
}

#[cfg(feature = "parallel")]
fn verify_checks_parallel(
    m: &Module,
    threads: usize,
    checks: Checks,
) -> Result<(), Vec<VerifyError>> {
    use core::sync::atomic::{AtomicUsize, Ordering};
    let threads = threads.clamp(1, m.order.len().max(1));
    if threads == 1 {
        return verify_checks(m, checks);
    }
    let len = m.order.len().div_ceil(threads * VERIFY_CHUNKS_PER_THREAD);
    let chunks: Vec<&[TopLevel]> = m.order.chunks(len.max(1)).collect();
    // Item 0 is the use-list check, item k > 0 is `chunks[k - 1]`; a
    // parsed module's checks start at item 1.
    let next = AtomicUsize::new(usize::from(checks == Checks::Parsed));
    let work = |w: &mut Verifier<'_>| -> Vec<(usize, Vec<VerifyError>)> {
        let mut found = Vec::new();
        loop {
            let k = next.fetch_add(1, Ordering::Relaxed);
            match k {
                0 => w.use_lists(),
                _ => match chunks.get(k - 1) {
                    Some(chunk) => chunk.iter().for_each(|t| w.top_level_func(*t)),
                    None => return found,
                },
            }
            if !w.errors.is_empty() {
                found.push((k, core::mem::take(&mut w.errors)));
            }
        }
    };
    let (mut globals, mut found) = std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = (1..threads)
            .map(|_| s.spawn(move || work(&mut Verifier::new(m))))
            .collect();
        // This thread checks the globals, then takes items like the others.
        let mut v = Verifier::new(m);
        v.globals();
        let globals = core::mem::take(&mut v.errors);
        let mut found = work(&mut v);
        for h in handles {
            found.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
        }
        (globals, found)
    });
    // The use lists' errors (item 0), the globals', the functions'.
    found.sort_unstable_by_key(|&(k, _)| k);
    let mut items = found.into_iter().peekable();
    let mut errors = items
        .next_if(|&(k, _)| k == 0)
        .map_or_else(Vec::new, |(_, e)| e);
    errors.append(&mut globals);
    errors.extend(items.flat_map(|(_, e)| e));
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Items of module order per thread in [`verify_module_parallel`]: enough
/// that the threads finish close together when functions differ in size,
/// few enough that claiming an item costs nothing next to checking it.
#[cfg(feature = "parallel")]
pub const VERIFY_CHUNKS_PER_THREAD: usize = 16;

/// Checks only the use-list invariant (`[use-list]`): every operand slot's
/// `pos` names a use that points back to the slot, and every use names a
/// slot that reads the value at that position.
pub fn verify_use_lists(m: &Module) -> Result<(), Vec<VerifyError>> {
    let mut v = Verifier::new(m);
    v.use_lists();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// Whether `a` and `b` denote the same value. Scalar constants are uniqued
/// but aggregates and constant expressions are not (each occurrence is its
/// own value, see [`crate::value`]); two of those are the same value when
/// their types, payloads and operands agree recursively, as LLVM's uniqued
/// constants would be. Non-constant values are the same only when equal.
/// Gives up (answering `false`) after `SAME_VALUE_STEPS` comparisons, so a
/// cyclic or huge constant cannot stall the verifier.
fn same_value(m: &Module, a: Value, b: Value) -> bool {
    const SAME_VALUE_STEPS: u32 = 4096;
    let mut work = alloc::vec![(a, b)];
    let mut steps = 0u32;
    while let Some((a, b)) = work.pop() {
        if a == b {
            continue;
        }
        steps += 1;
        if steps > SAME_VALUE_STEPS {
            return false;
        }
        let (Some(da), Some(db)) = (m.values.get(a), m.values.get(b)) else {
            return false;
        };
        let (ValueKind::Const(ca), ValueKind::Const(cb)) = (&da.kind, &db.kind) else {
            return false;
        };
        let (oa, ob) = (m.value_ops(a), m.value_ops(b));
        let same_payload = m.const_data.get(*ca) == m.const_data.get(*cb);
        if da.ty != db.ty || !same_payload || oa.len() != ob.len() {
            return false;
        }
        work.extend(oa.iter().zip(ob).map(|(x, y)| (x.value, y.value)));
    }
    true
}

/// Ids per page of [`Marks`].
const MARK_PAGE: usize = 1024;

/// A `u32` per entity for the verifier (`u32::MAX` when unset), kept in
/// pages of [`MARK_PAGE`] ids that exist only while they hold a mark.
///
/// The verifier marks the blocks and instructions of one function and
/// clears every mark before the next, so the pages in use at any time are
/// those the current function's ids fall in. A page whose last mark is
/// cleared goes back to a free list, all zeros, for the next page needed.
/// A table spanning the whole arena would be written through by every
/// verifying thread (2.8 MB per thread for the instructions of a 50 MB
/// module, faulted in page by page while the module is being printed);
/// these pages stay as many as the largest function needs. Each slot holds
/// the value plus one, so a page starts out as zeros.
struct Marks<K> {
    /// The arena size: ids from here on are dangling and keep no mark.
    len: usize,
    /// By page number: the page's index in `pages` plus one, zero when it
    /// has no page.
    dir: Vec<u32>,
    /// The pages, [`MARK_PAGE`] slots each, back to back.
    pages: Vec<u32>,
    /// By page index: how many of its slots are set.
    live: Vec<u32>,
    /// Page indices holding no mark and no page number.
    free: Vec<u32>,
    key: core::marker::PhantomData<K>,
}

impl<K: EntityRef> Marks<K> {
    fn new(n: usize) -> Self {
        Marks {
            len: n,
            dir: alloc::vec![0; n.div_ceil(MARK_PAGE)],
            pages: Vec::new(),
            live: Vec::new(),
            free: Vec::new(),
            key: core::marker::PhantomData,
        }
    }

    #[inline]
    fn get(&self, k: K) -> u32 {
        let i = k.index();
        if i >= self.len {
            return u32::MAX;
        }
        match self.dir[i / MARK_PAGE] {
            0 => u32::MAX,
            p => self.pages[(p as usize - 1) * MARK_PAGE + i % MARK_PAGE].wrapping_sub(1),
        }
    }

    /// Sets the mark of `k` (`u32::MAX` clears it); a key past the arena
    /// it was sized for is dangling (the verifier checks keys before
    /// marking them) and keeps no mark.
    #[inline]
    fn set(&mut self, k: K, v: u32) {
        let i = k.index();
        if i >= self.len {
            return;
        }
        let stored = v.wrapping_add(1);
        let page_no = i / MARK_PAGE;
        let p = match self.dir[page_no] {
            0 if stored == 0 => return,
            0 => {
                let p = self.free.pop().unwrap_or_else(|| {
                    self.pages.resize(self.pages.len() + MARK_PAGE, 0);
                    self.live.push(0);
                    self.live.len() as u32 - 1
                });
                self.dir[page_no] = p + 1;
                p as usize
            }
            p => p as usize - 1,
        };
        let slot = &mut self.pages[p * MARK_PAGE + i % MARK_PAGE];
        let was = core::mem::replace(slot, stored);
        match (was, stored) {
            (0, 0) => {}
            (0, _) => self.live[p] += 1,
            (_, 0) => {
                self.live[p] -= 1;
                if self.live[p] == 0 {
                    self.dir[page_no] = 0;
                    self.free.push(p as u32);
                }
            }
            _ => {}
        }
    }
}

struct Verifier<'a> {
    m: &'a Module,
    errors: Vec<VerifyError>,
    /// The CFG of the current function, and the lists building it; both
    /// keep their room from one function to the next.
    cfg: Cfg,
    cfg_scratch: CfgScratch,
    /// Dense index of each block of the current function.
    bidx: Marks<Block>,
    /// Position of each instruction within its block.
    ipos: Marks<Inst>,
    cur: Option<Func>,
}

/// Per-function CFG and dominator tree.
#[derive(Default)]
struct Cfg {
    blocks: Vec<Block>,
    preds: Adjacency,
    /// Reverse-post-order number, u32::MAX when unreachable.
    rpo: Vec<u32>,
    /// Dominator-tree DFS interval.
    pre: Vec<u32>,
    post: Vec<u32>,
}

/// Working lists of [`Verifier::cfg`].
#[derive(Default)]
struct CfgScratch {
    edges: Vec<(u32, u32)>,
    succs: Adjacency,
    post_order: Vec<u32>,
    visited: Vec<bool>,
    stack: Vec<(u32, usize)>,
    order: Vec<u32>,
    idom: Vec<u32>,
    children: Adjacency,
}

/// Lists of block indices per block (successors, predecessors, dominator
/// tree children), stored flat: two lists for a function however many
/// blocks it has, instead of one per block.
#[derive(Default)]
struct Adjacency {
    /// Where each block's list starts in `items`; one more entry than
    /// blocks.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Adjacency {
    /// Refills the lists for `n` blocks from `(block, item)` pairs; each
    /// list keeps the order its pairs came in.
    fn group(&mut self, n: usize, pairs: impl Iterator<Item = (u32, u32)> + Clone) {
        let starts = &mut self.starts;
        starts.clear();
        starts.resize(n + 1, 0);
        for (a, _) in pairs.clone() {
            starts[a as usize + 1] += 1;
        }
        for i in 0..n {
            starts[i + 1] += starts[i];
        }
        self.items.clear();
        self.items.resize(starts[n] as usize, 0);
        // Each block's start doubles as its cursor; afterwards it holds the
        // next block's start, so the starts move up one place.
        for (a, b) in pairs {
            let slot = &mut starts[a as usize];
            self.items[*slot as usize] = b;
            *slot += 1;
        }
        starts.pop();
        starts.insert(0, 0);
    }

    fn of(&self, b: u32) -> &[u32] {
        let b = b as usize;
        &self.items[self.starts[b] as usize..self.starts[b + 1] as usize]
    }
}

impl Cfg {
    fn reachable(&self, b: u32) -> bool {
        self.rpo[b as usize] != u32::MAX
    }

    /// `a` dominates `b` (both reachable).
    fn dominates(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        self.pre[a] <= self.pre[b] && self.post[b] <= self.post[a]
    }
}

impl<'a> Verifier<'a> {
    fn new(m: &'a Module) -> Self {
        Verifier {
            m,
            errors: Vec::new(),
            cfg: Cfg::default(),
            cfg_scratch: CfgScratch::default(),
            bidx: Marks::new(m.blocks.len()),
            ipos: Marks::new(m.insts.len()),
            cur: None,
        }
    }

    /// Verifies `t` when it is a function (or reports a missing one).
    fn top_level_func(&mut self, t: TopLevel) {
        if let TopLevel::Func(f) = t {
            if self.m.funcs.get(f).is_some_and(|d| !d.erased) {
                self.function(f);
            } else if self.m.funcs.get(f).is_none() {
                self.cur = None;
                self.err(None, format!("[function] module order names missing {f}"));
            }
        }
    }

    fn err(&mut self, inst: Option<Inst>, message: String) {
        let func = self.cur;
        let func_name = func
            .and_then(|f| self.m.funcs.get(f))
            .and_then(|fd| self.m.values.get(fd.value))
            .and_then(|v| v.name)
            .map(|s| String::from(self.m.strings.text(s)))
            .unwrap_or_default();
        self.errors.push(VerifyError {
            func,
            func_name,
            inst,
            message,
        });
    }

    fn tyd(&self, t: Type) -> Option<&'a TypeData> {
        (t.index() < self.m.types.len()).then(|| self.m.types.get(t))
    }

    fn vty(&self, v: Value) -> Option<Type> {
        self.m.values.get(v).map(|d| d.ty)
    }

    // ----- use lists ------------------------------------------------------

    fn check_slot(&mut self, user: User, index: usize, o: Operand, bad: &mut u32) {
        let ok = self
            .m
            .values
            .get(o.value)
            .and_then(|v| self.m.users_of(v).get(o.pos as usize))
            .is_some_and(|u| u.user() == user && u.index() as usize == index);
        if !ok {
            *bad += 1;
            if *bad <= 16 {
                self.err(
                    None,
                    format!(
                        "[use-list] operand {index} of {user:?} reads {} at pos {} but that use does not point back",
                        o.value, o.pos
                    ),
                );
            }
        }
    }

    fn slot(&self, u: Use) -> Option<Operand> {
        let i = u.index() as usize;
        let m = self.m;
        match u.user() {
            User::Inst(x) => m.ops_of(m.insts.get(x)?).get(i).copied(),
            User::Value(x) => m.value_ops(x).get(i).copied(),
            User::GlobalInit(g) => {
                if i != 0 {
                    return None;
                }
                m.globals.get(g)?.init
            }
            User::Alias(a) => {
                if i != 0 {
                    return None;
                }
                Some(m.aliases.get(a)?.target)
            }
            User::Func(f) => *m.funcs.get(f)?.extras().extra_ops.get(i)?,
        }
    }

    /// Checks that operand slots and use lists mirror each other.
    ///
    /// Every operand slot is looked up in its value's use list (the walk
    /// follows the instruction arena in order). A slot whose use points
    /// back to it is matched with that use alone, since a use names one
    /// slot, so when all slots match and the module holds as many uses as
    /// slots, every use is matched and points back to its slot too. The
    /// use lists are then walked one by one only when a count differs, to
    /// name the stray uses; a valid module never pays for that second,
    /// scattered walk.
    fn use_lists(&mut self) {
        let m = self.m;
        let mut bad = 0u32;
        let mut slots = 0usize;
        for (i, d) in m.insts.iter() {
            slots += d.ops.len();
            for (k, o) in m.ops_of(d).iter().enumerate() {
                self.check_slot(User::Inst(i), k, *o, &mut bad);
            }
        }
        let mut uses = 0usize;
        for d in m.values.values() {
            uses += m.users_of(d).len();
        }
        // In value order, so that problems are reported deterministically.
        let mut with_ops: Vec<Value> = m.value_ops.keys().copied().collect();
        with_ops.sort_unstable();
        for v in with_ops {
            let ops = m.value_ops(v);
            slots += ops.len();
            for (k, o) in ops.iter().enumerate() {
                self.check_slot(User::Value(v), k, *o, &mut bad);
            }
        }
        for (g, d) in m.globals.iter() {
            if let Some(o) = d.init {
                slots += 1;
                self.check_slot(User::GlobalInit(g), 0, o, &mut bad);
            }
        }
        for (a, d) in m.aliases.iter() {
            slots += 1;
            self.check_slot(User::Alias(a), 0, d.target, &mut bad);
        }
        for (f, d) in m.funcs.iter() {
            for (k, o) in d.extras().extra_ops.iter().enumerate() {
                if let Some(o) = o {
                    slots += 1;
                    self.check_slot(User::Func(f), k, *o, &mut bad);
                }
            }
        }
        if bad != 0 || uses != slots {
            self.stray_uses(&mut bad);
        }
        if bad > 16 {
            self.err(
                None,
                format!("[use-list] {} more use-list errors", bad - 16),
            );
        }
    }

    /// Reports every use that does not name an operand slot reading its
    /// value at its position.
    fn stray_uses(&mut self, bad: &mut u32) {
        let m = self.m;
        for (v, d) in m.values.iter() {
            for (pos, u) in m.users_of(d).iter().enumerate() {
                let ok = self
                    .slot(*u)
                    .is_some_and(|o| o.value == v && o.pos as usize == pos);
                if !ok {
                    *bad += 1;
                    if *bad <= 16 {
                        self.err(
                            None,
                            format!(
                                "[use-list] use {pos} of {v} names operand {} of {:?}, which does not read it at that position",
                                u.index(), u.user()
                            ),
                        );
                    }
                }
            }
        }
    }

    // ----- globals --------------------------------------------------------

    fn globals(&mut self) {
        let m = self.m;
        self.cur = None;
        for t in &m.order {
            let TopLevel::Global(g) = *t else { continue };
            let Some(gd) = m.globals.get(g) else {
                self.err(None, format!("[global] module order names missing {g}"));
                continue;
            };
            if gd.erased {
                continue;
            }
            match m.values.get(gd.value) {
                Some(vd) if vd.kind == ValueKind::Global(g) => {
                    if self.tyd(vd.ty) != Some(&TypeData::Ptr(gd.addrspace)) {
                        self.err(
                            None,
                            format!(
                                "[global] {g}: value type is not ptr addrspace({})",
                                gd.addrspace
                            ),
                        );
                    }
                }
                _ => self.err(
                    None,
                    format!("[global] {g}: value does not name the global"),
                ),
            }
            if let Some(init) = gd.init {
                match m.values.get(init.value) {
                    None => self.err(None, format!("[global] {g}: dangling initializer")),
                    Some(iv) => {
                        if iv.ty != gd.value_ty {
                            self.err(
                                None,
                                format!("[global] {g}: initializer type differs from value type"),
                            );
                        }
                        if matches!(
                            iv.kind,
                            ValueKind::Arg { .. } | ValueKind::Inst(_) | ValueKind::Placeholder
                        ) {
                            self.err(None, format!("[global] {g}: initializer is not a constant"));
                        }
                    }
                }
            }
        }
    }

    // ----- functions ------------------------------------------------------

    fn function(&mut self, f: Func) {
        let m = self.m;
        self.cur = Some(f);
        let fd = &m.funcs[f];
        if m.values.get(fd.value).map(|v| &v.kind) != Some(&ValueKind::Func(f)) {
            self.err(
                None,
                "[function] function value does not name the function".into(),
            );
        }
        let sig = self
            .tyd(fd.ty)
            .and_then(|_| m.types.func_sig(fd.ty))
            .map(|(r, p, va)| (r, p.to_vec(), va));
        let Some((ret_ty, param_tys, _vararg)) = sig else {
            self.err(
                None,
                "[function] function type is not a function type".into(),
            );
            return;
        };
        if param_tys.len() != fd.params.len() {
            self.err(
                None,
                format!(
                    "[function] {} parameters but the type has {}",
                    fd.params.len(),
                    param_tys.len()
                ),
            );
        }
        for (i, p) in fd.params.iter().enumerate() {
            match m.values.get(p.value) {
                Some(vd) => {
                    if vd.kind
                        != (ValueKind::Arg {
                            func: f,
                            index: i as u32,
                        })
                    {
                        self.err(
                            None,
                            format!("[function] parameter {i} is not Arg({f}, {i})"),
                        );
                    }
                    if param_tys.get(i).is_some_and(|&t| t != vd.ty) {
                        self.err(
                            None,
                            format!("[function] parameter {i} type differs from the function type"),
                        );
                    }
                }
                None => self.err(None, format!("[function] parameter {i} is dangling")),
            }
        }
        let has_blocks = fd.first_block.is_some();
        if !fd.is_definition {
            if has_blocks {
                self.err(None, "[function] declaration has blocks".into());
            }
            return;
        }
        if !has_blocks {
            self.err(None, "[function] definition has no blocks".into());
            return;
        }
        let Some(blocks) = self.layout(f) else {
            return;
        };
        let mut cfg = core::mem::take(&mut self.cfg);
        let mut sc = core::mem::take(&mut self.cfg_scratch);
        self.cfg(blocks, &mut cfg, &mut sc);
        self.blocks_and_insts(f, &cfg, ret_ty);
        self.cfg = cfg;
        self.cfg_scratch = sc;
    }

    /// Walks the block and instruction lists; returns the blocks when the
    /// layout is sound enough to go on.
    fn layout(&mut self, f: Func) -> Option<Vec<Block>> {
        let m = self.m;
        let fd = &m.funcs[f];
        let mut blocks = Vec::new();
        let mut prev = None;
        let mut cur = fd.first_block.expand();
        let mut ok = true;
        while let Some(b) = cur {
            if blocks.len() > m.blocks.len() {
                self.err(None, "[layout] block list is cyclic".into());
                return None;
            }
            let Some(bd) = m.blocks.get(b) else {
                self.err(None, format!("[layout] dangling block {b}"));
                return None;
            };
            if bd.func != f {
                self.err(None, format!("[layout] {b} belongs to {}", bd.func));
                ok = false;
            }
            if bd.erased {
                self.err(None, format!("[layout] {b} is erased but still linked"));
                ok = false;
            }
            if bd.prev.expand() != prev {
                self.err(None, format!("[layout] {b}: prev link is wrong"));
                ok = false;
            }
            if self.bidx.get(b) != u32::MAX {
                self.err(None, "[layout] block list is cyclic".into());
                return None;
            }
            self.bidx.set(b, blocks.len() as u32);
            blocks.push(b);
            prev = Some(b);
            cur = bd.next.expand();
        }
        if fd.last_block.expand() != prev {
            self.err(None, "[layout] last_block is wrong".into());
            ok = false;
        }
        // Instruction lists.
        let mut count = 0usize;
        for &b in &blocks {
            let bd = &m.blocks[b];
            let mut prev = None;
            let mut cur = bd.first.expand();
            let mut pos = 0u32;
            while let Some(i) = cur {
                count += 1;
                crate::prefetch::insts_ahead(&m.insts, i);
                if count > m.insts.len() {
                    self.err(None, format!("[layout] instruction list of {b} is cyclic"));
                    self.reset_marks(&blocks);
                    return None;
                }
                let Some(d) = m.insts.get(i) else {
                    self.err(None, format!("[layout] dangling instruction {i} in {b}"));
                    self.reset_marks(&blocks);
                    return None;
                };
                if m.seg_block(d.seg) != Some(b) {
                    self.err(
                        Some(i),
                        format!("[layout] instruction in {b} does not name it"),
                    );
                    ok = false;
                }
                if d.prev.expand() != prev {
                    self.err(Some(i), "[layout] prev link is wrong".into());
                    ok = false;
                }
                if self.ipos.get(i) != u32::MAX {
                    self.err(Some(i), "[layout] instruction listed twice".into());
                    self.reset_marks(&blocks);
                    return None;
                }
                self.ipos.set(i, pos);
                pos += 1;
                prev = Some(i);
                cur = d.next.expand();
            }
            if bd.last.expand() != prev {
                self.err(None, format!("[layout] {b}: last link is wrong"));
                ok = false;
            }
        }
        if !ok {
            self.reset_marks(&blocks);
            return None;
        }
        Some(blocks)
    }

    fn reset_marks(&mut self, blocks: &[Block]) {
        let m = self.m;
        for &b in blocks {
            self.bidx.set(b, u32::MAX);
            let mut cur = m.blocks.get(b).and_then(|bd| bd.first.expand());
            let mut n = 0usize;
            while let Some(i) = cur {
                n += 1;
                if n > m.insts.len() || self.ipos.get(i) == u32::MAX {
                    break;
                }
                self.ipos.set(i, u32::MAX);
                cur = m.insts.get(i).and_then(|d| d.next.expand());
            }
        }
    }

    /// Builds the CFG and its dominator tree (Cooper-Harvey-Kennedy).
    /// Fills `cfg` (emptied first, its room kept) with the CFG of
    /// `blocks` and its dominator tree; `sc` holds the working lists.
    fn cfg(&mut self, blocks: Vec<Block>, cfg: &mut Cfg, sc: &mut CfgScratch) {
        let m = self.m;
        let n = blocks.len();
        // Edges in block order, each block's in successor order.
        sc.edges.clear();
        for (bi, &b) in blocks.iter().enumerate() {
            let Some(t) = m.blocks[b].last.expand() else {
                continue;
            };
            let d = &m.insts[t];
            if !d.opcode.is_terminator() {
                continue;
            }
            for &s in m.block_ops_of(d) {
                let si = if m.blocks.get(s).is_some() {
                    self.bidx.get(s)
                } else {
                    u32::MAX
                };
                if si == u32::MAX {
                    self.err(
                        Some(t),
                        format!("[terminator] successor {s} is not a block of this function"),
                    );
                    continue;
                }
                sc.edges.push((bi as u32, si));
            }
        }
        sc.succs.group(n, sc.edges.iter().copied());
        cfg.preds.group(n, sc.edges.iter().map(|&(a, b)| (b, a)));
        let (succs, preds) = (&sc.succs, &cfg.preds);
        // Post-order DFS from the entry.
        let post_order = &mut sc.post_order;
        post_order.clear();
        sc.visited.clear();
        sc.visited.resize(n, false);
        let visited = &mut sc.visited;
        let stack = &mut sc.stack;
        stack.clear();
        stack.push((0, 0));
        visited[0] = true;
        while let Some(&mut (b, ref mut k)) = stack.last_mut() {
            if let Some(&s) = succs.of(b).get(*k) {
                *k += 1;
                if !visited[s as usize] {
                    visited[s as usize] = true;
                    stack.push((s, 0));
                }
            } else {
                post_order.push(b);
                stack.pop();
            }
        }
        let rpo = &mut cfg.rpo;
        rpo.clear();
        rpo.resize(n, u32::MAX);
        let order = &mut sc.order;
        order.clear();
        order.extend(post_order.iter().rev().copied());
        for (k, &b) in order.iter().enumerate() {
            rpo[b as usize] = k as u32;
        }
        // Cooper-Harvey-Kennedy on RPO numbers.
        let r = order.len();
        let idom = &mut sc.idom;
        idom.clear();
        idom.resize(r, u32::MAX);
        if r > 0 {
            idom[0] = 0;
        }
        let mut changed = true;
        while changed {
            changed = false;
            for k in 1..r {
                let b = order[k];
                let mut new = u32::MAX;
                for &p in preds.of(b) {
                    let pr = rpo[p as usize];
                    if pr == u32::MAX || idom[pr as usize] == u32::MAX {
                        continue;
                    }
                    new = if new == u32::MAX {
                        pr
                    } else {
                        let (mut a, mut c) = (new, pr);
                        while a != c {
                            while a > c {
                                a = idom[a as usize];
                            }
                            while c > a {
                                c = idom[c as usize];
                            }
                        }
                        a
                    };
                }
                if new != u32::MAX && idom[k] != new {
                    idom[k] = new;
                    changed = true;
                }
            }
        }
        // Dominator tree intervals.
        sc.children.group(
            r,
            (1..r)
                .filter(|&k| idom[k] != u32::MAX)
                .map(|k| (idom[k], k as u32)),
        );
        let children = &sc.children;
        let (pre, post) = (&mut cfg.pre, &mut cfg.post);
        pre.clear();
        pre.resize(n, u32::MAX);
        post.clear();
        post.resize(n, 0);
        let mut clock = 0u32;
        if r > 0 {
            stack.clear();
            stack.push((0, 0));
            pre[order[0] as usize] = clock;
            clock += 1;
            while let Some(&mut (k, ref mut c)) = stack.last_mut() {
                if let Some(&ch) = children.of(k).get(*c) {
                    *c += 1;
                    pre[order[ch as usize] as usize] = clock;
                    clock += 1;
                    stack.push((ch, 0));
                } else {
                    post[order[k as usize] as usize] = clock;
                    clock += 1;
                    stack.pop();
                }
            }
        }
        cfg.blocks = blocks;
    }

    fn blocks_and_insts(&mut self, f: Func, cfg: &Cfg, ret_ty: Type) {
        let m = self.m;
        if !cfg.blocks.is_empty() && !cfg.preds.of(0).is_empty() {
            self.err(None, "[terminator] entry block has predecessors".into());
        }
        for (bi, &b) in cfg.blocks.iter().enumerate() {
            let bd = &m.blocks[b];
            if bd.first.is_none() {
                self.err(None, format!("[terminator] {b} is empty"));
                continue;
            }
            let mut cur = bd.first.expand();
            let mut seen_non_phi = false;
            while let Some(i) = cur {
                let d = &m.insts[i];
                cur = d.next.expand();
                let is_last = cur.is_none();
                if d.opcode.is_terminator() && !is_last {
                    self.err(
                        Some(i),
                        format!("[terminator] terminator in the middle of {b}"),
                    );
                }
                if is_last && !d.opcode.is_terminator() {
                    self.err(
                        Some(i),
                        format!("[terminator] {b} does not end in a terminator"),
                    );
                }
                if d.opcode == Opcode::Phi {
                    if seen_non_phi {
                        self.err(Some(i), "[phi] phi is not at the start of its block".into());
                    }
                    self.phi(i, d, bi as u32, cfg);
                } else {
                    seen_non_phi = true;
                }
                self.inst(f, i, d, bi as u32, cfg, ret_ty);
            }
        }
        self.reset_marks(&cfg.blocks);
    }

    fn phi(&mut self, i: Inst, d: &InstData, bi: u32, cfg: &Cfg) {
        let dty = self.m.ty_of(d);
        if d.ops.len() != d.blocks.len() {
            self.err(
                Some(i),
                format!(
                    "[phi] {} incoming values but {} incoming blocks",
                    d.ops.len(),
                    d.blocks.len()
                ),
            );
            return;
        }
        let mut inc: Vec<(u32, Value)> = Vec::with_capacity(d.blocks.len());
        for (k, &b) in self.m.block_ops_of(d).iter().enumerate() {
            let idx = if self.m.blocks.get(b).is_some() {
                self.bidx.get(b)
            } else {
                u32::MAX
            };
            if idx == u32::MAX {
                self.err(
                    Some(i),
                    format!("[phi] incoming block {b} is not in this function"),
                );
                return;
            }
            inc.push((idx, self.m.ops_of(d)[k].value));
        }
        inc.sort_unstable();
        let mut preds = cfg.preds.of(bi).to_vec();
        preds.sort_unstable();
        if inc.len() != preds.len() || inc.iter().zip(&preds).any(|(a, b)| a.0 != *b) {
            self.err(
                Some(i),
                "[phi] incoming blocks do not match the block's predecessors".into(),
            );
        }
        for w in inc.windows(2) {
            if w[0].0 == w[1].0 && !same_value(self.m, w[0].1, w[1].1) {
                self.err(
                    Some(i),
                    format!(
                        "[phi] entries for {} carry different values",
                        cfg.blocks[w[0].0 as usize]
                    ),
                );
            }
        }
        for o in self.m.ops_of(d) {
            if self.vty(o.value).is_some_and(|t| t != dty) {
                self.err(
                    Some(i),
                    "[phi] incoming value type differs from the phi type".into(),
                );
                break;
            }
        }
    }

    fn inst(&mut self, f: Func, i: Inst, d: &InstData, bi: u32, cfg: &Cfg, ret_ty: Type) {
        let m = self.m;
        // Result. The instruction's type is its result's (void without
        // one), so only the result value itself can be wrong.
        if let Some(r) = d.result.expand() {
            let Some(rv) = m.values.get(r) else {
                self.err(Some(i), "[result] dangling result value".into());
                return;
            };
            if self.tyd(rv.ty).is_none() {
                self.err(Some(i), "[result] instruction type is dangling".into());
                return;
            }
            if rv.kind != ValueKind::Inst(i) {
                self.err(
                    Some(i),
                    "[result] result value does not name the instruction".into(),
                );
            }
            if self.tyd(rv.ty) == Some(&TypeData::Void) {
                self.err(Some(i), "[result] void instruction has a result".into());
            }
        }
        // Operands and dominance.
        let mut ops_ok = true;
        for (k, o) in m.ops_of(d).iter().enumerate() {
            let Some(vd) = m.values.get(o.value) else {
                self.err(Some(i), format!("[operand] operand {k} is dangling"));
                ops_ok = false;
                continue;
            };
            if vd.ty.index() >= m.types.len() {
                self.err(
                    Some(i),
                    format!("[operand] operand {k} has a dangling type"),
                );
                ops_ok = false;
                continue;
            }
            match vd.kind {
                ValueKind::Placeholder => {
                    self.err(
                        Some(i),
                        format!("[operand] operand {k} is an unresolved placeholder"),
                    );
                }
                ValueKind::Arg { func, .. } if func != f => {
                    self.err(
                        Some(i),
                        format!("[operand] operand {k} is an argument of {func}"),
                    );
                }
                ValueKind::Inst(def) => self.dominance(i, d, k, def, bi, cfg),
                ValueKind::Metadata(_) => {
                    if let Some(inner) = m.value_ops(o.value).first() {
                        match m.values.get(inner.value).map(|x| &x.kind) {
                            Some(ValueKind::Arg { func, .. }) if *func != f => self.err(
                                Some(i),
                                format!("[operand] operand {k} wraps an argument of {func}"),
                            ),
                            Some(ValueKind::Inst(def)) => {
                                let def = *def;
                                self.foreign_or_erased(i, k, def);
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if ops_ok {
            self.types(i, d, ret_ty);
        }
    }

    /// Reports a use of an instruction of another function or a detached
    /// one; returns the def's block index in the current function.
    fn foreign_or_erased(&mut self, i: Inst, k: usize, def: Inst) -> Option<u32> {
        let m = self.m;
        let Some(dd) = m.insts.get(def) else {
            self.err(
                Some(i),
                format!("[operand] operand {k} names a dangling instruction"),
            );
            return None;
        };
        let Some(db) = m.seg_block(dd.seg) else {
            self.err(
                Some(i),
                format!("[operand] operand {k} uses the result of erased or detached {def}"),
            );
            return None;
        };
        let Some(dbd) = m.blocks.get(db) else {
            self.err(
                Some(i),
                format!("[operand] operand {k} is defined in a dangling block"),
            );
            return None;
        };
        if Some(dbd.func) != self.cur {
            self.err(
                Some(i),
                format!(
                    "[operand] operand {k} is defined in another function ({})",
                    dbd.func
                ),
            );
            return None;
        }
        let idx = self.bidx.get(db);
        if idx == u32::MAX {
            self.err(
                Some(i),
                format!("[operand] operand {k} is defined in a block not in the layout"),
            );
            return None;
        }
        Some(idx)
    }

    fn dominance(&mut self, i: Inst, d: &InstData, k: usize, def: Inst, bi: u32, cfg: &Cfg) {
        let Some(db) = self.foreign_or_erased(i, k, def) else {
            return;
        };
        if d.opcode == Opcode::Phi {
            let Some(&inc) = self.m.block_ops_of(d).get(k) else {
                return;
            };
            let ib = if self.m.blocks.get(inc).is_some() {
                self.bidx.get(inc)
            } else {
                u32::MAX
            };
            if ib == u32::MAX || !cfg.reachable(ib) {
                return;
            }
            if !cfg.reachable(db) || !cfg.dominates(db, ib) {
                self.err(
                    Some(i),
                    format!("[dominance] incoming value {k} does not dominate the end of its incoming block"),
                );
            }
            return;
        }
        if !cfg.reachable(bi) {
            return;
        }
        let ok = if db == bi {
            self.ipos.get(def) < self.ipos.get(i)
        } else {
            cfg.reachable(db) && cfg.dominates(db, bi)
        };
        if !ok {
            self.err(
                Some(i),
                format!("[dominance] operand {k} ({def}) does not dominate this use"),
            );
        }
    }

    // ----- types ------------------------------------------------------------

    fn is_int_or_vec(&self, t: Type) -> bool {
        match self.tyd(t) {
            Some(TypeData::Int(_)) => true,
            Some(TypeData::Vector { elem, .. }) => {
                matches!(self.tyd(*elem), Some(TypeData::Int(_)))
            }
            _ => false,
        }
    }

    fn is_fp_or_vec(&self, t: Type) -> bool {
        match self.tyd(t) {
            Some(TypeData::Float(_)) => true,
            Some(TypeData::Vector { elem, .. }) => {
                matches!(self.tyd(*elem), Some(TypeData::Float(_)))
            }
            _ => false,
        }
    }

    fn is_ptr_or_vec(&self, t: Type) -> bool {
        match self.tyd(t) {
            Some(TypeData::Ptr(_)) => true,
            Some(TypeData::Vector { elem, .. }) => {
                matches!(self.tyd(*elem), Some(TypeData::Ptr(_)))
            }
            _ => false,
        }
    }

    fn is_ptr(&self, t: Type) -> bool {
        matches!(self.tyd(t), Some(TypeData::Ptr(_)))
    }

    /// `(element type, Some(len))` for vectors, `(t, None)` otherwise.
    fn split_vec(&self, t: Type) -> (Type, Option<(u32, bool)>) {
        match self.tyd(t) {
            Some(TypeData::Vector {
                len,
                elem,
                scalable,
            }) => (*elem, Some((*len, *scalable))),
            _ => (t, None),
        }
    }

    /// Bit size of a non-aggregate first-class type (vectors included).
    fn prim_bits(&self, t: Type) -> Option<u64> {
        match self.tyd(t)? {
            TypeData::Int(b) => Some(*b as u64),
            TypeData::Float(k) => Some(k.bits() as u64),
            TypeData::Vector {
                len,
                elem,
                scalable: false,
            } => Some(*len as u64 * self.prim_bits(*elem)?),
            _ => None,
        }
    }

    fn ty_err(&mut self, i: Inst, msg: &str) {
        self.err(Some(i), format!("[type] {msg}"));
    }

    fn types(&mut self, i: Inst, d: &InstData, ret_ty: Type) {
        let dty = self.m.ty_of(d);
        let m = self.m;
        let op = d.opcode;
        let n = d.ops.len();
        let ot = |k: usize| m.values[m.ops_of(d)[k].value].ty;
        let want = |s: &mut Self, cond: bool, msg: &str| {
            if !cond {
                s.ty_err(i, msg);
            }
        };
        if op.is_binary() {
            if n != 2 {
                return want(self, false, "binary operator needs two operands");
            }
            want(
                self,
                ot(0) == dty && ot(1) == dty,
                "binary operator operands must have the result type",
            );
            let fp = matches!(
                op,
                Opcode::FAdd | Opcode::FSub | Opcode::FMul | Opcode::FDiv | Opcode::FRem
            );
            if fp {
                want(
                    self,
                    self.is_fp_or_vec(dty),
                    "floating-point operator on non-float type",
                );
            } else {
                want(
                    self,
                    self.is_int_or_vec(dty),
                    "integer operator on non-integer type",
                );
            }
            return;
        }
        if op.is_cast() {
            if n != 1 {
                return want(self, false, "cast needs one operand");
            }
            let ok = self.cast_ok(op, ot(0), dty);
            return want(self, ok, "invalid cast");
        }
        match op {
            Opcode::FNeg => {
                want(
                    self,
                    n == 1 && ot(0) == dty && self.is_fp_or_vec(dty),
                    "fneg needs one float operand of the result type",
                );
            }
            Opcode::Freeze => {
                want(
                    self,
                    n == 1 && ot(0) == dty,
                    "freeze must keep its operand's type",
                );
            }
            Opcode::ICmp | Opcode::FCmp => {
                if n != 2 {
                    return want(self, false, "compare needs two operands");
                }
                want(
                    self,
                    ot(0) == ot(1),
                    "compare operands must have the same type",
                );
                let good = if op == Opcode::ICmp {
                    self.is_int_or_vec(ot(0)) || self.is_ptr_or_vec(ot(0))
                } else {
                    self.is_fp_or_vec(ot(0))
                };
                want(
                    self,
                    good,
                    "compare operand type is not comparable by this opcode",
                );
                let (re, rl) = self.split_vec(dty);
                let (_, ol) = self.split_vec(ot(0));
                want(
                    self,
                    self.tyd(re) == Some(&TypeData::Int(1)) && rl == ol,
                    "compare result must be i1 or a vector of i1 of the operand length",
                );
            }
            Opcode::Select => {
                if n != 3 {
                    return want(self, false, "select needs three operands");
                }
                let (ce, cl) = self.split_vec(ot(0));
                want(
                    self,
                    self.tyd(ce) == Some(&TypeData::Int(1)),
                    "select condition must be i1",
                );
                if let Some(cl) = cl {
                    want(
                        self,
                        self.split_vec(dty).1 == Some(cl),
                        "vector select condition length must match",
                    );
                }
                want(
                    self,
                    ot(1) == dty && ot(2) == dty,
                    "select values must have the result type",
                );
            }
            Opcode::Load => {
                want(
                    self,
                    n == 1 && self.is_ptr(ot(0)),
                    "load needs one pointer operand",
                );
                want(
                    self,
                    self.prim_bits(dty).is_some()
                        || !matches!(
                            self.tyd(dty),
                            Some(
                                TypeData::Void
                                    | TypeData::Label
                                    | TypeData::Metadata
                                    | TypeData::Func { .. }
                            )
                        ),
                    "load of a non-first-class type",
                );
            }
            Opcode::Store => {
                want(
                    self,
                    n == 2 && self.is_ptr(ot(1)),
                    "store needs a value and a pointer",
                );
                want(self, d.result.is_none(), "store has no result");
            }
            Opcode::AtomicRmw => {
                want(
                    self,
                    n == 2 && self.is_ptr(ot(0)) && ot(1) == dty,
                    "atomicrmw needs a pointer and a value of the result type",
                );
            }
            Opcode::CmpXchg => {
                if n != 3 {
                    return want(self, false, "cmpxchg needs three operands");
                }
                want(
                    self,
                    self.is_ptr(ot(0)),
                    "cmpxchg pointer operand is not a pointer",
                );
                want(
                    self,
                    ot(1) == ot(2),
                    "cmpxchg compare and new values must have one type",
                );
                let (fields, _) = if self.tyd(dty).is_some() {
                    m.types.struct_fields(dty)
                } else {
                    (&[][..], false)
                };
                want(
                    self,
                    fields.len() == 2
                        && fields[0] == ot(1)
                        && self.tyd(fields[1]) == Some(&TypeData::Int(1)),
                    "cmpxchg result must be { T, i1 }",
                );
            }
            Opcode::GetElementPtr => {
                if n == 0 {
                    return want(self, false, "getelementptr needs a base pointer");
                }
                want(
                    self,
                    self.is_ptr_or_vec(ot(0)),
                    "getelementptr base is not a pointer",
                );
                want(
                    self,
                    (1..n).all(|k| self.is_int_or_vec(ot(k))),
                    "getelementptr indices must be integers",
                );
                want(
                    self,
                    self.is_ptr_or_vec(dty),
                    "getelementptr result is not a pointer",
                );
                if let Extra::Gep { source_ty } = d.extra {
                    want(
                        self,
                        self.tyd(source_ty).is_some(),
                        "getelementptr source type is dangling",
                    );
                } else {
                    want(self, false, "getelementptr lacks its source element type");
                }
            }
            Opcode::Alloca => {
                want(self, self.is_ptr(dty), "alloca result is not a pointer");
                want(
                    self,
                    n <= 1 && (n == 0 || self.is_int_or_vec(ot(0))),
                    "alloca count must be an integer",
                );
                if let Extra::Alloca { addrspace, .. } = d.extra {
                    want(
                        self,
                        m.types.ptr_addrspace(dty) == Some(addrspace.unwrap_or(0))
                            || addrspace.is_none(),
                        "alloca result address space differs from addrspace(N)",
                    );
                }
            }
            Opcode::Ret => {
                let rv = self.tyd(ret_ty) == Some(&TypeData::Void);
                if rv {
                    want(self, n == 0, "ret with a value in a void function");
                } else {
                    want(
                        self,
                        n == 1 && ot(0) == ret_ty,
                        "ret value type differs from the function's return type",
                    );
                }
            }
            Opcode::Br => {
                let ok = (n == 0 && d.blocks.len() == 1)
                    || (n == 1
                        && d.blocks.len() == 2
                        && self.tyd(ot(0)) == Some(&TypeData::Int(1)));
                want(self, ok, "br needs one block, or an i1 and two blocks");
            }
            Opcode::Switch => {
                if n == 0 || d.blocks.len() != n {
                    return want(
                        self,
                        false,
                        "switch needs a condition and one block per case plus a default",
                    );
                }
                want(
                    self,
                    matches!(self.tyd(ot(0)), Some(TypeData::Int(_))),
                    "switch condition must be an integer",
                );
                for k in 1..n {
                    let is_int = matches!(
                        m.constant(m.ops_of(d)[k].value),
                        Some(Const::Int(_) | Const::BigInt(_))
                    );
                    if !is_int || ot(k) != ot(0) {
                        return want(
                            self,
                            false,
                            "switch case values must be integer constants of the condition type",
                        );
                    }
                }
            }
            Opcode::IndirectBr => {
                want(
                    self,
                    n == 1 && self.is_ptr(ot(0)),
                    "indirectbr needs a pointer address",
                );
            }
            Opcode::ExtractValue | Opcode::InsertValue => {
                let need = if op == Opcode::ExtractValue { 1 } else { 2 };
                if n != need {
                    return want(
                        self,
                        false,
                        "wrong operand count for extractvalue/insertvalue",
                    );
                }
                let Extra::Indices(ix) = &d.extra else {
                    return want(self, false, "extractvalue/insertvalue without indices");
                };
                let mut t = ot(0);
                for &x in ix.iter() {
                    let next = match self.tyd(t) {
                        Some(TypeData::Array(len, e)) if (x as u64) < *len => Some(*e),
                        Some(TypeData::Struct { .. } | TypeData::Named(_)) => {
                            m.types.struct_fields(t).0.get(x as usize).copied()
                        }
                        _ => None,
                    };
                    match next {
                        Some(nt) => t = nt,
                        None => return want(self, false, "aggregate index out of range"),
                    }
                }
                if ix.is_empty() {
                    return want(
                        self,
                        false,
                        "extractvalue/insertvalue needs at least one index",
                    );
                }
                if op == Opcode::ExtractValue {
                    want(
                        self,
                        t == dty,
                        "extractvalue result type differs from the indexed field",
                    );
                } else {
                    want(
                        self,
                        t == ot(1) && dty == ot(0),
                        "insertvalue value or result type mismatch",
                    );
                }
            }
            Opcode::ExtractElement => {
                let ok = n == 2
                    && self.split_vec(ot(0)).1.is_some()
                    && self.split_vec(ot(0)).0 == dty
                    && matches!(self.tyd(ot(1)), Some(TypeData::Int(_)));
                want(
                    self,
                    ok,
                    "extractelement needs a vector and an integer index",
                );
            }
            Opcode::InsertElement => {
                let ok = n == 3
                    && self.split_vec(ot(0)).1.is_some()
                    && self.split_vec(ot(0)).0 == ot(1)
                    && ot(0) == dty
                    && matches!(self.tyd(ot(2)), Some(TypeData::Int(_)));
                want(
                    self,
                    ok,
                    "insertelement needs a vector, an element and an integer index",
                );
            }
            Opcode::ShuffleVector => {
                let ok = n == 3
                    && ot(0) == ot(1)
                    && self.split_vec(ot(0)).1.is_some()
                    && self.split_vec(dty).0 == self.split_vec(ot(0)).0;
                want(self, ok, "shufflevector needs two vectors of one type");
            }
            Opcode::Call | Opcode::Invoke | Opcode::CallBr => self.call_types(i, d),
            _ => {}
        }
    }

    fn call_types(&mut self, i: Inst, d: &InstData) {
        let dty = self.m.ty_of(d);
        let m = self.m;
        let Some(c) = d.call() else {
            return self.ty_err(i, "call without call-site data");
        };
        let Some(fty) = c.fn_ty.filter(|&t| self.tyd(t).is_some()) else {
            return self.ty_err(i, "call without a function type");
        };
        let Some((ret, params, vararg)) = m.types.func_sig(fty) else {
            return self.ty_err(i, "call function type is not a function type");
        };
        let nargs = c.nargs as usize;
        if d.ops.len() < 1 + nargs {
            return self.ty_err(i, "call has fewer operands than arguments");
        }
        if nargs < params.len() || (nargs > params.len() && !vararg) {
            return self.ty_err(
                i,
                &format!(
                    "call passes {nargs} arguments to a function type with {} parameters",
                    params.len()
                ),
            );
        }
        for (k, &p) in params.iter().enumerate() {
            if m.values[m.ops_of(d)[1 + k].value].ty != p {
                return self.ty_err(
                    i,
                    &format!("call argument {k} type differs from the parameter type"),
                );
            }
        }
        if ret != dty {
            self.ty_err(
                i,
                "call result type differs from the function type's return type",
            );
        }
        let callee_ok = matches!(
            self.tyd(m.values[m.ops_of(d)[0].value].ty),
            Some(TypeData::Ptr(_))
        );
        if !callee_ok {
            self.ty_err(i, "callee is not a pointer");
        }
        let mut end = 1 + nargs;
        for b in &c.bundles {
            let s = b.start as usize;
            if s < end || s + b.len as usize > d.ops.len() {
                return self.ty_err(i, "operand bundle range is outside the call's operands");
            }
            end = s + b.len as usize;
        }
        let nblocks = match d.opcode {
            Opcode::Invoke => Some(d.blocks.len() == 2),
            Opcode::CallBr => Some(!d.blocks.is_empty()),
            _ => None,
        };
        if nblocks == Some(false) {
            self.ty_err(
                i,
                "invoke needs a normal and an unwind block; callbr needs a default block",
            );
        }
    }

    fn cast_ok(&self, op: Opcode, from: Type, to: Type) -> bool {
        let (fe, fl) = self.split_vec(from);
        let (te, tl) = self.split_vec(to);
        if op != Opcode::BitCast && fl != tl {
            return false;
        }
        let ib = |t| match self.tyd(t) {
            Some(TypeData::Int(b)) => Some(*b),
            _ => None,
        };
        let fk = |t| match self.tyd(t) {
            Some(TypeData::Float(k)) => Some(*k),
            _ => None,
        };
        let pa = |t| match self.tyd(t) {
            Some(TypeData::Ptr(a)) => Some(*a),
            _ => None,
        };
        let fbits = |k: FloatKind| k.bits();
        match op {
            Opcode::Trunc => matches!((ib(fe), ib(te)), (Some(a), Some(b)) if a > b),
            Opcode::ZExt | Opcode::SExt => matches!((ib(fe), ib(te)), (Some(a), Some(b)) if a < b),
            Opcode::FPTrunc => {
                matches!((fk(fe), fk(te)), (Some(a), Some(b)) if fbits(a) > fbits(b))
            }
            Opcode::FPExt => matches!((fk(fe), fk(te)), (Some(a), Some(b)) if fbits(a) < fbits(b)),
            Opcode::FPToUI | Opcode::FPToSI => fk(fe).is_some() && ib(te).is_some(),
            Opcode::UIToFP | Opcode::SIToFP => ib(fe).is_some() && fk(te).is_some(),
            Opcode::PtrToInt => pa(fe).is_some() && ib(te).is_some(),
            Opcode::IntToPtr => ib(fe).is_some() && pa(te).is_some(),
            Opcode::AddrSpaceCast => matches!((pa(fe), pa(te)), (Some(a), Some(b)) if a != b),
            Opcode::BitCast => {
                match (pa(fe), pa(te)) {
                    (Some(a), Some(b)) => return a == b && fl == tl,
                    (None, None) => {}
                    _ => return false,
                }
                match (self.prim_bits(from), self.prim_bits(to)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                }
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Marks read back what was set, across pages; clearing the marks of
    /// one "function" gives its pages back, so marking the next one,
    /// anywhere in the arena, needs no new page; dangling ids keep none.
    #[test]
    fn marks_keep_pages_only_while_marked() {
        let n = 10 * MARK_PAGE;
        let mut marks: Marks<Inst> = Marks::new(n);
        let spans = [(0, 1500), (4 * MARK_PAGE + 7, 1800), (n - 1700, 1700)];
        for (round, &(start, len)) in spans.iter().enumerate() {
            let ids: Vec<Inst> = (start..start + len).map(Inst::new).collect();
            for (k, &i) in ids.iter().enumerate() {
                assert_eq!(marks.get(i), u32::MAX, "round {round}: {i} marked");
                marks.set(i, k as u32);
            }
            for (k, &i) in ids.iter().enumerate() {
                assert_eq!(marks.get(i), k as u32);
            }
            // Three pages at most for a span of fewer than two pages.
            assert!(marks.live.len() <= 3, "{} pages", marks.live.len());
            assert_eq!(marks.get(Inst::new(start + len)), u32::MAX);
            for &i in &ids {
                marks.set(i, u32::MAX);
            }
            assert_eq!(marks.free.len(), marks.live.len());
            assert!(marks.dir.iter().all(|&p| p == 0));
        }
        marks.set(Inst::new(n), 5);
        assert_eq!(marks.get(Inst::new(n)), u32::MAX);
        assert_eq!(marks.get(Inst::new(n + MARK_PAGE)), u32::MAX);
        // Setting a mark twice and clearing an unset one keep the counts.
        let i = Inst::new(3);
        marks.set(i, 1);
        marks.set(i, 2);
        marks.set(Inst::new(4), u32::MAX);
        assert_eq!(marks.get(i), 2);
        marks.set(i, u32::MAX);
        assert!(marks.dir.iter().all(|&p| p == 0));
    }
}
