//! Unit tests of the spec-001 cost models (in `nvpass_core::inline_cost`)
//! against hand-computed costs, on modules of the reference IR, and of the
//! force-inline size rules.

use alloc::format;
use alloc::string::String;

use nvpass_core::inline_cost::*;
use nvpass_core::ir::{FuncId, InstId, IrEdit, IrView, TypeView};
use nvpass_ir::{parse_module, Module};

use super::callgraph::{call_sites, Sccs};
use super::decision::{has_large_param_payload, has_large_return_payload, param_slot_size};

const DL: &str = "target datalayout = \"e-i64:64-i128:128-v16:16-v32:32-n16:32:64\"\n";

fn parse(src: &str) -> Module {
    let text = format!("{DL}{src}");
    parse_module(text.as_bytes())
        .unwrap_or_else(|e| panic!("{}", e.render("t.ll", text.as_bytes())))
}

fn func(m: &Module, name: &str) -> FuncId {
    IrView::func_by_name(m, name).unwrap()
}

fn first_call_to(m: &Module, caller: &str, callee: &str) -> InstId {
    let c = func(m, callee);
    call_sites(m, func(m, caller))
        .into_iter()
        .find(|&i| direct_callee(m, i) == Some(c))
        .unwrap()
}

/// The callee every model prices below. Hand counts:
/// - 7 instructions besides the lifetime marker (load, gep, load, store,
///   call, fmul, ret);
/// - `.param` slots: `ptr` 1 + `float` return 1 = 2;
/// - argument loads 2 (`%p`, GEP of `%p`), argument stores 1 (into `%q`).
const CALLEE: &str = r#"
define LINKAGE float @callee(ptr %p) ATTRS {
  %a = load float, ptr %p, align 4
  %q = getelementptr i8, ptr %p, i64 4
  %l = load float, ptr %q, align 4
  store float %a, ptr %q, align 4
  %c = call float @other(float %l)
  call void @llvm.lifetime.start.p0(i64 4, ptr %p)
  %r = fmul float %c, %a
  ret float %r
}
declare float @other(float)
declare void @llvm.lifetime.start.p0(i64, ptr)
define void @caller(ptr %p) {
  %v = call float @callee(ptr %p)
  ret void
}
"#;

fn module(linkage: &str, attrs: &str) -> Module {
    parse(&CALLEE.replace("LINKAGE", linkage).replace("ATTRS", attrs))
}

#[test]
fn model_a_hand_computed_cost() {
    let m = module("linkonce_odr", "");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(argument_loads_stores(&m, func(&m, "callee")), (2, 1));
    assert_eq!(signature_slots(&m, func(&m, "callee")), 2);
    // 7 * MODEL_A_INST_COST - 2 slots * MODEL_A_PARAM_SLOT_SAVING = 7 - 4.
    assert_eq!(
        model_a_cost(&m, call, &ModelAParams::default()),
        Verdict::Cost {
            cost: 3,
            threshold: 20_000
        }
    );
}

#[test]
fn model_a_eligibility_chain_in_order() {
    let p = ModelAParams::default();
    for (linkage, attrs, why) in [
        ("internal", "", "linkage not linkonce_odr/weak_odr"),
        ("", "", "linkage not linkonce_odr/weak_odr"),
        ("weak_odr", "noinline", "noinline function attribute"),
        (
            "linkonce_odr",
            "noinline optnone",
            "noinline function attribute",
        ),
    ] {
        let m = module(linkage, attrs);
        let call = first_call_to(&m, "caller", "callee");
        assert_eq!(
            model_a_cost(&m, call, &p),
            Verdict::Never(why),
            "{linkage} {attrs}"
        );
    }
    // nv-inline-all bypasses everything but needs a body.
    let m = module("internal", "noinline");
    let call = first_call_to(&m, "caller", "callee");
    let all = ModelAParams {
        inline_all: true,
        ..p
    };
    assert_eq!(
        model_a_cost(&m, call, &all),
        Verdict::Always("nv-inline-all")
    );
}

