//! Input and output files.
//!
//! An input file is parsed as it is read, in pieces of [`READ_PIECE`]
//! bytes read straight into the reader's buffer
//! ([`nvpass_ir::ModuleReader::push_with`]), so its text is not held next
//! to the module; when that fails (an error in the input, or a text the
//! reader cannot cut), the whole file is read and parsed again, which
//! reports the error with its line. The reader is told the file's length
//! ([`ModuleReader::with_size_hint`]), so the module's largest tables
//! start with room for it instead of moving as they grow. Standard input
//! is read whole.
//!
//! Without `--threads`, an input file smaller than [`AUTO_THREADS_MIN`]
//! is handled on one thread ([`threads_for`]), and one smaller than
//! [`AUTO_TEXT_THREADS_MIN`] is read and printed on one
//! ([`text_threads_for`]). Read on more than one thread, a second thread
//! reads the file, cuts it at top-level entities and lexes
//! each piece while the first parses the piece before
//! ([`nvpass_ir::parse::read_lexed_ahead`]). The pieces are
//! then [`LEXED_PIECE`] bytes, so that the few alive at a time (one
//! parsed, up to [`nvpass_ir::parse::LEXED_AHEAD`] waiting, one being
//! lexed) hold little memory with their tokens. The module
//! is the same either way.
//!
//! Output is written to a temporary file beside the destination and renamed
//! into place only after everything succeeded, so a failing run never leaves
//! a partial or stale output file behind. An existing file is replaced by
//! exchanging the two where the system can, which spares the immediate
//! write-out ext4 does for a rename over a file ([`put_in_place`]).

use nvpass_ir::{Module, ModuleReader};
use std::convert::Infallible;
use std::fs;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes read from an input file at a time when parsing it in pieces.
pub const READ_PIECE: usize = 256 << 10;

/// Without `--threads`, an input file smaller than this is verified, run
/// and printed on one thread: below it, starting the other threads and
/// handing them work costs a fresh process more than they save. Measured
/// on the 2-vCPU machine CI runs on, each input read and printed on one
/// thread (see [`AUTO_TEXT_THREADS_MIN`]) and the rest on one or two,
/// each run after an `opt-19` of the same input (as
/// `benches/compare-opt.sh` runs them; median wall time of 15 runs):
///
/// | input | size | pipeline | one thread | two |
/// |---|---|---|---|---|
/// | cub_kernels.fe | 0.54 MiB | `''` | 8.3 ms | 8.4 ms |
/// | cub_kernels.fe | 0.54 MiB | card | 13.0 ms | 13.0 ms |
/// | generated | 1.00 MiB | `''` | 12.7 ms | 12.3 ms |
/// | generated | 1.00 MiB | card | 13.6 ms | 13.1 ms |
/// | generated | 2.00 MiB | `''` | 21.6 ms | 20.8 ms |
/// | generated | 2.00 MiB | card | 23.5 ms | 22.8 ms |
/// | libdevice | 2.60 MiB | `''` | 27.5 ms | 24.7 ms |
/// | libdevice | 2.60 MiB | card | 31.7 ms | 29.6 ms |
///
/// Two threads take more CPU time and memory (libdevice, `''`: 29.0
/// against 27.4 ms, 11.9 against 10.5 MB); the table's measure is the
/// time a run takes.
pub const AUTO_THREADS_MIN: u64 = 1 << 20;

/// Without `--threads`, an input file smaller than this is read and
/// printed on one thread, however many the rest of the run uses. Below
/// it, a second thread lexing ahead of the parser
/// ([`nvpass_ir::parse::read_lexed_ahead`]) hands its tokens over through
/// memory, which costs the parser about what lexing itself would, and
/// printing function bodies on two threads gains nothing either, while
/// taking more CPU time and memory. Measured as for [`AUTO_THREADS_MIN`],
/// with the rest of the run on two threads:
///
/// | input | size | pipeline | text on one thread | on two |
/// |---|---|---|---|---|
/// | libdevice, reading | 2.60 MiB | `''` | 25.4 ms | 26.0 ms |
/// | libdevice, printing | 2.60 MiB | `''` | 25.9 ms | 27.0 ms |
/// | libdevice, printing | 2.60 MiB | card | 29.0 ms | 29.2 ms |
/// | generated, printing | 2.00 MiB | `''` | 18.6 ms | 18.7 ms |
/// | generated, reading | 3.00 MiB | `''` | 28.5 ms | 27.3 ms |
/// | generated, reading | 4.01 MiB | `''` | 38.2 ms | 35.4 ms |
/// | generated, reading | 6.01 MiB | `''` | 54.7 ms | 48.9 ms |
/// | generated, printing | 12.0 MiB | card | 109.0 ms | 104.3 ms |
pub const AUTO_TEXT_THREADS_MIN: u64 = 3 << 20;

