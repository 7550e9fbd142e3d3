//! Unit tests of the CDP passes on the reference IR. Behaviour by behaviour
//! tests are the `.ll` files in `tests/lit/cdp/`; these check what the CLI
//! cannot show (the IR after an error) and properties over all variants.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use nvpass_core::cdp::{CdpVariant, LAUNCH_STUBS, PARAM_BUFFER_STUBS};
use nvpass_core::diag::Severity;
use nvpass_core::knob::KnobValues;
use nvpass_core::pass::{ModulePass, PassContext, Session};
use nvpass_ir::{parse_module, print_module, Module};

use super::{
    CdpExpansion, CdpLaunchExpander, CdpParameterBuffer, EXPANSION_INFO, LAUNCH_EXPANDER_INFO,
    PARAMETER_BUFFER_INFO,
};

/// A module with one legacy launch of `child` tagged with `flag`.
fn module(child_attrs: &str, flag: &str) -> String {
    format!(
        r#"%struct.dim3 = type {{ i32, i32, i32 }}

define void @child() {child_attrs} {{
  ret void
}}

define void @parent(%struct.dim3 %g) {{
  %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0) #0
  %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null) #0
  ret void
}}

declare ptr @cudaGetParameterBuffer(i64, i64)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)

attributes #0 = {{ "nvvm.cdp.variant"="{flag}" }}
"#
    )
}

/// Which pass to run.
#[derive(Copy, Clone)]
enum Which {
    Pair,
    Buffer,
    Launch,
}

/// Runs one pass; returns the printed module and the diagnostics' severities.
fn run(m: &mut Module, which: Which) -> (String, Vec<Severity>) {
    let mut session = Session::new(KnobValues::new());
    let result = match which {
        Which::Pair => {
            let mut cx = PassContext::new(&EXPANSION_INFO, &mut session);
            ModulePass::<Module>::run(&mut CdpExpansion, m, &mut cx)
        }
        Which::Buffer => {
            let mut cx = PassContext::new(&PARAMETER_BUFFER_INFO, &mut session);
            ModulePass::<Module>::run(&mut CdpParameterBuffer, m, &mut cx)
        }
        Which::Launch => {
            let mut cx = PassContext::new(&LAUNCH_EXPANDER_INFO, &mut session);
            ModulePass::<Module>::run(&mut CdpLaunchExpander, m, &mut cx)
        }
    };
    assert!(result.is_ok());
    let sev = session
        .diags
        .diagnostics()
        .iter()
        .map(|d| d.severity)
        .collect();
    (print_module(m), sev)
}

#[test]
fn non_kernel_target_leaves_ir_unchanged() {
    for which in [Which::Pair, Which::Buffer, Which::Launch] {
        let src = module("", "1");
        let mut m = parse_module(src.as_bytes()).unwrap();
        let before = print_module(&m);
        let (after, sev) = run(&mut m, which);
        assert_eq!(before, after);
        assert_eq!(sev, [Severity::Error]);
    }
}

/// The stub names come from the tables, indexed by the flag's variant: a new
/// variant is new table rows.
#[test]
fn every_variant_uses_its_table_rows() {
    for v in CdpVariant::ALL {
        let src = module("\"nvvm.kernel\"", &format!("{}", v.flag()));
        let mut m = parse_module(src.as_bytes()).unwrap();
        let (out, sev) = run(&mut m, Which::Pair);
        assert!(sev.is_empty());
        let launch = format!("call i32 @{}(ptr @child", LAUNCH_STUBS[v.index()]);
        let buffer = format!("call ptr @{}(ptr @child", PARAM_BUFFER_STUBS[v.index()]);
        assert!(out.contains(&launch), "{out}");
        assert!(out.contains(&buffer), "{out}");
        for other in CdpVariant::ALL.into_iter().filter(|&o| o != v) {
            assert!(!out.contains(LAUNCH_STUBS[other.index()]));
            assert!(!out.contains(PARAM_BUFFER_STUBS[other.index()]));
        }
    }
}

#[test]
fn pair_is_idempotent_and_order_independent() {
    let src = module("\"nvvm.kernel\"", "2");
    let mut pair = parse_module(src.as_bytes()).unwrap();
    let (once, _) = run(&mut pair, Which::Pair);
    let (twice, sev) = run(&mut pair, Which::Pair);
    assert_eq!(once, twice);
    assert!(sev.is_empty());

    let mut reversed = parse_module(src.as_bytes()).unwrap();
    run(&mut reversed, Which::Launch);
    let (out, _) = run(&mut reversed, Which::Buffer);
    // Equal up to the order in which the two stubs were declared.
    let lines = |s: &str| {
        let mut v: Vec<String> = s.lines().map(String::from).collect();
        v.sort();
        v
    };
    assert_eq!(lines(&once), lines(&out));
}

