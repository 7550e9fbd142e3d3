//! The reference IR's implementation of the nvpass-core edit primitives:
//! each test parses a module, applies one primitive through the traits,
//! and checks the printed result and the verifier.

use nvpass_core::ir::{
    Attr, AttrKey, AttrKind, AttrSlot, Callee, EditError, IrEdit, IrView, MdOperand, Opcode, User,
};
use nvpass_ir::{parse_module, print_module, Module};

fn parse(src: &str) -> Module {
    parse_module(src.as_bytes())
        .unwrap_or_else(|e| panic!("{}", e.render("test.ll", src.as_bytes())))
}

fn verified(m: &Module) -> String {
    if let Err(errs) = nvpass_ir::verify::verify_module(m) {
        panic!("verifier: {errs:?}\n{}", print_module(m));
    }
    let text = print_module(m);
    // The printed module parses again and prints identically.
    assert_eq!(print_module(&parse(&text)), text);
    text
}

fn func(m: &Module, name: &str) -> nvpass_core::ir::FuncId {
    IrView::func_by_name(m, name).unwrap_or_else(|| panic!("no function @{name}"))
}

fn calls_in(m: &Module, f: nvpass_core::ir::FuncId) -> Vec<nvpass_core::ir::InstId> {
    m.blocks(f)
        .flat_map(|b| m.insts(b).collect::<Vec<_>>())
        .filter(|&i| m.opcode(i) == Opcode::Call)
        .collect()
}

const CHAIN: &str = r#"
define internal i32 @callee(i32 %x, ptr %p) {
entry:
  %slot = alloca i32, align 4
  store i32 %x, ptr %slot, align 4
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %pos, label %neg
pos:
  %a = add i32 %x, 1
  ret i32 %a
neg:
  %b = load i32, ptr %p, align 4
  ret i32 %b
}

define i32 @caller(i32 %n, ptr %q) {
entry:
  %r = call i32 @callee(i32 %n, ptr %q)
  %s = mul i32 %r, 2
  br label %exit
exit:
  %t = phi i32 [ %s, %entry ]
  ret i32 %t
}
"#;

#[test]
fn inline_merges_returns_in_a_phi_and_hoists_allocas() {
    let mut m = parse(CHAIN);
    let caller = func(&m, "caller");
    let call = calls_in(&m, caller)[0];
    m.inline_call(call).unwrap();
    let text = verified(&m);
    let body = text.split("define i32 @caller").nth(1).unwrap();
    assert!(!body.contains("call i32 @callee"), "{body}");
    // The callee's alloca now sits in the caller's entry block.
    let entry = body.split("br label").next().unwrap();
    assert!(entry.contains("alloca i32"), "{body}");
    // Two returns merge in one phi feeding the multiply.
    assert!(body.contains("phi i32 [ %a.i,"), "{body}");
    assert!(body.contains("[ %b.i,"), "{body}");
    // Copied names never clash with the caller's.
    assert!(body.contains("entry.i:"), "{body}");
    // The successor's phi now names the split-off tail block, not %entry.
    assert!(!body.contains("phi i32 [ %s, %entry ]"), "{body}");
}

#[test]
fn inline_refuses_recursion_declarations_and_indirect_calls() {
    let mut m = parse(
        r#"
declare i32 @ext(i32)
define i32 @rec(i32 %x, ptr %fp) {
  %a = call i32 @rec(i32 %x, ptr %fp)
  %b = call i32 @ext(i32 %a)
  %c = call i32 %fp(i32 %b)
  ret i32 %c
}
"#,
    );
    let f = func(&m, "rec");
    let calls = calls_in(&m, f);
    let before = print_module(&m);
    for c in calls {
        assert!(matches!(m.inline_call(c), Err(EditError::NotInlinable(_))));
    }
    assert_eq!(
        print_module(&m),
        before,
        "refused inlining must not change the IR"
    );
}

#[test]
fn clone_function_copies_body_and_maps_values() {
    let mut m = parse(CHAIN);
    let callee = func(&m, "callee");
    let (clone, map) = m.clone_function(callee, "callee.clone").unwrap();
    assert_eq!(IrView::func_name(&m, clone), "callee.clone");
    assert_eq!(m.num_params(clone), 2);
    for (old, new) in m.params(callee).zip(m.params(clone)).collect::<Vec<_>>() {
        assert_eq!(map[&old], new);
    }
    let text = verified(&m);
    // `.` is a bare-name character, so the name prints unquoted.
    assert!(
        text.contains("define internal i32 @callee.clone(i32 %x, ptr %p)"),
        "{text}"
    );
    // The clone is independent: its blocks are its own.
    let orig_blocks: Vec<_> = m.blocks(callee).collect();
    assert!(m.blocks(clone).all(|b| !orig_blocks.contains(&b)));
    assert_eq!(m.blocks(clone).count(), 3);
    // Name clashes are refused.
    assert_eq!(
        m.clone_function(callee, "caller").unwrap_err(),
        EditError::NameTaken
    );
}

#[test]
fn retarget_call_through_set_callee_and_erase_old_function() {
    let mut m = parse(CHAIN);
    let callee = func(&m, "callee");
    let (clone, _) = m.clone_function(callee, "callee2").unwrap();
    let caller = func(&m, "caller");
    let call = calls_in(&m, caller)[0];
    assert_eq!(m.erase_function(callee), Err(EditError::HasUses));
    let fty = m.func_type(clone);
    let v = m.func_value(clone);
    m.set_callee(call, v, fty).unwrap();
    assert_eq!(m.callee(call), Some(Callee::Direct(clone)));
    m.erase_function(callee).unwrap();
    let text = verified(&m);
    assert!(!text.contains("@callee("), "{text}");
    assert!(text.contains("call i32 @callee2(i32 %n, ptr %q)"), "{text}");
}

