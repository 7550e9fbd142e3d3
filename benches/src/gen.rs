//! A deterministic generator of synthetic NVVM modules for benchmarks.
//!
//! [`generate`] writes LLVM 19 textual IR that `opt-19 -passes=verify`
//! accepts and that has the shapes the nvpass passes look at, repeated in
//! "units" until the requested size is reached:
//!
//! * a kernel (listed in `!nvvm.annotations`) with `noalias` (restrict)
//!   pointer parameters, a large struct passed `byval`, a loop with
//!   `!llvm.loop` metadata, TBAA on memory accesses, and a store to shared
//!   memory followed by a barrier;
//! * a helper taking two generic pointers, called from the kernel with
//!   pointers of several address spaces (global, shared, and a plain generic
//!   parameter), carrying a `DISubprogram` and a `DILocation` on every
//!   instruction;
//! * a helper taking the large struct `byval`;
//! * every fourth kernel launches the previous one through CUDA dynamic
//!   parallelism (`cudaGetParameterBuffer` + `cudaLaunchDevice`).
//!
//! Kernels also call the helper of an earlier unit, so the call graph is not
//! a set of disjoint islands. Optional stress shapes for interprocedural
//! passes: a deep call chain ([`Config::chain`]), one helper with many call
//! sites ([`Config::fan_in`]), a strongly connected ring of mutually
//! recursive functions ([`Config::scc`]), many calls in one block
//! ([`Config::block_calls`]), many CDP launches in one block
//! ([`Config::cdp_block`]) and internal functions nothing calls, each
//! named by a metadata node ([`Config::dead`]).
//!
//! Output depends only on the [`Config`]: the same seed and size give the
//! same bytes on every machine.

use std::fmt::Write;

/// What to generate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Seed of the pseudo-random choices (constants, callee picks, sizes).
    pub seed: u64,
    /// Approximate output size in bytes; units are added until it is reached.
    pub target_bytes: usize,
    /// Length of a chain `chain.0 -> chain.1 -> ...` of helpers forwarding a
    /// generic pointer (0: none).
    pub chain: usize,
    /// Number of call sites of one generic-pointer helper, spread over
    /// kernels of 100 calls each (0: none).
    pub fan_in: usize,
    /// Size of a ring of mutually recursive functions (0: none).
    pub scc: usize,
    /// Number of calls, all in the one block of one kernel, of each of two
    /// helpers: a two-block `alwaysinline` one (inlining it splits the
    /// block once per call) and a one-block one with no inline attribute,
    /// which the inliner's cost models price at every call (0: none).
    pub block_calls: usize,
    /// Number of CDP launches of each form, all in the one block of one
    /// device function: `cudaGetParameterBufferV2` + `cudaLaunchDeviceV2`
    /// pairs, and legacy `cudaGetParameterBuffer` + `cudaLaunchDevice`
    /// pairs whose grid is computed between the two (the buffer rewrite
    /// moves it up to the allocation) (0: none).
    pub cdp_block: usize,
    /// Number of internal functions nothing calls, each named by a node of
    /// `!nvpass.gen.dead`: `remove-dead-functions` erases them all, and the
    /// references from metadata with them (0: none).
    pub dead: usize,
    /// Length of a chain `ic.0 -> ic.1 -> ...` of internal helpers with no
    /// inline attribute, defined callers first, each passing an aggregate
    /// alloca of its own down: the LLVM and CGSCC models of `inline`
    /// inline it bottom-up, each level's body already holding the levels
    /// below, until the per-caller budget stops a run of levels; the names
    /// of copied values grow by `.i` per level, as LLVM's do (0: none).
    pub inline_chain: usize,
}

impl Config {
    /// A module of about `bytes` bytes of the default shapes only.
    pub fn sized(seed: u64, bytes: usize) -> Config {
        Config {
            seed,
            target_bytes: bytes,
            chain: 0,
            fan_in: 0,
            scc: 0,
            block_calls: 0,
            cdp_block: 0,
            dead: 0,
            inline_chain: 0,
        }
    }
}

/// xorshift64*: small, fast, and stable across platforms.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

