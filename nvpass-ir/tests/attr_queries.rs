//! `has_attr` (and the presence check in `remove_attr`/`remove_call_attr`)
//! compares interned names instead of converting attributes; it must answer
//! exactly as scanning `attrs` does, for every key kind. The other queries
//! nvpass-ir answers directly instead of through `IrView`'s provided
//! defaults (`int_attr`, `type_attr`, `attr_types`, `operand`,
//! `func_name_starts_with`) are checked the same way.

use nvpass_core::ir::{AttrKey, AttrKind, AttrSlot, FuncId, IrEdit, IrView};
use nvpass_ir::parse_module;

fn inputs() -> Vec<std::path::PathBuf> {
    let lit = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/lit");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(lit).expect("lit directory") {
        let dir = dir.expect("entry").path();
        if dir.is_dir() {
            files.extend(
                std::fs::read_dir(&dir)
                    .expect("lit subdirectory")
                    .map(|e| e.expect("entry").path()),
            );
        }
    }
    if let Some(home) = std::env::var_os("HOME") {
        let corpus = std::path::Path::new(&home).join(".cache/nvpass-corpus/ll");
        if let Ok(rd) = std::fs::read_dir(corpus) {
            files.extend(rd.filter_map(|e| e.ok()).map(|e| e.path()));
        }
    }
    files.retain(|p| p.extension().is_some_and(|e| e == "ll"));
    files
}

/// Calls `check` with every attribute slot (function, return value, each
/// parameter) of every function of every input that parses.
fn for_each_slot(mut check: impl FnMut(&std::path::Path, &nvpass_ir::Module, FuncId, AttrSlot)) {
    for path in inputs() {
        let Ok(m) = parse_module(&std::fs::read(&path).expect("read")) else {
            continue;
        };
        for f in m.funcs().collect::<Vec<_>>() {
            let nparams = m.params(f).count() as u32;
            let slots = [AttrSlot::Function, AttrSlot::Return]
                .into_iter()
                .chain((0..nparams).map(AttrSlot::Param));
            for slot in slots {
                check(&path, &m, f, slot);
            }
        }
    }
}

#[test]
fn has_attr_agrees_with_scanning() {
    let mut checked = 0u64;
    let mut present = 0u64;
    for_each_slot(|path, m, f, slot| {
        let strings: Vec<String> = m
            .attrs(f, slot)
            .filter_map(|a| match a.key() {
                AttrKey::Str(k) => Some(k.to_string()),
                _ => None,
            })
            .collect();
        let mut keys: Vec<AttrKey<'_>> = AttrKind::ALL.iter().map(|&k| AttrKey::Kind(k)).collect();
        keys.extend(strings.iter().map(|s| AttrKey::Str(s)));
        keys.extend([
            AttrKey::Str("nvvm.kernel"),
            AttrKey::Str("never-interned-key"),
            AttrKey::Other("memory"),
        ]);
        for key in keys {
            let scanned = m.attrs(f, slot).any(|a| key.matches(&a));
            assert_eq!(
                m.has_attr(f, slot, key),
                scanned,
                "{}: {} {slot:?} {key:?}",
                path.display(),
                IrView::func_name(m, f)
            );
            checked += 1;
            present += u64::from(scanned);
        }
    });
    assert!(
        checked > 10_000 && present > 500,
        "{checked} checked, {present} present"
    );
}

/// Removing an attribute that is absent changes nothing and says so;
/// removing one that is present (here from an attribute group) works.
#[test]
fn remove_absent_and_present() {
    let src = b"define void @f(ptr noundef %p) #0 {\n  call void @g() #1\n  ret void\n}\n\
                declare void @g()\n\
                attributes #0 = { convergent nounwind \"k\"=\"v\" }\n\
                attributes #1 = { convergent }\n";
    let mut m = parse_module(src).unwrap();
    let f = IrView::func_by_name(&m, "f").unwrap();
    let call = m.blocks(f).flat_map(|b| m.insts(b)).next().unwrap();
    let conv = AttrKey::Kind(AttrKind::Convergent);
    assert!(!m.remove_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoInline)));
    assert!(!m.remove_attr(f, AttrSlot::Function, AttrKey::Str("absent")));
    assert!(m.has_attr(f, AttrSlot::Function, conv));
    assert!(m.remove_attr(f, AttrSlot::Function, conv));
    assert!(!m.has_attr(f, AttrSlot::Function, conv));
    assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Kind(AttrKind::NoUnwind)));
    assert!(m.has_attr(f, AttrSlot::Function, AttrKey::Str("k")));
    assert!(m.has_attr(f, AttrSlot::Param(0), AttrKey::Kind(AttrKind::NoUndef)));
    assert!(!m.remove_call_attr(call, AttrSlot::Function, AttrKey::Kind(AttrKind::NoUnwind)));
    assert!(m.remove_call_attr(call, AttrSlot::Function, conv));
    assert!(!m.remove_call_attr(call, AttrSlot::Function, conv));
    assert!(!m
        .call_attrs(call, AttrSlot::Function)
        .any(|a| conv.matches(&a)));
}