#[test]
fn operands_list_the_callee_last() {
    let m = parse(CHAIN);
    let caller = func(&m, "caller");
    let call = calls_in(&m, caller)[0];
    let ops: Vec<_> = m.operands(call).collect();
    assert_eq!(ops.len(), 3);
    assert_eq!(ops[2], m.func_value(func(&m, "callee")));
    assert_eq!(ops[0], m.param(caller, 0).unwrap());
    let args: Vec<_> = m.call_args(call).collect();
    assert_eq!(args, ops[..2]);
}

/// `direct_calls_of`, which reads the callee slot from the use, gives
/// what the trait's definition gives (the users whose callee is the
/// function, one entry per use): a call passing its callee as an
/// argument counts twice, a store of the function or a call of another
/// function taking it as an argument not at all.
#[test]
fn direct_calls_of_matches_the_callee_of_each_user() {
    let mut m = parse(
        r#"
declare void @sink(ptr)

define void @f(ptr %p) {
entry:
  call void @f(ptr @f)
  store ptr @f, ptr %p, align 8
  call void @sink(ptr @f)
  ret void
}

define void @g() {
entry:
  call void @f(ptr null)
  call void @f(ptr @f)
  ret void
}
"#,
    );
    let by_callee = |m: &Module, f| -> Vec<nvpass_core::ir::InstId> {
        m.inst_users(m.func_value(f))
            .filter(|&c| m.callee(c) == Some(Callee::Direct(f)))
            .collect()
    };
    let (f, g, sink) = (func(&m, "f"), func(&m, "g"), func(&m, "sink"));
    let calls: Vec<_> = m.direct_calls_of(f).collect();
    assert_eq!(calls, by_callee(&m, f));
    let (in_f, in_g) = (calls_in(&m, f), calls_in(&m, g));
    let mut sorted = calls.clone();
    sorted.sort();
    let mut want = vec![in_f[0], in_f[0], in_g[0], in_g[1], in_g[1]];
    want.sort();
    assert_eq!(sorted, want);
    assert_eq!(m.direct_calls_of(sink).collect::<Vec<_>>(), vec![in_f[1]]);
    assert_eq!(m.direct_calls_of(g).count(), 0);
    // After the callee of a call changes, the old callee loses the call
    // and the new one gains it, whichever slot held the function.
    let fn_ty = m.call_func_type(in_g[1]).unwrap();
    let sink_v = m.func_value(sink);
    IrEdit::set_callee(&mut m, in_g[1], sink_v, fn_ty).unwrap();
    assert_eq!(m.direct_calls_of(f).collect::<Vec<_>>(), by_callee(&m, f));
    assert_eq!(m.direct_calls_of(f).count(), 3);
    let mut to_sink: Vec<_> = m.direct_calls_of(sink).collect();
    to_sink.sort();
    let mut want = vec![in_f[1], in_g[1]];
    want.sort();
    assert_eq!(to_sink, want);
}

#[test]
fn users_are_maintained_across_edits() {
    let mut m = parse(CHAIN);
    let caller = func(&m, "caller");
    let n = m.param(caller, 0).unwrap();
    let call = calls_in(&m, caller)[0];
    assert_eq!(
        IrView::users(&m, n).collect::<Vec<_>>(),
        vec![User::Inst(call)]
    );
    let i32t = m.value_type(n);
    let seven = m.const_int_of(i32t, 7);
    IrEdit::set_operand(&mut m, call, 0, seven).unwrap();
    assert!(m.has_no_uses(n));
    assert!(IrView::users(&m, seven).any(|u| u == User::Inst(call)));
    // Type mismatches are refused.
    let q = m.param(caller, 1).unwrap();
    assert_eq!(
        IrEdit::set_operand(&mut m, call, 0, q),
        Err(EditError::TypeMismatch)
    );
}

