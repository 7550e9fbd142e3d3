//! Function-local analyses on several threads, with output identical to one
//! thread.
//!
//! A function-local pass usually spends most of its time in a *read-only*
//! per-function analysis (provenance, derived accesses, metrics) and little
//! in applying what it found. [`par_map_funcs`] runs such an analysis over
//! many functions on several threads and returns the results **in the order
//! of the function slice**, whatever thread computed which function;
//! [`plan_and_apply`] builds the usual pass shape on it: analyze a window of
//! functions in parallel into plans, then apply the plans one by one, in
//! order, on the calling thread. Diagnostics, remarks and statistics are
//! emitted while applying, so they come out in the same order as with one
//! thread, and the IR is the same. [`par_map_funcs_with`] gives each thread
//! taking part scratch state of its own, made once per call (a memo of
//! facts about the module, buffers to reuse).
//!
//! # When the result is identical to one thread
//!
//! The analysis of a function reads the module through `&M` while no edit
//! happens, so it must read only what applying the plans of the *other*
//! functions does not change (typically: the function's own body and
//! attributes, global variables, constants, other functions' signatures).
//! Each pass using this states in its module docs why that holds for it.
//! With one thread (or without the `parallel` feature), [`plan_and_apply`]
//! analyzes and applies one function at a time, exactly as a plain loop.
//!
//! # Thread count
//!
//! The count comes from [`Session::threads`](crate::pass::Session::threads)
//! (the CLI's `-j`), read by a pass through
//! [`PassContext::threads`](crate::pass::PassContext::threads). `0` and `1`
//! both mean "the calling thread only".
//!
//! # Features and the `Sync` requirement
//!
//! Without the `parallel` feature (which implies `std`) everything runs on
//! the calling thread and the crate stays `no_std`. With it, [`par_map_funcs`] uses
//! `std::thread::scope`: the calling thread and `threads - 1` scoped
//! threads claim consecutive batches of the function slice through one
//! atomic index, and the batches are concatenated by their start index.
//!
//! Threads share `&M`, so `M` must be `Sync`. nvpass expresses this as a
//! supertrait of [`IrView`]: [`SyncIfParallel`], which is `Sync` exactly
//! when the `parallel` feature is on and empty otherwise. Every pass keeps
//! its plain `M: IrEdit + ?Sized` bound, and a `no_std` host IR (which may
//! cache with `core::cell::OnceCell`, as `nvpass-ir` does without `std`)
//! is not asked for `Sync` it does not need. A host that enables
//! `parallel` makes its IR `Sync` (read queries callable from several
//! threads at once: `OnceLock`/`Mutex` caches instead of `Cell`/`RefCell`).
//! The price of a feature-dependent bound: once any crate in a build turns
//! `parallel` on, every `IrView` implementation in that build must be
//! `Sync` (`nvpass-ir` is with its `std` feature, not without it).
//! The bounds `T: Send` and `F: Sync` on the results and the analysis hold
//! in both configurations, so code that compiles without the feature
//! compiles with it.

use alloc::vec::Vec;

use crate::ir::{FuncId, IrView};

/// `Sync` with the `parallel` feature, nothing without it; a supertrait of
/// [`IrView`] (see the [module docs](self) for why the requirement is
/// expressed this way). Implemented for every type that qualifies.
#[cfg(feature = "parallel")]
pub trait SyncIfParallel: Sync {}
#[cfg(feature = "parallel")]
impl<T: Sync + ?Sized> SyncIfParallel for T {}

/// `Sync` with the `parallel` feature, nothing without it; a supertrait of
/// [`IrView`] (see the [module docs](self) for why the requirement is
/// expressed this way). Implemented for every type that qualifies.
#[cfg(not(feature = "parallel"))]
pub trait SyncIfParallel {}
#[cfg(not(feature = "parallel"))]
impl<T: ?Sized> SyncIfParallel for T {}

