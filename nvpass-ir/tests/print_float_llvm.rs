//! Cross-checks float constant formatting against `llvm-dis-19` on many
//! values. Runs only when `NVPASS_LLVM_AS` is set (needs LLVM 19 tools).

use nvpass_ir::print::value_to_string;
use nvpass_ir::types::{FloatKind, TypeData};
use nvpass_ir::value::{Const, Wide};
use nvpass_ir::Module;
use std::io::Write;
use std::process::{Command, Stdio};

fn llvm_roundtrip(src: &str) -> String {
    let mut as_ = Command::new("llvm-as-19")
        .args(["-o", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    as_.stdin.take().unwrap().write_all(src.as_bytes()).unwrap();
    let bc = as_.wait_with_output().unwrap().stdout;
    let mut dis = Command::new("llvm-dis-19")
        .args(["-o", "-", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    dis.stdin.take().unwrap().write_all(&bc).unwrap();
    String::from_utf8(dis.wait_with_output().unwrap().stdout).unwrap()
}

#[test]
fn floats_match_llvm_dis() {
    if std::env::var_os("NVPASS_LLVM_AS").is_none() {
        return;
    }
    let mut state = 0x9E3779B97F4A7C15u64;
    let mut rnd = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut vals: Vec<(FloatKind, u64)> = Vec::new();
    for _ in 0..3000 {
        vals.push((FloatKind::Double, rnd()));
    }
    for _ in 0..3000 {
        // decimal-looking values
        let mant = (rnd() % 2_000_000) as f64;
        let e = (rnd() % 80) as i32 - 40;
        let v = mant * 10f64.powi(e);
        vals.push((FloatKind::Double, v.to_bits()));
        vals.push((FloatKind::Float, (v as f32).to_bits() as u64));
    }
    for _ in 0..2000 {
        vals.push((FloatKind::Float, rnd() & 0xFFFF_FFFF));
    }
    for i in 0..200u64 {
        vals.push((FloatKind::Double, i));
        vals.push((FloatKind::Double, (1u64 << 52) - i));
        vals.push((FloatKind::Float, i));
        vals.push((FloatKind::Double, (1000.0 + i as f64 * 0.25).to_bits()));
    }
    let mut src = String::new();
    let mut m = Module::new();
    let mut expect = Vec::new();
    for (k, (kind, bits)) in vals.iter().enumerate() {
        let t = m.types.intern(TypeData::Float(*kind));
        let v = m.const_scalar(t, Const::Float(Wide(*bits as u128)));
        let text = value_to_string(&m, v);
        let hex = match kind {
            FloatKind::Double => format!("0x{bits:016X}"),
            _ => {
                let f = f32::from_bits(*bits as u32);
                let d = if f.is_nan() {
                    ((*bits >> 31) << 63) | (0x7FFu64 << 52) | ((*bits & 0x7F_FFFF) << 29)
                } else {
                    (f as f64).to_bits()
                };
                format!("0x{d:016X}")
            }
        };
        src.push_str(&format!("@g{k} = global {} {hex}\n", kind.keyword()));
        expect.push(format!("@g{k} = global {text}"));
    }
    let out = llvm_roundtrip(&src);
    let got: Vec<&str> = out.lines().filter(|l| l.starts_with("@g")).collect();
    assert_eq!(got.len(), expect.len());
    let mut bad = 0;
    for (g, e) in got.iter().zip(&expect) {
        if *g != e {
            bad += 1;
            if bad < 20 {
                eprintln!("llvm: {g}\nours: {e}");
            }
        }
    }
    let dec = expect
        .iter()
        .filter(|e| e.contains("e+") || e.contains("e-"))
        .count();
    eprintln!("{} values, {dec} decimal", expect.len());
    assert!(dec > 1000);
    assert_eq!(bad, 0, "{bad} mismatches");
}