/// The threads a run uses: `requested` when given (above 0), otherwise
/// one for an input file smaller than [`AUTO_THREADS_MIN`] and
/// `hardware()` for a larger one or one whose size is unknown
/// (`input_size` `None`: standard input, which is read whole before its
/// size is known). `hardware` is called only in that last case: asking
/// the system costs a dozen system calls.
pub fn threads_for(
    requested: usize,
    input_size: Option<u64>,
    hardware: impl FnOnce() -> usize,
) -> usize {
    match (requested, input_size) {
        (0, Some(n)) if n < AUTO_THREADS_MIN => 1,
        (0, _) => hardware(),
        (n, _) => n,
    }
}

/// The threads that read and print the module's text in a run using
/// `threads` (from [`threads_for`]): all of them when they were
/// `requested`, otherwise one for an input file smaller than
/// [`AUTO_TEXT_THREADS_MIN`].
pub fn text_threads_for(requested: usize, input_size: Option<u64>, threads: usize) -> usize {
    match (requested, input_size) {
        (0, Some(n)) if n < AUTO_TEXT_THREADS_MIN => 1,
        _ => threads,
    }
}

/// The size of the input file at `path`, when it is a regular file.
pub fn input_size(path: &str) -> Option<u64> {
    if path == "-" {
        return None;
    }
    fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// Bytes read at a time when a second thread lexes ahead of the parser.
pub const LEXED_PIECE: usize = 64 << 10;

/// The smallest file read on two threads: below it, starting the second
/// thread costs more than it saves (criterion `parse-lexed-ahead`: a
/// 20 KB module reads in twice the time, one of 256 KiB in 8% less).
pub const LEXED_AHEAD_MIN: u64 = 128 << 10;

/// Parses the file at `path` while reading it, one [`READ_PIECE`] at a
/// time, or with `threads` above 1 on two threads when it holds at least
/// [`LEXED_AHEAD_MIN`] bytes (see the module docs).
/// `None` when it has to be read and parsed whole instead: it is not a
/// regular file (a pipe could not be read a second time), it cannot be
/// opened or read, or the text has an error (see the module docs).
pub fn parse_file_in_pieces(path: &str, threads: usize) -> Option<Module> {
    let mut f = fs::File::open(path).ok()?;
    let meta = f.metadata().ok()?;
    if !meta.is_file() {
        return None;
    }
    let mut reader = usize::try_from(meta.len())
        .map_or_else(|_| ModuleReader::new(), ModuleReader::with_size_hint);
    if threads > 1 && meta.len() >= LEXED_AHEAD_MIN {
        return nvpass_ir::parse::read_lexed_ahead_into(reader, f, LEXED_PIECE);
    }
    // The file is read straight into the reader's buffer, whose room is
    // zeroed when it grows: asked for no more than the rest of the file
    // (and a page, for the read that finds its end), it does not zero a
    // whole piece for a small file.
    let mut left = meta.len();
    loop {
        let room = usize::try_from(left).map_or(READ_PIECE, |n| n.clamp(4096, READ_PIECE));
        match reader.push_with(room, |room| f.read(room)) {
            Ok((0, _)) => break,
            Ok((n, true)) => left = left.saturating_sub(n as u64),
            Ok((_, false)) => return None,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return None,
        }
    }
    reader.finish()
}

/// Reads `path`, or standard input for `-`.
pub fn read_input(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut buf = Vec::new();
        io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| format!("<stdin>: error: cannot read standard input: {e}"))?;
        Ok(buf)
    } else {
        fs::read(path).map_err(|e| format!("{path}: error: cannot read file: {e}"))
    }
}

/// The name under which diagnostics refer to an input.
pub fn display_name(path: &str) -> &str {
    if path == "-" {
        "<stdin>"
    } else {
        path
    }
}

/// Writes `bytes` to `path` atomically (temporary file, then rename), or to
/// standard output when `path` is `None` or `-`.
///
/// A failed run leaves no file under `path`, and a reader never sees a
/// half-written one. The driver does not wait for the disk (no `fdatasync`)
/// before the rename: like `opt`'s and `clang`'s, its outputs are build
/// products a rerun recreates, and on a 50 MB output the wait cost as much
/// as printing.
pub fn write_output(path: Option<&str>, bytes: &[u8]) -> Result<(), String> {
    match write_output_accepted(path, |sink| sink(bytes), || Ok::<(), Infallible>(())) {
        Ok(written) => written,
        Err(never) => match never {},
    }
}

