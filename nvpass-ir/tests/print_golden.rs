//! Golden-text tests for the printer: each builds a small module through the
//! `Module` API and compares the exact output. Set `NVPASS_LLVM_AS=1` to also
//! feed every golden text to `llvm-as-19`.

mod common;

use common::*;
use nvpass_ir::attr::{Attr, AttrGroup, AttrSet};
use nvpass_ir::inst::{
    Align, Bundle, CallConv, CallData, Extra, InstFlags, Opcode, Ordering, Pred, TailKind,
};
use nvpass_ir::metadata::{Attachment, MdField, MdKind, MdNode, MdRef, NamedMd};
use nvpass_ir::module::{AliasData, Linkage, TopLevel};
use nvpass_ir::print::{inst_to_string, print_function, type_to_string, value_to_string};
use nvpass_ir::types::{FloatKind, NamedBody, TypeData};
use nvpass_ir::value::{Const, InlineAsm, User, ValueKind, Wide};
use nvpass_ir::{print_module, Module};
use smallvec::smallvec;

fn check(m: &Module, expected: &str) {
    let got = print_module(m);
    assert_eq!(
        got, expected,
        "\n--- got ---\n{got}\n--- expected ---\n{expected}"
    );
    llvm_as_check(&got);
}

#[test]
fn empty_module() {
    let m = Module::new();
    check(&m, "");
}

#[test]
fn header() {
    let mut m = Module::new();
    m.source_filename = Some(m.sym("a \"b\".cu"));
    m.datalayout = Some(m.sym("e-i64:64-i128:128-v16:16-v32:32-n16:32:64"));
    m.triple = Some(m.sym("nvptx64-nvidia-cuda"));
    m.module_asm.push(m.strings.intern(b".globl x\t"));
    let s1_ = m.sym("");
    m.module_asm.push(s1_);
    check(
        &m,
        "source_filename = \"a \\22b\\22.cu\"\n\
         target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n\
         target triple = \"nvptx64-nvidia-cuda\"\n\
         \n\
         module asm \".globl x\\09\"\n\
         module asm \"\"\n",
    );
}

#[test]
fn types() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i8t = m.types.int(8);
    let f = m.types.intern(TypeData::Float(FloatKind::Float));
    let p3 = m.types.ptr(3);
    let p0 = m.types.ptr(0);
    let a = m.types.intern(TypeData::Array(4, i32t));
    let v = m.types.intern(TypeData::Vector {
        len: 4,
        elem: f,
        scalable: false,
    });
    let sv = m.types.intern(TypeData::Vector {
        len: 2,
        elem: i8t,
        scalable: true,
    });
    let st = m.types.intern(TypeData::Struct {
        fields: vec![i32t, p3].into(),
        packed: false,
    });
    let pk = m.types.intern(TypeData::Struct {
        fields: vec![i8t].into(),
        packed: true,
    });
    let empty = m.types.intern(TypeData::Struct {
        fields: vec![].into(),
        packed: false,
    });
    let fty = fn_ty(&mut m, i32t, &[p0, i32t], true);
    let tn = m.sym("spirv.Image");
    let te = m.types.intern(TypeData::TargetExt {
        name: tn,
        types: smallvec![i8t],
        ints: smallvec![1, 0],
    });
    let tok = m.types.intern(TypeData::Token);
    let md = m.types.intern(TypeData::Metadata);
    let s = |t| type_to_string(&m, t);
    assert_eq!(s(a), "[4 x i32]");
    assert_eq!(s(v), "<4 x float>");
    assert_eq!(s(sv), "<vscale x 2 x i8>");
    assert_eq!(s(st), "{ i32, ptr addrspace(3) }");
    assert_eq!(s(pk), "<{ i8 }>");
    assert_eq!(s(empty), "{}");
    assert_eq!(s(fty), "i32 (ptr, i32, ...)");
    assert_eq!(s(te), "target(\"spirv.Image\", i8, 1, 0)");
    assert_eq!(s(tok), "token");
    assert_eq!(s(md), "metadata");
    for (k, kw) in [
        (FloatKind::Half, "half"),
        (FloatKind::BFloat, "bfloat"),
        (FloatKind::Double, "double"),
        (FloatKind::Fp128, "fp128"),
        (FloatKind::X86Fp80, "x86_fp80"),
        (FloatKind::PpcFp128, "ppc_fp128"),
    ] {
        let t = m.types.intern(TypeData::Float(k));
        assert_eq!(type_to_string(&m, t), kw);
    }
}

#[test]
fn named_types() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let n1 = m.sym("struct.A");
    let n2 = m.sym("class.std::vector<int>");
    let n3 = m.sym("Opaque");
    let a = m.types.intern(TypeData::Named(n1));
    let b = m.types.intern(TypeData::Named(n2));
    let _c = m.types.intern(TypeData::Named(n3));
    let p = m.types.ptr(0);
    m.types.set_named_body(
        a,
        NamedBody::Body {
            fields: vec![i32t, p, b],
            packed: false,
        },
    );
    m.types.set_named_body(
        b,
        NamedBody::Body {
            fields: vec![i32t],
            packed: true,
        },
    );
    check(
        &m,
        "\n%struct.A = type { i32, ptr, %\"class.std::vector<int>\" }\n\
         %\"class.std::vector<int>\" = type <{ i32 }>\n\
         %Opaque = type opaque\n",
    );
}

#[test]
fn int_and_simple_constants() {
    let mut m = Module::new();
    let i1 = m.types.int(1);
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let i128t = m.types.int(128);
    let i256 = m.types.int(256);
    let p = m.types.ptr(0);
    let t = m.const_int(i1, 1);
    let f = m.const_int(i1, 0);
    let a = m.const_int(i32t, -2147483648);
    let b = m.const_int(i64t, i64::MAX as i128);
    let c = m.const_int(i128t, i128::MIN);
    let big = m.sym("-123456789012345678901234567890123456789012345");
    let d = m.const_scalar(i256, Const::BigInt(big));
    let n = m.const_scalar(p, Const::Null);
    let u = m.const_scalar(i32t, Const::Undef);
    let po = m.const_scalar(i32t, Const::Poison);
    add_global(&mut m, Some("t"), i1, Some(t), 0);
    add_global(&mut m, Some("f"), i1, Some(f), 0);
    add_global(&mut m, Some("a"), i32t, Some(a), 0);
    add_global(&mut m, Some("b"), i64t, Some(b), 0);
    add_global(&mut m, Some("c"), i128t, Some(c), 0);
    add_global(&mut m, Some("d"), i256, Some(d), 0);
    add_global(&mut m, Some("n"), p, Some(n), 0);
    add_global(&mut m, Some("u"), i32t, Some(u), 0);
    add_global(&mut m, Some("po"), i32t, Some(po), 0);
    check(
        &m,
        "\n@t = global i1 true\n\
         @f = global i1 false\n\
         @a = global i32 -2147483648\n\
         @b = global i64 9223372036854775807\n\
         @c = global i128 -170141183460469231731687303715884105728\n\
         @d = global i256 -123456789012345678901234567890123456789012345\n\
         @n = global ptr null\n\
         @u = global i32 undef\n\
         @po = global i32 poison\n",
    );
}