#[test]
fn attributes_added_and_removed_through_groups() {
    let mut m = parse(
        r#"
define void @f(ptr %p) #0 {
  ret void
}
define void @g() #0 {
  ret void
}
attributes #0 = { noinline nounwind "target-cpu"="sm_90" }
"#,
    );
    let f = func(&m, "f");
    let g = func(&m, "g");
    assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    assert!(m.remove_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    m.add_attr(f, AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline));
    m.add_attr(f, AttrSlot::Function, Attr::Str("nvvm.kernel", ""));
    m.add_attr(f, AttrSlot::Param(0), Attr::Enum(AttrKind::NoAlias));
    assert!(!m.has_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    assert_eq!(
        m.str_attr(f, AttrSlot::Function, "target-cpu"),
        Some("sm_90")
    );
    // @g still shares the untouched group.
    assert!(m.has_attr(g, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    let text = verified(&m);
    assert!(text.contains("define void @f(ptr noalias %p)"), "{text}");
    assert!(text.contains("alwaysinline"), "{text}");
    assert!(text.contains("\"nvvm.kernel\""), "{text}");
}

/// `replace_attr` leaves the same lists as `remove_attr` then `add_attr`,
/// whether the old attribute is in a group, inline or absent.
#[test]
fn replacing_an_attribute_equals_removing_then_adding() {
    let src = r#"
define void @grouped() #0 {
  ret void
}
define void @inline() noinline nounwind {
  ret void
}
define void @absent() nounwind {
  ret void
}
attributes #0 = { noinline nounwind "target-cpu"="sm_90" }
"#;
    let (mut one, mut two) = (parse(src), parse(src));
    let noinline = AttrKey::Kind(AttrKind::NoInline);
    let always = Attr::Enum(AttrKind::AlwaysInline);
    for name in ["grouped", "inline", "absent"] {
        let f = func(&one, name);
        one.replace_attr(f, AttrSlot::Function, noinline, always);
        let f = func(&two, name);
        two.remove_attr(f, AttrSlot::Function, noinline);
        two.add_attr(f, AttrSlot::Function, always);
    }
    let text = verified(&one);
    assert_eq!(text, verified(&two));
    let defines: Vec<&str> = text.lines().filter(|l| l.starts_with("define")).collect();
    assert_eq!(defines.len(), 3, "{text}");
    for d in defines {
        assert!(
            d.contains("alwaysinline") && !d.contains("noinline") && !d.contains('#'),
            "{d}"
        );
    }
}

/// Edits of functions sharing a set are remembered and given again: each
/// function ends with what editing it alone gives, among more kinds of
/// sets than are remembered, with string keys and replacements (a
/// replacement right after an addition of the same attribute to an equal
/// set, `@g` after `@e`), and an edit after a remembered one changes only
/// its own function.
#[test]
fn remembered_set_edits_equal_editing_each_function_alone() {
    let mut src = String::new();
    for k in 0..6 {
        src.push_str(&format!(
            "define void @a{k}() #0 {{\n  ret void\n}}\n\
             define void @b{k}() #1 {{\n  ret void\n}}\n\
             define void @c{k}() nounwind {{\n  ret void\n}}\n\
             define void @d{k}() noinline {{\n  ret void\n}}\n\
             define void @e{k}() #{g} {{\n  ret void\n}}\n\
             define void @g{k}() #{g} {{\n  ret void\n}}\n",
            g = 2 + k % 3
        ));
    }
    src.push_str(
        "attributes #0 = { noinline nounwind }\n\
         attributes #1 = { nounwind \"nvvm.kernel\" }\n\
         attributes #2 = { noinline }\nattributes #3 = { cold }\nattributes #4 = { hot noinline }\n",
    );
    let noinline = AttrKey::Kind(AttrKind::NoInline);
    let always = Attr::Enum(AttrKind::AlwaysInline);
    let edit = |m: &mut nvpass_ir::Module, name: &str| {
        let f = func(m, name);
        if name.starts_with('b') {
            m.add_attr(f, AttrSlot::Function, Attr::Str("nvvm.kernel", "x"));
        } else if name.starts_with('e') {
            m.add_attr(f, AttrSlot::Function, always);
        } else {
            m.replace_attr(f, AttrSlot::Function, noinline, always);
        }
    };
    let names: Vec<String> = ["a", "b", "c", "d", "e", "g"]
        .iter()
        .flat_map(|p| (0..6).map(move |k| format!("{p}{k}")))
        .collect();
    // All in one module, interleaved kinds, against each edited alone in a
    // fresh module.
    let mut all = parse(&src);
    for k in 0..6 {
        for p in ["a", "b", "c", "d", "e", "g"] {
            edit(&mut all, &format!("{p}{k}"));
        }
    }
    // An edit after a remembered one: only @a0 gets `cold`.
    let a0 = func(&all, "a0");
    all.add_attr(a0, AttrSlot::Function, Attr::Enum(AttrKind::Cold));
    let all_text = verified(&all);
    let define = |text: &str, name: &str| -> String {
        let head = format!("define void @{name}()");
        let line = text.lines().find(|l| l.starts_with(&head)).unwrap();
        let mut attrs: Vec<String> = line[head.len()..]
            .trim_end_matches(" {")
            .split_whitespace()
            .map(String::from)
            .collect();
        attrs.sort();
        attrs.join(" ")
    };
    for name in &names {
        let mut alone = parse(&src);
        edit(&mut alone, name);
        if name == "a0" {
            let f = func(&alone, "a0");
            alone.add_attr(f, AttrSlot::Function, Attr::Enum(AttrKind::Cold));
        }
        let alone_text = verified(&alone);
        assert_eq!(define(&all_text, name), define(&alone_text, name), "{name}");
    }
    assert!(define(&all_text, "a0").contains("cold"), "{all_text}");
    assert!(!define(&all_text, "a1").contains("cold"), "{all_text}");
    assert!(
        define(&all_text, "b3").contains("\"nvvm.kernel\"=\"x\""),
        "{all_text}"
    );
}

/// String keys and unknown keywords are removed through groups too, and
/// only the attributes with the key go.
#[test]
fn string_and_unknown_attributes_removed_through_groups() {
    let mut m = parse(
        r#"
define void @f() #0 {
  ret void
}
attributes #0 = { noinline memory(read) "target-cpu"="sm_90" "keep" }
"#,
    );
    let f = func(&m, "f");
    assert!(m.remove_attr(f, AttrSlot::Function, AttrKey::Str("target-cpu")));
    assert!(!m.remove_attr(f, AttrSlot::Function, AttrKey::Str("target-cpu")));
    assert!(!m.remove_attr(f, AttrSlot::Function, AttrKey::Str("never-seen")));
    assert!(m.remove_attr(f, AttrSlot::Function, AttrKey::Other("memory")));
    assert!(!m.has_attr(f, AttrSlot::Function, AttrKey::Other("memory")));
    assert_eq!(m.str_attr(f, AttrSlot::Function, "target-cpu"), None);
    assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Str("keep")));
    assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    let text = verified(&m);
    assert!(
        text.contains("define void @f() noinline \"keep\" {"),
        "{text}"
    );
}