/// Like [`write_output`], but the bytes come from `produce`, which hands
/// them over in pieces (so the whole output never has to be in memory),
/// and they are kept only when `accept` succeeds; its error is returned
/// instead (as `Err`, before any write error), and nothing is written to
/// `path`. For a regular file `accept` runs once the bytes are in the
/// temporary file, before they are put in place, so it can wait for work
/// done beside `produce` (the driver verifies the input while printing
/// it). Bytes sent to standard output or a device cannot be taken back, so
/// there `accept` runs first.
pub fn write_output_accepted<E>(
    path: Option<&str>,
    produce: impl FnOnce(&mut dyn FnMut(&[u8])),
    accept: impl FnOnce() -> Result<(), E>,
) -> Result<Result<(), String>, E> {
    fn pump(w: &mut dyn Write, produce: impl FnOnce(&mut dyn FnMut(&[u8]))) -> io::Result<()> {
        let mut result = Ok(());
        produce(&mut |chunk: &[u8]| {
            if result.is_ok() {
                result = w.write_all(chunk);
            }
        });
        result.and_then(|_| w.flush())
    }
    match path {
        None | Some("-") => {
            accept()?;
            Ok(pump(&mut io::stdout().lock(), produce)
                .map_err(|e| format!("<stdout>: error: cannot write: {e}")))
        }
        Some(p) if is_special(Path::new(p)) => {
            accept()?;
            Ok(fs::OpenOptions::new()
                .write(true)
                .open(p)
                .and_then(|mut f| pump(&mut f, produce))
                .map_err(|e| format!("{p}: error: cannot write output: {e}")))
        }
        Some(p) => {
            let dest = Path::new(p);
            let tmp = temp_path(dest);
            let written = fs::File::create(&tmp).and_then(|mut f| pump(&mut f, produce));
            if let Err(e) = accept() {
                let _ = fs::remove_file(&tmp);
                return Err(e);
            }
            Ok(written.and_then(|_| put_in_place(&tmp, dest)).map_err(|e| {
                let _ = fs::remove_file(&tmp);
                format!("{}: error: cannot write output: {e}", dest.display())
            }))
        }
    }
}

/// Puts the finished temporary file `tmp` in place of `dest`.
///
/// Over an existing regular file on Linux, the two are exchanged
/// (`renameat2` with `RENAME_EXCHANGE`) and the old file, now under the
/// temporary name, is removed. A rename that replaces a file makes ext4
/// write the new file's data out at once (its `auto_da_alloc` guard
/// against empty files after a crash): 25 ms for a freshly written 50 MB
/// file, 2.5 ms for 3 MB, against 11 and 1 ms for the exchange and the
/// removal. An exchange replaces nothing, so the data is written back
/// later, as for a new file. `dest` still never names a partial file: it
/// names the old file until the exchange and the new one after. Where the
/// exchange is refused (a file system or system without it), and for a
/// new destination or a symbolic link, a plain rename.
fn put_in_place(tmp: &Path, dest: &Path) -> io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        let replaces_file = fs::symlink_metadata(dest).is_ok_and(|m| m.file_type().is_file());
        if replaces_file && exchange(tmp, dest).is_ok() {
            // The output is in place; a failure here only leaves the old
            // contents under the temporary name.
            let _ = fs::remove_file(tmp);
            return Ok(());
        }
    }
    fs::rename(tmp, dest)
}

/// Swaps the directory entries `a` and `b` atomically.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let a = CString::new(a.as_os_str().as_bytes())?;
    let b = CString::new(b.as_os_str().as_bytes())?;
    // SAFETY: `a` and `b` are NUL-terminated paths that outlive the call,
    // which only reads them.
    let r = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

fn temp_path(dest: &Path) -> PathBuf {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = format!(".{name}.nvpass-tmp-{}", std::process::id());
    match dest.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(tmp),
        _ => PathBuf::from(tmp),
    }
}