#[test]
fn model_a_load_store_bail_out() {
    // 11 argument loads x 10 argument stores = 110 > 100; 10 x 10 = 100 is fine.
    let body = |loads: usize, stores: usize| {
        let mut s = String::from("define linkonce_odr void @f(ptr %p, i32 %x) {\n");
        for k in 0..loads {
            s.push_str(&format!("  %l{k} = load i32, ptr %p\n"));
        }
        for _ in 0..stores {
            s.push_str("  store i32 %x, ptr %p\n");
        }
        s.push_str("  ret void\n}\ndefine void @g(ptr %p) {\n  call void @f(ptr %p, i32 1)\n  ret void\n}\n");
        s
    };
    let m = parse(&body(11, 10));
    let call = first_call_to(&m, "g", "f");
    assert_eq!(
        model_a_cost(&m, call, &ModelAParams::default()),
        Verdict::Never("loads x stores over 100")
    );
    let m = parse(&body(10, 10));
    let call = first_call_to(&m, "g", "f");
    // 21 instructions - 2 * (2 param slots) = 17.
    assert_eq!(
        model_a_cost(&m, call, &ModelAParams::default()),
        Verdict::Cost {
            cost: 17,
            threshold: 20_000
        }
    );
}

#[test]
fn model_a_type_size_engine_and_struct_walk() {
    let m = parse(
        "%S = type { i32, [2 x float], <4 x float> }\n\
         %Deep = type { %S, [3 x %S] }\n\
         define linkonce_odr void @s(ptr byval(%S) %s, [3 x i17] %a, <4 x half> %h) {\n  ret void\n}\n",
    );
    let f = func(&m, "s");
    let tys: alloc::vec::Vec<_> =
        TypeView::func_type_params(&m, IrView::func_type(&m, f)).collect();
    // (3 * 17 + 7) >> 3 = 7; (4 * 16 + 7) >> 3 = 8; ptr = 64 bits -> 8.
    assert_eq!(model_a_type_bytes(&m, tys[1]), Some(7));
    assert_eq!(model_a_type_bytes(&m, tys[2]), Some(8));
    assert_eq!(model_a_type_bytes(&m, tys[0]), Some(8));
    // %S: i32 at 0, [2 x float] at 4, <4 x float> aligned to 16 -> 32 bytes.
    let s = m
        .type_attr(
            f,
            nvpass_core::ir::AttrSlot::Param(0),
            nvpass_core::ir::AttrKind::ByVal,
        )
        .unwrap();
    assert_eq!(model_a_type_bytes(&m, s), Some(32));
    // Slots: i32 1 + [2 x float] 2 + <4 x float> 1 = 4.
    assert_eq!(param_slots(&m, s), 4);
    // Signature: byval %S 4 + [3 x i17] 3 + <4 x half> 1 + void 0 = 8.
    assert_eq!(signature_slots(&m, f), 8);
}

/// A byval struct whose fields repeat one struct type four times per
/// level, 25 levels deep: the walk stops at the depth limit, and each
/// (type, depth) is counted once instead of once per path (4^20).
#[test]
fn struct_walk_of_repeated_field_types() {
    let mut src = String::from("%S0 = type { i32 }\n");
    for k in 1..=25 {
        let p = k - 1;
        src += &format!("%S{k} = type {{ %S{p}, %S{p}, %S{p}, %S{p} }}\n");
    }
    src += "define void @f(ptr byval(%S25) %s) {\n  ret void\n}\n";
    let m = parse(&src);
    let f = func(&m, "f");
    let s = m
        .type_attr(
            f,
            nvpass_core::ir::AttrSlot::Param(0),
            nvpass_core::ir::AttrKind::ByVal,
        )
        .unwrap();
    // Four fields per level for the first 20 levels; deeper counts as one.
    assert_eq!(param_slots(&m, s), 1 << 40);
    assert_eq!(signature_slots(&m, f), 1 << 40);
}

#[test]
fn model_a_switch_knobs() {
    let m = parse(
        "define linkonce_odr i32 @sw(i32 %x) {\n\
         entry:\n  switch i32 %x, label %d [ i32 0, label %a\n i32 1, label %b\n i32 2, label %c ]\n\
         a:\n  ret i32 1\nb:\n  ret i32 2\nc:\n  ret i32 3\nd:\n  ret i32 0\n}\n\
         define i32 @u(i32 %x) {\n  %r = call i32 @sw(i32 %x)\n  ret i32 %r\n}\n",
    );
    let call = first_call_to(&m, "u", "sw");
    // 5 instructions - 2 * 2 slots = 1 with the heuristics off.
    let off = ModelAParams::default();
    assert_eq!(
        model_a_cost(&m, call, &off),
        Verdict::Cost {
            cost: 1,
            threshold: 20_000
        }
    );
    let on = ModelAParams {
        switch_ctrl: 1,
        num_switch_func: 50,
        max_switch_cases: 3,
        ..off
    };
    assert_eq!(
        model_a_cost(&m, call, &on),
        Verdict::Cost {
            cost: 51,
            threshold: 20_000
        }
    );
    let strict = ModelAParams {
        max_switch_cases: 2,
        ..on
    };
    assert_eq!(
        model_a_cost(&m, call, &strict),
        Verdict::Never("too many switch cases")
    );
}

