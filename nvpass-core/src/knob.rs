//! Typed knobs (LLVM `cl::opt` style) and their values.
//!
//! A pass declares each knob once as a `pub const` [`KnobInfo`] (name, kind,
//! default, description, with a doc comment citing the spec) and lists it in
//! its [`PassInfo`](crate::pass::PassInfo). The CLI collects the declarations
//! into a [`KnobValues`], feeds it `--name=value` arguments, and passes read
//! typed values through the [`PassContext`](crate::pass::PassContext).
//!
//! Value syntax:
//! - `Bool`: `true`/`false`/`1`/`0` (any case of `true`/`false`); a bare
//!   `--flag` means `true`.
//! - `Int`: optional sign, decimal or `0x` hexadecimal (`-1`, `0x10`).
//! - `UInt`: decimal or `0x` hexadecimal, no sign.
//! - `Str`: any text, including empty.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use hashbrown::HashMap;

/// The type of a knob's value.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum KnobKind {
    /// `true` / `false`.
    Bool,
    /// A signed 64-bit integer.
    Int,
    /// An unsigned 64-bit integer.
    UInt,
    /// Free text.
    Str,
}

impl KnobKind {
    /// A word for error messages.
    pub const fn describe(self) -> &'static str {
        match self {
            KnobKind::Bool => "a boolean (true, false, 1, 0)",
            KnobKind::Int => "an integer",
            KnobKind::UInt => "a non-negative integer",
            KnobKind::Str => "a string",
        }
    }
}

/// Static declaration of one knob.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct KnobInfo {
    /// Command-line name without dashes (`"memspace-opt-verbose"`).
    pub name: &'static str,
    /// Value type.
    pub kind: KnobKind,
    /// Default, in the same syntax as a command-line value.
    pub default: &'static str,
    /// One-line help text.
    pub description: &'static str,
}

impl KnobInfo {
    /// Parses the default value; `Err` means the declaration itself is wrong
    /// (pass crates check every declaration in a unit test).
    pub fn default_value(&self) -> Result<KnobValue, KnobError> {
        parse_value(self, self.default)
    }
}

/// A typed knob value.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum KnobValue {
    /// For [`KnobKind::Bool`].
    Bool(bool),
    /// For [`KnobKind::Int`].
    Int(i64),
    /// For [`KnobKind::UInt`].
    UInt(u64),
    /// For [`KnobKind::Str`].
    Str(String),
}

impl fmt::Display for KnobValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnobValue::Bool(b) => write!(f, "{b}"),
            KnobValue::Int(i) => write!(f, "{i}"),
            KnobValue::UInt(u) => write!(f, "{u}"),
            KnobValue::Str(s) => f.write_str(s),
        }
    }
}

/// Why a knob argument was rejected.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum KnobError {
    /// The argument does not start with `-` or `--`.
    NotAKnob {
        /// The argument.
        arg: String,
    },
    /// No knob has this name.
    Unknown {
        /// The name given.
        name: String,
    },
    /// The value does not parse as the knob's kind.
    BadValue {
        /// Knob name.
        name: String,
        /// The value given.
        value: String,
        /// The kind expected.
        expected: KnobKind,
    },
    /// A non-boolean knob was given without `=value`.
    MissingValue {
        /// Knob name.
        name: String,
    },
    /// Two declarations share a name but differ.
    ConflictingDeclaration {
        /// Knob name.
        name: String,
    },
}

impl fmt::Display for KnobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KnobError::NotAKnob { arg } => write!(f, "'{arg}' is not a '--name=value' option"),
            KnobError::Unknown { name } => write!(f, "unknown option '--{name}'"),
            KnobError::BadValue {
                name,
                value,
                expected,
            } => write!(
                f,
                "invalid value '{value}' for option '--{name}': expected {}",
                expected.describe()
            ),
            KnobError::MissingValue { name } => {
                write!(f, "option '--{name}' requires a value ('--{name}=<value>')")
            }
            KnobError::ConflictingDeclaration { name } => {
                write!(
                    f,
                    "option '{name}' is declared twice with different settings"
                )
            }
        }
    }
}