fn float_text(m: &mut Module, k: FloatKind, bits: u128) -> String {
    let t = m.types.intern(TypeData::Float(k));
    let v = m.const_scalar(t, Const::Float(Wide(bits)));
    value_to_string(m, v)
}

#[test]
fn float_constants() {
    let mut m = Module::new();
    let d = FloatKind::Double;
    let f = FloatKind::Float;
    let cases: &[(FloatKind, u128, &str)] = &[
        (d, 1.0f64.to_bits() as u128, "double 1.000000e+00"),
        (d, 0.1f64.to_bits() as u128, "double 1.000000e-01"),
        (d, 0.3f64.to_bits() as u128, "double 3.000000e-01"),
        (d, (-2.5f64).to_bits() as u128, "double -2.500000e+00"),
        (d, 1e10f64.to_bits() as u128, "double 1.000000e+10"),
        (d, 0.0f64.to_bits() as u128, "double 0.000000e+00"),
        (d, (-0.0f64).to_bits() as u128, "double -0.000000e+00"),
        (
            d,
            123456.5f64.to_bits() as u128,
            "double 0x40FE240800000000",
        ),
        (
            d,
            1234567.0f64.to_bits() as u128,
            "double 0x4132D68700000000",
        ),
        (
            d,
            f64::INFINITY.to_bits() as u128,
            "double 0x7FF0000000000000",
        ),
        (
            d,
            f64::NEG_INFINITY.to_bits() as u128,
            "double 0xFFF0000000000000",
        ),
        (d, 0x7FF8000000000000, "double 0x7FF8000000000000"),
        (d, 1, "double 4.940660e-324"),
        (d, 3, "double 1.482200e-323"),
        (d, 0x000123456789ABCD, "double 0x123456789ABCD"),
        (f, 1.0f32.to_bits() as u128, "float 1.000000e+00"),
        (f, 0.1f32.to_bits() as u128, "float 0x3FB99999A0000000"),
        (f, 0.5f32.to_bits() as u128, "float 5.000000e-01"),
        (f, f32::MAX.to_bits() as u128, "float 0x47EFFFFFE0000000"),
        (
            f,
            f32::INFINITY.to_bits() as u128,
            "float 0x7FF0000000000000",
        ),
        (f, 0x7FC00000, "float 0x7FF8000000000000"),
        (f, 0x7FA00000, "float 0x7FF4000000000000"),
        (FloatKind::Half, 0x3C00, "half 0xH3C00"),
        (FloatKind::BFloat, 0x3F80, "bfloat 0xR3F80"),
        (
            FloatKind::Fp128,
            0x3FFF0000000000000000000000000000,
            "fp128 0xL00000000000000003FFF000000000000",
        ),
        (
            FloatKind::X86Fp80,
            0x3FFF8000000000000000,
            "x86_fp80 0xK3FFF8000000000000000",
        ),
        (
            FloatKind::PpcFp128,
            0x3FF00000000000000000000000000000,
            "ppc_fp128 0xM00000000000000003FF0000000000000",
        ),
    ];
    for &(k, bits, want) in cases {
        assert_eq!(float_text(&mut m, k, bits), want, "bits {bits:#x}");
    }
}

#[test]
fn aggregate_constants() {
    let mut m = Module::new();
    let i8t = m.types.int(8);
    let i32t = m.types.int(32);
    let s = m.strings.intern(b"a\"\\\n\0");
    let st = m.types.intern(TypeData::Array(5, i8t));
    let cs = m.new_const_with_ops(st, Const::Str(s), &[]);
    add_global(&mut m, Some("s"), st, Some(cs), 0);
    let one = m.const_int(i32t, 1);
    let two = m.const_int(i32t, 2);
    let at = m.types.intern(TypeData::Array(2, i32t));
    let arr = m.new_const_with_ops(at, Const::Aggregate, &[one, two]);
    let g = add_global(&mut m, Some("arr"), at, Some(arr), 0);
    m.globals[g].is_constant = true;
    let pk = m.types.intern(TypeData::Struct {
        fields: vec![i8t].into(),
        packed: true,
    });
    let b = m.const_int(i8t, 2);
    let pkc = m.new_const_with_ops(pk, Const::Aggregate, &[b]);
    let empty = m.types.intern(TypeData::Struct {
        fields: vec![].into(),
        packed: false,
    });
    let ec = m.const_scalar(empty, Const::Zero);
    let sty = m.types.intern(TypeData::Struct {
        fields: vec![i32t, pk, empty].into(),
        packed: false,
    });
    let sc = m.new_const_with_ops(sty, Const::Aggregate, &[one, pkc, ec]);
    add_global(&mut m, Some("st"), sty, Some(sc), 0);
    let vt = m.types.intern(TypeData::Vector {
        len: 2,
        elem: i32t,
        scalable: false,
    });
    let vc = m.new_const_with_ops(vt, Const::Aggregate, &[one, two]);
    add_global(&mut m, Some("v"), vt, Some(vc), 0);
    let sp = m.new_const_with_ops(vt, Const::Splat, &[two]);
    add_global(&mut m, Some("sp"), vt, Some(sp), 0);
    let z = m.const_scalar(at, Const::Zero);
    add_global(&mut m, Some("z"), at, Some(z), 0);
    let et = m.types.intern(TypeData::Array(0, i32t));
    let ea = m.new_const_with_ops(et, Const::Aggregate, &[]);
    add_global(&mut m, Some("e"), et, Some(ea), 0);
    check(
        &m,
        "\n@s = global [5 x i8] c\"a\\22\\\\\\0A\\00\"\n\
         @arr = constant [2 x i32] [i32 1, i32 2]\n\
         @st = global { i32, <{ i8 }>, {} } { i32 1, <{ i8 }> <{ i8 2 }>, {} zeroinitializer }\n\
         @v = global <2 x i32> <i32 1, i32 2>\n\
         @sp = global <2 x i32> splat (i32 2)\n\
         @z = global [2 x i32] zeroinitializer\n\
         @e = global [0 x i32] []\n",
    );
}

