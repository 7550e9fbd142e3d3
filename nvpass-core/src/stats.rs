//! Pass statistics: named counters per pass, printed like LLVM's `-stats`.
//!
//! A pass declares each counter as a `pub const` [`StatInfo`] and bumps it with
//! [`PassContext::add_stat`](crate::pass::PassContext::add_stat). As in LLVM, a
//! counter appears only once it has been incremented by a non-zero amount.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::{self, Write};

/// Static declaration of one counter (LLVM's `STATISTIC(Name, "desc")`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct StatInfo {
    /// Identifier (`"NumInlined"`).
    pub name: &'static str,
    /// Description printed by `-stats` (`"Number of functions inlined"`).
    pub description: &'static str,
}

/// One counter value.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct StatEntry {
    /// Pipeline name of the pass (LLVM's `DEBUG_TYPE`).
    pub pass: &'static str,
    /// The counter.
    pub stat: StatInfo,
    /// Accumulated value.
    pub value: u64,
}

/// All counters of a run.
#[derive(Clone, Default, Debug)]
pub struct Statistics {
    entries: Vec<StatEntry>,
}

impl Statistics {
    /// No counters.
    pub fn new() -> Statistics {
        Statistics::default()
    }

    /// Adds `n` to counter `stat` of pass `pass` (saturating); `n == 0` does
    /// nothing.
    pub fn add(&mut self, pass: &'static str, stat: &StatInfo, n: u64) {
        if n == 0 {
            return;
        }
        match self
            .entries
            .iter_mut()
            .find(|e| e.pass == pass && e.stat == *stat)
        {
            Some(e) => e.value = e.value.saturating_add(n),
            None => self.entries.push(StatEntry {
                pass,
                stat: *stat,
                value: n,
            }),
        }
    }

    /// The value of counter `stat` of pass `pass` (0 if never bumped).
    pub fn get(&self, pass: &str, stat: &StatInfo) -> u64 {
        self.entries
            .iter()
            .find(|e| e.pass == pass && e.stat == *stat)
            .map_or(0, |e| e.value)
    }

    /// Counters in first-bump order.
    pub fn entries(&self) -> &[StatEntry] {
        &self.entries
    }

    /// Whether no counter was bumped.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Writes the report exactly like LLVM's `PrintStatistics`: a banner,
    /// then one `<value> <pass> - <description>` line per counter (values
    /// right-aligned, pass names left-aligned to the widest), sorted by pass,
    /// name, then description, and a final empty line. Writes nothing when
    /// no counter was bumped.
    pub fn write_report(&self, out: &mut dyn Write) -> fmt::Result {
        if self.entries.is_empty() {
            return Ok(());
        }
        let mut sorted: Vec<&StatEntry> = self.entries.iter().collect();
        sorted.sort_by(|a, b| {
            (a.pass, a.stat.name, a.stat.description).cmp(&(
                b.pass,
                b.stat.name,
                b.stat.description,
            ))
        });
        let mut digits = String::new();
        let val_width = sorted
            .iter()
            .map(|e| {
                digits.clear();
                let _ = write!(digits, "{}", e.value);
                digits.len()
            })
            .max()
            .unwrap_or(0);
        let pass_width = sorted.iter().map(|e| e.pass.len()).max().unwrap_or(0);
        let rule =
            "===-------------------------------------------------------------------------===\n";
        out.write_str(rule)?;
        out.write_str("                          ... Statistics Collected ...\n")?;
        out.write_str(rule)?;
        out.write_char('\n')?;
        for e in sorted {
            writeln!(
                out,
                "{:>vw$} {:<pw$} - {}",
                e.value,
                e.pass,
                e.stat.description,
                vw = val_width,
                pw = pass_width
            )?;
        }
        out.write_char('\n')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const INLINED: StatInfo = StatInfo {
        name: "NumInlined",
        description: "Number of functions inlined",
    };
    const DELETED: StatInfo = StatInfo {
        name: "NumDeleted",
        description: "Number of functions deleted",
    };

    #[test]
    fn llvm_stats_format() {
        let mut s = Statistics::new();
        s.add("inline", &INLINED, 3);
        s.add("inline", &INLINED, 9);
        s.add("cdp", &DELETED, 1);
        s.add("inline", &DELETED, 0);
        assert_eq!(s.get("inline", &INLINED), 12);
        assert_eq!(s.get("inline", &DELETED), 0);
        let mut out = String::new();
        s.write_report(&mut out).unwrap();
        let expected = "\
===-------------------------------------------------------------------------===
                          ... Statistics Collected ...
===-------------------------------------------------------------------------===

 1 cdp    - Number of functions deleted
12 inline - Number of functions inlined

";
        assert_eq!(out, expected);
        let mut empty = String::new();
        Statistics::new().write_report(&mut empty).unwrap();
        assert!(empty.is_empty());
    }
}