/// `int_attr` and `type_attr` look attributes up by interned name too;
/// they must return what the first matching attribute of `attrs` holds.
#[test]
fn int_and_type_attr_agree_with_scanning() {
    use nvpass_core::ir::Attr;
    let (mut ints, mut types) = (0u64, 0u64);
    for_each_slot(|path, m, f, slot| {
        for &kind in AttrKind::ALL {
            let int = m.attrs(f, slot).find_map(|a| match a {
                Attr::Int(k, v) if k == kind => Some(v),
                _ => None,
            });
            let ty = m.attrs(f, slot).find_map(|a| match a {
                Attr::Type(k, t) if k == kind => Some(t),
                _ => None,
            });
            let at = || {
                format!(
                    "{}: {} {slot:?} {kind:?}",
                    path.display(),
                    IrView::func_name(m, f)
                )
            };
            assert_eq!(m.int_attr(f, slot, kind), int, "{}", at());
            assert_eq!(m.type_attr(f, slot, kind), ty, "{}", at());
            ints += u64::from(int.is_some());
            types += u64::from(ty.is_some());
        }
    });
    assert!(
        ints > 100 && types > 10,
        "{ints} int, {types} type attributes"
    );
}

/// `attr_types` reads the stored type attributes without converting the
/// others; it must list the types of the `Attr::Type`s of `attrs`, in
/// order, for every slot, including a type attribute of a kind nvpass
/// does not know (which `attrs` gives as unknown, so it is no type).
#[test]
fn attr_types_agree_with_scanning() {
    use nvpass_core::ir::Attr;
    let mut listed = 0u64;
    let mut check = |path: &std::path::Path, m: &nvpass_ir::Module, f: FuncId, slot: AttrSlot| {
        let scanned: Vec<_> = m
            .attrs(f, slot)
            .filter_map(|a| match a {
                Attr::Type(_, t) => Some(t),
                _ => None,
            })
            .collect();
        let direct: Vec<_> = m.attr_types(f, slot).collect();
        assert_eq!(
            direct,
            scanned,
            "{}: {} {slot:?}",
            path.display(),
            IrView::func_name(m, f)
        );
        listed += scanned.len() as u64;
    };
    for_each_slot(&mut check);
    let src = b"%T = type { i32 }\n\
                declare void @f(ptr byval(%T) %a, ptr sret(i32) elementtype(i8) %b, ptr %c)\n";
    let mut m = parse_module(src).unwrap();
    // A type attribute of a kind no parse makes, built in place.
    let func = m.func_by_name("f").unwrap();
    let kind = m.strings.intern(b"futuretype");
    let ty = m.types.int(64);
    m.funcs[func].params[2]
        .attrs
        .attrs
        .push(nvpass_ir::attr::Attr::Type { kind, ty });
    let f = IrView::func_by_name(&m, "f").unwrap();
    for k in 0..3 {
        check(std::path::Path::new("inline"), &m, f, AttrSlot::Param(k));
    }
    assert_eq!(m.attr_types(f, AttrSlot::Param(1)).count(), 2);
    assert_eq!(m.attr_types(f, AttrSlot::Param(2)).count(), 0);
    assert!(listed > 10, "{listed} type attributes");
}

/// `func_name_starts_with` compares the stored name's bytes; for every
/// function of every input it must answer as `func_name(f).starts_with`.
#[test]
fn func_name_prefix_agrees_with_name() {
    let mut intrinsics = 0u64;
    for path in inputs() {
        let Ok(m) = parse_module(&std::fs::read(&path).expect("read")) else {
            continue;
        };
        for f in m.funcs() {
            let name = IrView::func_name(&m, f);
            for prefix in ["", "llvm.", "llvm.dbg.", "_Z", name, "x"] {
                assert_eq!(
                    m.func_name_starts_with(f, prefix),
                    name.starts_with(prefix),
                    "{}: {name} {prefix}",
                    path.display()
                );
            }
            intrinsics += u64::from(m.func_name_starts_with(f, "llvm."));
        }
    }
    assert!(intrinsics > 100, "{intrinsics} intrinsics");
}