#[test]
fn constant_expressions() {
    let mut m = Module::new();
    let i8t = m.types.int(8);
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let p0 = m.types.ptr(0);
    let p3 = m.types.ptr(3);
    let at = m.types.intern(TypeData::Array(4, i32t));
    let sh = add_global(&mut m, Some("s"), at, None, 3);
    let shv = gval(&m, sh);
    m.globals[sh].linkage = Linkage::Internal;
    let u = m.const_scalar(at, Const::Undef);
    let init = m.add_use(u, User::GlobalInit(sh), 0);
    m.globals[sh].init = Some(init);
    m.globals[sh].align = Some(4);
    let cast = m.new_const_with_ops(
        p0,
        Const::Expr {
            opcode: Opcode::AddrSpaceCast,
            flags: InstFlags::empty(),
            source_ty: None,
            pred: None,
            inrange: None,
        },
        &[shv],
    );
    add_global(&mut m, Some("c"), p0, Some(cast), 0);
    let z = m.const_int(i64t, 0);
    let one = m.const_int(i64t, 1);
    let gep = m.new_const_with_ops(
        p0,
        Const::Expr {
            opcode: Opcode::GetElementPtr,
            flags: InstFlags::INBOUNDS,
            source_ty: Some(at),
            pred: None,
            inrange: None,
        },
        &[cast, z, one],
    );
    add_global(&mut m, Some("g"), p0, Some(gep), 0);
    let pti = m.new_const_with_ops(
        i64t,
        Const::Expr {
            opcode: Opcode::PtrToInt,
            flags: InstFlags::empty(),
            source_ty: None,
            pred: None,
            inrange: None,
        },
        &[gep],
    );
    let add = m.new_const_with_ops(
        i64t,
        Const::Expr {
            opcode: Opcode::Add,
            flags: InstFlags::NUW | InstFlags::NSW,
            source_ty: None,
            pred: None,
            inrange: None,
        },
        &[pti, one],
    );
    add_global(&mut m, Some("i"), i64t, Some(add), 0);
    let ir = m.sym("inrange(-8, 8)");
    let gep2 = m.new_const_with_ops(
        p0,
        Const::Expr {
            opcode: Opcode::GetElementPtr,
            flags: InstFlags::INBOUNDS,
            source_ty: Some(i8t),
            pred: None,
            inrange: Some(ir),
        },
        &[cast, one],
    );
    add_global(&mut m, Some("r"), p0, Some(gep2), 0);
    let _ = p3;
    check(
        &m,
        "\n@s = internal addrspace(3) global [4 x i32] undef, align 4\n\
         @c = global ptr addrspacecast (ptr addrspace(3) @s to ptr)\n\
         @g = global ptr getelementptr inbounds ([4 x i32], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 1)\n\
         @i = global i64 add nuw nsw (i64 ptrtoint (ptr getelementptr inbounds ([4 x i32], ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 0, i64 1) to i64), i64 1)\n\
         @r = global ptr getelementptr inbounds inrange(-8, 8) (i8, ptr addrspacecast (ptr addrspace(3) @s to ptr), i64 1)\n",
    );
}

#[test]
fn global_forms() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let c0 = m.const_int(i32t, 7);
    let g1 = add_global(&mut m, Some("ext"), i32t, None, 1);
    let s2_ = m.sym("dso_local");
    m.globals[g1].keywords.push(s2_);
    m.globals[g1].align = Some(4);
    let g2 = add_global(&mut m, Some("weak"), i32t, None, 0);
    m.globals[g2].linkage = Linkage::ExternWeak;
    let g3 = add_global(&mut m, None, i32t, Some(c0), 4);
    let s3_ = m.sym("externally_initialized");
    m.globals[g3].keywords.push(s3_);
    let s4_ = m.sym("local_unnamed_addr");
    m.globals[g3].keywords.push(s4_);
    m.globals[g3].linkage = Linkage::Private;
    m.globals[g3].is_constant = true;
    let s5_ = m.sym("section \"x\"");
    m.globals[g3].tail.push(s5_);
    let s6_ = m.sym("align 8");
    m.globals[g3].tail.push(s6_);
    m.globals[g3].align = Some(16);
    let g4 = add_global(&mut m, Some("c1"), i32t, Some(c0), 0);
    let s7_ = m.sym("comdat");
    m.globals[g4].tail.push(s7_);
    m.globals[g4].align = Some(2);
    let s8_ = m.sym("c1");
    let s9_ = m.sym("any");
    m.comdats.push((s8_, s9_));
    let s10_ = m.sym("c 2");
    let s11_ = m.sym("largest");
    m.comdats.push((s10_, s11_));
    m.globals[g4].attrs.groups.push(0);
    let s12_ = m.sym("k");
    let s13_ = m.sym("v");
    m.attr_groups.push(AttrGroup {
        id: 0,
        attrs: smallvec![Attr::Str {
            key: s12_,
            value: Some(s13_)
        }],
    });
    let s1 = m.sym("\x01weird name");
    let g5 = add_global(&mut m, Some("x"), i32t, Some(c0), 0);
    let g5v = gval(&m, g5);
    m.values[g5v].name = Some(s1);
    check(
        &m,
        "\n$c1 = comdat any\n\
         \n\
         $\"c 2\" = comdat largest\n\
         \n\
         @ext = external dso_local addrspace(1) global i32, align 4\n\
         @weak = extern_weak global i32\n\
         @0 = private local_unnamed_addr addrspace(4) externally_initialized constant i32 7, section \"x\", align 16\n\
         @c1 = global i32 7, comdat, align 2 #0\n\
         @\"\\01weird name\" = global i32 7\n\
         \n\
         attributes #0 = { \"k\"=\"v\" }\n",
    );
}

#[test]
fn aliases() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i8t = m.types.int(8);
    let i64t = m.types.int(64);
    let p0 = m.types.ptr(0);
    let at = m.types.intern(TypeData::Array(2, i32t));
    let z = m.const_scalar(at, Const::Zero);
    let g = add_global(&mut m, Some("g"), at, Some(z), 0);
    let gv = gval(&m, g);
    let four = m.const_int(i64t, 4);
    let gep = m.new_const_with_ops(
        p0,
        Const::Expr {
            opcode: Opcode::GetElementPtr,
            flags: InstFlags::empty(),
            source_ty: Some(i8t),
            pred: None,
            inrange: None,
        },
        &[gv, four],
    );
    for (name, target, vt, ifunc) in [
        ("a", gep, i32t, false),
        ("b", gv, at, false),
        ("i", gv, at, true),
    ] {
        let a = m.aliases.next_key();
        let s = m.sym(name);
        let v = m.new_value(p0, ValueKind::Alias(a), Some(s));
        let t = m.add_use(target, User::Alias(a), 0);
        m.aliases.push(AliasData {
            value: v,
            is_ifunc: ifunc,
            linkage: if ifunc {
                Linkage::External
            } else {
                Linkage::Internal
            },
            keywords: smallvec![],
            value_ty: vt,
            target: t,
            tail: smallvec![],
        });
        m.order.push(TopLevel::Alias(a));
    }
    let text = print_module(&m);
    assert_eq!(
        text,
        "\n@g = global [2 x i32] zeroinitializer\n\
         \n\
         @a = internal alias i32, getelementptr (i8, ptr @g, i64 4)\n\
         @b = internal alias [2 x i32], ptr @g\n\
         \n\
         @i = ifunc [2 x i32], ptr @g\n"
    );
}