#[test]
fn model_b_hand_computed_cost_and_thresholds() {
    // Not free: load, load, store, call, fmul = 5 * 5 = 25, plus the call
    // penalty 25 = 50; credit for the call: 5 * (1 + 1 arg) + 25 = 35.
    let p = ModelBParams::default();
    let m = module("linkonce_odr", "");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(
        model_b_cost(&m, call, &p),
        Verdict::Cost {
            cost: 15,
            threshold: 225
        }
    );
    let m = module("linkonce_odr", "inlinehint");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(
        model_b_cost(&m, call, &p),
        Verdict::Cost {
            cost: 15,
            threshold: 325
        }
    );
    let m = module("linkonce_odr", "cold");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(
        model_b_cost(&m, call, &p),
        Verdict::Cost {
            cost: 15,
            threshold: 45
        }
    );
    // The only call to a local function earns the last-call bonus.
    let m = module("internal", "");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(
        model_b_cost(&m, call, &p),
        Verdict::Cost {
            cost: 15 - 15_000,
            threshold: 225
        }
    );
    let m = module("linkonce_odr", "alwaysinline");
    let call = first_call_to(&m, "caller", "callee");
    assert_eq!(
        model_b_cost(&m, call, &p),
        Verdict::Always("always inline attribute")
    );
    assert!(cost_below_threshold(224, 225));
    assert!(!cost_below_threshold(225, 225));
    assert!(cost_below_threshold(0, -5));
}

#[test]
fn model_c_multiplies_intra_scc_calls() {
    let m = module("linkonce_odr", "");
    let call = first_call_to(&m, "caller", "callee");
    let p = ModelBParams::default();
    assert_eq!(
        model_c_cost(&m, call, &p, true, FUNCTION_INLINE_COST_MULTIPLIER),
        Verdict::Cost {
            cost: 90,
            threshold: 225
        }
    );
    assert_eq!(
        model_c_cost(&m, call, &p, false, FUNCTION_INLINE_COST_MULTIPLIER),
        Verdict::Cost {
            cost: 15,
            threshold: 225
        }
    );
    assert_eq!(AdvisorMode::parse("release"), Some(AdvisorMode::Release));
    assert_eq!(
        AdvisorMode::Release.pipeline_name(),
        Some("inliner-ml-advisor-release")
    );
}

#[test]
fn model_d_class9_bonus() {
    let m = parse(
        "define linkonce_odr i32 @warp(i32 %x) {\n\
         %a = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %x, i32 0, i32 31)\n\
         %b = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %a, i32 1, i32 31)\n\
         %c = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         %d = add i32 %b, %c\n  ret i32 %d\n}\n\
         declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)\n\
         declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n\
         define i32 @u(i32 %x) {\n  %r = call i32 @warp(i32 %x)\n  ret i32 %r\n}\n",
    );
    let warp = func(&m, "warp");
    assert_eq!(model_d_bonus(&m, warp), 4000);
    assert_eq!(opcode_tag(9 << 4 | 0xF), NVPTX_BONUS_OPCODE_TAG);
    let call = first_call_to(&m, "u", "warp");
    // Model B: 4 instructions * 5 (intrinsic calls have no penalty) = 20,
    // minus 5 * 2 + 25 = 35 -> -15; threshold 225 + 4000.
    let b = with_model_d(
        &m,
        warp,
        model_b_cost(&m, call, &ModelBParams::default()),
        false,
    );
    assert_eq!(
        b,
        Verdict::Cost {
            cost: -15,
            threshold: 4225
        }
    );
    // Model A: 5 - 2 * 2 = 1, minus 4000 -> 0.
    let a = with_model_d(
        &m,
        warp,
        model_a_cost(&m, call, &ModelAParams::default()),
        true,
    );
    assert_eq!(
        a,
        Verdict::Cost {
            cost: 0,
            threshold: 20_000
        }
    );
}