/// Whether this build can run analyses on several threads (the `parallel`
/// feature is on).
pub const PARALLEL: bool = cfg!(feature = "parallel");

/// Functions per thread analyzed before [`plan_and_apply`] applies them.
/// Large enough that starting and joining the scoped threads of a window
/// costs little next to the analyses (on a machine shared with other work,
/// a join may wait a scheduler time slice for a descheduled thread, so
/// fewer windows are better), small enough that the plans of one window
/// (each may hold a whole function's classification) stay a small part of
/// the module's memory.
pub const WINDOW_PER_THREAD: usize = 1024;

/// Runs `analyze(ir, f)` for every `f` of `funcs` and returns the results in
/// the order of `funcs`.
///
/// With the `parallel` feature and `threads > 1`, the calling thread and up
/// to `threads - 1` scoped threads share the work; otherwise it runs on the
/// calling thread. The results do not depend on `threads` as long as
/// `analyze` is a function of its arguments. A panic in `analyze` is
/// propagated to the caller.
pub fn par_map_funcs<M, T, F>(ir: &M, funcs: &[FuncId], threads: usize, analyze: F) -> Vec<T>
where
    M: IrView + ?Sized,
    T: Send,
    F: Fn(&M, FuncId) -> T + Sync,
{
    par_map_funcs_with(ir, funcs, threads, || (), |_, m, f| analyze(m, f))
}

/// Like [`par_map_funcs`], with scratch state: every thread taking part
/// makes one `S` with `init` and hands it to each of its calls of
/// `analyze(&mut state, ir, f)`.
///
/// The state is for what an analysis can keep from one function to the
/// next on the same thread (a memo of facts about the module, buffers to
/// reuse): which thread analyzes which function depends on timing, so the
/// results stay independent of `threads` only as long as no result
/// depends on what the state holds, just as a cache changes no answer.
pub fn par_map_funcs_with<M, S, T, I, F>(
    ir: &M,
    funcs: &[FuncId],
    threads: usize,
    init: I,
    analyze: F,
) -> Vec<T>
where
    M: IrView + ?Sized,
    T: Send,
    I: Fn() -> S + Sync,
    F: Fn(&mut S, &M, FuncId) -> T + Sync,
{
    #[cfg(feature = "parallel")]
    if threads > 1 && funcs.len() > 1 {
        return parallel::map(ir, funcs, threads, &init, &analyze);
    }
    let _ = threads;
    let mut state = init();
    funcs.iter().map(|&f| analyze(&mut state, ir, f)).collect()
}

/// Analyzes every function of `funcs` into a plan with `analyze` (read-only,
/// on `threads` threads through [`par_map_funcs`]) and applies the plans
/// with `apply` on the calling thread, in the order of `funcs`.
///
/// Functions are taken in windows of `threads` × [`WINDOW_PER_THREAD`]:
/// every plan of a window is computed before the first of them is applied.
/// With `threads <= 1` the window is one function, so analysis and
/// application interleave exactly like a plain loop. The first error of
/// `apply` stops the run (the functions before it are applied, the ones
/// after it are not, as in a plain loop).
pub fn plan_and_apply<M, P, E, A, B>(
    ir: &mut M,
    funcs: &[FuncId],
    threads: usize,
    analyze: A,
    mut apply: B,
) -> Result<(), E>
where
    M: IrView + ?Sized,
    P: Send,
    A: Fn(&M, FuncId) -> P + Sync,
    B: FnMut(&mut M, FuncId, P) -> Result<(), E>,
{
    let window = if threads > 1 {
        threads.saturating_mul(WINDOW_PER_THREAD)
    } else {
        1
    };
    for chunk in funcs.chunks(window) {
        let plans = par_map_funcs(&*ir, chunk, threads, &analyze);
        for (&f, plan) in chunk.iter().zip(plans) {
            apply(ir, f, plan)?;
        }
    }
    Ok(())
}