fn parse_u64(text: &str) -> Option<u64> {
    match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
        Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
            u64::from_str_radix(hex, 16).ok()
        }
        Some(_) => None,
        None if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => text.parse().ok(),
        None => None,
    }
}

fn parse_value(knob: &KnobInfo, text: &str) -> Result<KnobValue, KnobError> {
    let bad = || KnobError::BadValue {
        name: knob.name.to_string(),
        value: text.to_string(),
        expected: knob.kind,
    };
    match knob.kind {
        KnobKind::Bool => {
            if text == "1" || text.eq_ignore_ascii_case("true") {
                Ok(KnobValue::Bool(true))
            } else if text == "0" || text.eq_ignore_ascii_case("false") {
                Ok(KnobValue::Bool(false))
            } else {
                Err(bad())
            }
        }
        KnobKind::Int => {
            let (neg, digits) = match text.as_bytes().first() {
                Some(b'-') => (true, &text[1..]),
                Some(b'+') => (false, &text[1..]),
                _ => (false, text),
            };
            let magnitude = parse_u64(digits).ok_or_else(bad)?;
            let value = if neg {
                0i64.checked_sub_unsigned(magnitude)
            } else {
                i64::try_from(magnitude).ok()
            };
            value.map(KnobValue::Int).ok_or_else(bad)
        }
        KnobKind::UInt => parse_u64(text).map(KnobValue::UInt).ok_or_else(bad),
        KnobKind::Str => Ok(KnobValue::Str(text.to_string())),
    }
}

/// The set of declared knobs and the values given for them.
#[derive(Clone, Default, Debug)]
pub struct KnobValues {
    decls: HashMap<&'static str, &'static KnobInfo>,
    order: Vec<&'static KnobInfo>,
    values: HashMap<&'static str, KnobValue>,
}

impl KnobValues {
    /// An empty set with no declarations.
    pub fn new() -> KnobValues {
        KnobValues::default()
    }

    /// Declares knobs. Declaring the same `&KnobInfo` contents twice is
    /// allowed (two passes sharing a knob); two different declarations of
    /// one name, or a default that does not parse, are errors.
    pub fn declare(&mut self, knobs: &'static [KnobInfo]) -> Result<(), KnobError> {
        for knob in knobs {
            knob.default_value()?;
            match self.decls.get(knob.name) {
                Some(existing) if **existing != *knob => {
                    return Err(KnobError::ConflictingDeclaration {
                        name: knob.name.to_string(),
                    })
                }
                Some(_) => {}
                None => {
                    self.decls.insert(knob.name, knob);
                    self.order.push(knob);
                }
            }
        }
        Ok(())
    }

    /// Declared knobs in declaration order (for `--help`).
    pub fn declared(&self) -> &[&'static KnobInfo] {
        &self.order
    }

    /// Whether `name` is declared.
    pub fn is_declared(&self, name: &str) -> bool {
        self.decls.contains_key(name)
    }

