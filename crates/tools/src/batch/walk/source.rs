//! Reading a submission's file: a regular file only, bounded in size,
//! never blocking; and the hash that names its content.

use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};
use thiserror::Error;

/// Files larger than this are not source files; they are reported, not read.
const MAX_SOURCE: u64 = 64 << 20;

/// Why a submission's source cannot be had; the text is what a report or
/// a record's `error` says about the file.
#[derive(Debug, Error)]
pub enum SourceError {
    /// A folder submission whose files cannot be collected.
    #[error(transparent)]
    Folder(#[from] crate::language::LanguageError),
    #[error("cannot read it: {0}")]
    Io(#[source] io::Error),
    #[error("not a regular file (a FIFO, device or socket): put the source file itself there")]
    NotRegular,
    #[error("{} MiB: too large for a source file", .0 >> 20)]
    TooLarge(u64),
    #[error("grew past {} MiB while read: too large for a source file", .0 >> 20)]
    Grew(u64),
}

/// The file's bytes, or why they cannot be had.
///
/// Only a regular file is read, and never more than [`MAX_SOURCE`]: a FIFO
/// would block the walk forever and a device (a link to `/dev/zero`) would
/// never end. The file is opened non-blocking and checked on the open
/// descriptor, so nothing swapped in between the check and the read counts.
pub fn read_source(path: &Path) -> Result<Vec<u8>, SourceError> {
    if path.is_dir() {
        return Ok(crate::language::folder_fingerprint(path)?);
    }
    read_file_within(path, MAX_SOURCE)
}

/// A regular file's bytes, as [`read_source`] reads them, if it holds at
/// most `cap` bytes (`TooLarge` with its size otherwise).
pub fn read_file_within(path: &Path, cap: u64) -> Result<Vec<u8>, SourceError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(SourceError::Io)?;
    let meta = file.metadata().map_err(SourceError::Io)?;
    if !meta.is_file() {
        return Err(SourceError::NotRegular);
    }
    if meta.len() > cap {
        return Err(SourceError::TooLarge(meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(SourceError::Io)?;
    if bytes.len() as u64 > cap {
        return Err(SourceError::Grew(cap));
    }
    Ok(bytes)
}

pub fn sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}