/// Clang's launch whose configuration moves, one whose configuration
/// cannot move (a call in `<<<...>>>`), a threaded V2 launch and an
/// unthreadable one left in place.
const NEW_SHAPES: &str = r#"%struct.dim3 = type { i32, i32, i32 }

define void @child(i32 %x) "nvvm.kernel" {
  ret void
}

define void @hoisted(i32 %n) {
entry:
  %n.addr = alloca i32, align 4
  %t0 = alloca %struct.dim3, align 4
  %t1 = alloca %struct.dim3, align 4
  store i32 %n, ptr %n.addr, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %ok = icmp ne ptr %config, null
  br i1 %ok, label %then, label %end

then:
  store i32 %n, ptr %config, align 64
  %v = load i32, ptr %n.addr, align 4
  call void @ctor(ptr %t0, i32 %v, i32 1, i32 1)
  call void @ctor(ptr %t1, i32 32, i32 1, i32 1)
  %s = shl i32 %v, 2
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @child, ptr %config, ptr byval(%struct.dim3) align 4 %t0, ptr byval(%struct.dim3) align 4 %t1, i32 %s, ptr null)
  br label %end

end:
  ret void
}

define void @kept(i32 %n) {
entry:
  %t0 = alloca %struct.dim3, align 4
  %t1 = alloca %struct.dim3, align 4
  %config = call ptr @_Z22cudaGetParameterBuffermm(i64 64, i64 4)
  %f = call i32 @f()
  call void @ctor(ptr %t0, i32 %f, i32 1, i32 1)
  call void @ctor(ptr %t1, i32 1, i32 1, i32 1)
  %call = call i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr @child, ptr %config, ptr byval(%struct.dim3) align 4 %t0, ptr byval(%struct.dim3) align 4 %t1, i32 0, ptr null)
  ret void
}

define void @v2(%struct.dim3 %g) {
  %buf = call ptr @cudaGetParameterBufferV2(ptr @child, %struct.dim3 %g, %struct.dim3 %g, i32 0)
  %r = call i32 @cudaLaunchDeviceV2(ptr %buf, ptr null)
  %six = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  %r6 = call i32 @cudaLaunchDevice(ptr @child, ptr %six, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null)
  %legacy = call ptr @cudaGetParameterBuffer(i64 64, i64 4)
  %r2 = call i32 @cudaLaunchDeviceV2(ptr %legacy, ptr null)
  ret void
}

define linkonce_odr void @ctor(ptr %this, i32 %x, i32 %y, i32 %z) {
  %this.addr = alloca ptr, align 8
  store ptr %this, ptr %this.addr, align 8
  %p = load ptr, ptr %this.addr, align 8
  store i32 %x, ptr %p, align 4
  %py = getelementptr inbounds i8, ptr %p, i64 4
  store i32 %y, ptr %py, align 4
  %pz = getelementptr inbounds i8, ptr %p, i64 8
  store i32 %z, ptr %pz, align 4
  ret void
}

declare i32 @f()
declare ptr @_Z22cudaGetParameterBuffermm(i64, i64)
declare i32 @_Z16cudaLaunchDevicePvS_4dim3S0_jP10cudaStream(ptr, ptr, ptr byval(%struct.dim3) align 4, ptr byval(%struct.dim3) align 4, i32, ptr)
declare ptr @cudaGetParameterBuffer(i64, i64)
declare ptr @cudaGetParameterBufferV2(ptr, %struct.dim3, %struct.dim3, i32)
declare i32 @cudaLaunchDevice(ptr, ptr, %struct.dim3, %struct.dim3, i32, ptr)
declare i32 @cudaLaunchDeviceV2(ptr, ptr)
"#;

/// Moving the configuration, threading V2 launches and leaving unthreadable
/// ones in place are all decided again, the same way, on the output:
/// running the pair twice equals running it once.
#[test]
fn new_shapes_are_idempotent() {
    let mut m = parse_module(NEW_SHAPES.as_bytes()).unwrap();
    let before = print_module(&m);
    let (once, sev1) = run(&mut m, Which::Pair);
    assert_ne!(before, once);
    // The hoisted buffer is the V2 stub; the other legacy one and the
    // unthreadable V2 launch stay, each with a warning.
    assert!(once.contains("call ptr @__cudaCDP1GetParameterBufferV2(ptr @child, ptr byval(%struct.dim3) align 4 %t0, ptr byval(%struct.dim3) align 4 %t1, i32 %s)"), "{once}");
    assert!(
        once.contains("%config = call ptr @_Z22cudaGetParameterBuffermm"),
        "{once}"
    );
    assert!(
        once.contains("%r2 = call i32 @cudaLaunchDeviceV2(ptr %legacy, ptr null)"),
        "{once}"
    );
    assert!(!once.contains("@__cudaCDP1LaunchDeviceV2(ptr %"), "{once}");
    assert_eq!(sev1.len(), 3, "{sev1:?}");
    let (twice, sev2) = run(&mut m, Which::Pair);
    assert_eq!(once, twice);
    assert_eq!(sev1, sev2);
}

