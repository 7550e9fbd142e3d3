//! Round trips through the parser: print(parse(print(parse(x)))) must equal
//! print(parse(x)), and parsed modules must verify. With `NVPASS_LLVM_AS`
//! set, the printed text is also checked with `llvm-as-19` and compared
//! with the original using `llvm-diff-19`.

use nvpass_ir::{parse_module, print_module, verify_module};
use std::path::{Path, PathBuf};
use std::process::Command;

fn inputs() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in [
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parse_data"),
        PathBuf::from("/root/.cache/nvpass-corpus/ll"),
    ] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut e: Vec<_> = rd
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "ll"))
                .collect();
            e.sort();
            v.extend(e);
        }
    }
    v
}

fn llvm_checks(path: &Path, text: &str) {
    if std::env::var_os("NVPASS_LLVM_AS").is_none() {
        return;
    }
    // Inputs written for newer LLVM releases are only checked for the fixpoint.
    let orig_ok = Command::new("opt-19")
        .args(["-passes=verify", "-disable-output"])
        .arg(path)
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap()
        .success();
    if !orig_ok {
        return;
    }
    let tmp = std::env::temp_dir().join(format!(
        "nvpass-rt-{}-{}",
        std::process::id(),
        path.file_name().unwrap().to_string_lossy()
    ));
    std::fs::write(&tmp, text).unwrap();
    let st = Command::new("opt-19")
        .args(["-passes=verify", "-disable-output"])
        .arg(&tmp)
        .status()
        .unwrap();
    assert!(
        st.success(),
        "opt-19 -passes=verify rejected {}",
        tmp.display()
    );
    let out = Command::new("llvm-diff-19")
        .arg(path)
        .arg(&tmp)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "llvm-diff-19 {} {}:\n{}",
        path.display(),
        tmp.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_file(&tmp);
}

#[test]
fn print_parse_fixpoint() {
    let files = inputs();
    if files.is_empty() {
        return;
    }
    for path in files {
        let src = std::fs::read(&path).unwrap();
        let m = match parse_module(&src) {
            Ok(m) => m,
            Err(e) => panic!("{}", e.render(&path.display().to_string(), &src)),
        };
        if let Err(errs) = verify_module(&m) {
            let msgs: Vec<String> = errs.iter().take(10).map(|e| e.describe(&m)).collect();
            panic!("{} does not verify:\n{}", path.display(), msgs.join("\n"));
        }
        let p1 = print_module(&m);
        let m2 = match parse_module(p1.as_bytes()) {
            Ok(m) => m,
            Err(e) => panic!(
                "re-parse of printed {} failed:\n{}",
                path.display(),
                e.render("<printed>", p1.as_bytes())
            ),
        };
        let p2 = print_module(&m2);
        if p1 != p2 {
            let (a, b): (Vec<_>, Vec<_>) = (p1.lines().collect(), p2.lines().collect());
            let k = a
                .iter()
                .zip(&b)
                .position(|(x, y)| x != y)
                .unwrap_or(a.len().min(b.len()));
            panic!(
                "{}: print is not a fixpoint at line {}:\n  {}\n  {}",
                path.display(),
                k + 1,
                a.get(k).unwrap_or(&""),
                b.get(k).unwrap_or(&"")
            );
        }
        if let Some(dir) = std::env::var_os("NVPASS_DUMP") {
            let out = Path::new(&dir).join(path.file_name().unwrap());
            std::fs::write(out, &p1).unwrap();
        }
        llvm_checks(&path, &p1);
    }
}
