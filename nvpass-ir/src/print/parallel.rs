//! Printing function bodies on several threads (feature `parallel`).
//!
//! The module-wide numbering (unnamed globals, metadata numbers, attribute
//! groups) is computed once on the calling thread; after that, a function's
//! text depends only on the function, so functions can be printed anywhere.
//! The functions are cut into batches of about
//! [`ParallelPrint::batch_insts`] instructions, in module order; worker `w`
//! prints batches `w`, `w + T`, `w + 2T`, ... into its own buffer and hands
//! each one over a bounded channel; the calling thread takes batch 0 from
//! worker 0, batch 1 from worker 1, ... and writes them to the sink in that
//! order. The output is therefore byte-identical to [`print_module_chunked`]
//! (and to [`print_module`](super::print_module)), and at most two batches
//! per worker are held in memory at once.

use super::{print_module_chunked, Printer, CHUNK};
use crate::entity::Func;
use crate::module::Module;
use alloc::borrow::Cow;
use alloc::vec::Vec;
use std::sync::mpsc::sync_channel;

/// Options of [`print_module_parallel`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ParallelPrint {
    /// Worker threads printing functions (1 prints on the calling thread
    /// only, exactly as [`print_module_chunked`]).
    pub threads: usize,
    /// Instructions per batch of functions handed to a worker (a function
    /// is never split; a batch holds at least one function).
    pub batch_insts: usize,
}

impl Default for ParallelPrint {
    /// As many workers as the machine has hardware threads; batches of
    /// 4096 instructions (about 150 KiB of text: large enough that the
    /// hand-over costs nothing, small enough to keep every worker busy).
    fn default() -> Self {
        ParallelPrint {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            batch_insts: 4096,
        }
    }
}

/// Prints a whole module, handing the text to `sink` in order, with
/// function bodies printed on `opts.threads` threads. The concatenated
/// output is exactly the bytes of [`print_module`](super::print_module).
pub fn print_module_parallel(m: &Module, opts: ParallelPrint, sink: &mut dyn FnMut(&[u8])) {
    let funcs: Vec<Func> = m.func_ids().collect();
    let batches = batches(m, &funcs, opts.batch_insts.max(1));
    let threads = opts.threads.min(batches.len());
    if threads <= 1 {
        print_module_chunked(m, sink);
        return;
    }
    let mut p = Printer::new(m, Vec::with_capacity(CHUNK + CHUNK / 4));
    p.sink = Some(sink);
    p.module_head();
    p.flush();
    let (gslots, md_slots, groups) = (&p.gslots, &p.md_slots, &p.groups);
    std::thread::scope(|s| {
        let mut inbox = Vec::with_capacity(threads);
        for w in 0..threads {
            let (tx, rx) = sync_channel::<Vec<u8>>(2);
            inbox.push(rx);
            let (funcs, batches) = (&funcs, &batches);
            s.spawn(move || {
                let mut wp = Printer::new(m, Vec::new());
                // The module-wide tables are shared, not copied per worker.
                wp.gslots = Cow::Borrowed(gslots);
                wp.gslots_done = true;
                wp.md_slots = Cow::Borrowed(md_slots);
                wp.groups = groups.clone();
                wp.md_done = true;
                for b in (w..batches.len()).step_by(threads) {
                    for &f in &funcs[batches[b].0..batches[b].1] {
                        wp.function_entry(f);
                    }
                    if tx.send(core::mem::take(&mut wp.out)).is_err() {
                        return;
                    }
                }
            });
        }
        for b in 0..batches.len() {
            // A worker that stopped early has panicked; the scope re-raises.
            let Ok(text) = inbox[b % threads].recv() else {
                break;
            };
            if let Some(sink) = p.sink.as_mut() {
                sink(&text);
            }
        }
    });
    p.module_tail();
    p.flush();
}

/// Cuts `funcs` into consecutive ranges of about `per_batch` instructions.
fn batches(m: &Module, funcs: &[Func], per_batch: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let (mut start, mut insts) = (0, 0);
    for (i, &f) in funcs.iter().enumerate() {
        insts += 1 + m
            .func_blocks(f)
            .map(|b| m.block_insts(b).count())
            .sum::<usize>();
        if insts >= per_batch {
            out.push((start, i + 1));
            start = i + 1;
            insts = 0;
        }
    }
    if start < funcs.len() {
        out.push((start, funcs.len()));
    }
    out
}