/// Number of distinct large struct types.
const BIG_TYPES: usize = 4;
/// Float constants printed exactly as LLVM 19 prints them.
const FLOATS: [&str; 6] = [
    "1.000000e+00",
    "2.500000e-01",
    "3.000000e+00",
    "5.000000e-01",
    "-2.000000e+00",
    "1.250000e-01",
];
const FIXED_MD: u32 = 12;

struct Gen {
    rng: Rng,
    globals: String,
    funcs: String,
    md: String,
    next_md: u32,
    kernels: Vec<u32>,
    /// Whether unit `i`'s kernel exists (for CDP launches).
    units: usize,
}

impl Gen {
    fn md(&mut self, text: std::fmt::Arguments<'_>) -> u32 {
        let n = self.next_md;
        self.next_md += 1;
        let _ = writeln!(self.md, "!{n} = {text}");
        n
    }

    /// Lists `@name` in `!nvvm.annotations` as a kernel.
    fn mark_kernel(&mut self, name: std::fmt::Arguments<'_>) {
        let ann = self.md(format_args!("!{{ptr @{name}, !\"kernel\", i32 1}}"));
        self.kernels.push(ann);
    }

    fn size(&self) -> usize {
        self.globals.len() + self.funcs.len() + self.md.len()
    }

    fn unit(&mut self, i: usize) {
        let big = i % BIG_TYPES;
        let _ = writeln!(
            self.globals,
            "@g.{i} = dso_local addrspace(1) externally_initialized global [256 x float] zeroinitializer, align 4\n\
             @s.{i} = internal addrspace(3) global [128 x float] undef, align 4"
        );
        self.helper(i);
        self.big_helper(i, big);
        self.kernel(i, big);
        self.units = i + 1;
    }

    /// A helper with generic pointer parameters and debug locations.
    fn helper(&mut self, i: usize) {
        let line = 10 + (i as u32 % 5000) * 20;
        let sp = self.md(format_args!(
            "distinct !DISubprogram(name: \"helper.{i}\", scope: !3, file: !3, line: {line}, type: !4, scopeLine: {line}, flags: DIFlagPrototyped, spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !2)"
        ));
        let f = &mut self.funcs;
        let _ = writeln!(
            f,
            "; Function Attrs: convergent noinline nounwind\n\
             define internal float @helper.{i}(ptr noundef %0, ptr noundef %1, i32 noundef %2) #1 !dbg !{sp} {{\nentry:"
        );
        let mut locs = Vec::new();
        let extra = self.rng.below(6) as usize;
        for k in 0..9 + extra {
            let col = 3 + k as u32 * 2;
            locs.push(self.next_md);
            let _ = writeln!(
                self.md,
                "!{} = !DILocation(line: {}, column: {col}, scope: !{sp})",
                self.next_md,
                line + 1 + k as u32
            );
            self.next_md += 1;
        }
        let f = &mut self.funcs;
        let mut l = locs.iter();
        let mut dbg = || *l.next().unwrap();
        let _ = writeln!(f, "  %3 = sext i32 %2 to i64, !dbg !{}", dbg());
        let _ = writeln!(
            f,
            "  %4 = getelementptr inbounds float, ptr %0, i64 %3, !dbg !{}",
            dbg()
        );
        let _ = writeln!(
            f,
            "  %5 = load float, ptr %4, align 4, !dbg !{}, !tbaa !6",
            dbg()
        );
        let _ = writeln!(
            f,
            "  %6 = getelementptr inbounds float, ptr %1, i64 %3, !dbg !{}",
            dbg()
        );
        let _ = writeln!(
            f,
            "  %7 = load float, ptr %6, align 4, !dbg !{}, !tbaa !6",
            dbg()
        );
        let mut last = 7;
        for _ in 0..extra {
            let c = FLOATS[self.rng.below(FLOATS.len() as u64) as usize];
            let op = ["fmul", "fadd", "fsub"][self.rng.below(3) as usize];
            let _ = writeln!(
                f,
                "  %{} = {op} contract float %{last}, {c}, !dbg !{}",
                last + 1,
                dbg()
            );
            last += 1;
        }
        let _ = writeln!(
            f,
            "  %{} = fmul contract float %{last}, %5, !dbg !{}",
            last + 1,
            dbg()
        );
        let prod = last + 1;
        let _ = writeln!(f, "  %{} = icmp sgt i32 %2, 0, !dbg !{}", prod + 1, dbg());
        let _ = writeln!(
            f,
            "  br i1 %{}, label %then, label %exit, !dbg !{}",
            prod + 1,
            dbg()
        );
        let _ = writeln!(
            f,
            "\nthen:                                             ; preds = %entry"
        );
        let _ = writeln!(
            f,
            "  %{} = fadd contract float %{prod}, 1.000000e+00, !dbg !{}",
            prod + 2,
            dbg()
        );
        let _ = writeln!(f, "  store float %{}, ptr %4, align 4, !tbaa !6", prod + 2);
        let _ = writeln!(f, "  br label %exit\n");
        let _ = writeln!(
            f,
            "exit:                                             ; preds = %then, %entry"
        );
        let _ = writeln!(
            f,
            "  %{} = phi float [ %{}, %then ], [ %{prod}, %entry ]\n  ret float %{}\n}}\n",
            prod + 3,
            prod + 2,
            prod + 3
        );
    }