#[test]
fn remove_param_and_change_param_type() {
    let mut m = parse(
        r#"
define internal void @h(i32 %unused, ptr %p) {
  store i32 1, ptr %p, align 4
  ret void
}
"#,
    );
    let h = func(&m, "h");
    m.remove_param(h, 0).unwrap();
    assert_eq!(m.num_params(h), 1);
    assert_eq!(m.remove_param(h, 0), Err(EditError::HasUses));
    let p1 = m.ptr_type(1);
    m.set_param_type(h, 0, p1).unwrap();
    let text = verified(&m);
    assert!(
        text.contains("define internal void @h(ptr addrspace(1) %p)"),
        "{text}"
    );
    assert!(text.contains("store i32 1, ptr addrspace(1) %p"), "{text}");
}

#[test]
fn build_call_and_cast_insert_before() {
    let mut m = parse(
        r#"
declare void @sink(ptr addrspace(1))
define void @k(ptr %p) {
  ret void
}
"#,
    );
    let k = func(&m, "k");
    let ret = m.insts(m.entry_block(k).unwrap()).next().unwrap();
    let p = m.param(k, 0).unwrap();
    let g = m.ptr_type(1);
    let cast = m.build_cast(ret, Opcode::AddrSpaceCast, p, g).unwrap();
    let sink = func(&m, "sink");
    let (fty, sv) = (m.func_type(sink), m.func_value(sink));
    m.build_call(ret, fty, sv, &[cast]).unwrap();
    assert_eq!(
        m.build_call(ret, fty, sv, &[p]),
        Err(EditError::TypeMismatch)
    );
    let i64t = m.int_type(64);
    assert_eq!(
        m.build_cast(ret, Opcode::ZExt, p, i64t),
        Err(EditError::TypeMismatch)
    );
    let text = verified(&m);
    assert!(
        text.contains("addrspacecast ptr %p to ptr addrspace(1)"),
        "{text}"
    );
    assert!(
        text.contains("call void @sink(ptr addrspace(1) %1)"),
        "{text}"
    );
}

