//! Where a language's programs are: the judge's `PATH`, seen through
//! version managers' shims (rustup's proxies, pyenv's scripts), which do not
//! work in a submission's minimal environment; and what a compile key names
//! a compiler by.
//!
//! Seeing through a shim means running it (`rustc --print sysroot` starts
//! rustup and then the real rustc: tens of milliseconds), so only a shim is
//! asked, and a rustup proxy only when something is compiled: a compile key
//! names it by what rustup decides from (`identity`), which costs a few
//! small reads.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::Read;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock};

use super::{Language, LanguageError};
use crate::sandbox;

/// The real path of a tool, or a clear error naming what is missing.
pub(super) fn toolchain(lang: &Language, program: &str) -> Result<PathBuf, LanguageError> {
    resolve(program).ok_or_else(|| missing(lang, program))
}

fn missing(lang: &Language, program: &str) -> LanguageError {
    LanguageError::MissingToolchain {
        language: lang.name.clone(),
        program: program.to_string(),
    }
}

/// What a compile key names the compiler `program` by: for a rustup proxy,
/// the inputs of rustup's choice of toolchain (so that nothing is run when
/// the compile is cached); for any other program, its real path.
pub(super) fn identity(lang: &Language, program: &str) -> Result<Vec<u8>, LanguageError> {
    let found = find(program).ok_or_else(|| missing(lang, program))?;
    if is_rustup_proxy(&found) {
        let home = std::env::var_os("RUSTUP_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".rustup")));
        let chosen = std::env::var_os("RUSTUP_TOOLCHAIN");
        let cwd = std::env::current_dir().ok();
        return Ok(rustup_identity(
            &found,
            home.as_deref(),
            chosen.as_deref(),
            cwd.as_deref(),
        ));
    }
    // `found` is the first of `resolve`'s candidates: not searched for again.
    resolve_from(program, Some(found))
        .map(|p| p.into_os_string().into_vec())
        .ok_or_else(|| missing(lang, program))
}

/// Finds `program` in the judge's PATH and sees through version-manager
/// shims. Results are remembered for the life of the process.
pub(crate) fn resolve(program: &str) -> Option<PathBuf> {
    resolve_from(program, None)
}

/// [`resolve`], given the first of `program`'s [`candidates`] when it is
/// already known (from [`find`]).
fn resolve_from(program: &str, first: Option<PathBuf>) -> Option<PathBuf> {
    static SEEN: OnceLock<Mutex<HashMap<String, Option<PathBuf>>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Ok(map) = seen.lock()
        && let Some(hit) = map.get(program)
    {
        return hit.clone();
    }
    // A shim with nothing behind it (pyenv's `python2` when no Python 2 is
    // selected) does not hide a real interpreter later on the PATH.
    let rest = candidates(program).skip(usize::from(first.is_some()));
    let found = first
        .into_iter()
        .chain(rest)
        .find_map(|p| see_through_shim(program, p));
    if let Ok(mut map) = seen.lock() {
        map.insert(program.to_string(), found.clone());
    }
    found
}

/// `program` as the judge's PATH finds it (or the path itself), shim or not.
pub(crate) fn find(program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let p = PathBuf::from(program);
        return p.is_file().then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    sandbox::path::search(program.as_ref(), &path, super::is_executable)
}

/// Every `program` on the judge's PATH, in order (or the path itself),
/// each looked up only when asked for: the first usually answers, and the
/// rest of the PATH is then never searched.
fn candidates(program: &str) -> Box<dyn Iterator<Item = PathBuf>> {
    if program.contains('/') {
        return Box::new(find(program).into_iter());
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    let folders: Vec<PathBuf> = std::env::split_paths(&path).collect();
    let program = program.to_string();
    Box::new(
        folders
            .into_iter()
            .map(move |d| d.join(&program))
            .filter(|p| super::is_executable(p)),
    )
}

fn see_through_shim(program: &str, found: PathBuf) -> Option<PathBuf> {
    let ask = |args: &[&str]| -> Option<String> {
        let out = std::process::Command::new(&found)
            .args(args)
            .output()
            .ok()?;
        out.status
            .success()
            .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let name = Path::new(program)
        .file_name()?
        .to_string_lossy()
        .into_owned();
    let real = match name.as_str() {
        // pyenv's shims are scripts; a real interpreter is its own answer.
        // A shim that cannot answer has no interpreter behind it (pyenv's
        // `python2` when no Python 2 is selected): none is found.
        "python3" | "python" | "python2" if is_script(&found) => {
            return ask(&["-c", "import sys; print(sys.executable)"])
                .map(PathBuf::from)
                .filter(|p| p.is_file());
        }
        "rustc" if is_rustup_proxy(&found) => {
            ask(&["--print", "sysroot"]).map(|s| PathBuf::from(s).join("bin").join("rustc"))
        }
        _ => None,
    };
    Some(real.filter(|p| p.is_file()).unwrap_or(found))
}

/// A script (`#!`), as version managers' shims are.
fn is_script(path: &Path) -> bool {
    let mut head = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok_and(|()| &head == b"#!")
}

/// rustup's proxy: a link to `rustup` (symbolic, or hard beside it).
fn is_rustup_proxy(found: &Path) -> bool {
    let named_rustup = |p: &Path| {
        p.file_name()
            .is_some_and(|n| n.as_bytes().starts_with(b"rustup"))
    };
    if std::fs::canonicalize(found).is_ok_and(|real| named_rustup(&real)) {
        return true;
    }
    let beside = found.with_file_name("rustup");
    match (std::fs::metadata(found), std::fs::metadata(beside)) {
        (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
        _ => false,
    }
}

/// The inputs of rustup's choice of toolchain (rustup's "overrides"): the
/// proxy, `RUSTUP_TOOLCHAIN`, the settings file (default toolchain and
/// directory overrides) under `home`, and the nearest `rust-toolchain`
/// file from `cwd` up. The same inputs choose the same toolchain.
fn rustup_identity(
    proxy: &Path,
    home: Option<&Path>,
    chosen: Option<&OsStr>,
    cwd: Option<&Path>,
) -> Vec<u8> {
    let mut id = b"rustup proxy\0".to_vec();
    let mut part = |bytes: &[u8]| {
        id.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        id.extend_from_slice(bytes);
    };
    part(proxy.as_os_str().as_bytes());
    part(chosen.map(OsStr::as_bytes).unwrap_or_default());
    let home = home.unwrap_or(Path::new(""));
    part(home.as_os_str().as_bytes());
    part(&small_file(&home.join("settings.toml")));
    for dir in cwd.into_iter().flat_map(Path::ancestors) {
        let files: Vec<PathBuf> = ["rust-toolchain", "rust-toolchain.toml"]
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| p.is_file())
            .collect();
        if !files.is_empty() {
            for f in files {
                part(f.as_os_str().as_bytes());
                part(&small_file(&f));
            }
            break;
        }
    }
    id
}

/// A small settings file's bytes (at most 1 MiB; none if unreadable).
fn small_file(path: &Path) -> Vec<u8> {
    let mut bytes = Vec::new();
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(1 << 20).read_to_end(&mut bytes);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_to_rustup_is_its_proxy_and_a_real_program_is_not() {
        let t = tempfile::tempdir().expect("tempdir");
        let rustup = t.path().join("rustup");
        std::fs::write(&rustup, "#!/bin/sh\n").expect("write");
        let linked = t.path().join("rustc");
        std::os::unix::fs::symlink("rustup", &linked).expect("symlink");
        assert!(is_rustup_proxy(&linked));
        let other = tempfile::tempdir().expect("tempdir");
        let hard = other.path().join("rustc");
        std::fs::write(other.path().join("rustup"), "x").expect("write");
        std::fs::hard_link(other.path().join("rustup"), &hard).expect("hard link");
        assert!(is_rustup_proxy(&hard));
        let real = other.path().join("gcc");
        std::fs::write(&real, "\x7fELF").expect("write");
        assert!(!is_rustup_proxy(&real));
        assert!(is_script(&rustup));
        assert!(!is_script(&real));
    }

    #[test]
    fn what_rustup_chooses_by_changes_the_identity() {
        let t = tempfile::tempdir().expect("tempdir");
        let home = t.path().join("rustup-home");
        std::fs::create_dir_all(&home).expect("mkdir");
        let settings = home.join("settings.toml");
        std::fs::write(&settings, "default_toolchain = \"stable\"\n").expect("write");
        let project = t.path().join("project/deep");
        std::fs::create_dir_all(&project).expect("mkdir");
        let proxy = Path::new("/somewhere/rustc");
        let id = |chosen: Option<&str>| {
            rustup_identity(proxy, Some(&home), chosen.map(OsStr::new), Some(&project))
        };
        let first = id(None);
        assert_eq!(first, id(None), "the same inputs, the same identity");
        assert_ne!(first, id(Some("nightly")), "RUSTUP_TOOLCHAIN");
        std::fs::write(&settings, "default_toolchain = \"nightly\"\n").expect("write");
        let second = id(None);
        assert_ne!(first, second, "rustup default");
        std::fs::write(
            t.path().join("project/rust-toolchain.toml"),
            "[toolchain]\nchannel = \"1.80\"\n",
        )
        .expect("write");
        assert_ne!(second, id(None), "a rust-toolchain file above the folder");
    }
}
