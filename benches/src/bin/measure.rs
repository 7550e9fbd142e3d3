//! Runs one command and prints its wall time, CPU time (user + system) and
//! peak resident set, as `WALL_SECONDS CPU_SECONDS PEAK_RSS_KB`, for
//! `benches/compare-opt.sh`.
//!
//! ```text
//! measure CMD [ARG...]
//! ```
//!
//! The command's standard output goes to `/dev/null`; its standard error is
//! passed through. The exit status is the command's (1 when it was killed by
//! a signal or could not be started).
//!
//! Only the command is measured. The clock starts just before the command
//! is spawned and stops when `wait4` returns it, so the time includes the
//! command's own process start (loading and linking its binary) and nothing
//! of the caller. CPU time and peak RSS are the ones `wait4` reports for
//! the command. The peak RSS of a process created by fork or vfork counts
//! the pages of the process it was created from until it executes the
//! command; this process is small (about 2 MB), so that floor is low and
//! the same for both tools compared.

use std::process::{Command, ExitCode, Stdio};
use std::time::Instant;

/// Linux `struct rusage`: two `timeval`s, then fourteen `long`s, of which
/// the first is the peak RSS in KiB.
#[repr(C)]
struct Rusage {
    utime: [i64; 2],
    stime: [i64; 2],
    maxrss: i64,
    rest: [i64; 13],
}

extern "C" {
    fn wait4(pid: i32, status: *mut i32, options: i32, rusage: *mut Rusage) -> i32;
}

/// Seconds in a `timeval`.
fn seconds(tv: [i64; 2]) -> f64 {
    tv[0] as f64 + tv[1] as f64 * 1e-6
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((prog, rest)) = args.split_first() else {
        eprintln!("usage: measure CMD [ARG...]");
        return ExitCode::from(2);
    };
    let start = Instant::now();
    let child = match Command::new(prog).args(rest).stdout(Stdio::null()).spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("measure: cannot run {prog}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut status = 0i32;
    let mut ru = Rusage {
        utime: [0; 2],
        stime: [0; 2],
        maxrss: 0,
        rest: [0; 13],
    };
    let pid = child.id() as i32;
    // SAFETY: `pid` is this process's child, not yet waited for (the
    // `Child` handle is never waited on); both pointers are to live locals
    // of the layout the kernel writes.
    let r = loop {
        let r = unsafe { wait4(pid, &mut status, 0, &mut ru) };
        if r >= 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break r;
        }
    };
    let wall = start.elapsed().as_secs_f64();
    if r < 0 {
        eprintln!("measure: wait4: {}", std::io::Error::last_os_error());
        return ExitCode::FAILURE;
    }
    println!(
        "{wall:.4} {:.4} {}",
        seconds(ru.utime) + seconds(ru.stime),
        ru.maxrss
    );
    // Exited normally: the status's low seven bits are zero and the exit
    // code is in the next eight.
    if status & 0x7f == 0 {
        ExitCode::from(((status >> 8) & 0xff) as u8)
    } else {
        ExitCode::FAILURE
    }
}