#[test]
fn metadata_nodes_and_named_metadata() {
    let mut m = parse(
        r#"
define void @k() {
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{ptr @k, !"kernel", i32 1}
"#,
    );
    let k = func(&m, "k");
    let ann: Vec<_> = m.named_md("nvvm.annotations").collect();
    assert_eq!(ann.len(), 1);
    let ops: Vec<_> = m.md_operands(ann[0]).collect();
    assert_eq!(ops[0], MdOperand::Value(m.func_value(k)));
    assert_eq!(ops[1], MdOperand::String("kernel"));
    let domain = m
        .create_self_ref_md_node(&[MdOperand::String("dom")])
        .unwrap();
    let scope = m
        .create_self_ref_md_node(&[MdOperand::Node(domain)])
        .unwrap();
    let list = m.create_md_node(&[MdOperand::Node(scope)], false).unwrap();
    let ret = m.insts(m.entry_block(k).unwrap()).next().unwrap();
    m.set_inst_md(ret, "alias.scope", Some(list));
    assert_eq!(m.inst_md(ret, "alias.scope"), Some(list));
    m.add_named_md_operand("nvvm.extra", list);
    let text = verified(&m);
    assert!(text.contains("!nvvm.extra = !{"), "{text}");
    assert!(text.contains("distinct !{"), "{text}");
    assert!(m.remove_named_md_operand("nvvm.extra", list));
    assert!(!print_module(&m).contains("!nvvm.extra"));
}

#[test]
fn erase_block_drops_phi_entries() {
    let mut m = parse(
        r#"
define i32 @f(i1 %c) {
entry:
  br label %join
dead:
  br label %join
join:
  %v = phi i32 [ 1, %entry ], [ 2, %dead ]
  ret i32 %v
}
"#,
    );
    let f = func(&m, "f");
    let blocks: Vec<_> = m.blocks(f).collect();
    assert_eq!(m.erase_block(blocks[0]), Err(EditError::HasUses));
    m.erase_block(blocks[1]).unwrap();
    let text = verified(&m);
    assert!(text.contains("phi i32 [ 1, %entry ]"), "{text}");
    assert!(!text.contains("dead"), "{text}");
}

#[test]
fn erasing_bodies_with_repeated_operands() {
    // Each instruction reads the same value twice, so removing one use
    // renumbers the other within the same instruction.
    let src = r#"
define internal void @dead(ptr %p) {
entry:
  %g = getelementptr [4 x [4 x i32]], ptr %p, i64 0, i64 0, i64 0
  %s = add i64 0, 0
  br label %more
more:
  %t = add i64 %s, %s
  ret void
}
define void @k(i1 %c) {
entry:
  br label %exit
unreachable.bb:
  %x = add i32 7, 7
  %y = mul i32 %x, %x
  br label %exit
exit:
  ret void
}
"#;
    let mut m = parse(src);
    let dead = func(&m, "dead");
    m.erase_function(dead).unwrap();
    let k = func(&m, "k");
    let bb = m.blocks(k).nth(1).unwrap();
    m.erase_block(bb).unwrap();
    let text = verified(&m);
    assert!(!text.contains("@dead"), "{text}");
    assert!(!text.contains("unreachable.bb"), "{text}");
    nvpass_ir::verify::verify_use_lists(&m).unwrap();
}

#[test]
fn erase_function_whose_instructions_use_a_value_twice() {
    let mut m = parse(
        "define internal float @sq(float %x) {\n  %y = fmul float %x, %x\n  ret float %y\n}\n\
         define void @g() {\n  ret void\n}\n",
    );
    let f = func(&m, "sq");
    m.erase_function(f).unwrap();
    assert!(IrView::func_by_name(&m, "sq").is_none());
    verified(&m);
}

#[test]
fn inline_would_succeed_agrees_with_inlining() {
    let src = |memcpy: &str| {
        format!(
            "%S = type {{ [4 x i32] }}\n\
             declare i32 @ext(i32)\n{memcpy}\
             define internal i32 @plain(i32 %x) {{\n  ret i32 %x\n}}\n\
             define internal i32 @get(ptr byval(%S) align 8 %s) {{\n\
             \x20 %v = load i32, ptr %s, align 4\n  ret i32 %v\n}}\n\
             define internal i32 @va(i32 %x, ...) {{\n  ret i32 %x\n}}\n\
             define i32 @rec(i32 %x, ptr %p) {{\n\
             \x20 %a = call i32 @plain(i32 %x)\n\
             \x20 %b = call i32 @get(ptr byval(%S) align 8 %p)\n\
             \x20 %c = call i32 @ext(i32 %a)\n\
             \x20 %d = call i32 @rec(i32 %b, ptr %p)\n\
             \x20 %e = call i32 (i32, ...) @va(i32 %c, i32 1)\n\
             \x20 %f = call i64 @plain(i32 %x)\n\
             \x20 ret i32 %d\n}}\n"
        )
    };
    // Without llvm.memcpy declared, only @plain's call is sure: the byval
    // callee's inlining would declare it.
    let m = parse(&src(""));
    let calls = calls_in(&m, func(&m, "rec"));
    let sure: Vec<bool> = calls.iter().map(|&c| m.inline_would_succeed(c)).collect();
    assert_eq!(sure, [true, false, false, false, false, false]);
    // With it declared, the byval callee's is sure too; each answer is
    // what the inlining then does, the last first so the earlier calls
    // stay put.
    let decl = "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n";
    let mut m = parse(&src(decl));
    let calls = calls_in(&m, func(&m, "rec"));
    let sure: Vec<bool> = calls.iter().map(|&c| m.inline_would_succeed(c)).collect();
    assert_eq!(sure, [true, true, false, false, false, false]);
    let declared = m.funcs().count();
    for (&c, &s) in calls.iter().zip(&sure).rev() {
        assert_eq!(m.inline_call(c).is_ok(), s);
    }
    assert_eq!(m.funcs().count(), declared, "no function was declared");
    verified(&m);
    // A declaration of llvm.memcpy with another type does not count.
    let mut m = parse(&src(
        "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i32, i1)\n",
    ));
    let calls = calls_in(&m, func(&m, "rec"));
    assert!(!m.inline_would_succeed(calls[1]));
    // And the inlining is refused, leaving the IR as it was.
    let before = print_module(&m);
    assert!(matches!(
        m.inline_call(calls[1]),
        Err(EditError::NotInlinable(_))
    ));
    assert_eq!(print_module(&m), before);
}

#[test]
fn inline_copies_byval_arguments_and_reports_what_it_brought_in() {
    let mut m = parse(
        "%S = type { [4 x i32] }\n\
         define internal i32 @get(ptr byval(%S) align 8 %s) {\n\
         entry:\n  %t = alloca i32, align 4\n  %v = load i32, ptr %s, align 4\n\
         store i32 %v, ptr %t, align 4\n  call void @h()\n  ret i32 %v\n}\n\
         declare void @h()\n\
         define i32 @caller(ptr %p) {\n\
         entry:\n  %r = call i32 @get(ptr byval(%S) align 8 %p)\n  ret i32 %r\n}\n",
    );
    let caller = func(&m, "caller");
    let call = calls_in(&m, caller)[0];
    let info = m.inline_call_with_info(call).unwrap();
    // The byval copy and the callee's %t, both now in the caller's entry.
    assert_eq!(info.static_allocas.len(), 2);
    let entry = m.entry_block(caller).unwrap();
    for &a in &info.static_allocas {
        assert_eq!(m.inst_block(a), entry);
    }
    assert_eq!(m.alloca_align(info.static_allocas[0]), Some(8));
    // The copied call to @h.
    assert_eq!(info.inlined_calls.len(), 1);
    let text = verified(&m);
    // The byval copy: 16 bytes of %S from the argument into the new slot.
    assert!(
        text.contains("call void @llvm.memcpy.p0.p0.i64(ptr %0, ptr %p, i64 16, i1 false)"),
        "{text}"
    );
    assert!(
        text.contains("declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)"),
        "{text}"
    );
}

#[test]
fn move_inst_before_across_blocks_keeps_identity_and_uses() {
    let mut m = parse(
        r#"
declare ptr @alloc()
define void @k(i32 %n) {
entry:
  %t = alloca i32, align 4
  %p = call ptr @alloc()
  br label %then

then:
  %x = phi i32 [ %n, %entry ]
  %m = mul i32 %n, 4, !dbg !1
  store i32 %m, ptr %t, align 4
  ret void
}
!1 = !{}
"#,
    );
    let k = func(&m, "k");
    let blocks: Vec<_> = m.blocks(k).collect();
    let entry: Vec<_> = m.insts(blocks[0]).collect();
    let then: Vec<_> = m.insts(blocks[1]).collect();
    let (alloc, br) = (entry[1], entry[2]);
    let (phi, mul, store, ret) = (then[0], then[1], then[2], then[3]);

    // Refusals change nothing.
    assert_eq!(m.move_inst_before(mul, mul), Err(EditError::OutOfRange));
    assert_eq!(m.move_inst_before(phi, alloc), Err(EditError::TypeMismatch));
    assert_eq!(m.move_inst_before(ret, alloc), Err(EditError::TypeMismatch));
    assert_eq!(m.move_inst_before(br, alloc), Err(EditError::TypeMismatch));
    assert_eq!(m.move_inst_before(mul, phi), Err(EditError::TypeMismatch));
    let before = print_module(&m);

    // The multiply, then the store, move above the call, in that order.
    m.move_inst_before(mul, alloc).unwrap();
    m.move_inst_before(store, alloc).unwrap();
    assert_ne!(before, print_module(&m));
    assert_eq!(m.inst_block(mul), blocks[0]);
    assert_eq!(
        m.insts(blocks[0]).collect::<Vec<_>>(),
        [entry[0], mul, store, alloc, br]
    );
    assert_eq!(m.insts(blocks[1]).collect::<Vec<_>>(), [phi, ret]);
    let mv = IrView::inst_result(&m, mul).unwrap();
    assert_eq!(m.inst_users(mv).collect::<Vec<_>>(), [store]);
    assert!(m.inst_md(mul, "dbg").is_some());
    let text = verified(&m);
    assert!(
        text.contains(
            "%t = alloca i32, align 4\n  %m = mul i32 %n, 4, !dbg !1\n  store i32 %m, ptr %t, align 4\n  %p = call ptr @alloc()"
        ),
        "{text}"
    );
}

/// Call sites keep attribute entries only up to the last argument that has
/// attributes; the other arguments still read as empty and take new ones.
#[test]
fn call_argument_attributes_beyond_the_stored_ones() {
    let mut m = parse(
        "declare void @g(ptr, i32, ptr)\n\
         define void @f(ptr %p) {\n\
         entry:\n\
         \x20 call void @g(ptr noundef %p, i32 1, ptr %p)\n\
         \x20 call void @g(ptr %p, i32 2, ptr %p)\n\
         \x20 ret void\n\
         }\n",
    );
    let f = func(&m, "f");
    let cs = calls_in(&m, f);
    let nn = AttrKey::Kind(AttrKind::NonNull);
    let noundef = AttrKey::Kind(AttrKind::NoUndef);
    let has = |m: &Module, c, k, key: AttrKey<'_>| {
        m.call_attrs(c, AttrSlot::Param(k)).any(|a| a.key() == key)
    };
    assert!(has(&m, cs[0], 0, noundef));
    for &c in &cs {
        for k in 1..3 {
            assert_eq!(m.call_attrs(c, AttrSlot::Param(k)).count(), 0);
            assert!(!m.remove_call_attr(c, AttrSlot::Param(k), nn));
        }
    }
    m.add_call_attr(cs[0], AttrSlot::Param(2), Attr::Enum(AttrKind::NonNull))
        .unwrap();
    m.add_call_attr(cs[1], AttrSlot::Param(1), Attr::Enum(AttrKind::NoUndef))
        .unwrap();
    assert_eq!(
        m.add_call_attr(cs[1], AttrSlot::Param(3), Attr::Enum(AttrKind::NonNull)),
        Err(EditError::NotACall)
    );
    assert!(has(&m, cs[0], 2, nn));
    let text = verified(&m);
    assert!(
        text.contains("call void @g(ptr noundef %p, i32 1, ptr nonnull %p)"),
        "{text}"
    );
    assert!(
        text.contains("call void @g(ptr %p, i32 noundef 2, ptr %p)"),
        "{text}"
    );
}