    /// A helper reading a field of a large struct passed by value.
    fn big_helper(&mut self, i: usize, big: usize) {
        let _ = writeln!(
            self.funcs,
            "; Function Attrs: convergent noinline nounwind\n\
             define internal float @bighelper.{i}(ptr noundef byval(%struct.Big.{big}) align 8 %0) #1 {{\n\
             entry:\n  \
               %1 = getelementptr inbounds %struct.Big.{big}, ptr %0, i32 0, i32 1\n  \
               %2 = load float, ptr %1, align 8, !tbaa !6\n  \
               %3 = getelementptr inbounds %struct.Big.{big}, ptr %0, i32 0, i32 0, i64 {}\n  \
               %4 = load i64, ptr %3, align 8\n  \
               %5 = sitofp i64 %4 to float\n  \
               %6 = fadd contract float %2, %5\n  \
               ret float %6\n}}\n",
            self.rng.below(32)
        );
    }

    fn kernel(&mut self, i: usize, big: usize) {
        let self_ref = self.next_md;
        let loop_md = self.md(format_args!("distinct !{{!{self_ref}, !11}}"));
        self.mark_kernel(format_args!("kernel.{i}"));
        let other = if i == 0 {
            0
        } else {
            self.rng.below(i as u64) as usize
        };
        let c = FLOATS[self.rng.below(FLOATS.len() as u64) as usize];
        let f = &mut self.funcs;
        let _ = write!(
            f,
            "; Function Attrs: convergent mustprogress noinline norecurse nounwind\n\
             define dso_local void @kernel.{i}(ptr noalias noundef %out, ptr noalias noundef readonly %in, ptr noundef byval(%struct.Big.{big}) align 8 %params, i32 noundef %n) #0 {{\n\
             entry:\n  \
               %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n  \
               %gp = addrspacecast ptr addrspace(1) @g.{i} to ptr\n  \
               %sp = addrspacecast ptr addrspace(3) @s.{i} to ptr\n  \
               %pf = getelementptr inbounds %struct.Big.{big}, ptr %params, i64 0, i32 1\n  \
               %pv = load float, ptr %pf, align 8, !tbaa !6\n  \
               %h0 = call float @helper.{i}(ptr %gp, ptr %in, i32 %tid) #2\n  \
               %h1 = call float @helper.{i}(ptr %sp, ptr %out, i32 %tid) #2\n  \
               %h2 = call float @helper.{other}(ptr %out, ptr %gp, i32 %n) #2\n  \
               %h3 = call float @bighelper.{i}(ptr noundef byval(%struct.Big.{big}) align 8 %params) #2\n  \
               %s0 = fadd contract float %h0, %h1\n  \
               %s1 = fadd contract float %s0, %h2\n  \
               %s2 = fmul contract float %s1, %pv\n  \
               %s3 = fadd contract float %s2, %h3\n  \
               %s4 = fmul contract float %s3, {c}\n  \
               br label %loop\n\n\
             loop:                                             ; preds = %loop, %entry\n  \
               %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]\n  \
               %acc = phi float [ %s4, %entry ], [ %acc.next, %loop ]\n  \
               %ie = sext i32 %i to i64\n  \
               %po = getelementptr inbounds float, ptr %out, i64 %ie\n  \
               %x = load float, ptr %po, align 4, !tbaa !6\n  \
               %acc.next = fadd contract float %acc, %x\n  \
               store float %acc.next, ptr %po, align 4, !tbaa !6\n  \
               %i.next = add nsw i32 %i, 1\n  \
               %c = icmp slt i32 %i.next, %n\n  \
               br i1 %c, label %loop, label %exit, !llvm.loop !{loop_md}\n\n\
             exit:                                             ; preds = %loop\n"
        );
        if i % 4 == 1 {
            let _ = write!(
                f,
                "  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 16) #3\n  \
                   store ptr %out, ptr %buf, align 8\n  \
                   %arg1 = getelementptr inbounds i8, ptr %buf, i64 8\n  \
                   store ptr %in, ptr %arg1, align 8\n  \
                   %gx = insertvalue %struct.dim3 undef, i32 %n, 0\n  \
                   %gy = insertvalue %struct.dim3 %gx, i32 1, 1\n  \
                   %grid = insertvalue %struct.dim3 %gy, i32 1, 2\n  \
                   %bx = insertvalue %struct.dim3 undef, i32 128, 0\n  \
                   %by = insertvalue %struct.dim3 %bx, i32 1, 1\n  \
                   %block = insertvalue %struct.dim3 %by, i32 1, 2\n  \
                   %launch = call i32 @cudaLaunchDevice(ptr @kernel.{}, ptr %buf, %struct.dim3 %grid, %struct.dim3 %block, i32 0, ptr null) #3\n",
                i - 1
            );
        }
        let _ = write!(
            f,
            "  %tidx = zext i32 %tid to i64\n  \
               %so = getelementptr inbounds [128 x float], ptr addrspace(3) @s.{i}, i64 0, i64 %tidx\n  \
               store float %acc.next, ptr addrspace(3) %so, align 4, !tbaa !6\n  \
               call void @llvm.nvvm.barrier0()\n  \
               ret void\n}}\n\n"
        );
    }

