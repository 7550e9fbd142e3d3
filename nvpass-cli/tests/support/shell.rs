//! The small shell subset that RUN lines may use.
//!
//! There is no real shell: a RUN script is split into words and operators
//! here and executed by `lit.rs`. Supported:
//!
//! * words with `'single'` and `"double"` quotes (in double quotes `\"`,
//!   `\\`, `\$` and `` \` `` are escapes) and backslash escapes outside quotes;
//! * sequences `A && B` (stop at the first failure);
//! * pipelines `A | B | C` (with `pipefail`, as lit runs them);
//! * `not CMD` (inverts the exit status; nests);
//! * redirections `< FILE`, `> FILE`, `>> FILE`, `2> FILE`, `2>> FILE`,
//!   `2>&1`, `&> FILE`.
//!
//! Anything else (`||`, `;`, `&`, `$VAR`, command substitution, subshells,
//! ...) is an error naming the unsupported construct. Glob characters are
//! not expanded (they pass through literally, as in a shell whose glob
//! matches nothing).

/// A lexical token of a RUN script.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    Word(String),
    Op(&'static str),
}

/// One command of a pipeline.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Command {
    /// How many `not`s precede the command.
    pub nots: usize,
    /// Program name and arguments.
    pub argv: Vec<String>,
    pub stdin: Option<String>,
    pub stdout: Option<Redirect>,
    pub stderr: Option<Redirect>,
}

/// Where an output stream goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Redirect {
    File {
        path: String,
        append: bool,
    },
    /// `2>&1`: standard error goes wherever standard output goes.
    ToStdout,
}

/// `A | B | ...`
pub type Pipeline = Vec<Command>;

const OPERATORS: &[&str] = &[
    "2>&1", "2>>", "&&", "||", ">>", "&>", "2>", "|", "&", ";", "<", ">", "(", ")",
];

/// Splits a RUN script into tokens. `subst` is applied to the text of each
/// word (after quote removal), so substituted paths never need quoting.
pub fn lex(script: &str, subst: &dyn Fn(&str) -> String) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = script.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    let mut word = String::new();
    let mut in_word = false;
    let finish = |word: &mut String, in_word: &mut bool, tokens: &mut Vec<Token>| {
        if *in_word {
            tokens.push(Token::Word(subst(word)));
            word.clear();
            *in_word = false;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            finish(&mut word, &mut in_word, &mut tokens);
            i += 1;
            continue;
        }
        // `2>` only when the `2` stands alone (`foo2>x` is `foo2 > x`).
        let at_word_start = !in_word;
        let rest: String = chars[i..chars.len().min(i + 4)].iter().collect();
        if let Some(op) = OPERATORS
            .iter()
            .find(|op| rest.starts_with(**op) && (!op.starts_with('2') || at_word_start))
        {
            finish(&mut word, &mut in_word, &mut tokens);
            tokens.push(Token::Op(op));
            i += op.chars().count();
            continue;
        }
        match c {
            '\'' => {
                in_word = true;
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '\'')
                    .ok_or("unterminated single quote")?;
                word.extend(&chars[i + 1..i + 1 + end]);
                i += end + 2;
            }
            '"' => {
                in_word = true;
                i += 1;
                loop {
                    match chars.get(i) {
                        None => return Err("unterminated double quote".to_string()),
                        Some('"') => break,
                        Some('\\') if matches!(chars.get(i + 1), Some('"' | '\\' | '$' | '`')) => {
                            word.push(chars[i + 1]);
                            i += 2;
                        }
                        Some('$') | Some('`') => {
                            return Err(format!(
                                "unsupported shell expansion '{}' in double quotes",
                                chars[i]
                            ))
                        }
                        Some(&c) => {
                            word.push(c);
                            i += 1;
                        }
                    }
                }
                i += 1;
            }
            '\\' => {
                in_word = true;
                let next = chars.get(i + 1).ok_or("trailing backslash")?;
                word.push(*next);
                i += 2;
            }
            '$' | '`' => {
                return Err(format!(
                    "unsupported shell expansion '{c}' (quote it if it is meant literally)"
                ));
            }
            _ => {
                in_word = true;
                word.push(c);
                i += 1;
            }
        }
    }
    finish(&mut word, &mut in_word, &mut tokens);
    Ok(tokens)
}

/// Parses tokens into `&&`-separated pipelines.
pub fn parse(tokens: &[Token]) -> Result<Vec<Pipeline>, String> {
    let mut script: Vec<Pipeline> = Vec::new();
    let mut pipeline: Pipeline = Vec::new();
    let mut cmd = Command::default();
    let mut i = 0;
    let end_command =
        |cmd: &mut Command, pipeline: &mut Pipeline, op: &str| -> Result<(), String> {
            if cmd.argv.is_empty() {
                return Err(format!("missing command before '{op}'"));
            }
            pipeline.push(std::mem::take(cmd));
            Ok(())
        };
    while i < tokens.len() {
        match &tokens[i] {
            Token::Word(w) => {
                if cmd.argv.is_empty() && w == "not" {
                    cmd.nots += 1;
                } else {
                    cmd.argv.push(w.clone());
                }
                i += 1;
            }
            Token::Op(op) => {
                let target = || match tokens.get(i + 1) {
                    Some(Token::Word(w)) => Ok(w.clone()),
                    _ => Err(format!("missing file name after '{op}'")),
                };
                match *op {
                    "|" => end_command(&mut cmd, &mut pipeline, op)?,
                    "&&" => {
                        end_command(&mut cmd, &mut pipeline, op)?;
                        script.push(std::mem::take(&mut pipeline));
                    }
                    "<" => {
                        cmd.stdin = Some(target()?);
                        i += 1;
                    }
                    ">" | ">>" => {
                        cmd.stdout = Some(Redirect::File {
                            path: target()?,
                            append: *op == ">>",
                        });
                        i += 1;
                    }
                    "2>" | "2>>" => {
                        cmd.stderr = Some(Redirect::File {
                            path: target()?,
                            append: *op == "2>>",
                        });
                        i += 1;
                    }
                    "&>" => {
                        cmd.stdout = Some(Redirect::File {
                            path: target()?,
                            append: false,
                        });
                        cmd.stderr = Some(Redirect::ToStdout);
                        i += 1;
                    }
                    "2>&1" => cmd.stderr = Some(Redirect::ToStdout),
                    other => return Err(format!("unsupported shell operator '{other}'")),
                }
                i += 1;
            }
        }
    }
    if cmd.argv.is_empty() {
        if cmd.nots > 0 || !pipeline.is_empty() || !script.is_empty() {
            return Err("missing command at end of RUN line".to_string());
        }
        return Ok(script);
    }
    pipeline.push(cmd);
    script.push(pipeline);
    Ok(script)
}