#[test]
fn function_header_and_numbering() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let p = m.types.ptr(0);
    let v = m.types.void();
    let f = add_func(
        &mut m,
        Some("f"),
        i32t,
        &[(i32t, Some("a")), (p, None), (p, None)],
        false,
        true,
    );
    let s14_ = m.sym("dso_local");
    m.funcs[f].keywords.push(s14_);
    let s15_ = m.sym("noundef");
    m.funcs[f].params[1].attrs.attrs.push(Attr::Enum(s15_));
    let s16_ = m.sym("align");
    m.funcs[f].params[1].attrs.attrs.push(Attr::Int {
        kind: s16_,
        value: 8,
        paren: false,
    });
    let s17_ = m.sym("dereferenceable");
    m.funcs[f].params[2].attrs.attrs.push(Attr::Int {
        kind: s17_,
        value: 16,
        paren: true,
    });
    let s18_ = m.sym("noundef");
    m.funcs[f].ret_attrs.attrs.push(Attr::Enum(s18_));
    let s19_ = m.sym("local_unnamed_addr");
    m.funcs[f].unnamed_addr = Some(s19_);
    m.funcs[f].fn_attrs.groups.push(0);
    let s20_ = m.sym("nounwind");
    let s21_ = m.sym("memory");
    let s22_ = m.sym("memory(none)");
    let s23_ = m.sym("target-cpu");
    let s24_ = m.sym("sm_80");
    m.attr_groups.push(AttrGroup {
        id: 0,
        attrs: smallvec![
            Attr::Enum(s20_),
            Attr::Raw {
                kind: s21_,
                text: s22_
            },
            Attr::Str {
                key: s23_,
                value: Some(s24_)
            },
        ],
    });
    let entry = m.append_block(f, None);
    let b1 = m.append_block(f, None);
    let b2 = block(&mut m, f, "named");
    let a0 = arg(&m, f, 0);
    let a2 = arg(&m, f, 2);
    let ld = ins(
        &mut m,
        entry,
        Opcode::Load,
        i32t,
        &[a2],
        Extra::Mem {
            align: None,
            ordering: Ordering::NotAtomic,
            failure: Ordering::NotAtomic,
            syncscope: None,
            rmw_op: None,
        },
        None,
    );
    let ldv = res(&m, ld);
    let add = ins(
        &mut m,
        entry,
        Opcode::Add,
        i32t,
        &[a0, ldv],
        Extra::None,
        None,
    );
    let addv = res(&m, add);
    br(&mut m, entry, b1);
    let mul = ins(
        &mut m,
        b1,
        Opcode::Mul,
        i32t,
        &[addv, addv],
        Extra::None,
        Some("m"),
    );
    let mulv = res(&m, mul);
    let sub = ins(
        &mut m,
        b1,
        Opcode::Sub,
        i32t,
        &[mulv, a0],
        Extra::None,
        None,
    );
    let subv = res(&m, sub);
    br(&mut m, b1, b2);
    ret(&mut m, b2, subv);
    let d = add_func(
        &mut m,
        Some("decl"),
        v,
        &[(i32t, Some("ignored")), (p, None)],
        true,
        false,
    );
    let s25_ = m.sym("signext");
    m.funcs[d].params[0].attrs.attrs.push(Attr::Enum(s25_));

    check(
        &m,
        "\n; Function Attrs: nounwind memory(none)\n\
         define dso_local noundef i32 @f(i32 %a, ptr noundef align 8 %0, ptr dereferenceable(16) %1) local_unnamed_addr #0 {\n\
         \x20 %3 = load i32, ptr %1\n\
         \x20 %4 = add i32 %a, %3\n\
         \x20 br label %5\n\
         \n\
         5:\n\
         \x20 %m = mul i32 %4, %4\n\
         \x20 %6 = sub i32 %m, %a\n\
         \x20 br label %named\n\
         \n\
         named:\n\
         \x20 ret i32 %6\n\
         }\n\
         \n\
         declare void @decl(i32 signext, ptr, ...)\n\
         \n\
         attributes #0 = { nounwind memory(none) \"target-cpu\"=\"sm_80\" }\n",
    );
}

#[test]
fn function_extras() {
    let mut m = Module::new();
    let v = m.types.void();
    let i32t = m.types.int(32);
    let f = add_func(&mut m, Some("kern"), v, &[], false, true);
    let e = block(&mut m, f, "entry");
    let ck = (s_kern(&mut m), s_any(&mut m));
    m.comdats.push(ck);
    ret_void(&mut m, e);
    m.funcs[f].linkage = Linkage::LinkOnceOdr;
    m.funcs[f].cc = CallConv::PtxKernel;
    let s26_ = m.sym(".text");
    m.funcs[f].extras_mut().section = Some(s26_);
    m.funcs[f].extras_mut().comdat = Some(None);
    m.funcs[f].extras_mut().align = Some(16);
    let s27_ = m.sym("shadow");
    m.funcs[f].extras_mut().gc = Some(s27_);
    let s28_ = m.sym("noinline");
    m.funcs[f].fn_attrs.attrs.push(Attr::Enum(s28_));
    let c = m.const_int(i32t, 1);
    let o = m.add_use(c, User::Func(f), 1);
    m.funcs[f].extras_mut().extra_ops[1] = Some(o);
    let g = add_func(&mut m, Some("1bad name"), v, &[], false, true);
    let gb = m.append_block(g, None);
    ret_void(&mut m, gb);
    let s29_ = m.sym("cd");
    m.funcs[g].extras_mut().comdat = Some(Some(s29_));
    let s30_ = m.sym("cd");
    let s31_ = m.sym("any");
    m.comdats.push((s30_, s31_));
    check(
        &m,
        "\n$kern = comdat any\n\
         \n\
         $cd = comdat any\n\
         \n\
         ; Function Attrs: noinline\n\
         define linkonce_odr ptx_kernel void @kern() noinline section \".text\" comdat align 16 gc \"shadow\" prefix i32 1 {\n\
         entry:\n\
         \x20 ret void\n\
         }\n\
         \n\
         define void @\"1bad name\"() comdat($cd) {\n\
         \x20 ret void\n\
         }\n",
    );
}

#[test]
fn arithmetic_flags_and_casts() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let i16t = m.types.int(16);
    let f32t = m.types.intern(TypeData::Float(FloatKind::Float));
    let f64t = m.types.intern(TypeData::Float(FloatKind::Double));
    let p0 = m.types.ptr(0);
    let p3 = m.types.ptr(3);
    let v = m.types.void();
    let f = add_func(
        &mut m,
        Some("f"),
        v,
        &[(i32t, Some("x")), (f32t, Some("y")), (p3, Some("p"))],
        false,
        true,
    );
    let b = m.append_block(f, None);
    let x = arg(&m, f, 0);
    let y = arg(&m, f, 1);
    let p = arg(&m, f, 2);
    let one = m.const_int(i32t, 1);
    let mk = |m: &mut nvpass_ir::Module, op, ty, ops: &[nvpass_ir::Value], flags, name| {
        let i = ins(m, b, op, ty, ops, Extra::None, Some(name));
        m.insts[i].flags = flags;
        res(m, i)
    };
    mk(
        &mut m,
        Opcode::Add,
        i32t,
        &[x, one],
        InstFlags::NUW | InstFlags::NSW,
        "a",
    );
    mk(&mut m, Opcode::SDiv, i32t, &[x, one], InstFlags::EXACT, "b");
    mk(
        &mut m,
        Opcode::Or,
        i32t,
        &[x, one],
        InstFlags::DISJOINT,
        "c",
    );
    mk(&mut m, Opcode::FAdd, f32t, &[y, y], InstFlags::FAST, "d");
    mk(
        &mut m,
        Opcode::FMul,
        f32t,
        &[y, y],
        InstFlags::NNAN | InstFlags::CONTRACT | InstFlags::REASSOC,
        "e",
    );
    mk(&mut m, Opcode::FNeg, f32t, &[y], InstFlags::empty(), "fn");
    mk(&mut m, Opcode::ZExt, i64t, &[x], InstFlags::NNEG, "z");
    mk(&mut m, Opcode::Trunc, i16t, &[x], InstFlags::NUW, "t");
    mk(&mut m, Opcode::FPExt, f64t, &[y], InstFlags::empty(), "fe");
    mk(
        &mut m,
        Opcode::AddrSpaceCast,
        p0,
        &[p],
        InstFlags::empty(),
        "as",
    );
    mk(&mut m, Opcode::Freeze, i32t, &[x], InstFlags::empty(), "fr");
    ret_void(&mut m, b);
    let mut out = String::new();
    print_function(&m, f, &mut out);
    assert_eq!(
        out,
        "define void @f(i32 %x, float %y, ptr addrspace(3) %p) {\n\
         \x20 %a = add nuw nsw i32 %x, 1\n\
         \x20 %b = sdiv exact i32 %x, 1\n\
         \x20 %c = or disjoint i32 %x, 1\n\
         \x20 %d = fadd fast float %y, %y\n\
         \x20 %e = fmul reassoc nnan contract float %y, %y\n\
         \x20 %fn = fneg float %y\n\
         \x20 %z = zext nneg i32 %x to i64\n\
         \x20 %t = trunc nuw i32 %x to i16\n\
         \x20 %fe = fpext float %y to double\n\
         \x20 %as = addrspacecast ptr addrspace(3) %p to ptr\n\
         \x20 %fr = freeze i32 %x\n\
         \x20 ret void\n\
         }\n"
    );
    llvm_as_check(&out);
}

