//! A precompiled `bits/stdc++.h` for C++ sources that include it.
//!
//! Contest C++ often starts with `#include <bits/stdc++.h>`, which pulls in
//! the whole standard library: about 1.4 s of g++ per file, most of a cold
//! class's compile time for such files. GCC can load a precompiled form
//! instead (a `.gch` next to the header, used when it was built by the same
//! compiler with compatible flags, and silently ignored otherwise). So the
//! judge builds, once per compiler and flags, a folder in the compile cache
//! holding a copy of the header and its `.gch`, and puts that folder first
//! on the include path (`-I`) of the sources that include it. The program
//! compiled is the same: the header's text is the system's, built with the
//! submission's own flags. When the `.gch` cannot be built, sources compile
//! as before, without a word.
//!
//! The entry lives under the cache's `bin` kind, the one part of the cache
//! a compiler run may see (see `sandbox::view`), and is filled like any
//! entry: built in a private folder and renamed into place, so several
//! graders sharing a cache may build it at once and none sees half of it.

use std::collections::HashMap;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, PoisonError};

use super::compiler_run::{COMPILE_MEMORY, compile_env, compile_limits};
use crate::cache::{Cache, Key};
use crate::run_kind::RunKind;
use crate::sandbox::{Exit, Runner};

/// Part of the key: raised when what the entry holds changes.
const PCH_FORMAT: &[u8] = b"grundy-pch-format-1";
const HEADER: &str = "bits/stdc++.h";
const PRECOMPILED: &str = "bits/stdc++.h.gch";
const BUILT: &str = "stdc++.h.gch";

/// Whether a source includes `bits/stdc++.h` (on a line of its own, as
/// `<…>` or `"…"`). A line in a comment or an `#if 0` may count too: the
/// only cost is a `-I` that changes nothing.
pub(super) fn includes_stdcpp(text: &[u8]) -> bool {
    String::from_utf8_lossy(text).lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            return false;
        };
        let Some(rest) = rest.trim_start().strip_prefix("include") else {
            return false;
        };
        let rest = rest.trim_start();
        rest.starts_with("<bits/stdc++.h>") || rest.starts_with("\"bits/stdc++.h\"")
    })
}

/// The flags of a compile command (`g++ FLAGS -o {bin} {src}`), without
/// the output and the source: what the header must be precompiled with.
/// `None` for a command with other placeholders, which is not understood
/// well enough to precompile for.
fn flags(cmd: &[String]) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut args = cmd.iter().skip(1);
    while let Some(a) = args.next() {
        if a == "-o" {
            if args.next().map(String::as_str) != Some("{bin}") {
                return None;
            }
        } else if a == "{src}" {
            continue;
        } else if a.contains('{') {
            return None;
        } else {
            out.push(a.clone());
        }
    }
    Some(out)
}

/// A precompiled header in the cache.
#[derive(Debug, Clone)]
pub(super) struct Precompiled {
    /// The folder to put first on the include path.
    pub dir: PathBuf,
    /// The folder of the system's header (`…/c++/12` for
    /// `…/c++/12/bits/stdc++.h`): compiler messages name it rather than
    /// the cache, so that they read as without the precompiled header.
    pub system: PathBuf,
}

/// The folder to put first on the include path of a source compiled by
/// `compiler` with the command `cmd`, built into `cache` the first time
/// (once per process and compiler and flags: later calls wait for the
/// first and share its answer); `None` when it cannot be had. The header
/// is compiled by `runner`, as the source that wants it would be.
pub(super) fn include_dir(
    compiler: &Path,
    cmd: &[String],
    cache: &Cache,
    runner: &Runner,
) -> Option<Precompiled> {
    let name = compiler.file_name()?.to_string_lossy().into_owned();
    // GCC's `.gch` only: clang's precompiled headers work differently.
    if !name.contains("g++") {
        return None;
    }
    let flags = flags(cmd)?;
    type Known = HashMap<(PathBuf, PathBuf, Vec<String>), Option<Precompiled>>;
    static KNOWN: OnceLock<Mutex<Known>> = OnceLock::new();
    // Held while building, so that the compiles waiting for the header do
    // not all build it at once.
    let mut known = KNOWN
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    let id = (cache.root().to_path_buf(), compiler.to_path_buf(), flags);
    if let Some(dir) = known.get(&id) {
        return dir.clone();
    }
    let dir = build(compiler, &id.2, cache, runner);
    known.insert(id, dir.clone());
    dir
}

