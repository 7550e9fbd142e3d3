//! Self-tests of RUN-line extraction, substitution and the shell subset.

use super::lit_runner::{extract_run_lines, substitute, RunLine};
use super::shell::{lex, parse, Command, Redirect, Token};
use std::path::Path;

fn words(script: &str) -> Vec<Token> {
    lex(script, &|w| w.to_string()).unwrap()
}

fn parse_str(script: &str) -> Result<Vec<Vec<Command>>, String> {
    parse(&lex(script, &|w| w.to_string())?)
}

fn argv(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn run_lines_and_continuations() {
    let text = "; RUN: nvpass-cli run %s \\\n; RUN:   --pipeline x | FileCheck %s\ndefine void @f() {\n; RUN: not nvpass-cli\n";
    assert_eq!(
        extract_run_lines(text).unwrap(),
        vec![
            RunLine {
                line: 1,
                command: "nvpass-cli run %s    --pipeline x | FileCheck %s".into()
            },
            RunLine {
                line: 4,
                command: "not nvpass-cli".into()
            },
        ]
    );
    assert!(extract_run_lines("; RUN: a \\\n").is_err());
    assert!(extract_run_lines("; RUN: a \\\ndefine\n").is_err());
    assert!(extract_run_lines("define void @f()\n").unwrap().is_empty());
}

#[test]
fn substitutions() {
    let file = Path::new("/src/tests/lit/a.ll");
    let tmp = Path::new("/tmp/lit/a.ll.tmp");
    assert_eq!(substitute("%s", file, tmp), "/src/tests/lit/a.ll");
    assert_eq!(substitute("%S/x", file, tmp), "/src/tests/lit/x");
    assert_eq!(substitute("%t.out", file, tmp), "/tmp/lit/a.ll.tmp.out");
    assert_eq!(substitute("%T", file, tmp), "/tmp/lit");
    assert_eq!(substitute("100%%", file, tmp), "100%");
    assert_eq!(substitute("%q", file, tmp), "%q");
}

#[test]
fn quoting() {
    assert_eq!(
        words(r#"a 'b c' "d \"e\"" f\ g '' x'y'"z""#),
        ["a", "b c", "d \"e\"", "f g", "", "xyz"]
            .iter()
            .map(|s| Token::Word(s.to_string()))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        words("--pipeline ''"),
        vec![Token::Word("--pipeline".into()), Token::Word("".into())]
    );
    assert!(lex("'abc", &|w| w.to_string()).is_err());
    assert!(lex("\"abc", &|w| w.to_string()).is_err());
    assert!(lex("echo $HOME", &|w| w.to_string()).is_err());
    // Substitution applies to word text, after quote removal.
    assert_eq!(
        lex("'%s'", &|w| w.replace("%s", "F")).unwrap(),
        vec![Token::Word("F".into())]
    );
}

#[test]
fn operators() {
    assert_eq!(
        words("a 2>&1|b<c>d"),
        vec![
            Token::Word("a".into()),
            Token::Op("2>&1"),
            Token::Op("|"),
            Token::Word("b".into()),
            Token::Op("<"),
            Token::Word("c".into()),
            Token::Op(">"),
            Token::Word("d".into()),
        ]
    );
    // `2>` only as a word of its own.
    assert_eq!(
        words("x2>y"),
        vec![
            Token::Word("x2".into()),
            Token::Op(">"),
            Token::Word("y".into())
        ]
    );
}

#[test]
fn pipelines() {
    let s = parse_str("not nvpass-cli run --pipeline 'a,b' < %s 2>&1 | FileCheck %s && FileCheck --input-file %t %s")
        .unwrap();
    assert_eq!(s.len(), 2);
    assert_eq!(
        s[0],
        vec![
            Command {
                nots: 1,
                argv: argv(&["nvpass-cli", "run", "--pipeline", "a,b"]),
                stdin: Some("%s".into()),
                stdout: None,
                stderr: Some(Redirect::ToStdout),
            },
            Command {
                argv: argv(&["FileCheck", "%s"]),
                ..Default::default()
            },
        ]
    );
    assert_eq!(
        s[1][0].argv,
        argv(&["FileCheck", "--input-file", "%t", "%s"])
    );
    let s = parse_str("not not a > out 2> err").unwrap();
    assert_eq!(s[0][0].nots, 2);
    assert_eq!(
        s[0][0].stdout,
        Some(Redirect::File {
            path: "out".into(),
            append: false
        })
    );
    assert_eq!(
        s[0][0].stderr,
        Some(Redirect::File {
            path: "err".into(),
            append: false
        })
    );
}

#[test]
fn unsupported_constructs() {
    for bad in [
        "a || b", "a ; b", "a &", "(a)", "a |", "| a", "a && ", "not", "a <", "a > | b",
    ] {
        assert!(parse_str(bad).is_err(), "{bad:?} should be rejected");
    }
    assert_eq!(parse_str("").unwrap(), Vec::<Vec<Command>>::new());
}