#[test]
fn memory_instructions() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let p0 = m.types.ptr(0);
    let v = m.types.void();
    let at = m.types.intern(TypeData::Array(4, i32t));
    let f = add_func(
        &mut m,
        Some("f"),
        v,
        &[(p0, Some("p")), (i64t, Some("n"))],
        false,
        true,
    );
    let b = m.append_block(f, None);
    let p = arg(&m, f, 0);
    let n = arg(&m, f, 1);
    let one32 = m.const_int(i32t, 1);
    let a1 = ins(
        &mut m,
        b,
        Opcode::Alloca,
        p0,
        &[],
        Extra::Alloca {
            ty: i32t,
            align: Align::new(4),
            addrspace: None,
        },
        Some("a1"),
    );
    let _ = a1;
    ins(
        &mut m,
        b,
        Opcode::Alloca,
        p0,
        &[one32],
        Extra::Alloca {
            ty: i32t,
            align: None,
            addrspace: None,
        },
        Some("a2"),
    );
    ins(
        &mut m,
        b,
        Opcode::Alloca,
        p0,
        &[n],
        Extra::Alloca {
            ty: at,
            align: Align::new(16),
            addrspace: Some(5),
        },
        Some("a3"),
    );
    let mem = |align, ordering, ss: Option<nvpass_ir::Sym>, rmw| Extra::Mem {
        align,
        ordering,
        failure: Ordering::NotAtomic,
        syncscope: ss,
        rmw_op: rmw,
    };
    let l = ins(
        &mut m,
        b,
        Opcode::Load,
        i32t,
        &[p],
        mem(Align::new(4), Ordering::NotAtomic, None, None),
        Some("l"),
    );
    let lv = res(&m, l);
    let lvol = ins(
        &mut m,
        b,
        Opcode::Load,
        i32t,
        &[p],
        mem(Align::new(4), Ordering::NotAtomic, None, None),
        Some("lv"),
    );
    m.insts[lvol].flags = InstFlags::VOLATILE;
    let ss = m.sym("block");
    ins(
        &mut m,
        b,
        Opcode::Load,
        i32t,
        &[p],
        mem(Align::new(4), Ordering::Acquire, Some(ss), None),
        Some("la"),
    );
    ins(
        &mut m,
        b,
        Opcode::Store,
        v,
        &[lv, p],
        mem(Align::new(4), Ordering::NotAtomic, None, None),
        None,
    );
    ins(
        &mut m,
        b,
        Opcode::Store,
        v,
        &[lv, p],
        mem(Align::new(4), Ordering::SeqCst, None, None),
        None,
    );
    ins(
        &mut m,
        b,
        Opcode::Fence,
        v,
        &[],
        mem(None, Ordering::AcqRel, Some(ss), None),
        None,
    );
    let add = m.sym("add");
    ins(
        &mut m,
        b,
        Opcode::AtomicRmw,
        i32t,
        &[p, one32],
        mem(Align::new(4), Ordering::SeqCst, None, Some(add)),
        Some("r"),
    );
    let i1t = m.types.int(1);
    let pair = m.types.intern(TypeData::Struct {
        fields: vec![i32t, i1t].into(),
        packed: false,
    });
    let cx = ins(
        &mut m,
        b,
        Opcode::CmpXchg,
        pair,
        &[p, lv, one32],
        Extra::Mem {
            align: Align::new(4),
            ordering: Ordering::AcqRel,
            failure: Ordering::Monotonic,
            syncscope: None,
            rmw_op: None,
        },
        Some("cx"),
    );
    m.insts[cx].flags = InstFlags::WEAK | InstFlags::VOLATILE;
    let zero = m.const_int(i64t, 0);
    let gi = ins(
        &mut m,
        b,
        Opcode::GetElementPtr,
        p0,
        &[p, zero, n],
        Extra::Gep { source_ty: at },
        Some("g"),
    );
    m.insts[gi].flags = InstFlags::INBOUNDS | InstFlags::NUW;
    ins(
        &mut m,
        b,
        Opcode::GetElementPtr,
        p0,
        &[p, n],
        Extra::Gep { source_ty: i32t },
        Some("g2"),
    );
    ret_void(&mut m, b);
    let mut out = String::new();
    print_function(&m, f, &mut out);
    assert_eq!(
        out,
        "define void @f(ptr %p, i64 %n) {\n\
         \x20 %a1 = alloca i32, align 4\n\
         \x20 %a2 = alloca i32\n\
         \x20 %a3 = alloca [4 x i32], i64 %n, align 16, addrspace(5)\n\
         \x20 %l = load i32, ptr %p, align 4\n\
         \x20 %lv = load volatile i32, ptr %p, align 4\n\
         \x20 %la = load atomic i32, ptr %p syncscope(\"block\") acquire, align 4\n\
         \x20 store i32 %l, ptr %p, align 4\n\
         \x20 store atomic i32 %l, ptr %p seq_cst, align 4\n\
         \x20 fence syncscope(\"block\") acq_rel\n\
         \x20 %r = atomicrmw add ptr %p, i32 1 seq_cst, align 4\n\
         \x20 %cx = cmpxchg weak volatile ptr %p, i32 %l, i32 1 acq_rel monotonic, align 4\n\
         \x20 %g = getelementptr inbounds nuw [4 x i32], ptr %p, i64 0, i64 %n\n\
         \x20 %g2 = getelementptr i32, ptr %p, i64 %n\n\
         \x20 ret void\n\
         }\n"
    );
    llvm_as_check(&out);
}