    /// A chain of `n` helpers, `define(k, next)` giving the definition of
    /// level `k` (`next`: the level it calls, `None` for the last), then
    /// the kernel `kernel_def` calling level 0, marked as kernel `kernel`.
    fn chain_of(
        &mut self,
        n: usize,
        define: impl Fn(usize, Option<usize>) -> String,
        kernel: &str,
        kernel_def: &str,
    ) {
        for k in 0..n {
            let text = define(k, (k + 1 < n).then_some(k + 1));
            let _ = writeln!(self.funcs, "{text}");
        }
        if n > 0 {
            self.mark_kernel(format_args!("{kernel}"));
            let _ = writeln!(self.funcs, "{kernel_def}");
        }
    }

    fn chain(&mut self, n: usize) {
        let define = |k: usize, next: Option<usize>| {
            let body = match next {
                Some(next) => format!(
                    "  %1 = call float @chain.{next}(ptr %0) #2\n  %2 = fadd contract float %1, 1.000000e+00\n  ret float %2"
                ),
                None => "  %1 = load float, ptr %0, align 4, !tbaa !6\n  ret float %1".to_string(),
            };
            format!("define internal float @chain.{k}(ptr noundef %0) #1 {{\nentry:\n{body}\n}}\n")
        };
        self.chain_of(
            n,
            define,
            "chain_kernel",
            "define dso_local void @chain_kernel(ptr noalias noundef %out) #0 {\n  \
               %1 = call float @chain.0(ptr addrspacecast (ptr addrspace(3) @s.0 to ptr)) #2\n  \
               store float %1, ptr %out, align 4, !tbaa !6\n  \
               ret void\n}\n",
        );
    }

    fn inline_chain(&mut self, n: usize) {
        let define = |k: usize, next: Option<usize>| {
            let body = match next {
                Some(next) => format!(
                    "  %b = alloca [4 x i32], align 4\n  %v = load i32, ptr %0, align 4\n  \
                     store i32 %v, ptr %b, align 4\n  %r = call i32 @ic.{next}(ptr %b)\n  \
                     %s = add i32 %r, {k}\n  ret i32 %s"
                ),
                None => "  %v = load i32, ptr %0, align 4\n  ret i32 %v".to_string(),
            };
            format!("define internal i32 @ic.{k}(ptr noundef %0) nounwind {{\nentry:\n{body}\n}}\n")
        };
        self.chain_of(
            n,
            define,
            "ic_kernel",
            "define dso_local void @ic_kernel(ptr noundef %out) #0 {\n  \
               %1 = call i32 @ic.0(ptr %out) #2\n  \
               store i32 %1, ptr %out, align 4\n  \
               ret void\n}\n",
        );
    }