/// Finds the system's header and precompiles a copy of it into the cache.
fn build(compiler: &Path, flags: &[String], cache: &Cache, runner: &Runner) -> Option<Precompiled> {
    // What the compiler is (version, target, configuration, search path),
    // from the compiler itself, run by the judge with the judge's own
    // arguments: all of it is part of the key.
    let probe = std::process::Command::new(compiler)
        .args(flags)
        .args(["-x", "c++", "-E", "-v", "/dev/null"])
        .stdin(std::process::Stdio::null())
        .output()
        .ok()?;
    if !probe.status.success() {
        return None;
    }
    let about = String::from_utf8_lossy(&probe.stderr);
    let system = search_path(&about)
        .into_iter()
        .find(|d| d.join(HEADER).is_file())?;
    let header = system.join(HEADER);
    let text = std::fs::read(&header).ok()?;
    let key = Key::of(&[
        PCH_FORMAT,
        compiler.as_os_str().as_bytes(),
        flags.join("\u{1f}").as_bytes(),
        &probe.stderr,
        &text,
    ]);
    let dir = cache
        .dir_or_fill("bin", &key, |work| {
            precompile(compiler, flags, &text, work, runner)
        })
        .ok()?;
    dir.join(PRECOMPILED)
        .is_file()
        .then_some(Precompiled { dir, system })
}

/// The `#include <...>` search path from the output of `g++ -v`.
fn search_path(about: &str) -> Vec<PathBuf> {
    about
        .lines()
        .skip_while(|l| !l.starts_with("#include <...> search starts here:"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .map(|l| PathBuf::from(l.trim()))
        .collect()
}

/// Fills `work` with the header and its precompiled form, compiled in the
/// sandbox like any compile.
fn precompile(
    compiler: &Path,
    flags: &[String],
    text: &[u8],
    work: &Path,
    runner: &Runner,
) -> io::Result<()> {
    let source = work.join(HEADER);
    if let Some(bits) = source.parent() {
        std::fs::create_dir_all(bits)?;
    }
    std::fs::write(&source, text)?;
    let logs = tempfile::tempdir()?;
    let mut argv: Vec<std::ffi::OsString> = vec![compiler.as_os_str().to_owned()];
    argv.extend(flags.iter().map(Into::into));
    argv.extend(["-x".into(), "c++-header".into(), source.into_os_string()]);
    // Written at the top of `work`, the compiler's own folder (a root
    // judge's runs may write only there), then moved next to the header.
    let built = work.join(BUILT);
    argv.extend(["-o".into(), built.clone().into_os_string()]);
    // The header's precompiled form is left in its folder: the kind
    // keeps it.
    let spec = RunKind::Compiler
        .spec(
            argv,
            work,
            logs.path().join("out"),
            compile_limits(COMPILE_MEMORY),
        )
        .env(compile_env(Some(compiler), work))
        .build();
    let outcome = runner.run(&spec).map_err(io::Error::other)?;
    if outcome.exit != Exit::Code(0) || !built.is_file() {
        return Err(io::Error::other("the header did not precompile"));
    }
    std::fs::rename(&built, work.join(PRECOMPILED))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_include_is_recognised_in_its_usual_spellings() {
        assert!(includes_stdcpp(b"#include <bits/stdc++.h>\nint main(){}"));
        assert!(includes_stdcpp(b"  #  include \"bits/stdc++.h\"\n"));
        assert!(!includes_stdcpp(b"#include <iostream>\n"));
        assert!(!includes_stdcpp(b"// bits/stdc++.h is slow\n"));
    }

    #[test]
    fn flags_leave_out_the_output_and_the_source() {
        let cmd: Vec<String> = ["g++", "-O2", "-std=gnu++17", "-o", "{bin}", "{src}"]
            .map(String::from)
            .to_vec();
        assert_eq!(
            flags(&cmd),
            Some(vec!["-O2".to_string(), "-std=gnu++17".to_string()])
        );
        let odd: Vec<String> = ["g++", "-o", "{dir}/x", "{src}"].map(String::from).to_vec();
        assert_eq!(flags(&odd), None);
    }

    #[test]
    fn the_search_path_is_read_from_the_compilers_report() {
        let about = "x\n#include \"...\" search starts here:\n#include <...> search starts here:\n /usr/include/c++/12\n /usr/include\nEnd of search list.\n";
        assert_eq!(
            search_path(about),
            vec![
                PathBuf::from("/usr/include/c++/12"),
                PathBuf::from("/usr/include")
            ]
        );
    }
}