#[test]
fn knob_declarations_parse() {
    for k in INLINER_KNOBS {
        k.default_value().unwrap();
    }
    assert_eq!(KNOB_INLINE_BUDGET.default, "20000");
    assert_eq!(KNOB_INLINE_THRESHOLD.default, "225");
}

#[test]
fn sccs_are_bottom_up() {
    let m = parse(
        "define void @a() {\n  call void @b()\n  ret void\n}\n\
         define void @b() {\n  call void @c()\n  call void @b2()\n  ret void\n}\n\
         define void @b2() {\n  call void @b()\n  ret void\n}\n\
         define void @c() {\n  ret void\n}\n",
    );
    let s = Sccs::compute(&m);
    let names: alloc::vec::Vec<alloc::vec::Vec<&str>> = s
        .components()
        .map(|c| c.iter().map(|&f| IrView::func_name(&m, f)).collect())
        .collect();
    assert_eq!(
        names,
        [alloc::vec!["c"], alloc::vec!["b", "b2"], alloc::vec!["a"]]
    );
    assert!(s.same_scc(func(&m, "b"), func(&m, "b2")));
}

/// Edges come from the callee's users: a function passed as an argument
/// is not called, a call through a pointer is no edge, a self-call is
/// seen, and an erased call is no longer an edge.
#[test]
fn sccs_edges_are_direct_calls_only() {
    let mut m = parse(
        "declare void @d(ptr)\n\
         define void @a() {\n  call void @d(ptr @c)\n  call void @h()\n  ret void\n}\n\
         define void @c() {\n  call void @a()\n  ret void\n}\n\
         define void @e(ptr %p) {\n  call void %p()\n  call void @e(ptr @e)\n  ret void\n}\n\
         define void @h() {\n  call void @g()\n  ret void\n}\n\
         define void @g() {\n  call void @c()\n  ret void\n}\n",
    );
    let s = Sccs::compute(&m);
    // a -> h -> g -> c -> a is one cycle; without h's call it would not be.
    assert!(s.same_scc(func(&m, "a"), func(&m, "c")));
    assert!(s.same_scc(func(&m, "a"), func(&m, "g")));
    assert!(s.calls_itself(func(&m, "e")));
    assert!(!s.calls_itself(func(&m, "a")));
    assert!(!s.same_scc(func(&m, "e"), func(&m, "a")));
    // Erasing h's call breaks the cycle.
    let call_g = call_sites(&m, func(&m, "h"))[0];
    IrEdit::erase_inst(&mut m, call_g).unwrap();
    let s = Sccs::compute(&m);
    assert!(!s.same_scc(func(&m, "a"), func(&m, "c")));
    assert!(!s.is_recursive(func(&m, "c")));
}

#[test]
fn force_inline_slot_sizes() {
    let m = parse(
        "define void @f(i8 %a, ptr %p, <2 x ptr> %v, [3 x i8] %arr) {\n  ret void\n}\n\
         define void @big(ptr byval([97 x i32]) %p) {\n  ret void\n}\n\
         define void @edge(ptr byval([96 x i32]) %p) {\n  ret void\n}\n\
         define [36 x i32] @r144() {\n  ret [36 x i32] zeroinitializer\n}\n\
         define [145 x i8] @r145() {\n  ret [145 x i8] zeroinitializer\n}\n",
    );
    let f = func(&m, "f");
    let tys: alloc::vec::Vec<_> =
        TypeView::func_type_params(&m, IrView::func_type(&m, f)).collect();
    assert_eq!(param_slot_size(&m, tys[0]), 4); // i8 -> at least 4
    assert_eq!(param_slot_size(&m, tys[1]), 8); // pointer
    assert_eq!(param_slot_size(&m, tys[2]), 16); // vector of pointers
    assert_eq!(param_slot_size(&m, tys[3]), 4); // [3 x i8] -> 4
    assert!(has_large_param_payload(&m, func(&m, "big")));
    assert!(!has_large_param_payload(&m, func(&m, "edge")));
    assert!(!has_large_return_payload(&m, func(&m, "r144")));
    assert!(has_large_return_payload(&m, func(&m, "r145")));
}