    fn fan_in(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let _ = writeln!(
            self.funcs,
            "define internal void @fan(ptr noundef %0, i32 noundef %1) #1 {{\n  \
               %3 = sext i32 %1 to i64\n  \
               %4 = getelementptr inbounds float, ptr %0, i64 %3\n  \
               store float 1.000000e+00, ptr %4, align 4, !tbaa !6\n  \
               ret void\n}}\n"
        );
        let mut left = n;
        let mut k = 0;
        while left > 0 {
            let calls = left.min(100);
            left -= calls;
            self.mark_kernel(format_args!("fan_kernel.{k}"));
            let _ = writeln!(
                self.funcs,
                "define dso_local void @fan_kernel.{k}(ptr noundef %p) #0 {{\n  \
                   %g = addrspacecast ptr addrspace(1) @g.0 to ptr\n  \
                   %s = addrspacecast ptr addrspace(3) @s.0 to ptr"
            );
            for c in 0..calls {
                let ptr = ["%g", "%s", "%p"][self.rng.below(3) as usize];
                let _ = writeln!(self.funcs, "  call void @fan(ptr {ptr}, i32 {c}) #2");
            }
            let _ = writeln!(self.funcs, "  ret void\n}}\n");
            k += 1;
        }
    }

    fn block_calls(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let _ = writeln!(
            self.funcs,
            "define internal void @blk.always(ptr noundef %0, i32 noundef %1) alwaysinline nounwind {{\n\
             entry:\n  \
               %2 = icmp eq i32 %1, 0\n  \
               br i1 %2, label %zero, label %store\n\n\
             zero:                                             ; preds = %entry\n  \
               ret void\n\n\
             store:                                            ; preds = %entry\n  \
               %3 = sext i32 %1 to i64\n  \
               %4 = getelementptr inbounds float, ptr %0, i64 %3\n  \
               store float 1.000000e+00, ptr %4, align 4, !tbaa !6\n  \
               ret void\n}}\n\n\
             define internal float @blk.priced(ptr noundef %0, i32 noundef %1) nounwind {{\n  \
               %3 = sext i32 %1 to i64\n  \
               %4 = getelementptr inbounds float, ptr %0, i64 %3\n  \
               %5 = load float, ptr %4, align 4, !tbaa !6\n  \
               ret float %5\n}}\n"
        );
        self.mark_kernel(format_args!("blk_kernel"));
        let _ = writeln!(
            self.funcs,
            "define dso_local void @blk_kernel(ptr noundef %p) #0 {{\n  \
               %g = addrspacecast ptr addrspace(1) @g.0 to ptr"
        );
        for c in 0..n {
            let _ = writeln!(
                self.funcs,
                "  call void @blk.always(ptr %g, i32 {c}) #2\n  \
                   %v{c} = call float @blk.priced(ptr %p, i32 {c}) #2"
            );
        }
        let _ = writeln!(self.funcs, "  ret void\n}}\n");
    }

    fn cdp_block(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let _ = writeln!(
            self.funcs,
            "define dso_local void @cdp_block(i32 noundef %n) #1 {{\n  \
               %gx = insertvalue %struct.dim3 undef, i32 %n, 0\n  \
               %gy = insertvalue %struct.dim3 %gx, i32 1, 1\n  \
               %g = insertvalue %struct.dim3 %gy, i32 1, 2"
        );
        for c in 0..n {
            let _ = writeln!(
                self.funcs,
                "  %vb{c} = call ptr @cudaGetParameterBufferV2(ptr @kernel.0, %struct.dim3 %g, %struct.dim3 %g, i32 0) #3\n  \
                   %vl{c} = call i32 @cudaLaunchDeviceV2(ptr %vb{c}, ptr null) #3\n  \
                   %lb{c} = call ptr @cudaGetParameterBuffer(i64 64, i64 16) #3\n  \
                   %lx{c} = insertvalue %struct.dim3 undef, i32 {c}, 0\n  \
                   %lg{c} = insertvalue %struct.dim3 %lx{c}, i32 1, 1\n  \
                   %ll{c} = call i32 @cudaLaunchDevice(ptr @kernel.0, ptr %lb{c}, %struct.dim3 %lg{c}, %struct.dim3 %g, i32 0, ptr null) #3"
            );
        }
        let _ = writeln!(
            self.funcs,
            "  ret void\n}}\n\n\
             declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)\n\n\
             declare i32 @cudaLaunchDeviceV2(ptr, ptr)\n"
        );
    }