#[test]
fn control_flow_and_misc() {
    let mut m = Module::new();
    let i1 = m.types.int(1);
    let i32t = m.types.int(32);
    let i64t = m.types.int(64);
    let f32t = m.types.intern(TypeData::Float(FloatKind::Float));
    let vt = m.types.intern(TypeData::Vector {
        len: 4,
        elem: i32t,
        scalable: false,
    });
    let st = m.types.intern(TypeData::Struct {
        fields: vec![i32t, f32t].into(),
        packed: false,
    });
    let p0 = m.types.ptr(0);
    let f = add_func(
        &mut m,
        Some("f"),
        i32t,
        &[
            (i32t, Some("x")),
            (f32t, Some("y")),
            (vt, Some("v")),
            (p0, Some("p")),
        ],
        false,
        true,
    );
    let e = m.append_block(f, None);
    let b1 = block(&mut m, f, "b1");
    let b2 = block(&mut m, f, "b2");
    let b3 = block(&mut m, f, "b3");
    let [x, y, vv, p] = [0, 1, 2, 3].map(|i| arg(&m, f, i));
    let c = ins(
        &mut m,
        e,
        Opcode::ICmp,
        i1,
        &[x, x],
        Extra::Cmp(Pred(8)),
        Some("c"),
    );
    let cv = res(&m, c);
    let fc = ins(
        &mut m,
        e,
        Opcode::FCmp,
        i1,
        &[y, y],
        Extra::Cmp(Pred(14)),
        Some("fc"),
    );
    m.insts[fc].flags = InstFlags::NNAN;
    let sel = ins(
        &mut m,
        e,
        Opcode::Select,
        i32t,
        &[cv, x, x],
        Extra::None,
        Some("s"),
    );
    let _ = sel;
    let zero64 = m.const_int(i64t, 0);
    let ee = ins(
        &mut m,
        e,
        Opcode::ExtractElement,
        i32t,
        &[vv, zero64],
        Extra::None,
        Some("ee"),
    );
    let eev = res(&m, ee);
    ins(
        &mut m,
        e,
        Opcode::InsertElement,
        vt,
        &[vv, eev, zero64],
        Extra::None,
        Some("ie"),
    );
    let mt = m.types.intern(TypeData::Vector {
        len: 4,
        elem: i32t,
        scalable: false,
    });
    let mask = m.const_scalar(mt, Const::Zero);
    ins(
        &mut m,
        e,
        Opcode::ShuffleVector,
        vt,
        &[vv, vv, mask],
        Extra::None,
        Some("sv"),
    );
    let u = m.const_scalar(st, Const::Undef);
    let iv = ins(
        &mut m,
        e,
        Opcode::InsertValue,
        st,
        &[u, x],
        Extra::Indices(Box::new(smallvec![0])),
        Some("iv"),
    );
    let ivv = res(&m, iv);
    ins(
        &mut m,
        e,
        Opcode::ExtractValue,
        i32t,
        &[ivv],
        Extra::Indices(Box::new(smallvec![1])),
        Some("ev"),
    );
    ins(
        &mut m,
        e,
        Opcode::VAArg,
        i32t,
        &[p],
        Extra::None,
        Some("va"),
    );
    cond_br(&mut m, e, cv, b1, b2);
    let one = m.const_int(i32t, 1);
    let two = m.const_int(i32t, 2);
    let s32_ = m.types.void();
    let sw = ins(
        &mut m,
        b1,
        Opcode::Switch,
        s32_,
        &[x, one, two],
        Extra::None,
        None,
    );
    m.set_block_ops(sw, &[b3, b2, b3]);
    let s33_ = m.types.void();
    let ib = ins(
        &mut m,
        b2,
        Opcode::IndirectBr,
        s33_,
        &[p],
        Extra::None,
        None,
    );
    m.set_block_ops(ib, &[b3, b1]);
    let ph = phi(&mut m, b3, i32t, &[(x, b1), (x, b1), (two, b2)], Some("ph"));
    let phv = res(&m, ph);
    ret(&mut m, b3, phv);
    let mut out = String::new();
    print_function(&m, f, &mut out);
    assert_eq!(
        out,
        "define i32 @f(i32 %x, float %y, <4 x i32> %v, ptr %p) {\n\
         \x20 %c = icmp slt i32 %x, %x\n\
         \x20 %fc = fcmp nnan uno float %y, %y\n\
         \x20 %s = select i1 %c, i32 %x, i32 %x\n\
         \x20 %ee = extractelement <4 x i32> %v, i64 0\n\
         \x20 %ie = insertelement <4 x i32> %v, i32 %ee, i64 0\n\
         \x20 %sv = shufflevector <4 x i32> %v, <4 x i32> %v, <4 x i32> zeroinitializer\n\
         \x20 %iv = insertvalue { i32, float } undef, i32 %x, 0\n\
         \x20 %ev = extractvalue { i32, float } %iv, 1\n\
         \x20 %va = va_arg ptr %p, i32\n\
         \x20 br i1 %c, label %b1, label %b2\n\
         \n\
         b1:\n\
         \x20 switch i32 %x, label %b3 [\n\
         \x20   i32 1, label %b2\n\
         \x20   i32 2, label %b3\n\
         \x20 ]\n\
         \n\
         b2:\n\
         \x20 indirectbr ptr %p, [label %b3, label %b1]\n\
         \n\
         b3:\n\
         \x20 %ph = phi i32 [ %x, %b1 ], [ %x, %b1 ], [ 2, %b2 ]\n\
         \x20 ret i32 %ph\n\
         }\n"
    );
    llvm_as_check(&out);
}

