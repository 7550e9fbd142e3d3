//! Printing function bodies on several threads (feature `parallel`).
//!
//! The module-wide numbering (unnamed globals, metadata numbers, attribute
//! groups) is computed once on the calling thread; after that, a function's
//! text depends only on the function, and a numbered metadata node's only
//! on the node, so both can be printed anywhere. The functions are cut into
//! batches of about [`ParallelPrint::batch_insts`] instructions, and the
//! numbered nodes of the module's tail into batches of [`MD_BATCH`] nodes,
//! in module order; worker `w` prints batches `w`, `w + T`, `w + 2T`, ...
//! into its own buffer and hands each one over a bounded channel; the
//! calling thread takes batch 0 from worker 0, batch 1 from worker 1, ...
//! and writes them to the sink in that order, with the head of the module
//! before the first and the rest of the tail (attribute groups, named
//! metadata) before the first batch of nodes. The output is therefore
//! byte-identical to [`print_module_chunked`] (and to
//! [`print_module`](super::print_module)), and at most two batches per
//! worker are held in memory at once.

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

/// Numbered metadata nodes per batch of the module tail (about 100 KiB of
/// text for debug-info nodes, as much as a batch of functions).
pub const MD_BATCH: usize = 1024;

/// A unit of work for a printing thread.
#[derive(Copy, Clone)]
enum Batch {
    /// Functions `funcs[start..end]`.
    Funcs(usize, usize),
    /// Numbered nodes `nodes[start..end]` of the tail.
    Mds(usize, usize),
}

/// Prints a whole module, handing the text to `sink` in order, with
/// function bodies and metadata nodes printed on `opts.threads` threads.
/// The concatenated output is exactly the bytes of
/// [`print_module`](super::print_module).
pub fn print_module_parallel(m: &Module, opts: ParallelPrint, sink: &mut dyn FnMut(&[u8])) {
    let funcs: Vec<Func> = m.func_ids().collect();
    let mut batches = batches(m, &funcs, opts.batch_insts.max(1));
    let md_batches = m.md_numbered.len().div_ceil(MD_BATCH);
    let threads = opts.threads.min(batches.len() + md_batches);
    if threads <= 1 {
        print_module_chunked(m, sink);
        return;
    }
    let mut p = Printer::new(m, Vec::with_capacity(CHUNK + CHUNK / 4));
    p.sink = Some(sink);
    p.module_head();
    p.flush();
    // The rest of the tail before the nodes (attribute groups, named
    // metadata: short) is printed now and written before the first batch
    // of nodes.
    p.module_tail_prefix();
    let prefix = core::mem::take(&mut p.out);
    // The numbered nodes, as the tail lists them: those numbered in the
    // text, then those the printer numbered (read in place, not copied).
    let (numbered, extra) = (&m.md_numbered, &p.md_extra);
    let node = move |i: usize| match numbered.get(i) {
        Some(&n) => n,
        None => extra[i - numbered.len()],
    };
    let nodes = numbered.len() + extra.len();
    let first_md = batches.len();
    batches.extend(
        (0..nodes)
            .step_by(MD_BATCH)
            .map(|s| Batch::Mds(s, (s + MD_BATCH).min(nodes))),
    );
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
                    match batches[b] {
                        Batch::Funcs(start, end) => {
                            for &f in &funcs[start..end] {
                                wp.function_entry(f);
                            }
                        }
                        Batch::Mds(start, end) => {
                            for i in start..end {
                                let (n, md) = node(i);
                                wp.numbered_md(n, md);
                            }
                        }
                    }
                    if tx.send(core::mem::take(&mut wp.out)).is_err() {
                        return;
                    }
                }
            });
        }
        for b in 0..batches.len() {
            if b == first_md {
                if let Some(sink) = p.sink.as_mut() {
                    sink(&prefix);
                }
            }
            // A worker that stopped early has panicked; the scope re-raises.
            let Ok(text) = inbox[b % threads].recv() else {
                break;
            };
            if let Some(sink) = p.sink.as_mut() {
                sink(&text);
            }
        }
    });
    if first_md == batches.len() {
        if let Some(sink) = p.sink.as_mut() {
            sink(&prefix);
        }
    }
}

/// Cuts `funcs` into consecutive ranges of about `per_batch` instructions.
fn batches(m: &Module, funcs: &[Func], per_batch: usize) -> Vec<Batch> {
    let mut out = Vec::new();
    let (mut start, mut insts) = (0, 0);
    for (i, &f) in funcs.iter().enumerate() {
        insts += 1 + m
            .func_blocks(f)
            .map(|b| m.block_insts(b).count())
            .sum::<usize>();
        if insts >= per_batch {
            out.push(Batch::Funcs(start, i + 1));
            start = i + 1;
            insts = 0;
        }
    }
    if start < funcs.len() {
        out.push(Batch::Funcs(start, funcs.len()));
    }
    out
}