    /// `n` uncalled internal functions; returns the metadata nodes naming
    /// them.
    fn dead(&mut self, n: usize) -> Vec<u32> {
        let mut nodes = Vec::with_capacity(n);
        for k in 0..n {
            let _ = writeln!(
                self.funcs,
                "define internal float @dead.{k}(ptr noundef %0) #1 {{\n  \
                   %2 = load float, ptr %0, align 4, !tbaa !6\n  \
                   ret float %2\n}}\n"
            );
            nodes.push(self.md(format_args!("!{{ptr @dead.{k}, !\"dead\", i32 {k}}}")));
        }
        nodes
    }

    fn scc(&mut self, n: usize) {
        for k in 0..n {
            let next = (k + 1) % n;
            let _ = writeln!(
                self.funcs,
                "define internal float @scc.{k}(ptr noundef %0, i32 noundef %1) #1 {{\n\
                 entry:\n  \
                   %2 = icmp sgt i32 %1, 0\n  \
                   br i1 %2, label %rec, label %base\n\n\
                 rec:                                              ; preds = %entry\n  \
                   %3 = sub nsw i32 %1, 1\n  \
                   %4 = call float @scc.{next}(ptr %0, i32 %3) #2\n  \
                   ret float %4\n\n\
                 base:                                             ; preds = %entry\n  \
                   %5 = load float, ptr %0, align 4, !tbaa !6\n  \
                   ret float %5\n}}\n"
            );
        }
        if n > 0 {
            self.mark_kernel(format_args!("scc_kernel"));
            let _ = writeln!(
                self.funcs,
                "define dso_local void @scc_kernel(ptr noalias noundef %out, i32 noundef %n) #0 {{\n  \
                   %g = addrspacecast ptr addrspace(1) @g.0 to ptr\n  \
                   %1 = call float @scc.0(ptr %g, i32 %n) #2\n  \
                   store float %1, ptr %out, align 4, !tbaa !6\n  \
                   ret void\n}}\n"
            );
        }
    }
}