#[test]
fn calls() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let p0 = m.types.ptr(0);
    let v = m.types.void();
    let f32t = m.types.intern(TypeData::Float(FloatKind::Float));
    let callee = add_func(&mut m, Some("g"), i32t, &[(i32t, None)], false, false);
    let vcallee = add_func(&mut m, Some("printf"), i32t, &[(p0, None)], true, false);
    let sq = add_func(
        &mut m,
        Some("llvm.sqrt.f32"),
        f32t,
        &[(f32t, None)],
        false,
        false,
    );
    let f = add_func(
        &mut m,
        Some("f"),
        v,
        &[(i32t, Some("x")), (p0, Some("p")), (f32t, Some("y"))],
        false,
        true,
    );
    let b = m.append_block(f, None);
    let [x, p, y] = [0, 1, 2].map(|i| arg(&m, f, i));
    let c1 = call(&mut m, b, callee, &[x], Some("r"));
    {
        let cd = m.insts[c1].call_mut().unwrap();
        cd.tail = TailKind::Tail;
    }
    let ret_attr = Attr::Raw {
        kind: m.sym("range"),
        text: m.sym("range(i32 0, 10)"),
    };
    let noundef = Attr::Enum(m.sym("noundef"));
    let c2 = call(&mut m, b, callee, &[x], None);
    {
        let cd = m.insts[c2].call_mut().unwrap();
        cd.ret_attrs.attrs.push(ret_attr);
        cd.param_attrs.push(AttrSet {
            attrs: [noundef].into_iter().collect(),
            groups: Default::default(),
        });
        cd.fn_attrs.groups.push(3);
        cd.tail = TailKind::NoTail;
    }
    let one = m.const_int(i32t, 1);
    let c3 = call(&mut m, b, vcallee, &[p, one], None);
    let _ = c3;
    let c4 = call(&mut m, b, sq, &[y], Some("s"));
    m.insts[c4].flags = InstFlags::FAST;
    // inline asm callee
    let fty = fn_ty(&mut m, v, &[i32t], false);
    let asm = m.sym("mov.u32 $0, 1;\n");
    let cons = m.sym("r");
    let ia = m.new_const_with_ops(
        p0,
        Const::InlineAsm(Box::new(InlineAsm {
            side_effect: true,
            align_stack: false,
            intel_dialect: false,
            unwind: false,
            asm,
            constraints: cons,
        })),
        &[],
    );
    let cd = CallData {
        fn_ty: Some(fty),
        nargs: 1,
        ..Default::default()
    };
    let ci = ins(
        &mut m,
        b,
        Opcode::Call,
        v,
        &[ia, x],
        Extra::Call(std::sync::Arc::new(cd)),
        None,
    );
    let srcloc = m.sym("srcloc");
    let md = m.mds.push(MdNode {
        distinct: false,
        inline: false,
        kind: MdKind::Tuple(Box::default()),
    });
    m.md_numbered.push((0, md));
    m.push_attachment(
        ci,
        Attachment {
            kind: srcloc,
            node: md,
        },
    );
    // bundles
    let cd = CallData {
        fn_ty: Some(m.funcs[callee].ty),
        nargs: 1,
        bundles: Box::new([Bundle {
            tag: m.sym("deopt"),
            start: 2,
            len: 2,
        }]),
        cc: CallConv::Fast,
        ..Default::default()
    };
    let gv = fval(&m, callee);
    ins(
        &mut m,
        b,
        Opcode::Call,
        i32t,
        &[gv, x, x, p],
        Extra::Call(std::sync::Arc::new(cd)),
        Some("bd"),
    );
    ret_void(&mut m, b);
    let s34_ = m.sym("nounwind");
    m.attr_groups.push(AttrGroup {
        id: 3,
        attrs: smallvec![Attr::Enum(s34_)],
    });
    let mut out = String::new();
    print_function(&m, f, &mut out);
    assert_eq!(
        out,
        "define void @f(i32 %x, ptr %p, float %y) {\n\
         \x20 %r = tail call i32 @g(i32 %x)\n\
         \x20 %1 = notail call range(i32 0, 10) i32 @g(i32 noundef %x) #3\n\
         \x20 %2 = call i32 (ptr, ...) @printf(ptr %p, i32 1)\n\
         \x20 %s = call fast float @llvm.sqrt.f32(float %y)\n\
         \x20 call void asm sideeffect \"mov.u32 $0, 1;\\0A\", \"r\"(i32 %x), !srcloc !0\n\
         \x20 %bd = call fastcc i32 @g(i32 %x) [ \"deopt\"(i32 %x, ptr %p) ]\n\
         \x20 ret void\n\
         }\n"
    );
    llvm_as_check(&print_module(&m));
}

#[test]
fn invoke_and_landingpad() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let p0 = m.types.ptr(0);
    let v = m.types.void();
    let lp_ty = m.types.intern(TypeData::Struct {
        fields: vec![p0, i32t].into(),
        packed: false,
    });
    let callee = add_func(&mut m, Some("g"), v, &[], false, false);
    let pers = add_func(&mut m, Some("pers"), i32t, &[], true, false);
    let f = add_func(&mut m, Some("f"), v, &[], false, true);
    let pv = fval(&m, pers);
    let o = m.add_use(pv, User::Func(f), 0);
    m.funcs[f].extras_mut().extra_ops[0] = Some(o);
    let e = m.append_block(f, None);
    let ok = block(&mut m, f, "ok");
    let bad = block(&mut m, f, "bad");
    let cd = CallData {
        fn_ty: Some(m.funcs[callee].ty),
        nargs: 0,
        ..Default::default()
    };
    let gv = fval(&m, callee);
    let iv = ins(
        &mut m,
        e,
        Opcode::Invoke,
        v,
        &[gv],
        Extra::Call(std::sync::Arc::new(cd)),
        None,
    );
    m.set_block_ops(iv, &[ok, bad]);
    ret_void(&mut m, ok);
    let null = m.const_scalar(p0, Const::Null);
    let lp = ins(
        &mut m,
        bad,
        Opcode::LandingPad,
        lp_ty,
        &[null],
        Extra::LandingPad(Box::new(smallvec![true])),
        Some("lp"),
    );
    m.insts[lp].flags = InstFlags::CLEANUP;
    let lpv = res(&m, lp);
    ins(&mut m, bad, Opcode::Resume, v, &[lpv], Extra::None, None);
    let mut out = String::new();
    print_function(&m, f, &mut out);
    assert_eq!(
        out,
        "define void @f() personality ptr @pers {\n\
         \x20 invoke void @g()\n\
         \x20         to label %ok unwind label %bad\n\
         \n\
         ok:\n\
         \x20 ret void\n\
         \n\
         bad:\n\
         \x20 %lp = landingpad { ptr, i32 }\n\
         \x20         cleanup\n\
         \x20         catch ptr null\n\
         \x20 resume { ptr, i32 } %lp\n\
         }\n"
    );
    llvm_as_check(&print_module(&m));
}

#[test]
fn names_and_escaping() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let f = add_func(
        &mut m,
        Some("a$b"),
        i32t,
        &[
            (i32t, Some("0x")),
            (i32t, Some("x y")),
            (i32t, Some("-.ok_1")),
        ],
        false,
        true,
    );
    let e = block(&mut m, f, "entry block");
    let a0 = arg(&m, f, 0);
    let a1 = arg(&m, f, 1);
    let s = m.strings.intern(b"q\"\\\xff");
    let i = ins(&mut m, e, Opcode::Add, i32t, &[a0, a1], Extra::None, None);
    let rv = res(&m, i);
    m.values[rv].name = Some(s);
    let r = res(&m, i);
    ret(&mut m, e, r);
    check(
        &m,
        "\ndefine i32 @\"a$b\"(i32 %\"0x\", i32 %\"x y\", i32 %-.ok_1) {\n\
         \"entry block\":\n\
         \x20 %\"q\\22\\\\\\FF\" = add i32 %\"0x\", %\"x y\"\n\
         \x20 ret i32 %\"q\\22\\\\\\FF\"\n\
         }\n",
    );
}