/// Erasing many functions and globals keeps the module order short (erased
/// entries are dropped in batches) while every reader sees only the live
/// ones, in their original order.
#[test]
fn erasing_many_functions_and_globals() {
    let mut src = String::new();
    for i in 0..300 {
        src += &format!(
            "@g{i} = internal global i32 {i}\ndefine internal void @f{i}() {{\n  ret void\n}}\n"
        );
    }
    let mut m = parse(&src);
    for i in 0..300 {
        if i % 3 != 0 {
            m.erase_function(func(&m, &format!("f{i}"))).unwrap();
            let g = IrView::global_by_name(&m, &format!("g{i}")).unwrap();
            m.erase_global(g).unwrap();
        }
        // Never more erased entries than live ones, plus the one just
        // erased: the order stays proportional to the live module.
        let live = m.func_ids().count() + m.global_ids().count();
        assert!(
            m.order.len() <= 2 * live + 2,
            "{} entries for {live} live",
            m.order.len()
        );
    }
    let text = verified(&m);
    let mut expected = String::new();
    for i in (0..300).step_by(3) {
        expected += &format!("@g{i} = internal global i32 {i}\n");
    }
    for i in (0..300).step_by(3) {
        expected += &format!("\ndefine internal void @f{i}() {{\n  ret void\n}}\n");
    }
    assert_eq!(text.trim(), expected.trim());
    let names: Vec<&str> = IrView::funcs(&m)
        .map(|f| IrView::func_name(&m, f))
        .collect();
    assert_eq!(names.len(), 100);
    assert_eq!(names[1], "f3");
}

