//! A structured generator of well-formed NVPTX modules, as LLVM textual IR.
//!
//! Shared by the property tests (`nvpass-passes/tests/properties.rs`, driven
//! by a seeded [`XorShift`]), the adversarial tests and the `passes` fuzz
//! target (driven by the fuzz input through [`Bytes`]). It depends on `std`
//! only, so each user includes it with `#[path = ...] mod gen;`.
//!
//! Every choice is read from a [`Source`]; a source that runs dry answers
//! 0, and 0 always means "stop" or "the smallest choice", so any byte string
//! yields a finite module. The output is valid for `opt-19 -passes=verify`
//! and for the nvpass verifier:
//!
//! * values are used only where their definition dominates: control flow is
//!   built from nested regions (straight line, if/else with a join phi,
//!   counted loops, switches whose cases may jump straight to the join,
//!   early returns), and a region's values go out of scope when it ends;
//! * allocas sit in the entry block;
//! * calls match the callee's signature; the call graph may be recursive,
//!   including cycles of `alwaysinline` functions;
//! * kernels are marked by `ptx_kernel`, by `!nvvm.annotations`, or both;
//! * optionally every definition carries a `DISubprogram` and every
//!   instruction a `DILocation`, and some instructions carry an unknown
//!   metadata kind (`!nvpass.fuzz`) that passes must preserve.
//!
//! The shapes aim at the nvpass passes: pointers in the generic, global,
//! shared and constant address spaces and `addrspacecast`s between them,
//! `noalias` kernel parameters, calls to `cudaGetParameterBuffer` and
//! `cudaLaunchDevice`, inline hints, and NVVM intrinsics.
#![allow(dead_code)]

use std::fmt::Write as _;

/// Where the generator's choices come from.
pub trait Source {
    /// A number in `0..n` (`n >= 1`); 0 once the source is exhausted.
    fn below(&mut self, n: u32) -> u32;

    /// True with probability about `1/n` for a random source; false when
    /// exhausted.
    fn one_in(&mut self, n: u32) -> bool {
        n <= 1 || self.below(n) == 1
    }
}

/// A seeded xorshift64* stream (deterministic, never exhausted).
pub struct XorShift(u64);

impl XorShift {
    /// A stream for `seed` (any value, including 0).
    pub fn new(seed: u64) -> XorShift {
        XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

impl Source for XorShift {
    fn below(&mut self, n: u32) -> u32 {
        ((self.next_u64() >> 32) % u64::from(n.max(1))) as u32
    }
}

/// Choices read from a byte string (fuzz input), one or two bytes each.
pub struct Bytes<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Bytes<'a> {
    /// A source reading `data` front to back.
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data, pos: 0 }
    }
}

impl Source for Bytes<'_> {
    fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let mut v = 0u32;
        let width = if n > 256 { 2 } else { 1 };
        for _ in 0..width {
            let Some(&b) = self.data.get(self.pos) else {
                return 0;
            };
            self.pos += 1;
            v = (v << 8) | u32::from(b);
        }
        v % n
    }
}

/// Size limits of a generated module.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Defined device functions (besides kernels).
    pub funcs: u32,
    /// Kernels.
    pub kernels: u32,
    /// Instructions per function, roughly.
    pub insts: u32,
    /// Nesting depth of control-flow regions.
    pub depth: u32,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            funcs: 6,
            kernels: 3,
            insts: 60,
            depth: 3,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    I1,
    I32,
    I64,
    F32,
    /// A pointer in the given address space.
    Ptr(u32),
}

impl Ty {
    fn text(self) -> String {
        match self {
            Ty::I1 => "i1".into(),
            Ty::I32 => "i32".into(),
            Ty::I64 => "i64".into(),
            Ty::F32 => "float".into(),
            Ty::Ptr(0) => "ptr".into(),
            Ty::Ptr(a) => format!("ptr addrspace({a})"),
        }
    }

    fn is_ptr(self) -> bool {
        matches!(self, Ty::Ptr(_))
    }
}