/// Whether `dest` exists and is neither a regular file nor a directory (a
/// device such as `/dev/null`, a FIFO, a socket). Such a destination is
/// written in place, as `opt` does: renaming a temporary file over it would
/// replace the device node with a regular file.
fn is_special(dest: &Path) -> bool {
    fs::metadata(dest).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_inputs_run_on_one_thread_unless_told() {
        let small = Some(AUTO_THREADS_MIN - 1);
        let large = Some(AUTO_THREADS_MIN);
        let eight = || 8;
        assert_eq!(threads_for(0, small, eight), 1);
        assert_eq!(threads_for(0, large, eight), 8);
        assert_eq!(threads_for(0, None, eight), 8);
        assert_eq!(threads_for(3, small, eight), 3);
        assert_eq!(threads_for(3, large, eight), 3);
        let unasked = || -> usize { panic!("hardware threads asked for") };
        assert_eq!(threads_for(0, small, unasked), 1);
        assert_eq!(threads_for(3, large, unasked), 3);
    }

    /// Without `--threads`, a file run on several threads is still read
    /// and printed on one below the text size; told, on them all.
    #[test]
    fn mid_sized_texts_are_read_and_printed_on_one_thread_unless_told() {
        const { assert!(AUTO_THREADS_MIN < AUTO_TEXT_THREADS_MIN) };
        let mid = Some(AUTO_TEXT_THREADS_MIN - 1);
        let large = Some(AUTO_TEXT_THREADS_MIN);
        assert_eq!(threads_for(0, mid, || 2), 2);
        assert_eq!(text_threads_for(0, mid, 2), 1);
        assert_eq!(text_threads_for(0, large, 2), 2);
        assert_eq!(text_threads_for(0, None, 2), 2);
        assert_eq!(text_threads_for(2, mid, 2), 2);
    }

    #[test]
    fn input_files_parse_in_pieces_like_whole() {
        let dir = std::env::temp_dir().join(format!("nvpass-in-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        // More than two pieces of globals and functions.
        let mut text = String::new();
        let mut i = 0;
        while text.len() < 2 * READ_PIECE + 1000 {
            text.push_str(&format!(
                "@g{i} = global i32 {i}\ndefine i32 @f{i}() {{\n  %v = load i32, ptr @g{i}\n  ret i32 %v\n}}\n"
            ));
            i += 1;
        }
        let good = dir.join("good.ll");
        fs::write(&good, &text).unwrap();
        let whole = nvpass_ir::parse_module(text.as_bytes()).unwrap();
        let mut bad_text = text.clone();
        // An error in the last piece: no module (the caller re-parses).
        bad_text.push_str("@bad = global i32 %x\n");
        let bad = dir.join("bad.ll");
        fs::write(&bad, &bad_text).unwrap();
        // One thread, and a second one lexing ahead.
        for threads in [1, 2] {
            let m = parse_file_in_pieces(good.to_str().unwrap(), threads).expect("parses");
            assert_eq!(nvpass_ir::print_module(&m), nvpass_ir::print_module(&whole));
            assert!(parse_file_in_pieces(bad.to_str().unwrap(), threads).is_none());
            let missing = dir.join("missing.ll");
            assert!(parse_file_in_pieces(missing.to_str().unwrap(), threads).is_none());
            // Not a regular file: left to the whole-file path, which reads
            // a pipe once.
            assert!(parse_file_in_pieces(dir.to_str().unwrap(), threads).is_none());
            // A device reads as an empty text, which would parse; it is
            // read whole instead (checked where /dev/null is the device).
            if fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()) {
                assert!(parse_file_in_pieces("/dev/null", threads).is_none());
            }
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp() {
        let dir = std::env::temp_dir().join(format!("nvpass-io-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.ll");
        write_output(Some(dest.to_str().unwrap()), b"first").unwrap();
        write_output(Some(dest.to_str().unwrap()), b"second").unwrap();
        assert_eq!(fs::read(&dest).unwrap(), b"second");
        let leftovers: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("nvpass-tmp"))
            .collect();
        assert!(leftovers.is_empty());
        fs::remove_dir_all(&dir).unwrap();
    }

    /// A device or FIFO destination is written in place: `-o /dev/null`
    /// must not replace the device with a regular file.
    #[test]
    fn special_destinations_are_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        if fs::metadata("/dev/null").is_ok_and(|m| m.file_type().is_char_device()) {
            write_output(Some("/dev/null"), b"x").unwrap();
            write_output_accepted(Some("/dev/null"), |sink| sink(b"y"), accept_all)
                .unwrap()
                .unwrap();
            let kind = fs::metadata("/dev/null").unwrap().file_type();
            assert!(kind.is_char_device(), "/dev/null is no longer a device");
        }
        let dir = std::env::temp_dir().join(format!("nvpass-fifo-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("out.fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .is_ok_and(|s| s.success());
        if made {
            let reader = {
                let fifo = fifo.clone();
                std::thread::spawn(move || fs::read(fifo).unwrap())
            };
            write_output_accepted(
                Some(fifo.to_str().unwrap()),
                |sink| {
                    sink(b"piece one, ");
                    sink(b"piece two");
                },
                accept_all,
            )
            .unwrap()
            .unwrap();
            // Checked first: were the FIFO replaced, the reader would wait
            // on it forever.
            assert!(fs::metadata(&fifo).unwrap().file_type().is_fifo());
            assert_eq!(reader.join().unwrap(), b"piece one, piece two");
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    fn accept_all() -> Result<(), ()> {
        Ok(())
    }

    /// Output that is not accepted leaves the destination as it was and no
    /// temporary file; its refusal wins over a write error; on a device it
    /// is asked before anything is written.
    #[test]
    fn refused_output_is_not_written() {
        let dir = std::env::temp_dir().join(format!("nvpass-accept-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let dest = dir.join("out.ll");
        let path = dest.to_str().unwrap();
        let r = write_output_accepted(Some(path), |sink| sink(b"new"), || Err("refused"));
        assert_eq!(r, Err("refused"));
        assert!(!dest.exists());
        write_output(Some(path), b"old").unwrap();
        let r = write_output_accepted(Some(path), |sink| sink(b"new"), || Err("refused"));
        assert_eq!(r, Err("refused"));
        assert_eq!(fs::read(&dest).unwrap(), b"old");
        let r = write_output_accepted(Some(path), |sink| sink(b"new"), accept_all);
        assert_eq!(r, Ok(Ok(())));
        assert_eq!(fs::read(&dest).unwrap(), b"new");
        let leftovers = fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("nvpass-tmp"))
            .count();
        assert_eq!(leftovers, 0);
        let r = write_output_accepted(
            Some("/nonexistent-dir/x/out.ll"),
            |sink| sink(b"x"),
            || Err("refused"),
        );
        assert_eq!(r, Err("refused"));
        if fs::metadata("/dev/null").is_ok_and(|m| !m.is_file()) {
            let mut produced = false;
            let r =
                write_output_accepted(Some("/dev/null"), |_| produced = true, || Err("refused"));
            assert_eq!(r, Err("refused"));
            assert!(!produced);
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    /// Replacing a file leaves the destination exactly as a rename would:
    /// a new file with the new contents (another name linked to the old
    /// file keeps the old contents), a symbolic link replaced rather than
    /// followed, a directory refused and left as it was, and no temporary
    /// file anywhere.
    #[test]
    fn replacing_a_destination_works_as_a_rename() {
        use std::os::unix::fs::MetadataExt;
        let dir = std::env::temp_dir().join(format!("nvpass-put-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = |n: &str| dir.join(n).to_str().unwrap().to_owned();
        // A file with a second link.
        fs::write(path("out.ll"), b"old").unwrap();
        fs::hard_link(path("out.ll"), path("link.ll")).unwrap();
        let old_inode = fs::metadata(path("out.ll")).unwrap().ino();
        write_output(Some(&path("out.ll")), b"new").unwrap();
        assert_eq!(fs::read(path("out.ll")).unwrap(), b"new");
        assert_eq!(fs::read(path("link.ll")).unwrap(), b"old");
        assert_ne!(fs::metadata(path("out.ll")).unwrap().ino(), old_inode);
        assert_eq!(fs::metadata(path("link.ll")).unwrap().nlink(), 1);
        // A symbolic link: replaced by the output, its target untouched.
        std::os::unix::fs::symlink(path("link.ll"), path("sym.ll")).unwrap();
        write_output(Some(&path("sym.ll")), b"via link").unwrap();
        assert!(fs::symlink_metadata(path("sym.ll")).unwrap().is_file());
        assert_eq!(fs::read(path("sym.ll")).unwrap(), b"via link");
        assert_eq!(fs::read(path("link.ll")).unwrap(), b"old");
        // A directory: an error, and the directory stays.
        fs::create_dir(path("sub")).unwrap();
        fs::write(dir.join("sub").join("keep"), b"k").unwrap();
        let err = write_output(Some(&path("sub")), b"x").unwrap_err();
        assert!(err.contains("error: cannot write output"), "{err}");
        assert_eq!(fs::read(dir.join("sub").join("keep")).unwrap(), b"k");
        let mut names: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        assert_eq!(names, ["link.ll", "out.ll", "sub", "sym.ll"]);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn unwritable_destination_is_an_error() {
        let err = write_output(Some("/nonexistent-dir/x/out.ll"), b"x").unwrap_err();
        assert!(err.contains("error: cannot write output"), "{err}");
    }
}