/// A clone goes right after its original, whatever order the originals
/// are cloned in (the search for the original starts at the last clone's
/// place and must find originals before and after it).
#[test]
fn clones_follow_their_originals_in_any_order() {
    let mut src = String::from("@g = global i32 0\n");
    for i in 0..40 {
        src += &format!("define void @f{i}() {{\n  ret void\n}}\n");
    }
    let mut m = parse(&src);
    // Forward, backward, then scattered.
    let order: Vec<usize> = (0..10)
        .chain((10..20).rev())
        .chain([35, 21, 39, 22, 30, 20, 38, 23, 31, 37])
        .collect();
    for &i in &order {
        let f = func(&m, &format!("f{i}"));
        m.clone_function(f, &format!("f{i}.c")).unwrap();
    }
    let text = verified(&m);
    let defs: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("define void @"))
        .map(|l| l.trim_end_matches("() {"))
        .collect();
    let mut expected = Vec::new();
    for i in 0..40 {
        expected.push(format!("f{i}"));
        if order.contains(&i) {
            expected.push(format!("f{i}.c"));
        }
    }
    assert_eq!(defs, expected);
}

/// Inlining renames copies past the caller's own names, and a name the
/// caller gives up between two inlines (an erased instruction, an erased
/// block) is free again for the next copy, as if the caller's names were
/// collected afresh each time.
#[test]
fn inlined_names_track_names_leaving_the_caller() {
    let src = r#"
define internal i32 @h(i32 %a) {
  %y = add i32 %a, 1
  ret i32 %y
}

define i32 @k(i32 %x) {
entry:
  %y.i2 = add i32 %x, 5
  %y.i3 = add i32 %x, 6
  %r0 = call i32 @h(i32 %x)
  %r1 = call i32 @h(i32 %r0)
  %r2 = call i32 @h(i32 %r1)
  %r3 = call i32 @h(i32 %r2)
  br label %out

y.i4:
  br label %out

out:
  ret i32 %r3
}
"#;
    let mut m = parse(src);
    let k = func(&m, "k");
    let calls = calls_in(&m, k);
    let named = |m: &Module| -> Vec<String> {
        let k = func(m, "k");
        m.blocks(k)
            .flat_map(|b| m.insts(b).collect::<Vec<_>>())
            .filter_map(|i| IrView::inst_result(m, i))
            .filter_map(|v| m.value_name(v).map(str::to_string))
            .filter(|n| n.starts_with("y."))
            .collect()
    };
    // The first copy takes `%y.i`, the second `%y.i1`.
    m.inline_call(calls[0]).unwrap();
    m.inline_call(calls[1]).unwrap();
    let names = named(&m);
    assert!(
        names.contains(&"y.i".into()) && names.contains(&"y.i1".into()),
        "{names:?}"
    );
    // `%y.i2` leaves the caller before the third copy, which takes it.
    let y2 = m
        .blocks(k)
        .flat_map(|b| m.insts(b).collect::<Vec<_>>())
        .find(|&i| IrView::inst_result(&m, i).and_then(|v| m.value_name(v)) == Some("y.i2"))
        .unwrap();
    IrEdit::erase_inst(&mut m, y2).unwrap();
    m.inline_call(calls[2]).unwrap();
    let names = named(&m);
    assert_eq!(
        names.iter().filter(|n| *n == "y.i2").count(),
        1,
        "{names:?}"
    );
    // `%y.i3` stays, and the block `%y.i4` is erased before the fourth
    // copy, which therefore takes `%y.i4`.
    let block = m
        .blocks(k)
        .find(|&b| m.block_name(b) == Some("y.i4"))
        .unwrap();
    m.erase_block(block).unwrap();
    m.inline_call(calls[3]).unwrap();
    let names = named(&m);
    assert!(
        names.contains(&"y.i3".into()) && names.contains(&"y.i4".into()),
        "{names:?}"
    );
    assert!(!names.contains(&"y.i5".into()), "{names:?}");
    verified(&m);
}

