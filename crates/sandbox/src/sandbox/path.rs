//! The one `PATH` look-up of the judge: a run's `argv[0]` (sandboxed or
//! not) and a language's toolchain are found the same way.

use std::ffi::{OsStr, OsString};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use super::{RunSpec, SandboxError};

/// The first `dir/name` for the folders of `path` (a `PATH` value) that
/// `accept` takes.
pub fn search(name: &OsStr, path: &OsStr, accept: impl Fn(&Path) -> bool) -> Option<PathBuf> {
    std::env::split_paths(path)
        .map(|d| d.join(name))
        .find(|p| accept(p))
}

/// `argv[0]` of a run as a path: as given (made absolute against the
/// judge's folder, not the run's) when it holds a `/`, else looked up in the
/// run's own `PATH`, or the judge's when the run has none.
pub(super) fn program_path(spec: &RunSpec) -> Result<PathBuf, SandboxError> {
    let name = spec.argv.first().ok_or_else(|| SandboxError::Spawn {
        program: String::new(),
        source: io::Error::from(io::ErrorKind::InvalidInput),
    })?;
    if name.as_bytes().contains(&b'/') {
        return std::path::absolute(name).map_err(|source| SandboxError::Spawn {
            program: name.to_string_lossy().into_owned(),
            source,
        });
    }
    let path: OsString = spec
        .env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.clone())
        .or_else(|| std::env::var_os("PATH"))
        .unwrap_or_default();
    search(name, &path, Path::is_file).ok_or_else(|| SandboxError::Spawn {
        program: name.to_string_lossy().into_owned(),
        source: io::Error::from(io::ErrorKind::NotFound),
    })
}