    /// Sets knob `name` from its textual value.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), KnobError> {
        let knob = *self.decls.get(name).ok_or_else(|| KnobError::Unknown {
            name: name.to_string(),
        })?;
        let v = parse_value(knob, value)?;
        self.values.insert(knob.name, v);
        Ok(())
    }

    /// Parses one command-line argument `--name=value`, `-name=value`, or
    /// `--name` (booleans only) and sets the knob.
    pub fn set_from_arg(&mut self, arg: &str) -> Result<(), KnobError> {
        let body = arg
            .strip_prefix("--")
            .or_else(|| arg.strip_prefix('-'))
            .filter(|b| !b.is_empty())
            .ok_or_else(|| KnobError::NotAKnob {
                arg: arg.to_string(),
            })?;
        match body.split_once('=') {
            Some((name, value)) => self.set(name, value),
            None => {
                let knob = *self.decls.get(body).ok_or_else(|| KnobError::Unknown {
                    name: body.to_string(),
                })?;
                if knob.kind != KnobKind::Bool {
                    return Err(KnobError::MissingValue {
                        name: body.to_string(),
                    });
                }
                self.values.insert(knob.name, KnobValue::Bool(true));
                Ok(())
            }
        }
    }

    /// The explicitly set value of `name`, if any.
    pub fn explicit(&self, name: &str) -> Option<&KnobValue> {
        self.values.get(name)
    }

    /// The value of `knob`: the one set, else its default.
    ///
    /// If `knob`'s default does not parse (a declaration bug that
    /// [`KnobValues::declare`] and [`KnobInfo::default_value`] report), the
    /// zero value of its kind is returned rather than panicking.
    pub fn value(&self, knob: &KnobInfo) -> KnobValue {
        if let Some(v) = self.values.get(knob.name) {
            if kind_of(v) == knob.kind {
                return v.clone();
            }
        }
        knob.default_value().unwrap_or(match knob.kind {
            KnobKind::Bool => KnobValue::Bool(false),
            KnobKind::Int => KnobValue::Int(0),
            KnobKind::UInt => KnobValue::UInt(0),
            KnobKind::Str => KnobValue::Str(String::new()),
        })
    }

    /// The value of a [`KnobKind::Bool`] knob (`false` for other kinds).
    pub fn bool(&self, knob: &KnobInfo) -> bool {
        matches!(self.value(knob), KnobValue::Bool(true))
    }

    /// The value of a [`KnobKind::Int`] knob (`0` for other kinds).
    pub fn int(&self, knob: &KnobInfo) -> i64 {
        match self.value(knob) {
            KnobValue::Int(i) => i,
            _ => 0,
        }
    }

    /// The value of a [`KnobKind::UInt`] knob (`0` for other kinds).
    pub fn uint(&self, knob: &KnobInfo) -> u64 {
        match self.value(knob) {
            KnobValue::UInt(u) => u,
            _ => 0,
        }
    }

    /// The value of a [`KnobKind::Str`] knob (`""` for other kinds).
    pub fn str(&self, knob: &KnobInfo) -> String {
        match self.value(knob) {
            KnobValue::Str(s) => s,
            _ => String::new(),
        }
    }
}