/// The reference IR's constant-time `next_inst` and `prev_inst` follow the
/// order of `insts` in every block of the lit inputs.
#[test]
fn neighbors_follow_block_order() {
    fn ll_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                ll_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "ll") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    ll_files(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/lit"),
        &mut files,
    );
    let mut checked = 0;
    for path in files {
        let Ok(m) = parse_module(&std::fs::read(&path).unwrap()) else {
            continue;
        };
        for f in IrView::funcs(&m) {
            for b in m.blocks(f) {
                let insts: Vec<_> = m.insts(b).collect();
                for (k, &i) in insts.iter().enumerate() {
                    assert_eq!(m.next_inst(i), insts.get(k + 1).copied());
                    assert_eq!(m.prev_inst(i), k.checked_sub(1).map(|p| insts[p]));
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Functions and globals erased one at a time drop out of the module-order
/// lists at once, before, at and after the point where erased entries are
/// compacted out of the order (half of it erased).
#[test]
fn erased_functions_and_globals_leave_the_order_lists() {
    let mut src = String::new();
    for k in 0..6 {
        src.push_str(&format!("@g{k} = internal global i32 {k}\n"));
    }
    for k in 0..6 {
        src.push_str(&format!(
            "define internal void @f{k}() {{\n  ret void\n}}\n"
        ));
    }
    let mut m = parse(&src);
    let names = |m: &Module| -> (Vec<String>, Vec<String>) {
        let f = IrView::funcs(m)
            .map(|f| IrView::func_name(m, f).to_string())
            .collect();
        let g = IrView::globals(m)
            .map(|g| IrView::global_name(m, g).to_string())
            .collect();
        (f, g)
    };
    let (mut want_f, mut want_g) = names(&m);
    assert_eq!(want_f.len(), 6);
    assert_eq!(want_g.len(), 6);
    // Alternate functions and globals, from the middle outwards.
    for k in [3usize, 1, 5, 0, 4] {
        let f = func(&m, &format!("f{k}"));
        m.erase_function(f).unwrap();
        want_f.retain(|n| *n != format!("f{k}"));
        assert_eq!(names(&m), (want_f.clone(), want_g.clone()), "after @f{k}");
        let g = IrView::globals(&m)
            .find(|&g| IrView::global_name(&m, g) == format!("g{k}"))
            .unwrap();
        m.erase_global(g).unwrap();
        want_g.retain(|n| *n != format!("g{k}"));
        assert_eq!(names(&m), (want_f.clone(), want_g.clone()), "after @g{k}");
    }
    assert_eq!(names(&m), (vec!["f2".to_string()], vec!["g2".to_string()]));
    verified(&m);
}

/// Attribute edits share their results: functions and call sites edited
/// alike end up holding one attribute list and one call-site payload, as
/// when the reader reads equal ones; an edit of one copies it first.
#[test]
fn equal_edits_share_attribute_lists_and_call_payloads() {
    let src = r#"
declare void @h(ptr)
define void @a(ptr %p) #0 {
  call void @h(ptr %p)
  ret void
}
define void @b(ptr %p) #0 {
  call void @h(ptr %p)
  ret void
}
attributes #0 = { noinline nounwind "target-cpu"="sm_90" }
"#;
    let mut m = parse(src);
    for name in ["a", "b"] {
        let f = func(&m, name);
        // Removing `noinline` expands the group into the function's list.
        assert!(m.remove_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
        m.add_attr(f, AttrSlot::Function, Attr::Enum(AttrKind::AlwaysInline));
        let call = calls_in(&m, f)[0];
        m.add_call_attr(call, AttrSlot::Param(0), Attr::Enum(AttrKind::NoUndef))
            .unwrap();
    }
    let (fa, fb) = (m.func_by_name("a").unwrap(), m.func_by_name("b").unwrap());
    let list = |m: &Module, f| m.funcs[f].fn_attrs.attrs.clone();
    assert_eq!(list(&m, fa).len(), 3);
    assert!(list(&m, fa).shares(&list(&m, fb)));
    let call_of = |m: &Module, f| {
        let b = m.funcs[f].first_block.expand().unwrap();
        let i = m.block_insts(b).next().unwrap();
        match &m.insts[i].extra {
            nvpass_ir::inst::Extra::Call(c) => std::sync::Arc::clone(c),
            e => panic!("{e:?}"),
        }
    };
    assert!(std::sync::Arc::ptr_eq(&call_of(&m, fa), &call_of(&m, fb)));
    // Editing one leaves the other.
    let f = func(&m, "b");
    m.remove_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::AlwaysInline));
    let call = calls_in(&m, f)[0];
    m.remove_call_attr(call, AttrSlot::Param(0), AttrKey::Kind(AttrKind::NoUndef));
    assert!(!list(&m, fa).shares(&list(&m, fb)));
    assert!(!std::sync::Arc::ptr_eq(&call_of(&m, fa), &call_of(&m, fb)));
    let out = verified(&m);
    assert!(out.contains("call void @h(ptr noundef %p)\n"), "{out}");
    assert!(out.contains("call void @h(ptr %p)\n"), "{out}");
}

/// Metadata naming an erased function or global names `null` afterwards,
/// and metadata naming a replaced one names its replacement, including
/// nodes made after an earlier erasure and references moved there by an
/// earlier replacement.
#[test]
fn metadata_follows_erased_and_replaced_functions() {
    let mut m = parse(
        "@g = internal global i32 0\n\
         define internal void @a() {\n  ret void\n}\n\
         define internal void @b() {\n  ret void\n}\n\
         define internal void @c() {\n  ret void\n}\n\
         define internal void @d() {\n  ret void\n}\n\
         !0 = !{ptr @a, !\"x\", ptr @b}\n\
         !1 = !{ptr @g, ptr @a}\n\
         !named = !{!0, !1}\n",
    );
    m.erase_function(func(&m, "a")).unwrap();
    let text = verified(&m);
    assert!(text.contains("!0 = !{null, !\"x\", ptr @b}"), "{text}");
    assert!(text.contains("!1 = !{ptr @g, null}"), "{text}");
    // A node made now names @c; replacing @b by @c and then erasing @c
    // reaches both nodes.
    let c = func(&m, "c");
    let node = m
        .create_md_node(&[MdOperand::Value(m.func_value(c))], false)
        .unwrap();
    m.set_named_md("more", &[node]);
    let b = func(&m, "b");
    let (bv, cv) = (m.func_value(b), m.func_value(c));
    IrEdit::replace_all_uses(&mut m, bv, cv).unwrap();
    let text = verified(&m);
    assert!(text.contains("!{null, !\"x\", ptr @c}"), "{text}");
    m.erase_function(b).unwrap();
    m.erase_function(c).unwrap();
    let g = IrView::global_by_name(&m, "g").unwrap();
    m.erase_global(g).unwrap();
    let text = verified(&m);
    assert!(text.contains("!{null, !\"x\", null}"), "{text}");
    assert!(text.contains("!{null, null}"), "{text}");
    assert!(!text.contains("ptr @"), "{text}");
    assert!(text.contains("define internal void @d()"), "{text}");
}