/// `operand(i, k)` reads the operand list directly (a call's callee, stored
/// first, is the last operand); it must agree with the `k`-th of
/// `operands(i)`, and be `None` one past the end, for every instruction.
#[test]
fn operand_agrees_with_operands() {
    let mut checked = 0u64;
    let mut calls = 0u64;
    for path in inputs() {
        let Ok(m) = parse_module(&std::fs::read(&path).expect("read")) else {
            continue;
        };
        for f in m.funcs() {
            for b in m.blocks(f) {
                for i in m.insts(b) {
                    let all: Vec<_> = IrView::operands(&m, i).collect();
                    assert_eq!(IrView::num_operands(&m, i), all.len(), "{}", path.display());
                    for (k, &v) in all.iter().enumerate() {
                        assert_eq!(
                            IrView::operand(&m, i, k),
                            Some(v),
                            "{} operand {k}",
                            path.display()
                        );
                        checked += 1;
                    }
                    assert_eq!(
                        IrView::operand(&m, i, all.len()),
                        None,
                        "{}",
                        path.display()
                    );
                    if m.callee(i).is_some() {
                        calls += 1;
                    }
                }
            }
        }
    }
    assert!(
        checked > 1000 && calls > 100,
        "{checked} operands, {calls} calls"
    );
}

/// `call_has_attr` answers as scanning `call_attrs` does, for every call
/// site, slot and key of every input.
#[test]
fn call_has_attr_agrees_with_scanning() {
    let (mut checked, mut present) = (0u64, 0u64);
    for path in inputs() {
        let Ok(m) = parse_module(&std::fs::read(&path).expect("read")) else {
            continue;
        };
        for f in m.funcs().collect::<Vec<_>>() {
            for i in m.blocks(f).flat_map(|b| m.insts(b)).collect::<Vec<_>>() {
                if !m.opcode(i).is_call() {
                    continue;
                }
                let nargs = m.call_args(i).count() as u32;
                let slots = [AttrSlot::Function, AttrSlot::Return]
                    .into_iter()
                    .chain((0..nargs).map(AttrSlot::Param));
                for slot in slots {
                    let mut keys: Vec<AttrKey<'_>> =
                        AttrKind::ALL.iter().map(|&k| AttrKey::Kind(k)).collect();
                    keys.extend([
                        AttrKey::Str("nvvm.cdp.variant"),
                        AttrKey::Str("never-interned-key"),
                        AttrKey::Other("memory"),
                    ]);
                    for key in keys {
                        let scanned = m.call_attrs(i, slot).any(|a| key.matches(&a));
                        assert_eq!(
                            m.call_has_attr(i, slot, key),
                            scanned,
                            "{}: call in {} {slot:?} {key:?}",
                            path.display(),
                            IrView::func_name(&m, f)
                        );
                        checked += 1;
                        present += u64::from(scanned);
                    }
                }
            }
        }
    }
    assert!(
        checked > 10_000 && present > 100,
        "{checked} checked, {present} present"
    );
}

/// Attribute groups numbered out of order, or not from 0, are found by
/// their number.
#[test]
fn groups_are_found_by_number_in_any_order() {
    let src = b"define void @f() #7 {\n  call void @g() #2\n  call void @g() #0\n  ret void\n}\n\
                declare void @g()\n\
                attributes #2 = { noinline }\n\
                attributes #7 = { convergent }\n\
                attributes #0 = { nounwind }\n";
    let m = parse_module(src).unwrap();
    let f = IrView::func_by_name(&m, "f").unwrap();
    let calls: Vec<_> = m.blocks(f).flat_map(|b| m.insts(b)).take(2).collect();
    let key = |k| AttrKey::Kind(k);
    assert!(m.has_attr(f, AttrSlot::Function, key(AttrKind::Convergent)));
    assert!(!m.has_attr(f, AttrSlot::Function, key(AttrKind::NoInline)));
    assert!(m.call_has_attr(calls[0], AttrSlot::Function, key(AttrKind::NoInline)));
    assert!(!m.call_has_attr(calls[0], AttrSlot::Function, key(AttrKind::NoUnwind)));
    assert!(m.call_has_attr(calls[1], AttrSlot::Function, key(AttrKind::NoUnwind)));
    assert!(!m.call_has_attr(calls[1], AttrSlot::Function, key(AttrKind::NoInline)));
}