fn kind_of(v: &KnobValue) -> KnobKind {
    match v {
        KnobValue::Bool(_) => KnobKind::Bool,
        KnobValue::Int(_) => KnobKind::Int,
        KnobValue::UInt(_) => KnobKind::UInt,
        KnobValue::Str(_) => KnobKind::Str,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const VERBOSE: KnobInfo = KnobInfo {
        name: "verbose",
        kind: KnobKind::Bool,
        default: "false",
        description: "talk",
    };
    const BUDGET: KnobInfo = KnobInfo {
        name: "budget",
        kind: KnobKind::Int,
        default: "-1",
        description: "clone budget",
    };
    const CAP: KnobInfo = KnobInfo {
        name: "cap",
        kind: KnobKind::UInt,
        default: "1024",
        description: "cap",
    };
    const MODE: KnobInfo = KnobInfo {
        name: "mode",
        kind: KnobKind::Str,
        default: "none",
        description: "mode",
    };
    static ALL: [KnobInfo; 4] = [VERBOSE, BUDGET, CAP, MODE];

    fn values() -> KnobValues {
        let mut v = KnobValues::new();
        v.declare(&ALL).unwrap();
        v
    }

    #[test]
    fn defaults() {
        let v = values();
        assert!(!v.bool(&VERBOSE));
        assert_eq!(v.int(&BUDGET), -1);
        assert_eq!(v.uint(&CAP), 1024);
        assert_eq!(v.str(&MODE), "none");
        assert_eq!(v.explicit("cap"), None);
        assert_eq!(v.declared().len(), 4);
    }

    #[test]
    fn parses_arguments() {
        let mut v = values();
        v.set_from_arg("--verbose").unwrap();
        assert!(v.bool(&VERBOSE));
        v.set_from_arg("-verbose=0").unwrap();
        assert!(!v.bool(&VERBOSE));
        v.set_from_arg("--verbose=TRUE").unwrap();
        assert!(v.bool(&VERBOSE));
        v.set_from_arg("--budget=-9223372036854775808").unwrap();
        assert_eq!(v.int(&BUDGET), i64::MIN);
        v.set_from_arg("--budget=0x10").unwrap();
        assert_eq!(v.int(&BUDGET), 16);
        v.set_from_arg("--cap=18446744073709551615").unwrap();
        assert_eq!(v.uint(&CAP), u64::MAX);
        v.set_from_arg("--mode=").unwrap();
        assert_eq!(v.str(&MODE), "");
        v.set_from_arg("--mode=a=b").unwrap();
        assert_eq!(v.str(&MODE), "a=b");
    }

    #[test]
    fn reports_errors() {
        let mut v = values();
        let bad = |name: &str, value: &str, expected| KnobError::BadValue {
            name: name.into(),
            value: value.into(),
            expected,
        };
        assert_eq!(
            v.set_from_arg("--verbose=yes"),
            Err(bad("verbose", "yes", KnobKind::Bool))
        );
        assert_eq!(
            v.set_from_arg("--budget=1.5"),
            Err(bad("budget", "1.5", KnobKind::Int))
        );
        assert_eq!(
            v.set_from_arg("--budget=9223372036854775808"),
            Err(bad("budget", "9223372036854775808", KnobKind::Int))
        );
        assert_eq!(
            v.set_from_arg("--budget="),
            Err(bad("budget", "", KnobKind::Int))
        );
        assert_eq!(
            v.set_from_arg("--budget=-"),
            Err(bad("budget", "-", KnobKind::Int))
        );
        assert_eq!(
            v.set_from_arg("--cap=-1"),
            Err(bad("cap", "-1", KnobKind::UInt))
        );
        assert_eq!(
            v.set_from_arg("--cap=0x"),
            Err(bad("cap", "0x", KnobKind::UInt))
        );
        assert_eq!(
            v.set_from_arg("--cap=18446744073709551616"),
            Err(bad("cap", "18446744073709551616", KnobKind::UInt))
        );
        assert_eq!(
            v.set_from_arg("--cap"),
            Err(KnobError::MissingValue { name: "cap".into() })
        );
        assert_eq!(
            v.set_from_arg("--nope=1"),
            Err(KnobError::Unknown {
                name: "nope".into()
            })
        );
        assert_eq!(
            v.set_from_arg("cap=1"),
            Err(KnobError::NotAKnob {
                arg: "cap=1".into()
            })
        );
        assert_eq!(
            v.set_from_arg("--"),
            Err(KnobError::NotAKnob { arg: "--".into() })
        );
        // Failed sets leave the old value.
        assert_eq!(v.uint(&CAP), 1024);
        assert_eq!(
            alloc::format!("{}", bad("cap", "-1", KnobKind::UInt)),
            "invalid value '-1' for option '--cap': expected a non-negative integer"
        );
    }

    #[test]
    fn declarations_are_checked() {
        static BAD_DEFAULT: [KnobInfo; 1] = [KnobInfo {
            name: "x",
            kind: KnobKind::UInt,
            default: "many",
            description: "",
        }];
        static CONFLICT: [KnobInfo; 1] = [KnobInfo {
            name: "cap",
            kind: KnobKind::Int,
            default: "1",
            description: "",
        }];
        let mut v = values();
        assert!(matches!(
            v.declare(&BAD_DEFAULT),
            Err(KnobError::BadValue { .. })
        ));
        assert!(matches!(
            v.declare(&CONFLICT),
            Err(KnobError::ConflictingDeclaration { .. })
        ));
        v.declare(&ALL).unwrap();
        // An undeclared knob reads its default; a broken default reads zero.
        assert_eq!(KnobValues::new().int(&BUDGET), -1);
        assert_eq!(KnobValues::new().uint(&BAD_DEFAULT[0]), 0);
    }
}