/// Call sites are found through the entry points' uses. A use that is not
/// a call (here a global's initializer) is not a site; launches in several
/// functions are all rewritten, in module order.
#[test]
fn sites_found_through_uses() {
    let src = module("\"nvvm.kernel\"", "1");
    let plain = parse_module(src.as_bytes()).unwrap();
    let with_second = format!(
        "{src}\n@table = global ptr @cudaLaunchDevice\n\n\
         define void @parent2(%struct.dim3 %g) {{\n  \
         %buf = call ptr @cudaGetParameterBuffer(i64 64, i64 0) #0\n  \
         %r = call i32 @cudaLaunchDevice(ptr @child, ptr %buf, %struct.dim3 %g, %struct.dim3 %g, i32 0, ptr null) #0\n  \
         ret void\n}}\n"
    );
    let without_table = with_second.replace("@table = global ptr @cudaLaunchDevice", "");
    let only_calls = parse_module(without_table.as_bytes()).unwrap();
    assert_eq!(super::matching::sites(&only_calls).len(), 4);
    let mut m = parse_module(with_second.as_bytes()).unwrap();
    let found = super::matching::sites(&m);
    assert_eq!(found.len(), 4, "two allocations and two launches");
    let funcs: Vec<_> = found
        .iter()
        .map(|s| {
            String::from(nvpass_core::ir::IrView::func_name(
                &m,
                nvpass_core::ir::IrView::inst_func(&m, s.call),
            ))
        })
        .collect();
    assert_eq!(funcs, ["parent", "parent", "parent2", "parent2"]);
    // The list knows each call's function, one run per caller.
    let by_caller: Vec<_> = found
        .by_caller()
        .flat_map(|(f, calls)| calls.iter().map(move |s| (f, s.call)))
        .collect();
    let asked: Vec<_> = found
        .iter()
        .map(|s| (nvpass_core::ir::IrView::inst_func(&m, s.call), s.call))
        .collect();
    assert_eq!(by_caller, asked);
    assert_eq!(found.by_caller().count(), 2);
    let (out, sev) = run(&mut m, Which::Pair);
    assert!(sev.is_empty());
    assert_eq!(out.matches("call i32 @__cudaCDP").count(), 2, "{out}");
    assert_eq!(super::matching::sites(&plain).len(), 2);
}

/// Sites come in layout order even where the use lists do not list the
/// calls in that order: calls moved ahead of earlier ones, into another
/// block, and a function that also uses an entry point other than as a
/// callee (walked whole).
#[test]
fn sites_in_layout_order_after_moves() {
    use nvpass_core::ir::{IrEdit, IrView};
    let src = "define void @f(ptr %p) {\n\
               entry:\n  \
               %a = call ptr @cudaGetParameterBuffer(i64 1, i64 0)\n  \
               %b = call ptr @cudaGetParameterBuffer(i64 2, i64 0)\n  \
               br label %next\n\
               next:\n  \
               %c = call ptr @cudaGetParameterBuffer(i64 3, i64 0)\n  \
               %d = call ptr @cudaGetParameterBuffer(i64 4, i64 0)\n  \
               ret void\n}\n\n\
               define void @g(ptr %p) {\n  \
               %e = call ptr @cudaGetParameterBuffer(i64 5, i64 0)\n  \
               store ptr @cudaGetParameterBuffer, ptr %p\n  \
               %f = call ptr @cudaGetParameterBuffer(i64 6, i64 0)\n  \
               ret void\n}\n\n\
               define void @h() {\n  \
               %g = call ptr @cudaGetParameterBuffer(i64 7, i64 0)\n  \
               ret void\n}\n\n\
               declare ptr @cudaGetParameterBuffer(i64, i64)\n";
    let mut m = parse_module(src.as_bytes()).unwrap();
    let order = |m: &Module| -> Vec<i64> {
        super::matching::sites(m)
            .iter()
            .map(|s| {
                let size = IrView::operand(m, s.call, 0).unwrap();
                IrView::const_int(m, size).unwrap() as i64
            })
            .collect()
    };
    assert_eq!(order(&m), [1, 2, 3, 4, 5, 6, 7]);
    let calls: Vec<_> = super::matching::sites(&m).iter().map(|s| s.call).collect();
    // %d ahead of %a (into the entry block), %b ahead of %c (into `next`),
    // %f ahead of %e.
    m.move_inst_before(calls[3], calls[0]).unwrap();
    m.move_inst_before(calls[1], calls[2]).unwrap();
    m.move_inst_before(calls[5], calls[4]).unwrap();
    assert_eq!(order(&m), [4, 1, 2, 3, 6, 5, 7]);
}
