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
//! worker are held in memory at once. Written texts go back to their worker
//! and are filled again, so the buffers are allocated once.

use super::{print_module_chunked, Printer, CHUNK};
use crate::entity::{Block, Func};
use crate::module::Module;
use alloc::borrow::Cow;
use alloc::vec::Vec;
use cranelift_entity::EntityRef;
use std::sync::mpsc::{channel, sync_channel};

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

impl ParallelPrint {
    /// `threads` workers and batches of [`BATCH_INSTS`] instructions. Unlike
    /// [`ParallelPrint::default`], this does not ask the system for its
    /// hardware threads (on Linux, a dozen system calls reading cgroup
    /// files), which a caller that already knows the count can skip.
    pub fn with_threads(threads: usize) -> Self {
        ParallelPrint {
            threads,
            batch_insts: BATCH_INSTS,
        }
    }
}

/// Instructions per batch of functions by default: about 150 KiB of text,
/// large enough that the hand-over costs nothing, small enough to keep
/// every worker busy.
pub const BATCH_INSTS: usize = 4096;

/// The machine's hardware threads (1 when the system cannot tell).
pub fn hardware_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl Default for ParallelPrint {
    /// As many workers as the machine has hardware threads
    /// ([`hardware_threads`]); batches of [`BATCH_INSTS`] instructions.
    fn default() -> Self {
        ParallelPrint::with_threads(hardware_threads())
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
///
/// The workers start as soon as the module-wide numbering is done: the
/// calling thread cuts the functions into batches (which reads every
/// instruction) while they print the first ones, and hands each batch to
/// its worker as it is cut, writing out the text that is ready meanwhile.
pub fn print_module_parallel(m: &Module, opts: ParallelPrint, sink: &mut dyn FnMut(&[u8])) {
    let funcs: Vec<Func> = m.func_ids().collect();
    let mut cutter = BatchCutter::new(m, &funcs, opts.batch_insts.max(1));
    let first = cutter.next();
    let md_batches = m.md_numbered.len().div_ceil(MD_BATCH);
    // At most one batch in all: nothing to share out.
    let single = match first {
        None => md_batches <= 1,
        Some(_) => cutter.done() && md_batches == 0,
    };
    if opts.threads <= 1 || single {
        print_module_chunked(m, sink);
        return;
    }
    // No more workers than batches can keep busy (each batch holds at
    // least one function).
    let threads = opts.threads.min(funcs.len() + md_batches);
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
    let (gslots, md_slots, groups) = (&p.gslots, &p.md_slots, &p.groups);
    let mut sink = p.sink.take();
    let mut write = |text: &[u8]| {
        if let Some(sink) = sink.as_mut() {
            sink(text);
        }
    };
    std::thread::scope(|s| {
        let mut jobs = Vec::with_capacity(threads);
        let mut inbox = Vec::with_capacity(threads);
        let mut spent = Vec::with_capacity(threads);
        for _ in 0..threads {
            let (job_tx, job_rx) = channel::<Batch>();
            let (tx, rx) = sync_channel::<Vec<u8>>(2);
            // Written texts go back to their worker to be filled again: a
            // batch's text is larger than what the allocator keeps for
            // reuse, so each new buffer would be mapped and faulted in
            // afresh, page by page.
            let (spent_tx, spent_rx) = channel::<Vec<u8>>();
            jobs.push(job_tx);
            inbox.push(rx);
            spent.push(spent_tx);
            let funcs = &funcs;
            s.spawn(move || {
                let mut wp = Printer::new(m, Vec::new());
                // The module-wide tables are shared, not copied per worker.
                wp.gslots = Cow::Borrowed(gslots);
                wp.gslots_done = true;
                wp.md_slots = Cow::Borrowed(md_slots);
                wp.groups = groups.clone();
                wp.md_done = true;
                for batch in job_rx {
                    if let Ok(mut buf) = spent_rx.try_recv() {
                        buf.clear();
                        wp.out = buf;
                    }
                    match batch {
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
        // Batch `b` goes to worker `b % threads`, whose texts therefore
        // come back in batch order. A worker that stopped early has
        // panicked; the scope re-raises.
        let (mut sent, mut written) = (0usize, 0usize);
        let send = |b: Batch, sent: &mut usize| {
            // A worker stops receiving only by panicking.
            let _ = jobs[*sent % threads].send(b);
            *sent += 1;
        };
        let mut next = first;
        while let Some(b) = next {
            send(b, &mut sent);
            // Write what is ready while cutting the rest.
            while written < sent {
                match inbox[written % threads].try_recv() {
                    Ok(text) => {
                        write(&text);
                        // The worker may be gone (a panic the scope
                        // re-raises); the buffer is then dropped.
                        let _ = spent[written % threads].send(text);
                        written += 1;
                    }
                    Err(_) => break,
                }
            }
            next = cutter.next();
        }
        let first_md = sent;
        for start in (0..nodes).step_by(MD_BATCH) {
            send(Batch::Mds(start, (start + MD_BATCH).min(nodes)), &mut sent);
        }
        drop(jobs);
        while written < sent {
            if written == first_md {
                write(&prefix);
            }
            let Ok(text) = inbox[written % threads].recv() else {
                break;
            };
            write(&text);
            let _ = spent[written % threads].send(text);
            written += 1;
        }
        if first_md == sent {
            write(&prefix);
        }
    });
}

/// About how many instructions `b` holds: the distance from its first
/// instruction's index to its last one's, counted both ends in; one when
/// the last was created before the first.
fn estimated_insts(m: &Module, b: Block) -> usize {
    let d = &m.blocks[b];
    match (d.first.expand(), d.last.expand()) {
        (Some(first), Some(last)) => last.index().saturating_sub(first.index()) + 1,
        _ => 0,
    }
}

/// Cuts a module's functions into consecutive batches of about
/// `per_batch` instructions, one at a time.
struct BatchCutter<'a> {
    m: &'a Module,
    funcs: &'a [Func],
    per_batch: usize,
    /// The first function not in a batch yet.
    start: usize,
}

impl<'a> BatchCutter<'a> {
    fn new(m: &'a Module, funcs: &'a [Func], per_batch: usize) -> Self {
        BatchCutter {
            m,
            funcs,
            per_batch,
            start: 0,
        }
    }

    /// Whether every function is in a batch.
    fn done(&self) -> bool {
        self.start == self.funcs.len()
    }

    /// The next batch: functions up to the one that brings it to
    /// `per_batch` instructions, or to the last function.
    ///
    /// A block's instructions are estimated from the indices of its first
    /// and last ones, without walking the list between them: a reader
    /// creates each block's instructions in order, so the estimate is the
    /// count for a module as read, and passes move few. A wrong estimate
    /// only makes a batch larger or smaller than planned, never changes
    /// the text.
    fn next(&mut self) -> Option<Batch> {
        if self.done() {
            return None;
        }
        let m = self.m;
        let mut insts = 0;
        let mut end = self.start;
        while end < self.funcs.len() {
            let f = self.funcs[end];
            insts += 1 + m
                .func_blocks(f)
                .map(|b| estimated_insts(m, b))
                .sum::<usize>();
            end += 1;
            if insts >= self.per_batch {
                break;
            }
        }
        let b = Batch::Funcs(self.start, end);
        self.start = end;
        Some(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For a module as read, the estimate is each block's count: the batch
    /// cutter plans the batches it would plan by walking every block.
    #[test]
    fn estimates_count_the_instructions_of_a_module_as_read() {
        let text = "define i32 @f(i32 %x) {\n\
                    entry:\n  %a = add i32 %x, 1\n  %c = icmp sgt i32 %a, 0\n  br i1 %c, label %t, label %e\n\
                    t:\n  %b = mul i32 %a, 2\n  br label %e\n\
                    e:\n  %r = phi i32 [ %a, %entry ], [ %b, %t ]\n  ret i32 %r\n}\n\
                    define void @g() {\n  ret void\n}\n";
        let m = crate::parse_module(text.as_bytes()).unwrap();
        let mut blocks = 0;
        for f in m.func_ids() {
            for b in m.func_blocks(f) {
                assert_eq!(estimated_insts(&m, b), m.block_insts(b).count());
                blocks += 1;
            }
        }
        assert_eq!(blocks, 4);
    }
}