/// Address spaces the generator uses: generic, global, shared, constant.
const SPACES: [u32; 4] = [0, 1, 3, 4];
const VALUE_TYS: [Ty; 8] = [
    Ty::I32,
    Ty::I64,
    Ty::F32,
    Ty::I1,
    Ty::Ptr(0),
    Ty::Ptr(1),
    Ty::Ptr(3),
    Ty::Ptr(4),
];

#[derive(Clone, Debug)]
struct Sig {
    name: String,
    ret: Option<Ty>,
    params: Vec<Ty>,
    kernel: bool,
}

struct Global {
    name: String,
    space: u32,
    /// Element type: `i32` or `float`.
    elem: Ty,
}

/// Metadata nodes collected while generating (numbered from 0).
#[derive(Default)]
struct Meta {
    nodes: Vec<String>,
}

impl Meta {
    fn add(&mut self, text: String) -> usize {
        self.nodes.push(text);
        self.nodes.len() - 1
    }
}

struct Ctx {
    sigs: Vec<Sig>,
    globals: Vec<Global>,
    meta: Meta,
    /// `!nvpass.fuzz` payload node, when unknown metadata is attached.
    fuzz_md: Option<usize>,
    /// Debug-info compile unit, file and subroutine type nodes.
    dbg: Option<(usize, usize, usize)>,
    cdp: bool,
}

