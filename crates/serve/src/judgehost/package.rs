//! Problem packages in this host's cache, by content hash: fetched once,
//! checked against their hash before anything is written, unpacked into
//! a folder of the cache (which is this user's alone, mode 0700, as every
//! grundy cache), each entry's name checked to stay beneath it.

use std::io::{self, Read as _};
use std::path::{Path, PathBuf};

use super::client::{Failed, Server};
use crate::cache::Key;
use crate::judge::Context;
use crate::serve::hosts::package::{FILE_CAP, TOTAL_CAP};

/// The cache's kind for packages.
const KIND: &str = "judgehost-packages";

/// Why a package is not in the cache.
#[derive(Debug)]
pub enum Missing {
    /// Its download failed (the network, a server error, bytes that do not
    /// match the hash): it may well work later.
    Later(String),
    /// The server refused this host.
    Refused(String),
    /// It cannot be used here: not a package, larger than a package may
    /// be, or this host's cache cannot hold it.
    Unusable(String),
}

/// The folder of package `sha`, fetched and unpacked the first time.
pub fn folder(server: &Server, ctx: &Context, sha: &str) -> Result<PathBuf, Missing> {
    if sha.len() != 64
        || !sha
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
    {
        return Err(Missing::Unusable(format!(
            "`{sha}` is not a package's SHA-256"
        )));
    }
    let key = Key(sha.to_string());
    let mut fetched = None;
    ctx.cache
        .dir_or_fill(KIND, &key, |dir| -> Result<(), io::Error> {
            let bytes = match server.package(sha) {
                Ok(b) => b,
                Err(e) => {
                    let text = e.to_string();
                    fetched = Some(e);
                    return Err(io::Error::other(text));
                }
            };
            unpack(&bytes, dir)
        })
        .map_err(|e| match fetched.take() {
            Some(Failed::Again(why)) => Missing::Later(why),
            Some(Failed::Refused(why)) => Missing::Refused(why),
            None => Missing::Unusable(e.to_string()),
        })
}

/// Writes the zip's files beneath `dir`, bounded.
pub fn unpack(bytes: &[u8], dir: &Path) -> io::Result<()> {
    let mut zip = zip::ZipArchive::new(io::Cursor::new(bytes)).map_err(io::Error::other)?;
    let mut total = 0u64;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(io::Error::other)?;
        let Some(rel) = entry.enclosed_name() else {
            return Err(io::Error::other(format!(
                "the package names a file outside itself: {:?}",
                entry.name()
            )));
        };
        if entry.is_dir() {
            continue;
        }
        let to = dir.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        let mut out = Vec::new();
        (&mut entry).take(FILE_CAP + 1).read_to_end(&mut out)?;
        total += out.len() as u64;
        if out.len() as u64 > FILE_CAP || total > TOTAL_CAP {
            return Err(io::Error::other(
                "the package is larger than a package may be",
            ));
        }
        let mut f = crate::beneath::create_nofollow(&to)?;
        io::Write::write_all(&mut f, &out)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::unpack;

    #[test]
    fn a_package_unpacks_as_it_was_packed_and_one_naming_a_file_outside_is_refused() {
        let from = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(from.path().join("data")).expect("mkdir");
        std::fs::write(from.path().join("data/1.in"), "3\n").expect("write");
        let p = crate::serve::hosts::package::pack(from.path(), "x", None).expect("pack");
        let to = tempfile::tempdir().expect("tempdir");
        unpack(&p.bytes, to.path()).expect("unpack");
        assert_eq!(
            std::fs::read_to_string(to.path().join("problems/x/data/1.in")).expect("read"),
            "3\n"
        );
        let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        w.start_file("../escape", zip::write::SimpleFileOptions::default())
            .expect("start");
        std::io::Write::write_all(&mut w, b"x").expect("write");
        let evil = w.finish().expect("finish").into_inner();
        let to = tempfile::tempdir().expect("tempdir");
        assert!(unpack(&evil, &to.path().join("in")).is_err());
        assert!(!to.path().join("escape").exists());
    }
}
