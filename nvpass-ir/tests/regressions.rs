//! Well-formed inputs that once failed in the parser, printer or verifier
//! (found by the property tests, the fuzz targets and the differential
//! tier). Each must parse, verify and print to a fixpoint.

use nvpass_ir::verify::verify_module;
use nvpass_ir::{parse_module, print_module};

fn accepts(src: &str) {
    let m = parse_module(src.as_bytes())
        .unwrap_or_else(|e| panic!("{}", e.render("t.ll", src.as_bytes())));
    if let Err(errs) = verify_module(&m) {
        let msgs: Vec<String> = errs.iter().map(|e| e.describe(&m)).collect();
        panic!("verifier rejected a valid module:\n{}", msgs.join("\n"));
    }
    let once = print_module(&m);
    let twice = print_module(&parse_module(once.as_bytes()).unwrap());
    assert_eq!(once, twice);
}

/// A phi may list one block twice (two edges from a switch) when both
/// entries carry the same value. Constant expressions are not uniqued in
/// the reference IR, so two spellings of one expression are two values;
/// LLVM uniques constants and accepts this module.
#[test]
fn phi_duplicate_edges_with_equal_constant_expressions() {
    accepts(
        r#"
@g = internal addrspace(1) global i32 0
@h = internal addrspace(1) global [2 x i32] zeroinitializer

define ptr @f(i32 %x) {
entry:
  switch i32 %x, label %other [ i32 0, label %join
                                i32 1, label %join ]
other:
  br label %join
join:
  %p = phi ptr [ addrspacecast (ptr addrspace(1) @g to ptr), %entry ], [ addrspacecast (ptr addrspace(1) @g to ptr), %entry ], [ null, %other ]
  %q = phi [2 x ptr] [ [ptr null, ptr addrspacecast (ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @h, i64 4) to ptr)], %entry ], [ [ptr null, ptr addrspacecast (ptr addrspace(1) getelementptr (i8, ptr addrspace(1) @h, i64 4) to ptr)], %entry ], [ zeroinitializer, %other ]
  ret ptr %p
}
"#,
    );
}

/// Entries for one block that really differ are still rejected.
#[test]
fn phi_duplicate_edges_with_different_constant_expressions() {
    let src = r#"
@g = internal addrspace(1) global i32 0
@h = internal addrspace(1) global i32 0

define ptr @f(i32 %x) {
entry:
  switch i32 %x, label %join [ i32 0, label %join ]
join:
  %p = phi ptr [ addrspacecast (ptr addrspace(1) @g to ptr), %entry ], [ addrspacecast (ptr addrspace(1) @h to ptr), %entry ]
  ret ptr %p
}
"#;
    let m = parse_module(src.as_bytes()).unwrap();
    let errs = verify_module(&m).expect_err("different values for one block");
    assert!(errs
        .iter()
        .any(|e| e.to_string().contains("carry different values")));
}

/// `DIExpression` operands print without field labels (they are
/// positional), so the reprinted text reads back the same.
#[test]
fn di_expression_operands_round_trip() {
    accepts(
        r#"
define void @f(ptr %p) !dbg !3 {
    #dbg_declare(ptr %p, !5, !DIExpression(DW_OP_plus_uconst, 4, DW_OP_stack_value), !6)
  ret void, !dbg !6
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!7}
!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "m.c", directory: "/tmp")
!2 = !DISubroutineType(types: !{null})
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !2, scopeLine: 1, spFlags: DISPFlagDefinition, unit: !0)
!4 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!5 = !DILocalVariable(name: "x", scope: !3, file: !1, line: 1, type: !4)
!6 = !DILocation(line: 2, column: 7, scope: !3)
!7 = !{i32 2, !"Debug Info Version", i32 3}
"#,
    );
}

/// A backslash in a metadata name prints as `\5C`, as LLVM 19 prints it;
/// printed raw, `\41` would read back as `A`.
#[test]
fn metadata_name_with_backslash_round_trips() {
    let src = "!a\\5C41b = !{}\n";
    let m = parse_module(src.as_bytes()).unwrap();
    let once = print_module(&m);
    assert!(once.contains("!a\\5C41b = !{}"), "{once}");
    accepts(src);
}

/// LLVM writes an alias whose target is a `getelementptr`, `bitcast`,
/// `addrspacecast` or `inttoptr` expression without the target's type
/// (`alias i32, getelementptr (...)`), and reads both spellings.
#[test]
fn alias_to_untyped_constant_expression() {
    let src = r#"
@g = global [2 x i32] zeroinitializer
@h = addrspace(1) global i32 0
@a1 = internal alias i32, getelementptr (i8, ptr @g, i64 4)
@a2 = alias i32, ptr getelementptr (i8, ptr @g, i64 4)
@a3 = alias i32, addrspacecast (ptr addrspace(1) @h to ptr)
@a4 = alias i32, inttoptr (i64 64 to ptr)
"#;
    accepts(src);
    let printed = print_module(&parse_module(src.as_bytes()).unwrap());
    assert!(printed.contains("@a1 = internal alias i32, getelementptr (i8, ptr @g, i64 4)\n"));
    assert!(printed.contains("@a2 = alias i32, getelementptr (i8, ptr @g, i64 4)\n"));
    assert!(printed.contains("@a3 = alias i32, addrspacecast (ptr addrspace(1) @h to ptr)\n"));
}

/// An untyped aliasee must still be a pointer.
#[test]
fn alias_to_untyped_non_pointer_expression_is_rejected() {
    let Err(e) = parse_module(b"@a = alias i32, bitcast (i32 0 to float)\n") else {
        panic!("parsed an alias to a float");
    };
    assert_eq!((e.line, e.col), (1, 17), "{e}");
    assert_eq!(e.message, "An alias or ifunc must have pointer type");
}

/// Attribute text nvpass does not model is kept verbatim, even across
/// lines; the `; Function Attrs:` comment the printer writes above a
/// function must stay on one line, or the rest of the text would read as
/// code.
#[test]
fn multi_line_verbatim_attribute_keeps_comment_on_one_line() {
    let src = "define void @f() #0 {\n  ret void\n}\n\nattributes #0 = { nounwind memory(no\n  %x = add i32 0, 0\n) }\n";
    let m = parse_module(src.as_bytes()).unwrap();
    let once = print_module(&m);
    let comment = once
        .lines()
        .find(|l| l.starts_with("; Function Attrs:"))
        .unwrap();
    assert!(comment.contains("memory(no"), "{once}");
    let twice = print_module(&parse_module(once.as_bytes()).unwrap());
    assert_eq!(once, twice);
}

/// A specialized node's class is lexed like a metadata name, so
/// `!DI\ABel(...)` names the class `DI` 0xAB `el`; it must print escaped
/// (found by the `roundtrip` fuzz target: the raw byte did not parse back).
#[test]
fn specialized_node_class_with_escaped_byte() {
    let src = "!named = !{!0}\n!0 = !DI\\ABel(line: 3)\n";
    let m = parse_module(src.as_bytes()).unwrap();
    let once = print_module(&m);
    assert!(once.contains("!0 = !DI\\ABel(line: 3)"), "{once}");
    let again = parse_module(once.as_bytes())
        .unwrap_or_else(|e| panic!("{}", e.render("printed.ll", once.as_bytes())));
    assert_eq!(once, print_module(&again));
}