/// Generates one module from `src` within `limits`.
pub fn module(src: &mut impl Source, limits: Limits) -> String {
    let mut cx = Ctx {
        sigs: Vec::new(),
        globals: Vec::new(),
        meta: Meta::default(),
        fuzz_md: None,
        dbg: None,
        cdp: src.one_in(3),
    };
    let mut out = String::new();
    out.push_str("target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n");
    out.push_str("target triple = \"nvptx64-nvidia-cuda\"\n\n");
    out.push_str("%struct.dim3 = type { i32, i32, i32 }\n\n");

    // Globals: at least one in each address space a pointer may need.
    for (i, &space) in [1u32, 3, 4, 1, 3].iter().enumerate() {
        if i >= 3 && !src.one_in(2) {
            continue;
        }
        let elem = if src.one_in(2) { Ty::F32 } else { Ty::I32 };
        let name = format!("g{i}");
        let (kind, init) = match space {
            3 => ("global", "undef".to_string()),
            4 => ("constant", format!("[4 x {}] zeroinitializer", elem.text())),
            _ => ("global", format!("[4 x {}] zeroinitializer", elem.text())),
        };
        let init = if space == 3 {
            format!("[4 x {}] {init}", elem.text())
        } else {
            init
        };
        let _ = writeln!(
            out,
            "@{name} = internal addrspace({space}) {kind} {init}, align 4"
        );
        cx.globals.push(Global { name, space, elem });
    }
    out.push('\n');

    if src.one_in(2) {
        cx.fuzz_md = Some(cx.meta.add("!{!\"nvpass-fuzz\", i32 7}".into()));
    }
    if src.one_in(3) {
        let file = cx
            .meta
            .add("!DIFile(filename: \"gen.cu\", directory: \"/tmp\")".into());
        let cu = cx.meta.add(format!(
            "distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !{file}, producer: \"nvpass-gen\", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)"
        ));
        let null = cx.meta.add("!{null}".into());
        let sty = cx.meta.add(format!("!DISubroutineType(types: !{null})"));
        cx.dbg = Some((cu, file, sty));
    }

    // Signatures first, so calls can go anywhere (including cycles).
    let nfuncs = 1 + src.below(limits.funcs.max(1));
    let nkernels = 1 + src.below(limits.kernels.max(1));
    for i in 0..nfuncs {
        let ret = match src.below(6) {
            0 | 1 => None,
            2 => Some(Ty::I32),
            3 => Some(Ty::F32),
            4 => Some(Ty::Ptr(SPACES[src.below(4) as usize])),
            _ => Some(Ty::I64),
        };
        let n = src.below(5);
        let params = (0..n)
            .map(|_| VALUE_TYS[src.below(VALUE_TYS.len() as u32) as usize])
            .collect();
        cx.sigs.push(Sig {
            name: format!("f{i}"),
            ret,
            params,
            kernel: false,
        });
    }
    for i in 0..nkernels {
        let n = src.below(5);
        let params = (0..n)
            .map(|_| match src.below(5) {
                0 => Ty::Ptr(0),
                1 => Ty::Ptr(1),
                2 => Ty::I32,
                3 => Ty::F32,
                _ => Ty::I64,
            })
            .collect();
        cx.sigs.push(Sig {
            name: format!("k{i}"),
            ret: None,
            params,
            kernel: true,
        });
    }

    let mut annotations = Vec::new();
    for idx in 0..cx.sigs.len() {
        let body = gen_function(src, &mut cx, idx, limits, &mut annotations);
        out.push_str(&body);
        out.push('\n');
    }

    out.push_str("declare i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1\n");
    out.push_str("declare void @llvm.nvvm.barrier0() #2\n");
    out.push_str("declare void @ext_sink(ptr) #0\n");
    if cx.cdp {
        out.push_str("declare ptr @cudaGetParameterBuffer(i64, i64)\n");
        out.push_str(
            "declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)\n",
        );
    }
    out.push('\n');
    out.push_str("attributes #0 = { convergent nounwind \"target-cpu\"=\"sm_90\" \"target-features\"=\"+ptx85,+sm_90\" }\n");
    out.push_str("attributes #1 = { nocallback nofree nosync nounwind speculatable willreturn memory(none) }\n");
    out.push_str("attributes #2 = { convergent nocallback nounwind }\n\n");

    let version = cx.meta.add("!{i32 2, i32 0}".into());
    let mut flags = vec![cx.meta.add("!{i32 1, !\"wchar_size\", i32 4}".into())];
    if cx.dbg.is_some() {
        flags.push(
            cx.meta
                .add("!{i32 2, !\"Debug Info Version\", i32 3}".into()),
        );
    }
    let ann: Vec<usize> = annotations
        .iter()
        .map(|a: &String| cx.meta.add(a.clone()))
        .collect();
    let list = |v: &[usize]| {
        v.iter()
            .map(|n| format!("!{n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let _ = writeln!(out, "!llvm.module.flags = !{{{}}}", list(&flags));
    if !ann.is_empty() {
        let _ = writeln!(out, "!nvvm.annotations = !{{{}}}", list(&ann));
    }
    let _ = writeln!(out, "!nvvmir.version = !{{!{version}}}");
    if let Some((cu, _, _)) = cx.dbg {
        let _ = writeln!(out, "!llvm.dbg.cu = !{{!{cu}}}");
    }
    out.push('\n');
    for (i, n) in cx.meta.nodes.iter().enumerate() {
        let _ = writeln!(out, "!{i} = {n}");
    }
    out
}

/// Inline-related attribute combinations LLVM accepts on one function.
const INLINE_ATTRS: [&str; 5] = ["", " alwaysinline", " noinline", " inlinehint", " optsize"];

fn gen_function(
    src: &mut impl Source,
    cx: &mut Ctx,
    idx: usize,
    limits: Limits,
    annotations: &mut Vec<String>,
) -> String {
    let sig = cx.sigs[idx].clone();
    let mut head = String::from("define ");
    if !sig.kernel && src.one_in(2) {
        head.push_str("internal ");
    }
    let ptx_cc = sig.kernel && !src.one_in(3);
    if sig.kernel {
        if ptx_cc {
            head.push_str("ptx_kernel ");
        }
        if !ptx_cc || src.one_in(2) {
            annotations.push(format!("!{{ptr @{}, !\"kernel\", i32 1}}", sig.name));
        }
        if src.one_in(3) {
            annotations.push(format!(
                "!{{ptr @{}, !\"maxntidx\", i32 {}}}",
                sig.name,
                32 << src.below(5)
            ));
        }
    }
    let _ = write!(
        head,
        "{} @{}(",
        sig.ret.map_or("void".to_string(), Ty::text),
        sig.name
    );
    let mut scope = Vec::new();
    for (i, &t) in sig.params.iter().enumerate() {
        if i > 0 {
            head.push_str(", ");
        }
        head.push_str(&t.text());
        if t.is_ptr() && src.one_in(3) {
            head.push_str(" noalias");
        }
        if t.is_ptr() && src.one_in(4) {
            head.push_str(" nocapture");
        }
        if t == Ty::I32 && src.one_in(4) {
            head.push_str(" noundef");
        }
        let _ = write!(head, " %a{i}");
        scope.push((t, format!("%a{i}")));
    }
    head.push_str(") #0");
    if !sig.kernel {
        head.push_str(INLINE_ATTRS[src.below(INLINE_ATTRS.len() as u32) as usize]);
    }
    if src.one_in(4) {
        head.push_str(" \"nvpass-unknown\"=\"kept\"");
    }
    let mut dbg_locs = Vec::new();
    if let Some((cu, file, sty)) = cx.dbg {
        let sp = cx.meta.add(format!(
            "distinct !DISubprogram(name: \"{}\", scope: !{file}, file: !{file}, line: {}, type: !{sty}, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !{cu})",
            sig.name,
            idx + 1
        ));
        let _ = write!(head, " !dbg !{sp}");
        for l in 0..3 {
            dbg_locs.push(cx.meta.add(format!(
                "!DILocation(line: {}, column: {}, scope: !{sp})",
                idx * 10 + l + 2,
                l + 3
            )));
        }
    }
    head.push_str(" {\n");

    let mut f = FnGen {
        src,
        cx,
        sig,
        body: String::new(),
        next_val: 0,
        next_bb: 0,
        scopes: vec![scope],
        budget: limits.insts.max(4),
        dbg_locs,
        allocas: String::new(),
    };
    f.body.push_str("entry:\n");
    // Allocas go to the entry block; they are collected separately and
    // spliced in front of the body once it is known which ones exist.
    let nallocas = f.src.below(3);
    for _ in 0..nallocas {
        let v = f.fresh();
        let ty = if f.src.one_in(2) { Ty::F32 } else { Ty::I32 };
        let line = format!("  {v} = alloca {}, align 4", ty.text());
        let line = f.decorate(line);
        f.allocas.push_str(&line);
        f.allocas.push('\n');
        f.scopes[0].push((Ty::Ptr(0), v));
    }
    f.region(limits.depth);
    let ret = match f.sig.ret {
        None => "  ret void".to_string(),
        Some(t) => {
            let v = f.value(t);
            format!("  ret {} {v}", t.text())
        }
    };
    f.line(ret);
    let body = f
        .body
        .replacen("entry:\n", &format!("entry:\n{}", f.allocas), 1);
    head + &body + "}\n"
}

struct FnGen<'a, S: Source> {
    src: &'a mut S,
    cx: &'a mut Ctx,
    sig: Sig,
    body: String,
    next_val: u32,
    next_bb: u32,
    /// Values in scope, innermost region last.
    scopes: Vec<Vec<(Ty, String)>>,
    budget: u32,
    dbg_locs: Vec<usize>,
    allocas: String,
}

impl<S: Source> FnGen<'_, S> {
    fn fresh(&mut self) -> String {
        self.next_val += 1;
        format!("%v{}", self.next_val - 1)
    }

    fn fresh_block(&mut self) -> String {
        self.next_bb += 1;
        format!("bb{}", self.next_bb - 1)
    }

    /// Appends `!dbg` (always, when the function has debug info) and
    /// sometimes the unknown `!nvpass.fuzz` kind.
    fn decorate(&mut self, mut line: String) -> String {
        if let Some(md) = self.cx.fuzz_md {
            if self.src.one_in(4) {
                let _ = write!(line, ", !nvpass.fuzz !{md}");
            }
        }
        if !self.dbg_locs.is_empty() {
            let i = self.src.below(self.dbg_locs.len() as u32) as usize;
            let _ = write!(line, ", !dbg !{}", self.dbg_locs[i]);
        }
        line
    }

    fn line(&mut self, line: String) {
        let line = self.decorate(line);
        self.body.push_str(&line);
        self.body.push('\n');
    }

    fn define(&mut self, ty: Ty, v: String) {
        self.scopes.last_mut().unwrap().push((ty, v));
    }

    fn start_block(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    /// A value of type `ty`: one in scope, or a constant.
    fn value(&mut self, ty: Ty) -> String {
        let candidates: Vec<&String> = self
            .scopes
            .iter()
            .flatten()
            .filter(|(t, _)| *t == ty)
            .map(|(_, v)| v)
            .collect();
        if !candidates.is_empty() && !self.src.one_in(5) {
            let i = self.src.below(candidates.len() as u32) as usize;
            return candidates[i].clone();
        }
        self.constant(ty)
    }

    fn constant(&mut self, ty: Ty) -> String {
        match ty {
            Ty::I1 => if self.src.one_in(2) { "true" } else { "false" }.into(),
            Ty::I32 | Ty::I64 => match self.src.below(4) {
                0 => "0".into(),
                1 => "1".into(),
                2 => "-1".into(),
                _ => self.src.below(1000).to_string(),
            },
            Ty::F32 => [
                "0.000000e+00",
                "1.000000e+00",
                "-2.500000e-01",
                "0x7FF8000000000000",
            ][self.src.below(4) as usize]
                .into(),
            Ty::Ptr(space) => {
                let globals: Vec<(String, u32)> = self
                    .cx
                    .globals
                    .iter()
                    .map(|g| (g.name.clone(), g.space))
                    .collect();
                let pick = &globals[self.src.below(globals.len() as u32) as usize];
                match self.src.below(3) {
                    0 => "null".into(),
                    _ if pick.1 == space => format!("@{}", pick.0),
                    _ if space == 0 => format!(
                        "addrspacecast (ptr addrspace({}) @{} to ptr)",
                        pick.1, pick.0
                    ),
                    _ => "null".into(),
                }
            }
        }
    }

    /// A sequence of instructions and nested regions; leaves the current
    /// block open (no terminator).
    fn region(&mut self, depth: u32) {
        while self.budget > 0 {
            self.budget -= 1;
            match self.src.below(16) {
                0 => return,
                1 if depth > 0 => self.if_else(depth - 1),
                2 if depth > 0 => self.counted_loop(depth - 1),
                3 if depth > 0 => self.switch(depth - 1),
                4 if depth > 0 && self.src.one_in(2) => self.early_return(),
                5 | 6 => self.call(),
                _ => self.simple(),
            }
        }
    }

    fn simple(&mut self) {
        match self.src.below(13) {
            0 => {
                let (op, flags) = [
                    ("add", " nsw"),
                    ("sub", ""),
                    ("mul", " nuw"),
                    ("and", ""),
                    ("or", ""),
                    ("xor", ""),
                    ("shl", ""),
                ][self.src.below(7) as usize];
                let ty = if self.src.one_in(3) { Ty::I64 } else { Ty::I32 };
                let (a, b) = (self.value(ty), self.value(ty));
                let v = self.fresh();
                let flags = if self.src.one_in(2) { flags } else { "" };
                self.line(format!("  {v} = {op}{flags} {} {a}, {b}", ty.text()));
                self.define(ty, v);
            }
            1 => {
                let op = ["fadd", "fsub", "fmul"][self.src.below(3) as usize];
                let fm = if self.src.one_in(3) { " contract" } else { "" };
                let (a, b) = (self.value(Ty::F32), self.value(Ty::F32));
                let v = self.fresh();
                self.line(format!("  {v} = {op}{fm} float {a}, {b}"));
                self.define(Ty::F32, v);
            }
            2 => {
                let ty = [Ty::I32, Ty::I64, Ty::F32, Ty::Ptr(0)][self.src.below(4) as usize];
                let (a, b) = (self.value(ty), self.value(ty));
                let v = self.fresh();
                let cmp = match ty {
                    Ty::F32 => "fcmp olt",
                    Ty::Ptr(_) => "icmp eq",
                    _ => ["icmp slt", "icmp eq", "icmp ugt"][self.src.below(3) as usize],
                };
                self.line(format!("  {v} = {cmp} {} {a}, {b}", ty.text()));
                self.define(Ty::I1, v);
            }
            3 => {
                let ty = VALUE_TYS[self.src.below(VALUE_TYS.len() as u32) as usize];
                let c = self.value(Ty::I1);
                let (a, b) = (self.value(ty), self.value(ty));
                let v = self.fresh();
                let t = ty.text();
                self.line(format!("  {v} = select i1 {c}, {t} {a}, {t} {b}"));
                self.define(ty, v);
            }
            4 => {
                let (op, from, to) = [
                    ("sext", Ty::I32, Ty::I64),
                    ("zext", Ty::I32, Ty::I64),
                    ("trunc", Ty::I64, Ty::I32),
                    ("sitofp", Ty::I32, Ty::F32),
                    ("fptosi", Ty::F32, Ty::I32),
                    ("zext", Ty::I1, Ty::I32),
                    ("ptrtoint", Ty::Ptr(0), Ty::I64),
                    ("inttoptr", Ty::I64, Ty::Ptr(0)),
                ][self.src.below(8) as usize];
                let a = self.value(from);
                let v = self.fresh();
                self.line(format!("  {v} = {op} {} {a} to {}", from.text(), to.text()));
                self.define(to, v);
            }
            5 | 6 => {
                // Address-space casts, both directions.
                let space = [1, 3, 4][self.src.below(3) as usize];
                let (from, to) = if self.src.one_in(2) {
                    (Ty::Ptr(0), Ty::Ptr(space))
                } else {
                    (Ty::Ptr(space), Ty::Ptr(0))
                };
                let a = self.value(from);
                let v = self.fresh();
                self.line(format!(
                    "  {v} = addrspacecast {} {a} to {}",
                    from.text(),
                    to.text()
                ));
                self.define(to, v);
            }
            7 => {
                let p = self.pointer();
                let idx = self.value(Ty::I64);
                let elem = if self.src.one_in(2) { "float" } else { "i32" };
                let v = self.fresh();
                let inb = if self.src.one_in(2) { " inbounds" } else { "" };
                self.line(format!(
                    "  {v} = getelementptr{inb} {elem}, {} {}, i64 {idx}",
                    p.0.text(),
                    p.1
                ));
                self.define(p.0, v);
            }
            8 | 9 => {
                let p = self.pointer();
                let ty = [Ty::I32, Ty::F32, Ty::I64][self.src.below(3) as usize];
                let v = self.fresh();
                let vol = if self.src.one_in(6) { " volatile" } else { "" };
                self.line(format!(
                    "  {v} = load{vol} {}, {} {}, align 4",
                    ty.text(),
                    p.0.text(),
                    p.1
                ));
                self.define(ty, v);
            }
            10 | 11 => {
                let p = self.pointer();
                let ty = [Ty::I32, Ty::F32, Ty::Ptr(0)][self.src.below(3) as usize];
                let x = self.value(ty);
                self.line(format!(
                    "  store {} {x}, {} {}, align 4",
                    ty.text(),
                    p.0.text(),
                    p.1
                ));
            }
            _ => {
                let p = self.pointer();
                let x = self.value(Ty::I32);
                let v = self.fresh();
                self.line(format!(
                    "  {v} = atomicrmw add {} {}, i32 {x} seq_cst, align 4",
                    p.0.text(),
                    p.1
                ));
                self.define(Ty::I32, v);
            }
        }
    }

    /// A pointer of some address space, in scope or constant.
    fn pointer(&mut self) -> (Ty, String) {
        let ty = Ty::Ptr(SPACES[self.src.below(4) as usize]);
        let v = self.value(ty);
        if v == "null" {
            // Keep memory operations on real objects.
            let g = &self.cx.globals[self.src.below(self.cx.globals.len() as u32) as usize];
            return (Ty::Ptr(g.space), format!("@{}", g.name));
        }
        (ty, v)
    }

    fn call(&mut self) {
        let n = self.cx.sigs.len() as u32;
        match self.src.below(8) {
            0 => {
                let v = self.fresh();
                self.line(format!("  {v} = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()"));
                self.define(Ty::I32, v);
            }
            1 => self.line("  call void @llvm.nvvm.barrier0()".into()),
            2 => {
                let p = self.value(Ty::Ptr(0));
                self.line(format!("  call void @ext_sink(ptr {p})"));
            }
            3 if self.cx.cdp => self.launch(),
            _ => {
                // Device functions only; kernels are launched, not called.
                let callees: Vec<usize> = (0..n as usize)
                    .filter(|&i| !self.cx.sigs[i].kernel)
                    .collect();
                let sig =
                    self.cx.sigs[callees[self.src.below(callees.len() as u32) as usize]].clone();
                let args: Vec<String> = sig
                    .params
                    .iter()
                    .map(|&t| format!("{} {}", t.text(), self.value(t)))
                    .collect();
                let args = args.join(", ");
                match sig.ret {
                    None => self.line(format!("  call void @{}({args})", sig.name)),
                    Some(t) => {
                        let v = self.fresh();
                        self.line(format!("  {v} = call {} @{}({args})", t.text(), sig.name));
                        self.define(t, v);
                    }
                }
            }
        }
    }

    /// `cudaGetParameterBuffer` + stores + `cudaLaunchDevice`, targeting a
    /// kernel (or, rarely, a device function: the CDP error path).
    fn launch(&mut self) {
        let kernels: Vec<usize> = (0..self.cx.sigs.len())
            .filter(|&i| self.cx.sigs[i].kernel != self.src.one_in(8))
            .collect();
        if kernels.is_empty() {
            return;
        }
        let target = self.cx.sigs[kernels[self.src.below(kernels.len() as u32) as usize]]
            .name
            .clone();
        let buf = self.fresh();
        self.line(format!(
            "  {buf} = call ptr @cudaGetParameterBuffer(i64 64, i64 16)"
        ));
        let x = self.value(Ty::I32);
        self.line(format!("  store i32 {x}, ptr {buf}, align 4"));
        let grid = format!(
            "%struct.dim3 {{ i32 {}, i32 1, i32 1 }}",
            1 + self.src.below(64)
        );
        let r = self.fresh();
        self.line(format!(
            "  {r} = call i32 @cudaLaunchDevice(ptr @{target}, ptr {buf}, {grid}, %struct.dim3 {{ i32 32, i32 1, i32 1 }}, i32 0, ptr null)"
        ));
        self.define(Ty::I32, r);
    }

    fn if_else(&mut self, depth: u32) {
        let c = self.value(Ty::I1);
        let (then, els, join) = (self.fresh_block(), self.fresh_block(), self.fresh_block());
        self.line(format!("  br i1 {c}, label %{then}, label %{els}"));
        let ty = VALUE_TYS[self.src.below(VALUE_TYS.len() as u32) as usize];
        self.arms_into_phi(&[then, els], &join, ty, Vec::new(), depth);
    }

    /// Emits each of `arms` (a nested region ending in a branch to `join`
    /// that carries a fresh `ty` value), then `join` with the phi of those
    /// values after the entries already in `incoming`.
    fn arms_into_phi(
        &mut self,
        arms: &[String],
        join: &str,
        ty: Ty,
        mut incoming: Vec<String>,
        depth: u32,
    ) {
        for arm in arms {
            self.start_block(arm);
            self.scopes.push(Vec::new());
            let end = self.region_to_end(arm, depth);
            let v = self.value(ty);
            self.line(format!("  br label %{join}"));
            self.scopes.pop();
            incoming.push(format!("[ {v}, %{end} ]"));
        }
        self.start_block(join);
        let v = self.fresh();
        self.line(format!("  {v} = phi {} {}", ty.text(), incoming.join(", ")));
        self.define(ty, v);
    }

    /// Runs a nested region that started in block `start`; returns the name
    /// of the block the region ends in.
    fn region_to_end(&mut self, start: &str, depth: u32) -> String {
        self.region(depth);
        // The last label written is the block the region ends in.
        let last = self
            .body
            .lines()
            .rev()
            .find(|l| l.ends_with(':') && !l.starts_with(' '))
            .map(|l| l.trim_end_matches(':').to_string());
        last.unwrap_or_else(|| start.to_string())
    }

    fn current_block(&self) -> String {
        self.body
            .lines()
            .rev()
            .find(|l| l.ends_with(':') && !l.starts_with(' '))
            .map(|l| l.trim_end_matches(':').to_string())
            .unwrap_or_else(|| "entry".into())
    }

    fn counted_loop(&mut self, depth: u32) {
        let pre = self.current_block();
        let (header, exit) = (self.fresh_block(), self.fresh_block());
        let n = self.value(Ty::I32);
        self.line(format!("  br label %{header}"));
        self.start_block(&header);
        let i = self.fresh();
        let next = self.fresh();
        // The latch is the block the body ends in; patched in afterwards.
        let phi_at = self.body.len();
        self.scopes.push(vec![(Ty::I32, i.clone())]);
        let latch = self.region_to_end(&header, depth);
        self.line(format!("  {next} = add i32 {i}, 1"));
        let c = self.fresh();
        self.line(format!("  {c} = icmp slt i32 {next}, {n}"));
        self.line(format!("  br i1 {c}, label %{header}, label %{exit}"));
        self.scopes.pop();
        let phi = self.decorate(format!(
            "  {i} = phi i32 [ 0, %{pre} ], [ {next}, %{latch} ]"
        ));
        self.body.insert_str(phi_at, &format!("{phi}\n"));
        self.start_block(&exit);
        self.define(Ty::I32, next);
    }

    fn switch(&mut self, depth: u32) {
        let here = self.current_block();
        let x = self.value(Ty::I32);
        let join = self.fresh_block();
        let ncases = 1 + self.src.below(4);
        let mut cases = Vec::new();
        let mut direct = 0;
        let mut arms = Vec::new();
        for k in 0..ncases {
            if self.src.one_in(3) {
                cases.push(format!("i32 {k}, label %{join}"));
                direct += 1;
            } else {
                let b = self.fresh_block();
                cases.push(format!("i32 {k}, label %{b}"));
                arms.push(b);
            }
        }
        let default = self.fresh_block();
        self.line(format!(
            "  switch i32 {x}, label %{default} [ {} ]",
            cases.join(" ")
        ));
        let ty = VALUE_TYS[self.src.below(VALUE_TYS.len() as u32) as usize];
        // Edges from the switch block straight to the join all carry the
        // same value (one phi entry per edge).
        let mut incoming = Vec::new();
        if direct > 0 {
            let v = self.value(ty);
            for _ in 0..direct {
                incoming.push(format!("[ {v}, %{here} ]"));
            }
        }
        arms.push(default);
        self.arms_into_phi(&arms, &join, ty, incoming, depth);
    }

    fn early_return(&mut self) {
        let c = self.value(Ty::I1);
        let (ret, cont) = (self.fresh_block(), self.fresh_block());
        self.line(format!("  br i1 {c}, label %{ret}, label %{cont}"));
        self.start_block(&ret);
        let r = match self.sig.ret {
            None => "  ret void".to_string(),
            Some(t) => format!("  ret {} {}", t.text(), self.value(t)),
        };
        self.line(r);
        self.start_block(&cont);
    }
}