/// Runs `pipeline` (registered passes, default knobs) over `m`; the
/// session returned holds the statistics.
fn run_pipeline(m: &mut Module, pipeline: &str) -> nvpass_core::pass::Session {
    let registry = crate::registry::<Module>();
    let mut pm = registry.build_text(pipeline).unwrap();
    let mut session = nvpass_core::pass::Session::new(registry.knob_values().unwrap());
    pm.run(m, &mut session, &mut []).unwrap();
    session
}

/// The LLVM model consumes a chain of internal helpers bottom up: each
/// level's body, holding every level below it, is copied into the level
/// above and then erased. The erased bodies' records are reused, so the
/// instruction table ends a small multiple of the code left, not the sum
/// of every copy made (quadratic in the depth).
#[test]
fn inlined_chain_reuses_erased_bodies() {
    use alloc::string::String;
    use core::fmt::Write;
    const LEVELS: usize = 120;
    let mut src = String::new();
    for k in 0..LEVELS {
        let next = if k + 1 < LEVELS {
            format!("call i32 @h{}(ptr %b)", k + 1)
        } else {
            String::from("add i32 %v, 7")
        };
        writeln!(
            src,
            "define internal i32 @h{k}(ptr %p) {{\n  %b = alloca [4 x i32], align 4\n  \
             %v = load i32, ptr %p, align 4\n  store i32 %v, ptr %b, align 4\n  \
             %r = {next}\n  %s = add i32 %r, {k}\n  ret i32 %s\n}}"
        )
        .unwrap();
    }
    src.push_str("define i32 @k(ptr %p) {\n  %r = call i32 @h0(ptr %p)\n  ret i32 %r\n}\n");
    let mut m = parse(&src);
    let parsed = m.insts.len();
    let session = run_pipeline(&mut m, "inline<model=llvm>");
    let inlined = session.stats.get("inline", &super::cost::NUM_INLINED);
    assert_eq!(inlined, LEVELS as u64, "the whole chain is inlined");
    let mr = &m;
    let left: usize = mr
        .funcs()
        .flat_map(|f| mr.blocks(f).map(move |b| mr.insts(b).count()))
        .sum();
    assert!(left > 3 * LEVELS, "{left}");
    // Without reuse the table would hold about 5 * LEVELS^2 / 2 records.
    assert!(
        m.insts.len() <= parsed + 2 * left,
        "{} records for {left} instructions left",
        m.insts.len()
    );
}

/// Between passes the manager lets the host reuse what a pass erased: the
/// copies `inline-must` makes take the records of the dead helper that
/// `remove-dead-functions` erased before it, so the instruction table
/// does not grow. Run alone, `inline-must` grows it by every copy.
#[test]
fn later_passes_reuse_what_earlier_ones_erased() {
    use alloc::string::String;
    use core::fmt::Write;
    const COPIES: usize = 20;
    let mut src = String::from("define internal i32 @dead(i32 %x) {\n");
    for k in 0..4 * COPIES {
        writeln!(src, "  %d{k} = add i32 %x, {k}").unwrap();
    }
    src.push_str(
        "  ret i32 %x\n}\n\
         define internal i32 @helper(i32 %x) alwaysinline {\n  %a = mul i32 %x, 3\n  \
         %b = add i32 %a, 1\n  ret i32 %b\n}\n\
         define i32 @k(i32 %x) {\n",
    );
    for k in 0..COPIES {
        writeln!(src, "  %c{k} = call i32 @helper(i32 %x)").unwrap();
    }
    src.push_str("  ret i32 %x\n}\n");
    let run = |pipeline: &str| {
        let mut m = parse(&src);
        let parsed = m.insts.len();
        run_pipeline(&mut m, pipeline);
        assert!(IrView::func_by_name(&m, "helper").is_none(), "{pipeline}");
        let dead_left = IrView::func_by_name(&m, "dead").is_some();
        (parsed, m.insts.len(), dead_left)
    };
    let (parsed, after, dead_left) = run("remove-dead-functions,inline-must");
    assert!(!dead_left);
    assert_eq!(after, parsed, "the copies took the erased records");
    let (parsed, after, dead_left) = run("inline-must");
    assert!(dead_left);
    assert!(after >= parsed + 2 * COPIES, "{parsed} -> {after}");
}
