//! Structural tests of the parser, one per syntactic family. The inputs in
//! `tests/parse_data/` are accepted by `llvm-as-19` (funcs.ll after removing
//! the deliberately new attributes `captures(none)` and an unknown keyword).

use nvpass_ir::attr::Attr;
use nvpass_ir::inst::{Align, CallConv, Extra, InstFlags, Opcode, Ordering, TailKind};
use nvpass_ir::metadata::{MdField, MdKind, MdRef};
use nvpass_ir::module::{Linkage, TopLevel};
use nvpass_ir::types::{FloatKind, NamedBody, TypeData};
use nvpass_ir::value::{Const, ValueKind};
use nvpass_ir::{parse_module, Func, Inst, Module, Value};

fn parse(src: &str) -> Module {
    match parse_module(src.as_bytes()) {
        Ok(m) => m,
        Err(e) => panic!("{}", e.render("input", src.as_bytes())),
    }
}

fn func(m: &Module, name: &str) -> Func {
    m.func_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn insts(m: &Module, f: Func) -> Vec<Inst> {
    m.func_blocks(f).flat_map(|b| m.block_insts(b)).collect()
}

/// The instruction whose result is named `name` in `f`.
fn named(m: &Module, f: Func, name: &str) -> Inst {
    insts(m, f)
        .into_iter()
        .find(|&i| {
            m.inst_result(i)
                .and_then(|v| m.values[v].name)
                .is_some_and(|s| m.text(s) == name)
        })
        .unwrap_or_else(|| panic!("no %{name}"))
}

fn global_init(m: &Module, name: &str) -> Value {
    let v = m.lookup(name).unwrap();
    let ValueKind::Global(g) = m.values[v].kind else {
        panic!("{name} is not a global")
    };
    m.globals[g].init.unwrap().value
}

fn konst(m: &Module, v: Value) -> &Const {
    match m.constant(v) {
        Some(c) => c,
        None => panic!("not a constant: {:?}", m.values[v].kind),
    }
}

#[test]
fn types() {
    let m = parse(
        "%A = type { %B, ptr }\n%B = type <{ i8, i16 }>\n%O = type opaque\n%List = type { i32, ptr }\n\
         @g = global { i32, [4 x float], <4 x i32> } zeroinitializer\n\
         declare void @sv(<vscale x 4 x i32>, target(\"spirv.Image\", i32, 1, 0), target(\"x\"))\n\
         declare void @fp(half, bfloat, float, double, x86_fp80, fp128, ppc_fp128, i8388608, i1)\n\
         declare ptr addrspace(3) @as(ptr addrspace(1), [4294967295 x i8], %O, token, x86_amx)\n\
         declare void @fty(ptr, { i32, ptr }, ...)\n",
    );
    let t = &m.types;
    let names: Vec<_> = t
        .named_types()
        .iter()
        .map(|&n| match t.get(n) {
            TypeData::Named(s) => m.text(*s).into_owned(),
            _ => unreachable!(),
        })
        .collect();
    assert_eq!(names, ["A", "B", "O", "List"]);
    let a = t.named_types()[0];
    let b = t.named_types()[1];
    match t.named_body(a) {
        NamedBody::Body { fields, packed } => {
            assert!(!packed);
            assert_eq!(fields[0], b);
            assert_eq!(t.get(fields[1]), &TypeData::Ptr(0));
        }
        _ => panic!(),
    }
    assert!(matches!(
        t.named_body(b),
        NamedBody::Body { packed: true, .. }
    ));
    assert_eq!(t.named_body(t.named_types()[2]), &NamedBody::Opaque);
    let sv = func(&m, "sv");
    let (_, params, _) = t.func_sig(m.funcs[sv].ty).unwrap();
    assert!(matches!(
        t.get(params[0]),
        TypeData::Vector {
            len: 4,
            scalable: true,
            ..
        }
    ));
    match t.get(params[1]) {
        TypeData::TargetExt { name, types, ints } => {
            assert_eq!(m.text(*name), "spirv.Image");
            assert_eq!(types.len(), 1);
            assert_eq!(ints.as_slice(), &[1, 0]);
        }
        x => panic!("{x:?}"),
    }
    let fp = func(&m, "fp");
    let (_, params, _) = t.func_sig(m.funcs[fp].ty).unwrap();
    let kinds: Vec<_> = params[..7]
        .iter()
        .map(|&p| match t.get(p) {
            TypeData::Float(k) => *k,
            _ => panic!(),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            FloatKind::Half,
            FloatKind::BFloat,
            FloatKind::Float,
            FloatKind::Double,
            FloatKind::X86Fp80,
            FloatKind::Fp128,
            FloatKind::PpcFp128
        ]
    );
    assert_eq!(t.int_bits(params[7]), Some(1 << 23));
    let asf = func(&m, "as");
    let (ret, params, _) = t.func_sig(m.funcs[asf].ty).unwrap();
    assert_eq!(t.ptr_addrspace(ret), Some(3));
    assert_eq!(t.ptr_addrspace(params[0]), Some(1));
    assert!(matches!(t.get(params[1]), TypeData::Array(4294967295, _)));
    assert!(matches!(t.get(params[3]), TypeData::Token));
    assert!(matches!(t.get(params[4]), TypeData::Keyword(_)));
    // The function's value is a pointer.
    assert_eq!(t.ptr_addrspace(m.ty(m.funcs[asf].value)), Some(0));
    let fty = func(&m, "fty");
    let (_, params, vararg) = t.func_sig(m.funcs[fty].ty).unwrap();
    assert!(vararg);
    assert_eq!(t.struct_fields(params[1]).0.len(), 2);
    // Literal types are uniqued.
    let mut m2 = m.clone();
    let i32t = m2.types.int(32);
    assert_eq!(m2.types.int(32), i32t);
}

#[test]
fn constants() {
    let m = parse(include_str!("parse_data/consts.ll"));
    let int = |name: &str| match konst(&m, global_init(&m, name)) {
        Const::Int(v) => v.0,
        c => panic!("{c:?}"),
    };
    let float = |name: &str| match konst(&m, global_init(&m, name)) {
        Const::Float(v) => v.0,
        c => panic!("{c:?}"),
    };
    assert_eq!(int("i"), -5);
    assert_eq!(int("h"), -1);
    assert_eq!(int("b"), -1); // i1 true, sign-extended
    assert_eq!(float("f"), 1.5f32.to_bits() as u128);
    assert_eq!(float("fh"), 1.5f32.to_bits() as u128);
    assert_eq!(float("d"), std::f64::consts::PI.to_bits() as u128);
    assert_eq!(float("dd"), (-2.5e-3f64).to_bits() as u128);
    assert_eq!(float("hf"), 0x3C00);
    assert_eq!(float("hd"), 0x3C00);
    assert_eq!(float("bf"), 0x3F80);
    assert_eq!(float("x"), 0x3FFF8000000000000000);
    // 0xL: first 16 digits are the low word.
    assert_eq!(float("q"), 0x3FFF0000000000000000000000000000);
    assert_eq!(float("pq"), 0x3FF0000000000000);
    assert_eq!(konst(&m, global_init(&m, "n")), &Const::Null);
    assert_eq!(konst(&m, global_init(&m, "u")), &Const::Undef);
    assert_eq!(konst(&m, global_init(&m, "p")), &Const::Poison);
    assert_eq!(konst(&m, global_init(&m, "z")), &Const::Zero);
    match konst(&m, global_init(&m, "str")) {
        Const::Str(s) => assert_eq!(m.strings.get(*s), b"ab\0\xff"),
        c => panic!("{c:?}"),
    }
    let agg = global_init(&m, "agg");
    assert_eq!(konst(&m, agg), &Const::Aggregate);
    assert_eq!(m.value_ops(agg).len(), 3);
    let vecv = m.value_ops(agg)[2].value;
    assert_eq!(m.value_ops(vecv).len(), 2);
    assert!(matches!(konst(&m, global_init(&m, "pk")), Const::Aggregate));
    let arr = global_init(&m, "arr");
    assert_eq!(m.value_ops(arr)[0].value, m.lookup("z").unwrap());
    let spl = global_init(&m, "spl");
    assert_eq!(konst(&m, spl), &Const::Splat);
    match konst(&m, global_init(&m, "big")) {
        Const::BigInt(s) => assert_eq!(
            m.text(*s),
            "123456789012345678901234567890123456789012345678901234567890"
        ),
        c => panic!("{c:?}"),
    }
    match konst(&m, global_init(&m, "bigh")) {
        Const::BigInt(s) => assert_eq!(m.text(*s), "87112285931760246646623899502532662132736"),
        c => panic!("{c:?}"),
    }
    let expr = |name: &str| match konst(&m, global_init(&m, name)) {
        Const::Expr {
            opcode,
            flags,
            source_ty,
            inrange,
            ..
        } => (*opcode, *flags, *source_ty, *inrange),
        c => panic!("{c:?}"),
    };
    let (op, fl, st, _) = expr("ce1");
    assert_eq!(op, Opcode::GetElementPtr);
    assert!(fl.contains(InstFlags::INBOUNDS));
    assert!(st.is_some());
    assert_eq!(m.value_ops(global_init(&m, "ce1")).len(), 3);
    assert_eq!(expr("ce2").0, Opcode::PtrToInt);
    assert_eq!(expr("ce3").0, Opcode::AddrSpaceCast);
    assert_eq!(expr("ce4").0, Opcode::Add);
    let (_, _, _, ir) = expr("ce5");
    assert_eq!(m.text(ir.unwrap()), "inrange(-4, 4)");
    let (op, fl, _, _) = expr("ce6");
    assert_eq!(op, Opcode::Sub);
    assert!(fl.contains(InstFlags::NUW));
    assert_eq!(expr("ce7").0, Opcode::ExtractElement);
    // Forward reference to a global defined later resolves to it.
    let ce8 = global_init(&m, "ce8");
    assert_eq!(m.value_ops(ce8)[0].value, m.lookup("fwd").unwrap());
    match konst(&m, global_init(&m, "ba")) {
        Const::BlockAddress(f, b) => {
            assert_eq!(*f, func(&m, "fn"));
            assert_eq!(m.text(m.blocks[*b].name.unwrap()), "bb");
        }
        c => panic!("{c:?}"),
    }
    assert_eq!(
        konst(&m, global_init(&m, "dle")),
        &Const::DsoLocalEquivalent
    );
    assert_eq!(konst(&m, global_init(&m, "nc")), &Const::NoCfi);
    // Scalar constants are uniqued.
    let mut m2 = m.clone();
    let i32t = m2.types.int(32);
    let five = m2.const_int(i32t, -5);
    assert_eq!(five, global_init(&m, "i"));
}

#[test]
fn constant_exprs_beyond_llvm19() {
    // Forms LLVM 19 no longer accepts as constants but the model represents.
    let m = parse(
        "@z = global i32 0\n\
         @c1 = global i1 icmp eq (ptr @z, ptr null)\n\
         @c2 = global i1 fcmp olt (float 1.0, float 2.0)\n\
         @c3 = global i32 mul nsw (i32 2, i32 3)\n\
         @c4 = global i64 zext (i32 7 to i64)\n\
         @c5 = global <2 x i32> shufflevector (<2 x i32> zeroinitializer, <2 x i32> zeroinitializer, <2 x i32> zeroinitializer)\n\
         @c6 = global <2 x i32> insertelement (<2 x i32> zeroinitializer, i32 1, i32 0)\n\
         @c7 = global i32 select (i1 true, i32 1, i32 2)\n\
         @c8 = global float fneg (float 1.0)\n\
         @c9 = global ptr getelementptr nusw nuw (i8, ptr @z, i64 1)\n",
    );
    for (n, op) in [
        ("c1", Opcode::ICmp),
        ("c2", Opcode::FCmp),
        ("c3", Opcode::Mul),
        ("c4", Opcode::ZExt),
        ("c5", Opcode::ShuffleVector),
        ("c6", Opcode::InsertElement),
        ("c7", Opcode::Select),
        ("c8", Opcode::FNeg),
        ("c9", Opcode::GetElementPtr),
    ] {
        match konst(&m, global_init(&m, n)) {
            Const::Expr { opcode, pred, .. } => {
                assert_eq!(*opcode, op);
                if n == "c1" {
                    assert_eq!(pred.unwrap().0, 0);
                }
            }
            c => panic!("{n}: {c:?}"),
        }
    }
}

#[test]
fn instructions() {
    let m = parse(include_str!("parse_data/insts.ll"));
    let f = func(&m, "all");
    let op = |n: &str| m.insts[named(&m, f, n)].opcode;
    let flags = |n: &str| m.insts[named(&m, f, n)].flags;
    for (n, o) in [
        ("add", Opcode::Add),
        ("sub", Opcode::Sub),
        ("mul", Opcode::Mul),
        ("ud", Opcode::UDiv),
        ("sd", Opcode::SDiv),
        ("ur", Opcode::URem),
        ("sr", Opcode::SRem),
        ("sh", Opcode::Shl),
        ("ls", Opcode::LShr),
        ("as", Opcode::AShr),
        ("an", Opcode::And),
        ("or", Opcode::Or),
        ("xo", Opcode::Xor),
        ("fa", Opcode::FAdd),
        ("fs", Opcode::FSub),
        ("fm", Opcode::FMul),
        ("fd", Opcode::FDiv),
        ("fr", Opcode::FRem),
        ("fn", Opcode::FNeg),
        ("ic", Opcode::ICmp),
        ("fc", Opcode::FCmp),
        ("tr", Opcode::Trunc),
        ("ze", Opcode::ZExt),
        ("se", Opcode::SExt),
        ("fpt", Opcode::FPTrunc),
        ("fpe", Opcode::FPExt),
        ("fui", Opcode::FPToUI),
        ("fsi", Opcode::FPToSI),
        ("uif", Opcode::UIToFP),
        ("sif", Opcode::SIToFP),
        ("pti", Opcode::PtrToInt),
        ("itp", Opcode::IntToPtr),
        ("bc", Opcode::BitCast),
        ("asc", Opcode::AddrSpaceCast),
        ("sel", Opcode::Select),
        ("ee", Opcode::ExtractElement),
        ("ie", Opcode::InsertElement),
        ("sv", Opcode::ShuffleVector),
        ("ev", Opcode::ExtractValue),
        ("iv", Opcode::InsertValue),
        ("al", Opcode::Alloca),
        ("ld", Opcode::Load),
        ("cx", Opcode::CmpXchg),
        ("rmw", Opcode::AtomicRmw),
        ("gep", Opcode::GetElementPtr),
        ("fz", Opcode::Freeze),
        ("va", Opcode::VAArg),
        ("call", Opcode::Call),
        ("inv", Opcode::Invoke),
        ("lpv", Opcode::LandingPad),
        ("ph", Opcode::Phi),
    ] {
        assert_eq!(op(n), o, "%{n}");
    }
    assert_eq!(flags("add"), InstFlags::NUW | InstFlags::NSW);
    assert_eq!(flags("ud"), InstFlags::EXACT);
    assert_eq!(flags("or"), InstFlags::DISJOINT);
    assert_eq!(flags("fa"), InstFlags::FAST);
    assert_eq!(flags("fs"), InstFlags::NNAN | InstFlags::NINF);
    assert_eq!(flags("tr"), InstFlags::NUW);
    assert_eq!(flags("ze"), InstFlags::NNEG);
    assert_eq!(flags("uif"), InstFlags::NNEG);
    assert_eq!(flags("gep"), InstFlags::INBOUNDS | InstFlags::NUW);
    assert_eq!(flags("sel"), InstFlags::NNAN);
    // Result types.
    let ty = |n: &str| m.inst_ty(named(&m, f, n));
    assert_eq!(m.types.int_bits(ty("ic")), Some(1));
    assert_eq!(m.types.int_bits(ty("ze")), Some(64));
    assert!(matches!(
        m.types.get(ty("sv")),
        TypeData::Vector { len: 2, .. }
    ));
    assert!(matches!(
        m.types.get(ty("ev")),
        TypeData::Float(FloatKind::Float)
    ));
    assert_eq!(m.types.struct_fields(ty("cx")).0.len(), 2);
    assert!(matches!(
        m.types.get(ty("vg")),
        TypeData::Vector { len: 2, .. }
    ));
    assert_eq!(m.types.ptr_addrspace(ty("asc")), Some(1));
    // Memory ops.
    match &m.insts[named(&m, f, "lda")].extra {
        Extra::Mem {
            align,
            ordering,
            syncscope,
            ..
        } => {
            assert_eq!(align.map(Align::bytes), Some(4));
            assert_eq!(*ordering, Ordering::Acquire);
            assert_eq!(m.text(syncscope.unwrap()), "block");
        }
        e => panic!("{e:?}"),
    }
    assert!(flags("lda").contains(InstFlags::ATOMIC));
    assert!(flags("ld").contains(InstFlags::VOLATILE));
    assert_eq!(m.inst_attachments(named(&m, f, "ld")).len(), 1);
    match &m.insts[named(&m, f, "cx")].extra {
        Extra::Mem {
            ordering, failure, ..
        } => {
            assert_eq!(*ordering, Ordering::AcqRel);
            assert_eq!(*failure, Ordering::Monotonic);
        }
        e => panic!("{e:?}"),
    }
    assert!(flags("cx").contains(InstFlags::WEAK | InstFlags::VOLATILE));
    for (n, k) in [("rmw", "add"), ("rmwf", "fmax"), ("rmwu", "uinc_wrap")] {
        match &m.insts[named(&m, f, n)].extra {
            Extra::Mem { rmw_op, .. } => assert_eq!(m.text(rmw_op.unwrap()), k),
            e => panic!("{e:?}"),
        }
    }
    let all = insts(&m, f);
    let stores: Vec<_> = all
        .iter()
        .filter(|&&i| m.insts[i].opcode == Opcode::Store)
        .collect();
    assert_eq!(stores.len(), 2);
    assert!(m.insts[*stores[1]]
        .flags
        .contains(InstFlags::ATOMIC | InstFlags::VOLATILE));
    let fence = all
        .iter()
        .find(|&&i| m.insts[i].opcode == Opcode::Fence)
        .unwrap();
    match &m.insts[*fence].extra {
        Extra::Mem {
            ordering,
            syncscope,
            ..
        } => {
            assert_eq!(*ordering, Ordering::Release);
            assert_eq!(m.text(syncscope.unwrap()), "agent");
        }
        e => panic!("{e:?}"),
    }
    match &m.insts[named(&m, f, "al2")].extra {
        Extra::Alloca { align, .. } => assert_eq!(align.map(Align::bytes), Some(16)),
        e => panic!("{e:?}"),
    }
    assert_eq!(m.insts[named(&m, f, "al2")].ops.len(), 1);
    match &m.insts[named(&m, f, "iv")].extra {
        Extra::Indices(ix) => assert_eq!(ix.as_slice(), &[0]),
        e => panic!("{e:?}"),
    }
    // Calls.
    let call = m.insts[named(&m, f, "call")].call().unwrap();
    assert_eq!(call.nargs, 2);
    assert!(!call.explicit_fn_ty);
    assert_eq!(call.fn_attrs.groups.as_slice(), &[0]);
    assert_eq!(call.param_attrs[1].attrs.len(), 2);
    assert_eq!(call.ret_attrs.attrs.len(), 1);
    assert_eq!(m.inst_attachments(named(&m, f, "call")).len(), 1);
    let tc = m.insts[named(&m, f, "tc")].call().unwrap();
    assert_eq!(tc.tail, TailKind::Tail);
    assert_eq!(tc.cc, CallConv::Fast);
    assert_eq!(
        m.insts[named(&m, f, "nt")].call().unwrap().tail,
        TailKind::NoTail
    );
    assert!(m.insts[named(&m, f, "mc")].call().unwrap().explicit_fn_ty);
    let ia = named(&m, f, "ia");
    match konst(&m, m.inst_ops(ia)[0].value) {
        Const::InlineAsm(a) => {
            assert!(a.side_effect);
            assert_eq!(m.text(a.constraints), "=r,r");
        }
        c => panic!("{c:?}"),
    }
    let tt = named(&m, f, "tt");
    let mdv = m.inst_ops(tt)[2].value;
    assert!(matches!(
        m.values[mdv].kind,
        ValueKind::Metadata(MdRef::String(_))
    ));
    let ob = m.insts[named(&m, f, "ob")].call().unwrap();
    assert_eq!(ob.bundles.len(), 2);
    assert_eq!((ob.bundles[0].start, ob.bundles[0].len), (3, 2));
    assert_eq!(ob.bundles[1].len, 0);
    assert_eq!(m.insts[named(&m, f, "ob")].ops.len(), 5);
    // Terminators.
    let inv = named(&m, f, "inv");
    assert_eq!(m.insts[inv].blocks.len(), 2);
    let lp = named(&m, f, "lpv");
    assert!(m.insts[lp].flags.contains(InstFlags::CLEANUP));
    match &m.insts[lp].extra {
        Extra::LandingPad(k) => assert_eq!(k.as_slice(), &[true, false]),
        e => panic!("{e:?}"),
    }
    let ops: Vec<_> = all.iter().map(|&i| m.insts[i].opcode).collect();
    for o in [
        Opcode::Switch,
        Opcode::Resume,
        Opcode::Br,
        Opcode::IndirectBr,
        Opcode::CallBr,
        Opcode::Ret,
    ] {
        assert!(ops.contains(&o), "{o:?}");
    }
    let sw = all
        .iter()
        .find(|&&i| m.insts[i].opcode == Opcode::Switch)
        .unwrap();
    assert_eq!(m.insts[*sw].ops.len(), 3);
    assert_eq!(m.insts[*sw].blocks.len(), 3);
    let ib = all
        .iter()
        .find(|&&i| m.insts[i].opcode == Opcode::IndirectBr)
        .unwrap();
    assert!(matches!(
        konst(&m, m.inst_ops(*ib)[0].value),
        Const::BlockAddress(..)
    ));
    // Phi with a forward reference resolved to the later instruction.
    let i_phi = named(&m, f, "i");
    let inc = m.inst_result(named(&m, f, "inc")).unwrap();
    assert_eq!(m.inst_ops(i_phi)[1].value, inc);
    assert_eq!(m.users(inc).len(), 2);
    // Blocks in layout order.
    let blocks: Vec<_> = m
        .func_blocks(f)
        .map(|b| m.text(m.blocks[b].name.unwrap()).into_owned())
        .collect();
    assert_eq!(
        blocks,
        ["entry", "def", "lp", "b0", "b1", "loop", "exit", "ind", "cb"]
    );
    // Numbered values: names are None, operands resolve.
    let g = func(&m, "nums");
    let bl: Vec<_> = m.func_blocks(g).collect();
    assert_eq!(bl.len(), 3);
    assert!(m.blocks[bl[0]].name.is_none());
    let phi = m.blocks[bl[1]].first.expand().unwrap();
    let add = m.insts[phi].next.expand().unwrap();
    assert_eq!(m.inst_ops(phi)[1].value, m.inst_result(add).unwrap());
    assert_eq!(m.inst_block_ops(phi), &[bl[0], bl[1]]);
    assert!(m.values[m.inst_result(add).unwrap()].name.is_none());
    assert_eq!(m.func_blocks(g).count(), 3);
}

#[test]
fn instructions_beyond_llvm19() {
    let m = parse(
        "define void @f(i32 %a, ptr %p) {\n\
         \x20 %c = icmp samesign ult i32 %a, 1\n\
         \x20 %q = alloca [2 x i32], i32 4, align 8, addrspace(5)\n\
         \x20 %r = alloca inalloca i8\n\
         \x20 %s = atomicrmw usub_sat ptr %p, i32 1 seq_cst\n\
         \x20 ret void\n}\n",
    );
    let f = func(&m, "f");
    assert!(m.insts[named(&m, f, "c")]
        .flags
        .contains(InstFlags::SAMESIGN));
    let q = named(&m, f, "q");
    match &m.insts[q].extra {
        Extra::Alloca {
            align, addrspace, ..
        } => {
            assert_eq!(align.map(Align::bytes), Some(8));
            assert_eq!(*addrspace, Some(5));
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(m.types.ptr_addrspace(m.inst_ty(q)), Some(5));
    assert!(m.insts[named(&m, f, "r")]
        .flags
        .contains(InstFlags::INALLOCA));
}

#[test]
fn metadata() {
    let m = parse(include_str!("parse_data/meta.ll"));
    let nums: Vec<u32> = m.md_numbered.iter().map(|p| p.0).collect();
    assert_eq!(nums, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15]);
    let md = |n: u32| {
        let (_, md) = *m.md_numbered.iter().find(|p| p.0 == n).unwrap();
        &m.mds[md]
    };
    let cu = md(0);
    assert!(cu.distinct && !cu.inline);
    match &cu.kind {
        MdKind::Specialized { class, fields } => {
            assert_eq!(m.text(*class), "DICompileUnit");
            let get = |k: &str| {
                fields
                    .iter()
                    .find(|(n, _)| m.text(*n) == k)
                    .map(|(_, v)| v.clone())
                    .unwrap()
            };
            assert!(matches!(get("language"), MdField::Raw(s) if m.text(s) == "DW_LANG_C99"));
            assert!(matches!(get("file"), MdField::Ref(MdRef::Node(_))));
            assert!(
                matches!(get("producer"), MdField::Raw(s) if m.text(s) == "\"clang, \\22quoted\\22\"")
            );
            assert!(matches!(get("isOptimized"), MdField::Raw(s) if m.text(s) == "true"));
        }
        k => panic!("{k:?}"),
    }
    match &md(5).kind {
        MdKind::Specialized { fields, .. } => {
            let flags = fields.iter().find(|(n, _)| m.text(*n) == "flags").unwrap();
            assert!(
                matches!(&flags.1, MdField::Raw(s) if m.text(*s) == "DIFlagPrototyped | DIFlagAllCallsDescribed")
            );
        }
        k => panic!("{k:?}"),
    }
    match &md(7).kind {
        MdKind::Tuple(ops) => {
            assert_eq!(ops[0], MdRef::Null);
            assert!(matches!(ops[1], MdRef::Node(_)));
        }
        k => panic!("{k:?}"),
    }
    match &md(3).kind {
        MdKind::Tuple(ops) => {
            assert!(matches!(ops[0], MdRef::Value(..)));
            assert!(matches!(ops[1], MdRef::String(s) if m.text(s) == "Dwarf Version"));
        }
        k => panic!("{k:?}"),
    }
    // Forward references and cycles: !14 <-> !15, inline tuple inside !14.
    let (_, n14) = *m.md_numbered.iter().find(|p| p.0 == 14).unwrap();
    let (_, n15) = *m.md_numbered.iter().find(|p| p.0 == 15).unwrap();
    match (&m.mds[n14].kind, &m.mds[n15].kind) {
        (MdKind::Tuple(a), MdKind::Tuple(b)) => {
            assert_eq!(a[0], MdRef::Node(n15));
            assert_eq!(b[0], MdRef::Node(n14));
            let MdRef::Node(inl) = a[4] else { panic!() };
            assert!(m.mds[inl].inline);
        }
        _ => panic!(),
    }
    assert!(
        m.mds[match md(13).kind {
            MdKind::Specialized { .. } => m.md_numbered.iter().find(|p| p.0 == 13).unwrap().1,
            _ => panic!(),
        }]
        .distinct
    );
    // Named metadata.
    let names: Vec<_> = m
        .named_md
        .iter()
        .map(|n| m.text(n.name).into_owned())
        .collect();
    assert_eq!(
        names,
        [
            "llvm.dbg.cu",
            "llvm.module.flags",
            "named.empty",
            "escaped\\name"
        ]
    );
    assert_eq!(m.named_md[1].ops.len(), 2);
    // Function attachment and debug records.
    let f = func(&m, "f");
    assert_eq!(m.text(m.funcs[f].md[0].kind), "dbg");
    let is: Vec<_> = insts(&m, f);
    let recs: Vec<_> = is
        .iter()
        .filter(|&&i| m.insts[i].opcode == Opcode::DbgRecord)
        .collect();
    assert_eq!(recs.len(), 5);
    let kinds: Vec<_> = recs
        .iter()
        .map(|&&i| match m.insts[i].extra {
            Extra::DbgRecord(k) => m.text(k).into_owned(),
            _ => panic!(),
        })
        .collect();
    assert_eq!(kinds, ["value", "declare", "value", "assign", "label"]);
    // #dbg_value(i32 %x, ...): operand 0 wraps the argument.
    let r0 = *recs[0];
    assert_eq!(m.insts[r0].ops.len(), 4);
    let v0 = m.inst_ops(r0)[0].value;
    assert_eq!(m.value_ops(v0)[0].value, m.funcs[f].params[0].value);
    let expr = m.inst_ops(r0)[2].value;
    match m.values[expr].kind {
        ValueKind::Metadata(MdRef::Node(n)) => assert!(m.mds[n].inline),
        ref k => panic!("{k:?}"),
    }
    // DIArgList.
    let r2 = *recs[2];
    match m.values[m.inst_ops(r2)[0].value].kind {
        ValueKind::Metadata(MdRef::Node(n)) => {
            assert!(matches!(&m.mds[n].kind, MdKind::ArgList(a) if a.len() == 2))
        }
        ref k => panic!("{k:?}"),
    }
    // DIExpression positional elements use an empty field name.
    match m.values[m.inst_ops(*recs[1])[2].value].kind {
        ValueKind::Metadata(MdRef::Node(n)) => match &m.mds[n].kind {
            MdKind::Specialized { fields, .. } => {
                assert_eq!(fields.len(), 2);
                assert_eq!(m.text(fields[0].0), "");
                assert!(matches!(fields[0].1, MdField::Raw(s) if m.text(s) == "DW_OP_plus_uconst"));
            }
            k => panic!("{k:?}"),
        },
        ref k => panic!("{k:?}"),
    }
    assert_eq!(m.text(m.source_filename.unwrap()), "m.c");
    let store = is
        .iter()
        .find(|&&i| m.insts[i].opcode == Opcode::Store)
        .unwrap();
    assert_eq!(m.text(m.inst_attachments(*store)[0].kind), "DIAssignID");
}

/// A `DILocation` written as LLVM writes one is held as
/// `MdKind::Location`; every other spelling stays a specialized node. Both
/// print back exactly as written.
#[test]
fn locations_in_llvm_form_are_compact_and_others_stay_verbatim() {
    let compact = [
        "!10 = !DILocation(line: 3, column: 5, scope: !1)",
        "!11 = !DILocation(line: 4, scope: !1)",
        "!12 = !DILocation(line: 4, column: 2, scope: !1, inlinedAt: !10, isImplicitCode: true)",
        "!13 = distinct !DILocation(line: 0, column: 1, scope: !1)",
        "!14 = !DILocation(line: 4294967295, scope: !1, isImplicitCode: true)",
    ];
    let verbatim = [
        "!20 = !DILocation(column: 5, line: 3, scope: !1)",
        "!21 = !DILocation(line: 3, column: 5, scope: !1, isImplicitCode: false)",
        "!22 = !DILocation(line: 007, column: 5, scope: !1)",
        "!23 = !DILocation(line: 3, column: 5, scope: !1, atomGroup: 1, atomRank: 2)",
        "!24 = !DILocation(line: 3, column: 5, scope: null)",
        "!25 = !DILocation(line: 4294967296, column: 1, scope: !1)",
        "!26 = !DILocation(line: 3, column: 5, scope: !1, inlinedAt: null)",
        "!27 = !DILocation(line: 3, inlinedAt: !10, scope: !1)",
        "!28 = !DILocation(scope: !1)",
        // LLVM writes no column for column 0.
        "!29 = !DILocation(line: 3, column: 0, scope: !1)",
    ];
    let mut src = String::from(
        "define void @f() !dbg !1 {\n  ret void, !dbg !10\n}\n\n\
         !llvm.dbg.cu = !{!0}\n\
         !0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !2)\n\
         !1 = distinct !DISubprogram(name: \"f\", unit: !0)\n\
         !2 = !DIFile(filename: \"a.cu\", directory: \"/\")\n",
    );
    for line in compact.iter().chain(&verbatim) {
        src.push_str(line);
        src.push('\n');
    }
    let m = parse(&src);
    let node = |n: u32| &m.mds[m.md_numbered.iter().find(|p| p.0 == n).unwrap().1];
    let num = |n: u32| m.md_numbered.iter().find(|p| p.0 == n).unwrap().1;
    match &node(12).kind {
        MdKind::Location(l) => {
            assert_eq!(
                (l.line, l.column.map(|c| c.get()), l.scope),
                (4, Some(2), num(1))
            );
            assert_eq!(l.inlined_at, Some(num(10)));
            assert!(l.implicit_code);
        }
        k => panic!("{k:?}"),
    }
    match &node(11).kind {
        MdKind::Location(l) => assert_eq!(
            (l.column, l.inlined_at, l.implicit_code),
            (None, None, false)
        ),
        k => panic!("{k:?}"),
    }
    assert!(node(13).distinct);
    for n in 10..=14 {
        assert!(matches!(node(n).kind, MdKind::Location(_)), "!{n}");
    }
    for n in 20..=29 {
        assert!(
            matches!(&node(n).kind, MdKind::Specialized { class, .. } if m.text(*class) == "DILocation"),
            "!{n}: {:?}",
            node(n).kind
        );
    }
    let out = nvpass_ir::print_module(&m);
    for line in compact.iter().chain(&verbatim) {
        assert!(
            out.contains(&format!("{line}\n")),
            "{line} not printed back:\n{out}"
        );
    }
}

#[test]
fn attributes() {
    let m = parse(include_str!("parse_data/funcs.ll"));
    let k = func(&m, "k");
    let p = &m.funcs[k].params;
    assert!(matches!(&p[0].attrs.attrs[0], Attr::Type { kind, .. } if m.text(*kind) == "byval"));
    assert!(
        matches!(&p[0].attrs.attrs[1], Attr::Int { kind, value: 8, paren: false } if m.text(*kind) == "align")
    );
    assert!(matches!(&p[1].attrs.attrs[0], Attr::Type { kind, .. } if m.text(*kind) == "sret"));
    assert!(matches!(
        &p[2].attrs.attrs[2],
        Attr::Int {
            value: 16,
            paren: true,
            ..
        }
    ));
    assert_eq!(m.text(m.values[p[2].value].name.unwrap()), "named");
    assert_eq!(m.funcs[k].cc, CallConv::PtxKernel);
    assert!(m.types.func_sig(m.funcs[k].ty).unwrap().2);
    let dev = func(&m, "dev");
    assert_eq!(m.funcs[dev].cc, CallConv::PtxDevice);
    let ra = &m.funcs[dev].ret_attrs.attrs;
    assert!(matches!(&ra[1], Attr::Raw { text, .. } if m.text(*text) == "range(i32 0, 10)"));
    let pa = &m.funcs[dev].params[1].attrs.attrs;
    assert!(matches!(&pa[0], Attr::Type { kind, .. } if m.text(*kind) == "elementtype"));
    assert!(matches!(&pa[1], Attr::Raw { text, .. } if m.text(*text) == "captures(none)"));
    assert_eq!(m.funcs[dev].fn_attrs.groups.as_slice(), &[1]);
    let at = func(&m, "attrs");
    let fa = &m.funcs[at].fn_attrs.attrs;
    let texts: Vec<_> = fa
        .iter()
        .map(|a| match a {
            Attr::Raw { text, .. } => m.text(*text).into_owned(),
            Attr::Str { key, value } => format!(
                "{}={:?}",
                m.text(*key),
                value.map(|v| m.text(v).into_owned())
            ),
            a => format!("{a:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            "memory(argmem: readwrite)",
            "uwtable(sync)",
            "allocsize(0, 1)",
            "vscale_range(1, 16)",
            "k=Some(\"v\")",
            "flag=None"
        ]
    );
    let pr = &m.funcs[at].params;
    assert!(
        matches!(&pr[0].attrs.attrs[0], Attr::Type { kind, .. } if m.text(*kind) == "inalloca")
    );
    assert!(matches!(&pr[1].attrs.attrs[0], Attr::Type { kind, .. } if m.text(*kind) == "byref"));
    assert!(
        matches!(&pr[2].attrs.attrs[0], Attr::Type { kind, .. } if m.text(*kind) == "preallocated")
    );
    assert!(
        matches!(&pr[3].attrs.attrs[0], Attr::Raw { text, .. } if m.text(*text) == "nofpclass(nan inf)")
    );
    assert!(
        matches!(&pr[4].attrs.attrs[0], Attr::Raw { text, .. } if m.text(*text) == "initializes((0, 4))")
    );
    assert!(matches!(&pr[5].attrs.attrs[1], Attr::Enum(s) if m.text(*s) == "swiftself"));
    // Unknown keyword attributes are kept.
    let u = func(&m, "unknown_attr");
    assert!(
        matches!(&m.funcs[u].fn_attrs.attrs[0], Attr::Enum(s) if m.text(*s) == "sometotallynewattr")
    );
    let later = func(&m, "later");
    assert!(matches!(
        &m.funcs[later].fn_attrs.attrs[0],
        Attr::Int {
            paren: true,
            value: 16,
            ..
        }
    ));
    // Attribute groups.
    assert_eq!(m.attr_groups.len(), 2);
    assert_eq!(m.attr_groups[0].id, 0);
    let g0: Vec<_> = m.attr_groups[0].attrs.iter().collect();
    assert!(matches!(g0[0], Attr::Enum(s) if m.text(*s) == "noinline"));
    assert!(matches!(g0[2], Attr::Str { .. }));
    assert!(matches!(g0[3], Attr::Raw { text, .. } if m.text(*text) == "alignstack=16"));
    assert!(
        matches!(&m.attr_groups[1].attrs[1], Attr::Raw { text, .. } if m.text(*text) == "memory(none)")
    );
}

#[test]
fn functions() {
    let m = parse(include_str!("parse_data/funcs.ll"));
    let d0 = func(&m, "d0");
    assert!(!m.funcs[d0].is_definition);
    assert_eq!(m.funcs[d0].md.len(), 1);
    let f = func(&m, "full");
    let fd = &m.funcs[f];
    assert!(fd.is_definition);
    assert_eq!(fd.linkage, Linkage::LinkOnceOdr);
    assert_eq!(
        fd.keywords.iter().map(|&s| m.text(s)).collect::<Vec<_>>(),
        ["hidden"]
    );
    assert_eq!(fd.cc, CallConv::Fast);
    assert_eq!(m.text(fd.unnamed_addr.unwrap()), "unnamed_addr");
    assert_eq!(fd.extras().addrspace, Some(0));
    assert_eq!(fd.fn_attrs.groups.as_slice(), &[0]);
    assert_eq!(m.text(fd.extras().section.unwrap()), ".text.f");
    assert_eq!(m.text(fd.extras().partition.unwrap()), "part");
    assert_eq!(fd.extras().comdat, Some(None));
    assert_eq!(fd.extras().align, Some(16));
    assert_eq!(m.text(fd.extras().gc.unwrap()), "statepoint-example");
    assert!(fd.extras().extra_ops.iter().all(|o| o.is_some()));
    assert_eq!(fd.extras().extra_ops[0].unwrap().value, m.funcs[d0].value);
    assert_eq!(fd.md.len(), 2);
    assert_eq!(m.text(fd.md[1].kind), "prof");
    let cc10 = func(&m, "cc10");
    assert!(matches!(m.funcs[cc10].cc, CallConv::Other(s) if m.text(s) == "cc10"));
    assert_eq!(m.funcs[func(&m, "cold")].cc, CallConv::Cold);
    let ua = func(&m, "unnamed_args");
    let names: Vec<_> = m.funcs[ua]
        .params
        .iter()
        .map(|p| m.values[p.value].name.map(|s| m.text(s).into_owned()))
        .collect();
    assert_eq!(names, [None, Some("named".to_string()), None]);
    let ue = func(&m, "unnamed_entry");
    let b0 = m.func_blocks(ue).next().unwrap();
    assert!(m.blocks[b0].name.is_none());
    let first = m.blocks[b0].first.expand().unwrap();
    assert_eq!(m.inst_ops(first)[0].value, m.funcs[ue].params[0].value);
    // A function called before its definition.
    let fc = func(&m, "fwd_call");
    let call = m.blocks[m.funcs[fc].first_block.unwrap()].first.unwrap();
    assert_eq!(m.inst_ops(call)[0].value, m.funcs[func(&m, "later")].value);
    assert!(matches!(
        m.values[m.funcs[func(&m, "later")].value].kind,
        ValueKind::Func(_)
    ));
    assert_eq!(m.func_ids().count(), 12);
}

#[test]
fn globals_aliases_comdats() {
    let m = parse(include_str!("parse_data/globals.ll"));
    let comdats: Vec<_> = m
        .comdats
        .iter()
        .map(|&(n, k)| format!("{}:{}", m.text(n), m.text(k)))
        .collect();
    assert_eq!(
        comdats,
        [
            "c1:any",
            "g7:any",
            "c2:nodeduplicate",
            "quoted comdat:largest"
        ]
    );
    let g = |n: &str| {
        let v = m.lookup(n).unwrap_or_else(|| panic!("{n}"));
        match m.values[v].kind {
            ValueKind::Global(g) => &m.globals[g],
            _ => panic!("{n}"),
        }
    };
    let g1 = g("g1");
    assert_eq!(g1.linkage, Linkage::Private);
    assert!(g1.is_constant);
    assert_eq!(g1.align, Some(1));
    assert_eq!(m.text(g1.keywords[0]), "unnamed_addr");
    let g2 = g("g2");
    assert_eq!(g2.addrspace, 3);
    assert_eq!(m.types.ptr_addrspace(m.ty(g2.value)), Some(3));
    assert!(g("g3").init.is_none());
    assert_eq!(g("g4").linkage, Linkage::ExternWeak);
    let g5 = g("g5");
    let kws: Vec<_> = g5
        .keywords
        .iter()
        .map(|&s| m.text(s).into_owned())
        .collect();
    assert_eq!(
        kws,
        [
            "dso_local",
            "thread_local(initialexec)",
            "local_unnamed_addr"
        ]
    );
    let tail: Vec<_> = g5.tail.iter().map(|&s| m.text(s).into_owned()).collect();
    assert_eq!(tail, ["section \".data\"", "comdat($c1)", "align 8"]);
    assert_eq!(g5.align, Some(8));
    assert_eq!(m.text(g5.md[0].kind), "dbg");
    let g6 = g("g6");
    assert_eq!(m.text(g6.keywords[1]), "externally_initialized");
    let tail: Vec<_> = g6.tail.iter().map(|&s| m.text(s).into_owned()).collect();
    assert_eq!(
        tail,
        [
            "partition \"p\"",
            "code_model \"small\"",
            "no_sanitize_address"
        ]
    );
    let g7 = g("g7");
    assert_eq!(g7.attrs.groups.as_slice(), &[0]);
    assert_eq!(m.text(g7.tail[0]), "comdat");
    assert_eq!(g("quoted name").linkage, Linkage::Common);
    assert_eq!(g("g8").linkage, Linkage::AvailableExternally);
    assert_eq!(g("g9").linkage, Linkage::Appending);
    // Unnamed globals.
    let unnamed: Vec<_> = m
        .global_ids()
        .filter(|&gl| m.values[m.globals[gl].value].name.is_none())
        .collect();
    assert_eq!(unnamed.len(), 2);
    let one = &m.globals[unnamed[1]];
    assert_eq!(one.init.unwrap().value, m.globals[unnamed[0]].value);
    // Aliases and ifuncs.
    let aliases: Vec<_> = m
        .order
        .iter()
        .filter_map(|t| match t {
            TopLevel::Alias(a) => Some(&m.aliases[*a]),
            _ => None,
        })
        .collect();
    assert_eq!(aliases.len(), 4);
    assert!(!aliases[0].is_ifunc);
    assert_eq!(aliases[0].target.value, g1.value);
    assert_eq!(aliases[1].linkage, Linkage::Internal);
    assert!(matches!(
        konst(&m, aliases[1].target.value),
        Const::Expr {
            opcode: Opcode::GetElementPtr,
            ..
        }
    ));
    assert!(aliases[2].is_ifunc);
    assert_eq!(aliases[2].target.value, m.funcs[func(&m, "resolver")].value);
    assert_eq!(m.text(aliases[3].tail[0]), "partition \"q\"");
    let asm: Vec<_> = m
        .module_asm
        .iter()
        .map(|&s| m.text(s).into_owned())
        .collect();
    assert_eq!(asm, ["foo", "bar \"baz\""]);
    // Module order preserved.
    assert!(matches!(m.order[0], TopLevel::Global(_)));
    assert_eq!(m.order.len(), 21);
}

#[test]
fn verbatim_and_misc() {
    let m = parse(
        "define void @f() personality ptr null {\nentry:\n  invoke void @f() to label %ok unwind label %cs\n\
         cs:\n  %t = catchswitch within none [label %h] unwind to caller\n\
         h:\n  %p = catchpad within %t [ptr null]\n  catchret from %p to label %ok\n\
         ok:\n  ret void\n  uselistorder ptr @f, { 1, 0 }\n}\n\
         uselistorder_bb @f, %ok, { 1, 0 }\n",
    );
    let f = func(&m, "f");
    let v: Vec<_> = insts(&m, f)
        .into_iter()
        .filter(|&i| m.insts[i].opcode == Opcode::Verbatim)
        .collect();
    assert_eq!(v.len(), 3);
    match m.insts[v[0]].extra {
        Extra::Verbatim(s) => assert_eq!(
            m.text(s),
            "catchswitch within none [label %h] unwind to caller"
        ),
        ref e => panic!("{e:?}"),
    }
    assert_eq!(m.verbatim.len(), 2);
    assert_eq!(m.text(m.verbatim[1]), "uselistorder_bb @f, %ok, { 1, 0 }");
}

#[test]
fn non_utf8_in_strings_and_crlf() {
    let src = b"@s = global [2 x i8] c\"\xff\xfe\"\r\n@t = global [1 x i8] c\"\\41\"\r\n";
    let m = parse_module(src).unwrap();
    let v = m.lookup("s").unwrap();
    let ValueKind::Global(g) = m.values[v].kind else {
        panic!()
    };
    match konst(&m, m.globals[g].init.unwrap().value) {
        Const::Str(s) => assert_eq!(m.strings.get(*s), b"\xff\xfe"),
        c => panic!("{c:?}"),
    }
}

#[test]
fn error_render_format() {
    let src = b"define void @f() {\n  ret i32 %x\n}\n";
    let e = match parse_module(src) {
        Err(e) => e,
        Ok(_) => panic!(),
    };
    assert_eq!(
        e.render("t.ll", src),
        "t.ll:2:7: error: value doesn't match function result type 'void'\n  ret i32 %x\n      ^"
    );
}

/// Calls with equal call-site data share one payload; changing one call's
/// payload copies it and leaves the others as they were.
#[test]
fn equal_call_site_data_is_shared_and_copied_on_write() {
    let src = "declare float @h(ptr, i32)\n\
               define float @f(ptr %p, i32 %n) {\n\
               \x20 %a = call float @h(ptr %p, i32 %n) #0\n\
               \x20 %b = call float @h(ptr %p, i32 1) #0\n\
               \x20 %c = call float @h(ptr noundef %p, i32 %n) #0\n\
               \x20 %d = tail call float @h(ptr %p, i32 %n) #0\n\
               \x20 ret float %a\n\
               }\n\
               attributes #0 = { nounwind }\n";
    let mut m = parse(src);
    let f = func(&m, "f");
    let call_of = |m: &Module, name: &str| -> std::sync::Arc<nvpass_ir::inst::CallData> {
        match &m.insts[named(m, f, name)].extra {
            Extra::Call(c) => std::sync::Arc::clone(c),
            e => panic!("%{name} has {e:?}"),
        }
    };
    let (a, b, c, d) = (
        call_of(&m, "a"),
        call_of(&m, "b"),
        call_of(&m, "c"),
        call_of(&m, "d"),
    );
    assert!(
        std::sync::Arc::ptr_eq(&a, &b),
        "same payload, other operands"
    );
    assert!(
        !std::sync::Arc::ptr_eq(&a, &c),
        "argument attributes differ"
    );
    assert!(!std::sync::Arc::ptr_eq(&a, &d), "tail marker differs");
    drop((a, b, c, d));
    let ib = named(&m, f, "b");
    m.insts[ib].call_mut().unwrap().tail = TailKind::Tail;
    let out = nvpass_ir::print::print_module(&m);
    assert!(
        out.contains("  %a = call float @h(ptr %p, i32 %n) #0\n"),
        "{out}"
    );
    assert!(
        out.contains("  %b = tail call float @h(ptr %p, i32 1) #0\n"),
        "{out}"
    );
    assert!(
        out.contains("  %c = call float @h(ptr noundef %p, i32 %n) #0\n"),
        "{out}"
    );
}

/// A `blockaddress` naming another function finds the block by name or by
/// number, counted over unnamed parameters, blocks and results, whether the
/// function comes before or after the use; a number naming a value is
/// rejected.
#[test]
fn blockaddress_labels_of_other_functions() {
    let body = "define void @f(i32 %0, i32 %named) {\n\
                \x20 %2 = add i32 %0, 1\n\
                \x20 br label %next\n\
                next:\n\
                \x20 %3 = add i32 %2, %named\n\
                \x20 br label %4\n\
                4:\n\
                \x20 ret void\n\
                }\n";
    let src = format!(
        "@early = global ptr blockaddress(@f, %4)\n\
         declare void @use(ptr)\n\
         define void @g() {{\n\
         \x20 call void @use(ptr blockaddress(@f, %next))\n\
         \x20 ret void\n\
         }}\n\
         {body}\
         @late = global ptr blockaddress(@f, %next)\n"
    );
    let m = parse(&src);
    let f = func(&m, "f");
    let blocks: Vec<_> = m.func_blocks(f).collect();
    assert_eq!(blocks.len(), 3);
    let target = |v: Value| match m.constant(v) {
        Some(Const::BlockAddress(bf, b)) => {
            assert_eq!(*bf, f);
            *b
        }
        c => panic!("{c:?}"),
    };
    assert_eq!(target(global_init(&m, "early")), blocks[2]);
    assert_eq!(target(global_init(&m, "late")), blocks[1]);
    let call = insts(&m, func(&m, "g"))[0];
    assert_eq!(target(m.inst_ops(call)[1].value), blocks[1]);
    let bad = format!("{body}@bad = global ptr blockaddress(@f, %3)\n");
    let Err(e) = parse_module(bad.as_bytes()) else {
        panic!("a value number named as a block was accepted");
    };
    assert!(
        e.message
            .contains("referenced value is not a basic block '%3'"),
        "{}",
        e.message
    );
}

/// Equal attribute lists read from the text share one allocation;
/// changing one list copies it and leaves the others as they were.
#[test]
fn equal_attribute_lists_are_shared_and_copied_on_write() {
    let src = "define void @f(ptr noalias noundef %a, ptr noalias noundef %b, ptr noundef %c) {\n\
               \x20 ret void\n\
               }\n\
               define void @g(ptr noalias noundef %d) {\n\
               \x20 ret void\n\
               }\n";
    let mut m = parse(src);
    let (f, g) = (func(&m, "f"), func(&m, "g"));
    let p = |m: &Module, f: Func, k: usize| m.funcs[f].params[k].attrs.attrs.clone();
    assert!(p(&m, f, 0).shares(&p(&m, f, 1)));
    assert!(p(&m, f, 0).shares(&p(&m, g, 0)), "shared across functions");
    assert!(!p(&m, f, 0).shares(&p(&m, f, 2)));
    let noundef = m.sym("noundef");
    m.funcs[f].params[1]
        .attrs
        .attrs
        .retain(|a| a.key() != noundef);
    assert!(!p(&m, f, 0).shares(&p(&m, f, 1)));
    let out = nvpass_ir::print::print_module(&m);
    assert!(
        out.contains("define void @f(ptr noalias noundef %a, ptr noalias %b, ptr noundef %c)"),
        "{out}"
    );
    assert!(
        out.contains("define void @g(ptr noalias noundef %d)"),
        "{out}"
    );
    // Emptied lists hold no allocation and compare equal to empty ones.
    m.funcs[f].params[2].attrs.attrs.retain(|_| false);
    assert!(p(&m, f, 2).shares(&Default::default()));
}

/// A call site keeps parameter attribute sets up to the last argument that
/// has attributes, with empty sets before it, and none after it.
#[test]
fn call_param_attrs_end_at_the_last_argument_with_attributes() {
    let m = parse(
        "declare void @g(i32, ptr, i32)\n\
         define void @f(ptr %p) {\n\
         \x20 call void @g(i32 1, ptr noundef %p, i32 2)\n\
         \x20 call void @g(i32 1, ptr %p, i32 2)\n\
         \x20 call void @g(i32 noundef 1, ptr %p, i32 zeroext 2)\n\
         \x20 ret void\n\
         }\n",
    );
    let f = func(&m, "f");
    let calls: Vec<_> = insts(&m, f)
        .into_iter()
        .filter_map(|i| m.insts[i].call())
        .map(|c| {
            c.param_attrs
                .iter()
                .map(|s| s.attrs.len())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(calls, [vec![0, 1], vec![], vec![1, 0, 1]]);
}