#[cfg(feature = "parallel")]
mod parallel {
    use crate::ir::{FuncId, IrView};
    use alloc::vec::Vec;
    use core::sync::atomic::{AtomicUsize, Ordering};

    /// Batches each thread claims, on average, within one call of
    /// [`super::par_map_funcs`]: many, so a thread that drew small
    /// functions, or that other processes left more of the CPU, takes
    /// another batch instead of idling while another finishes a large one
    /// (claiming a batch is one atomic add).
    const BATCHES_PER_THREAD: usize = 32;

    /// The threaded body of [`super::par_map_funcs_with`].
    pub(super) fn map<M, S, T, I, F>(
        ir: &M,
        funcs: &[FuncId],
        threads: usize,
        init: &I,
        analyze: &F,
    ) -> Vec<T>
    where
        M: IrView + ?Sized,
        T: Send,
        I: Fn() -> S + Sync,
        F: Fn(&mut S, &M, FuncId) -> T + Sync,
    {
        let n = funcs.len();
        let threads = threads.min(n);
        let batch = (n / threads.saturating_mul(BATCHES_PER_THREAD)).max(1);
        let next = AtomicUsize::new(0);
        // Each worker claims batches [start, start + batch) in increasing
        // order and returns them with their start index.
        let work = || {
            let mut state = init();
            let mut done: Vec<(usize, Vec<T>)> = Vec::new();
            loop {
                let start = next.fetch_add(batch, Ordering::Relaxed);
                if start >= n {
                    return done;
                }
                let end = start.saturating_add(batch).min(n);
                let results = funcs[start..end]
                    .iter()
                    .map(|&f| analyze(&mut state, ir, f));
                done.push((start, results.collect()));
            }
        };
        let mut batches: Vec<(usize, Vec<T>)> = std::thread::scope(|s| {
            let handles: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in handles {
                all.extend(h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)));
            }
            all
        });
        // Every index was claimed exactly once, so the batches sorted by
        // start tile 0..n.
        batches.sort_unstable_by_key(|&(start, _)| start);
        let mut out = Vec::with_capacity(n);
        for (_, results) in batches {
            out.extend(results);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{CallConv, IrView};
    use crate::testing::MockModule;
    use alloc::string::{String, ToString};
    use alloc::vec;
    use core::sync::atomic::{AtomicUsize, Ordering};

    fn module(n: usize) -> (MockModule, Vec<FuncId>) {
        let mut m = MockModule::default();
        let funcs = (0..n)
            .map(|i| m.add_func(&alloc::format!("f{i}"), CallConv::C, &[]))
            .collect();
        (m, funcs)
    }

    fn names(m: &MockModule, funcs: &[FuncId], threads: usize) -> Vec<String> {
        par_map_funcs(m, funcs, threads, |m, f| m.func_name(f).to_string())
    }

    #[test]
    fn results_follow_the_slice_order_for_every_thread_count() {
        let (m, mut funcs) = module(1000);
        // A slice order unlike the module order.
        funcs.reverse();
        funcs.rotate_left(137);
        let expected: Vec<String> = funcs.iter().map(|&f| m.func_name(f).to_string()).collect();
        for threads in [0, 1, 2, 3, 4, 7, 64] {
            assert_eq!(names(&m, &funcs, threads), expected, "threads = {threads}");
        }
    }

    #[test]
    fn more_threads_than_functions_and_no_functions() {
        let (m, funcs) = module(3);
        assert_eq!(names(&m, &funcs, 16), ["f0", "f1", "f2"]);
        assert_eq!(names(&m, &funcs[..1], 16), ["f0"]);
        assert!(names(&m, &[], 16).is_empty());
        assert!(names(&m, &[], 1).is_empty());
    }

    #[test]
    fn every_function_is_analyzed_once() {
        let (m, funcs) = module(513);
        let calls = AtomicUsize::new(0);
        let out = par_map_funcs(&m, &funcs, 4, |_, f| {
            calls.fetch_add(1, Ordering::Relaxed);
            f
        });
        assert_eq!(out, funcs);
        assert_eq!(calls.load(Ordering::Relaxed), funcs.len());
    }

    /// Each thread makes its state once and keeps it from one function
    /// to the next: on one thread, the n-th call sees n - 1 functions
    /// before it; on several, no more states are made than threads take
    /// part, and every function is still analyzed once, in slice order.
    #[test]
    fn scratch_state_is_made_once_per_thread_and_kept() {
        let (m, funcs) = module(300);
        for threads in [1, 2, 4] {
            let made = AtomicUsize::new(0);
            // The state: which one it is, and how many functions it saw.
            let out = par_map_funcs_with(
                &m,
                &funcs,
                threads,
                || (made.fetch_add(1, Ordering::Relaxed), 0usize),
                |(id, seen), _, f| {
                    *seen += 1;
                    (f, *id, *seen)
                },
            );
            let made = made.load(Ordering::Relaxed);
            assert!(made >= 1 && made <= threads.max(1), "threads = {threads}");
            assert_eq!(out.iter().map(|&(f, ..)| f).collect::<Vec<_>>(), funcs);
            // A thread takes its functions in slice order, so each state
            // saw its functions one after another, counting 1, 2, 3, ...,
            // and together the states saw every function once.
            for id in 0..made {
                let counts: Vec<usize> = out
                    .iter()
                    .filter(|&&(_, i, _)| i == id)
                    .map(|&(.., n)| n)
                    .collect();
                assert_eq!(
                    counts,
                    (1..=counts.len()).collect::<Vec<_>>(),
                    "threads = {threads}, state {id}"
                );
            }
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn several_threads_take_part() {
        use std::collections::HashSet;
        use std::sync::Mutex;
        let (m, funcs) = module(64);
        let seen = Mutex::new(HashSet::new());
        par_map_funcs(&m, &funcs, 4, |_, _| {
            // Long enough that one thread cannot take every batch before
            // the others start.
            std::thread::sleep(std::time::Duration::from_millis(2));
            seen.lock().unwrap().insert(std::thread::current().id());
        });
        assert!(seen.into_inner().unwrap().len() > 1);
    }

    #[test]
    fn one_thread_analyzes_each_function_after_the_previous_one_is_applied() {
        use crate::ir::{Attr, AttrKey, AttrSlot, IrEdit};
        let (mut m, funcs) = module(10);
        // Applying f(i) marks f(i + 1); the analysis of f(i + 1) sees the
        // mark only if it runs after that application.
        let mut seen = vec![];
        let r: Result<(), ()> = plan_and_apply(
            &mut m,
            &funcs,
            1,
            |m, f| m.has_attr(f, AttrSlot::Function, AttrKey::Str("marked")),
            |m, f, marked| {
                seen.push(marked);
                if let Some(&next) = funcs.get(f.index() + 1) {
                    m.add_attr(next, AttrSlot::Function, Attr::Str("marked", ""));
                }
                Ok(())
            },
        );
        assert_eq!(r, Ok(()));
        let mut expected = vec![true; 10];
        expected[0] = false;
        assert_eq!(seen, expected);
    }

    #[test]
    fn plan_and_apply_applies_in_order_and_stops_at_the_first_error() {
        for threads in [1, 2, 4] {
            let (mut m, funcs) = module(600);
            let mut applied = vec![];
            let r: Result<(), String> = plan_and_apply(
                &mut m,
                &funcs,
                threads,
                |m, f| m.func_name(f).to_string(),
                |m, f, plan| {
                    assert_eq!(m.func_name(f), plan);
                    if plan == "f555" {
                        return Err(plan);
                    }
                    applied.push(plan);
                    Ok(())
                },
            );
            assert_eq!(r, Err("f555".to_string()));
            let expected: Vec<String> = (0..555).map(|i| alloc::format!("f{i}")).collect();
            assert_eq!(applied, expected, "threads = {threads}");
        }
    }
}
