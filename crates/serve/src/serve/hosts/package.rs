//! A problem's package as judge hosts fetch it: the problem's folder as a
//! zip (stored, sorted, no dates, so the same folder gives the same bytes)
//! named by its SHA-256. The zip holds `problems/<id>/…` and, when the
//! reference solution lives beside the problems folder (the project's
//! `reference/<id>.*`), `reference/<its name>`: the same layout as on the
//! server, so the problem reads the same on the host. A host fetches a package by that hash, checks the
//! bytes against it and keeps it in its cache: a problem changed on the
//! server is a new hash, never a stale copy.
//!
//! The folder is read beneath itself and bounded (links are not followed
//! out of it; a file or the whole past the caps is refused, naming it).

use std::io;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::beneath::Within;

/// The most one file of a package may weigh.
pub const FILE_CAP: u64 = 256 * 1024 * 1024;
/// The most a whole package may weigh.
pub const TOTAL_CAP: u64 = 512 * 1024 * 1024;

/// A problem's folder, zipped, and the hex SHA-256 of the zip.
#[derive(Debug, Clone)]
pub struct Package {
    pub sha256: String,
    pub bytes: std::sync::Arc<Vec<u8>>,
}

/// The hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    crate::serve::auth::hex(&Sha256::digest(bytes))
}

/// Zips the problem folder `dir` of problem `id` and its `reference`
/// solution when that lies outside the folder.
pub fn pack(dir: &Path, id: &str, reference: Option<&Path>) -> io::Result<Package> {
    let within = Within::open(dir)?;
    let mut names = Vec::new();
    for entry in walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by_file_name()
    {
        let entry = entry.map_err(io::Error::other)?;
        if !entry.file_type().is_file() {
            continue; // folders are implied; links are not followed
        }
        let rel = entry
            .path()
            .strip_prefix(dir)
            .map_err(io::Error::other)?
            .to_path_buf();
        names.push(rel);
    }
    let mut w = zip::ZipWriter::new(io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .unix_permissions(0o644)
        .last_modified_time(zip::DateTime::default());
    let mut total = 0u64;
    let mut files = Vec::new();
    for rel in &names {
        let name = format!("problems/{id}/{}", utf8(rel)?);
        let bytes = within.read(rel, FILE_CAP)?;
        files.push((name, bytes));
    }
    if let Some(r) = reference.filter(|r| !r.starts_with(dir))
        && let (Some(parent), Some(name)) = (r.parent(), r.file_name())
    {
        let bytes = Within::open(parent)?.read(Path::new(name), FILE_CAP)?;
        files.push((format!("reference/{}", utf8(Path::new(name))?), bytes));
    }
    for (name, bytes) in files {
        total += bytes.len() as u64;
        if total > TOTAL_CAP {
            return Err(io::Error::other(format!(
                "{}: the problem's folder weighs more than {} MiB, too much to send to judge hosts",
                dir.display(),
                TOTAL_CAP >> 20
            )));
        }
        w.start_file(name, options).map_err(io::Error::other)?;
        io::Write::write_all(&mut w, &bytes)?;
    }
    let bytes = w.finish().map_err(io::Error::other)?.into_inner();
    Ok(Package {
        sha256: sha256(&bytes),
        bytes: std::sync::Arc::new(bytes),
    })
}

fn utf8(p: &Path) -> io::Result<&str> {
    p.to_str()
        .ok_or_else(|| io::Error::other(format!("{}: a name that is not UTF-8", p.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_folder_packs_to_the_same_hash_and_a_change_to_another() {
        let t = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir(t.path().join("data")).expect("mkdir");
        std::fs::write(t.path().join("problem.yaml"), "id: x\n").expect("write");
        std::fs::write(t.path().join("data/1.in"), "3\n").expect("write");
        let a = pack(t.path(), "x", None).expect("pack");
        let b = pack(t.path(), "x", None).expect("pack");
        assert_eq!(a.sha256, b.sha256);
        assert_eq!(a.sha256, sha256(&a.bytes));
        std::fs::write(t.path().join("data/1.in"), "4\n").expect("write");
        assert_ne!(pack(t.path(), "x", None).expect("pack").sha256, a.sha256);
    }
}