#[test]
fn metadata() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let v = m.types.void();
    let f = add_func(&mut m, Some("k"), v, &[(i32t, Some("x"))], false, true);
    let e = m.append_block(f, None);
    let fv = fval(&m, f);
    let str_kernel = m.sym("kernel");
    let one = m.const_int(i32t, 1);
    let p0 = m.types.ptr(0);
    let n0 = m.mds.push(MdNode {
        distinct: false,
        inline: false,
        kind: MdKind::Tuple(Box::new([
            MdRef::Value(p0, fv),
            MdRef::String(str_kernel),
            MdRef::Value(i32t, one),
        ])),
    });
    let file = {
        let n = MdNode {
            distinct: false,
            inline: false,
            kind: MdKind::Specialized {
                class: m.sym("DIFile"),
                fields: vec![
                    (m.sym("filename"), MdField::Raw(m.sym("\"a.cu\""))),
                    (m.sym("directory"), MdField::Raw(m.sym("\"/\""))),
                ]
                .into(),
            },
        };
        m.mds.push(n)
    };
    let sp = {
        let n = MdNode {
            distinct: true,
            inline: false,
            kind: MdKind::Specialized {
                class: m.sym("DISubprogram"),
                fields: vec![
                    (m.sym("name"), MdField::Raw(m.sym("\"k\""))),
                    (m.sym("file"), MdField::Ref(MdRef::Node(file))),
                    (m.sym("unit"), MdField::Ref(MdRef::Null)),
                ]
                .into(),
            },
        };
        m.mds.push(n)
    };
    let loc = {
        let n = MdNode {
            distinct: false,
            inline: false,
            kind: MdKind::Specialized {
                class: m.sym("DILocation"),
                fields: vec![
                    (m.sym("line"), MdField::Raw(m.sym("3"))),
                    (m.sym("scope"), MdField::Ref(MdRef::Node(sp))),
                ]
                .into(),
            },
        };
        m.mds.push(n)
    };
    let expr = {
        let n = MdNode {
            distinct: false,
            inline: true,
            kind: MdKind::Specialized {
                class: m.sym("DIExpression"),
                fields: vec![].into(),
            },
        };
        m.mds.push(n)
    };
    let unnumbered = m.mds.push(MdNode {
        distinct: false,
        inline: false,
        kind: MdKind::Tuple(Box::new([MdRef::Null])),
    });
    for (i, md) in [n0, file, sp, loc].into_iter().enumerate() {
        m.md_numbered.push((i as u32, md));
    }
    let s35_ = m.sym("nvvm.annotations");
    m.named_md.push(NamedMd {
        name: s35_,
        ops: vec![n0],
    });
    let s36_ = m.sym("9odd name");
    m.named_md.push(NamedMd {
        name: s36_,
        ops: vec![n0, expr],
    });
    let s37_ = m.sym("dbg");
    m.funcs[f].md.push(Attachment {
        kind: s37_,
        node: sp,
    });
    let x = arg(&m, f, 0);
    // metadata-as-value call operands
    let s38_ = m.types.intern(TypeData::Metadata);
    let s39_ = m.types.intern(TypeData::Metadata);
    let dbg_fn = add_func(
        &mut m,
        Some("llvm.foo"),
        v,
        &[(s38_, None), (s39_, None)],
        false,
        false,
    );
    let mv1 = m.new_md_value(MdRef::Null, Some(x));
    let mv2 = m.new_md_value(MdRef::Node(expr), None);
    let c = call(&mut m, e, dbg_fn, &[mv1, mv2], None);
    let s40_ = m.sym("dbg");
    m.push_attachment(
        c,
        Attachment {
            kind: s40_,
            node: loc,
        },
    );
    let s41_ = m.sym("other");
    m.push_attachment(
        c,
        Attachment {
            kind: s41_,
            node: unnumbered,
        },
    );
    // a debug record
    let dv = m.sym("value");
    let r1 = m.new_md_value(MdRef::Null, Some(x));
    let r2 = m.new_md_value(MdRef::Node(sp), None);
    let r3 = m.new_md_value(MdRef::Node(expr), None);
    let r4 = m.new_md_value(MdRef::Node(loc), None);
    ins(
        &mut m,
        e,
        Opcode::DbgRecord,
        v,
        &[r1, r2, r3, r4],
        Extra::DbgRecord(dv),
        None,
    );
    let r = ret_void(&mut m, e);
    let s42_ = m.sym("dbg");
    m.push_attachment(
        r,
        Attachment {
            kind: s42_,
            node: loc,
        },
    );
    check(
        &m,
        "\ndefine void @k(i32 %x) !dbg !2 {\n\
         \x20 call void @llvm.foo(metadata i32 %x, metadata !DIExpression()), !dbg !3, !other !4\n\
         \x20   #dbg_value(i32 %x, !2, !DIExpression(), !3)\n\
         \x20 ret void, !dbg !3\n\
         }\n\
         \n\
         declare void @llvm.foo(metadata, metadata)\n\
         \n\
         !nvvm.annotations = !{!0}\n\
         !\\39odd\\20name = !{!0, !DIExpression()}\n\
         \n\
         !0 = !{ptr @k, !\"kernel\", i32 1}\n\
         !1 = !DIFile(filename: \"a.cu\", directory: \"/\")\n\
         !2 = distinct !DISubprogram(name: \"k\", file: !1, unit: null)\n\
         !3 = !DILocation(line: 3, scope: !2)\n\
         !4 = !{null}\n",
    );
}

#[test]
fn verbatim_and_blockaddress() {
    let mut m = Module::new();
    let v = m.types.void();
    let p0 = m.types.ptr(0);
    let f = add_func(&mut m, Some("f"), v, &[], false, true);
    let e = m.append_block(f, None);
    let b = m.append_block(f, None);
    br(&mut m, e, b);
    let vb = m.sym("unreachable");
    ins(
        &mut m,
        b,
        Opcode::Verbatim,
        v,
        &[],
        Extra::Verbatim(vb),
        None,
    );
    let ba = m.new_const_with_ops(p0, Const::BlockAddress(f, b), &[]);
    add_global(&mut m, Some("ba"), p0, Some(ba), 0);
    let s43_ = m.sym("uselistorder ptr @f, { 1, 0 }");
    m.verbatim.push(s43_);
    // globals are printed before functions regardless of `order`
    let text = print_module(&m);
    assert_eq!(
        text,
        "\n@ba = global ptr blockaddress(@f, %1)\n\
         \n\
         define void @f() {\n\
         \x20 br label %1\n\
         \n\
         1:\n\
         \x20 unreachable\n\
         }\n\
         \n\
         uselistorder ptr @f, { 1, 0 }\n"
    );
}

#[test]
fn display_helpers() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let f = add_func(&mut m, Some("f"), i32t, &[(i32t, None)], false, true);
    let e = m.append_block(f, None);
    let a = arg(&m, f, 0);
    let i = ins(&mut m, e, Opcode::Add, i32t, &[a, a], Extra::None, None);
    let r = res(&m, i);
    ret(&mut m, e, r);
    assert_eq!(inst_to_string(&m, i), "%2 = add i32 %0, %0");
    assert_eq!(value_to_string(&m, r), "i32 %2");
    assert_eq!(
        format!("{}", nvpass_ir::print::DisplayInst(&m, i)),
        "%2 = add i32 %0, %0"
    );
    let fv = fval(&m, f);
    assert_eq!(value_to_string(&m, fv), "ptr @f");
}

#[test]
fn unnamed_globals_and_functions_share_counter() {
    let mut m = Module::new();
    let i32t = m.types.int(32);
    let v = m.types.void();
    add_func(&mut m, None, v, &[], false, false);
    let z = m.const_int(i32t, 0);
    add_global(&mut m, None, i32t, Some(z), 0);
    add_global(&mut m, Some("n"), i32t, Some(z), 0);
    add_global(&mut m, None, i32t, Some(z), 0);
    check(
        &m,
        "\n@0 = global i32 0\n@n = global i32 0\n@1 = global i32 0\n\ndeclare void @2()\n",
    );
}

fn s_kern(m: &mut Module) -> nvpass_ir::Sym {
    m.sym("kern")
}

fn s_any(m: &mut Module) -> nvpass_ir::Sym {
    m.sym("any")
}