/// Generates a module for `cfg`.
pub fn generate(cfg: &Config) -> String {
    let mut g = Gen {
        rng: Rng::new(cfg.seed),
        globals: String::new(),
        funcs: String::new(),
        md: String::new(),
        next_md: FIXED_MD,
        kernels: Vec::new(),
        units: 0,
    };
    let mut i = 0;
    // At least one unit: the stress shapes use its globals.
    loop {
        g.unit(i);
        i += 1;
        if g.size() + 4096 >= cfg.target_bytes {
            break;
        }
    }
    g.chain(cfg.chain);
    g.inline_chain(cfg.inline_chain);
    g.fan_in(cfg.fan_in);
    g.scc(cfg.scc);
    g.block_calls(cfg.block_calls);
    g.cdp_block(cfg.cdp_block);
    let dead = g.dead(cfg.dead);
    let _ = g.units;

    let mut out = String::with_capacity(g.size() + 8192);
    out.push_str(
        "; ModuleID = 'gen.cu'\n\
         source_filename = \"gen.cu\"\n\
         target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n\
         target triple = \"nvptx64-nvidia-cuda\"\n\n\
         %struct.dim3 = type { i32, i32, i32 }\n",
    );
    for b in 0..BIG_TYPES {
        let _ = writeln!(
            out,
            "%struct.Big.{b} = type {{ [{} x i64], float, ptr }}",
            32 + 16 * b
        );
    }
    out.push('\n');
    out.push_str(&g.globals);
    out.push('\n');
    out.push_str(&g.funcs);
    out.push_str(
        "; Function Attrs: nocallback nofree nosync nounwind speculatable willreturn memory(none)\n\
         declare noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x() #4\n\n\
         ; Function Attrs: convergent nocallback nounwind\n\
         declare void @llvm.nvvm.barrier0() #5\n\n\
         declare ptr @cudaGetParameterBuffer(i64, i64)\n\n\
         declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)\n\n\
         attributes #0 = { convergent mustprogress noinline norecurse nounwind \"frame-pointer\"=\"all\" \"no-trapping-math\"=\"true\" \"stack-protector-buffer-size\"=\"8\" \"target-cpu\"=\"sm_90\" \"target-features\"=\"+ptx85,+sm_90\" \"uniform-work-group-size\"=\"true\" }\n\
         attributes #1 = { convergent noinline nounwind \"frame-pointer\"=\"all\" \"no-trapping-math\"=\"true\" \"stack-protector-buffer-size\"=\"8\" \"target-cpu\"=\"sm_90\" \"target-features\"=\"+ptx85,+sm_90\" }\n\
         attributes #2 = { convergent nounwind }\n\
         attributes #3 = { \"nvvm.cdp.variant\"=\"2\" }\n\
         attributes #4 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }\n\
         attributes #5 = { convergent nocallback nounwind }\n\n\
         !llvm.dbg.cu = !{!2}\n\
         !llvm.module.flags = !{!0, !1}\n",
    );
    if !dead.is_empty() {
        out.push_str("!nvpass.gen.dead = !{");
        for (k, n) in dead.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "!{n}");
        }
        out.push_str("}\n");
    }
    out.push_str("!nvvm.annotations = !{");
    for (k, n) in g.kernels.iter().enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "!{n}");
    }
    out.push_str(
        "}\n!llvm.ident = !{!10}\n\n\
         !0 = !{i32 2, !\"Debug Info Version\", i32 3}\n\
         !1 = !{i32 1, !\"wchar_size\", i32 4}\n\
         !2 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !3, producer: \"nvpass-gen\", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)\n\
         !3 = !DIFile(filename: \"gen.cu\", directory: \"/gen\")\n\
         !4 = !DISubroutineType(types: !5)\n\
         !5 = !{null}\n\
         !6 = !{!7, !7, i64 0}\n\
         !7 = !{!\"float\", !8, i64 0}\n\
         !8 = !{!\"omnipotent char\", !9, i64 0}\n\
         !9 = !{!\"Simple C++ TBAA\"}\n\
         !10 = !{!\"nvpass-gen\"}\n\
         !11 = !{!\"llvm.loop.mustprogress\"}\n",
    );
    out.push_str(&g.md);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deterministic_and_sized() {
        let a = generate(&Config::sized(7, 100_000));
        let b = generate(&Config::sized(7, 100_000));
        assert_eq!(a, b);
        assert!(a.len() >= 95_000 && a.len() < 120_000, "{}", a.len());
        assert_ne!(a, generate(&Config::sized(8, 100_000)));
    }

    #[test]
    fn inline_chain_is_defined_callers_first() {
        let text = generate(&Config {
            inline_chain: 30,
            ..Config::sized(5, 10_000)
        });
        let defs: Vec<usize> = (0..30)
            .map(|k| {
                text.find(&format!(
                    "define internal i32 @ic.{k}(ptr noundef %0) nounwind {{"
                ))
                .unwrap_or_else(|| panic!("ic.{k} is not defined"))
            })
            .collect();
        assert!(defs.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(text.matches("alloca [4 x i32]").count(), 29);
        assert!(text.contains("call i32 @ic.29(ptr %b)"));
        assert!(!text.contains("@ic.30"));
        assert!(text.contains("!{ptr @ic_kernel, !\"kernel\", i32 1}"));
    }

    #[test]
    fn parses_and_verifies() {
        let cfg = Config {
            chain: 50,
            fan_in: 250,
            scc: 5,
            block_calls: 30,
            cdp_block: 25,
            dead: 20,
            inline_chain: 40,
            ..Config::sized(3, 60_000)
        };
        let text = generate(&cfg);
        let m = nvpass_ir::parse_module(text.as_bytes())
            .unwrap_or_else(|e| panic!("{}", e.render("gen.ll", text.as_bytes())));
        nvpass_ir::verify_module(&m).unwrap_or_else(|e| panic!("{e:?}"));
    }
}
