//! Every program and submission of an ICPC package is built from a copy
//! the judge makes in its cache, read beneath the package's folder (see
//! `beneath::Within`), never where it lies:
//!
//! - a package is untrusted input that the judge reads outside any
//!   sandbox: a file in a validator folder linked to `/etc/shadow`, or a
//!   `generators.yaml` program reached through `..`, would otherwise have
//!   the judge copy a file of the machine into the program's reach. A
//!   link or path that leaves the package is an error naming it; a root
//!   judge reads someone else's package with its owner's rights;
//! - `{{constants}}` in their sources are replaced (see `constants`);
//! - symbolic links that stay inside the package are followed in the
//!   package's own programs (generators, input and output validators,
//!   interactors): BAPCtools builds them through links (a `validation.h`
//!   shared by a repository's validators). A submission consists of the
//!   regular files it holds: links inside a submission folder are left
//!   out, as when grundy builds any folder.
//!
//! The package's example submissions (under `submissions/`) have their
//! constants replaced too: the format lists "example submissions" among
//! the files whose constant sequences "will be replaced" (2025-09,
//! "Constants").
//!
//! The copy keeps the execute permission of each file (for everyone, as
//! runs have another uid) and nothing else of its mode: no setuid, setgid
//! or sticky bit, no write bit for others. It is stored in the cache by
//! its content, so it outlives the build (a `run` script is run where it
//! lies) and is made once.

use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use super::constants::Constants;
use crate::beneath::{SOURCE_CAP, WalkBounds, Within};

/// The folders of a package whose programs are the setter's (built with
/// their links followed and their constants replaced).
const PROGRAMS: [&str; 6] = [
    "generators",
    "input_validators",
    "input_validator",
    "input_format_validators",
    "output_validators",
    "output_validator",
];

/// A copied program past these is not a program but a link to somewhere
/// large: refused rather than copied.
const BOUNDS: WalkBounds = WalkBounds {
    files: 1000,
    depth: 16,
};
const MAX_BYTES: u64 = 256 << 20;

/// The folder of a package that holds its example submissions.
const SUBMISSIONS: &str = "submissions";

/// When `problem` is an ICPC package and `path` (a file or folder) lies in
/// it, the path of a copy of it, under the same name, to build instead
/// (see the module's documentation); else `None`: a program from
/// elsewhere is built as it lies, a file the user named.
///
/// The package is the one the loader read (`problem.dir`), with the
/// constants it read: nothing above the package's folder is looked at,
/// whatever folder a submission lies in.
pub fn stage(
    path: &Path,
    problem: &crate::problem::Problem,
    cache: &crate::cache::Cache,
) -> std::io::Result<Option<PathBuf>> {
    let Some(facts) = &problem.package else {
        return Ok(None);
    };
    let Some(rel) = inside(path, &problem.dir) else {
        return Ok(None);
    };
    let constants = Constants::from_map(facts.constants.clone());
    stage_in(&problem.dir, &rel, &constants, cache)
}

/// [`stage`] of `rel`, a path inside the package `package` whose
/// constants are `all`.
fn stage_in(
    package: &Path,
    rel: &Path,
    all: &Constants,
    cache: &crate::cache::Cache,
) -> std::io::Result<Option<PathBuf>> {
    let first = rel.components().next().and_then(|c| match c {
        Component::Normal(s) => s.to_str(),
        _ => None,
    });
    let submission = first == Some(SUBMISSIONS);
    let program = first.is_some_and(|f| PROGRAMS.contains(&f));
    let within = Within::open(package)?;
    let none = Constants::default();
    let constants = if submission || program { all } else { &none };
    let files = within.files(rel, !submission, BOUNDS)?;
    // (place in the copy, bytes, mode): text files substituted, others
    // copied as they are.
    let mut copy = Vec::new();
    let mut total = 0u64;
    for f in &files {
        let file = within.open_file(&f.at)?;
        let executable = file.metadata()?.permissions().mode() & 0o100 != 0;
        let left = MAX_BYTES.saturating_sub(total).min(SOURCE_CAP);
        let bytes = crate::beneath::read_capped(file, left).map_err(|e| {
            std::io::Error::new(e.kind(), format!("{}: {e}", package.join(&f.at).display()))
        })?;
        total += bytes.len() as u64;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) if !constants.is_empty() => constants.substitute(&text).0.into_bytes(),
            Ok(text) => text.into_bytes(),
            Err(e) => e.into_bytes(),
        };
        let mode = if executable { 0o755 } else { 0o644 };
        copy.push((f.rel.clone(), bytes, mode));
    }
    let name = rel.file_name().unwrap_or_default().to_os_string();
    let mut parts: Vec<&[u8]> = vec![b"stage-3", name.as_encoded_bytes()];
    let modes: Vec<[u8; 4]> = copy.iter().map(|(_, _, m)| u32::to_le_bytes(*m)).collect();
    for ((rel, bytes, _), mode) in copy.iter().zip(&modes) {
        parts.push(rel.as_os_str().as_encoded_bytes());
        parts.push(mode);
        parts.push(bytes);
    }
    let key = crate::cache::Key::of(&parts);
    let dir = cache.dir_or_fill("staged", &key, |work: &Path| -> std::io::Result<()> {
        use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
        let top = work.join(&name);
        let single_file = matches!(copy.as_slice(), [(rel, _, _)] if rel.as_os_str().is_empty());
        if !single_file {
            // A folder, even one whose files were all links left out.
            std::fs::DirBuilder::new().mode(0o755).create(&top)?;
        }
        for (rel, bytes, mode) in &copy {
            let to = if rel.as_os_str().is_empty() {
                top.clone()
            } else {
                top.join(rel)
            };
            if let Some(parent) = to.parent() {
                std::fs::DirBuilder::new()
                    .recursive(true)
                    .mode(0o755)
                    .create(parent)?;
            }
            let mut out = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(*mode)
                .open(&to)?;
            std::io::Write::write_all(&mut out, bytes)?;
            // The umask may have taken bits the program needs.
            out.set_permissions(std::fs::Permissions::from_mode(*mode))?;
        }
        Ok(())
    })?;
    Ok(Some(dir.join(name)))
}

/// The path of `path` inside the package folder `package`, when it lies
/// there. Found by the paths' own names (`..` taken away without following
/// links): a program that is itself a link, or reached through one,
/// belongs where it is linked from.
fn inside(path: &Path, package: &Path) -> Option<PathBuf> {
    let abs = normal(&std::path::absolute(path).ok()?);
    let root = normal(&std::path::absolute(package).ok()?);
    let rel = abs.strip_prefix(&root).ok()?;
    (!rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
}

/// `path` with `.` and `..` taken away by the names alone.
pub fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if out.parent().is_some() && !out.ends_with("..") {
                    out.pop();
                } else if !out.has_root() {
                    out.push(c);
                }
            }
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn package(constants: &str) -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("tempdir");
        let p = &d.path().join("pkg");
        std::fs::create_dir_all(p).expect("mkdir");
        std::fs::write(
            p.join("problem.yaml"),
            format!("problem_format_version: 2025-09\nname: x\n{constants}"),
        )
        .expect("write");
        std::fs::create_dir_all(p.join("data/sample")).expect("mkdir");
        std::fs::create_dir_all(p.join("input_validators/v")).expect("mkdir");
        std::fs::create_dir_all(p.join("shared")).expect("mkdir");
        std::fs::write(p.join("shared/h.h"), "#define N {{N}}\n").expect("write");
        std::fs::write(p.join("input_validators/v/v.cpp"), "#include \"h.h\"\n").expect("write");
        d
    }

    /// The package's folder in the temporary folder `d` (which holds the
    /// cache and a secret too, outside the package).
    fn pkg(d: &tempfile::TempDir) -> PathBuf {
        d.path().join("pkg")
    }

    fn cache_of(d: &tempfile::TempDir) -> crate::cache::Cache {
        crate::cache::Cache::open(d.path().join("cache")).expect("cache")
    }

    /// [`stage`] of `path` for the package of `d`, its constants read
    /// from its `problem.yaml`.
    fn copy_of(
        path: &Path,
        d: &tempfile::TempDir,
        cache: &crate::cache::Cache,
    ) -> std::io::Result<Option<PathBuf>> {
        let package = pkg(d);
        let Some(rel) = inside(path, &package) else {
            return Ok(None);
        };
        stage_in(&package, &rel, &Constants::of_dir(&package), cache)
    }

    fn read(p: &Path) -> String {
        std::fs::read_to_string(p).expect("read")
    }

    #[test]
    fn a_linked_header_is_copied_as_the_file_it_names() {
        let d = package("");
        let v = pkg(&d).join("input_validators/v");
        symlink("../../shared/h.h", v.join("h.h")).expect("link");
        let staged = copy_of(&v, &d, &cache_of(&d))
            .expect("stage")
            .expect("a copy");
        let header = staged.join("h.h");
        assert!(!header.symlink_metadata().expect("meta").is_symlink());
        assert_eq!(read(&header), "#define N {{N}}\n");
    }

    #[test]
    fn constants_are_replaced_in_linked_files_too() {
        let d = package("constants:\n  N: 7\n");
        let v = pkg(&d).join("input_validators/v");
        symlink("../../shared/h.h", v.join("h.h")).expect("link");
        let staged = copy_of(&v, &d, &cache_of(&d))
            .expect("stage")
            .expect("a copy");
        assert_eq!(read(&staged.join("h.h")), "#define N 7\n");
    }

    #[test]
    fn every_program_of_a_package_is_built_from_a_copy() {
        let d = package("");
        let cache = cache_of(&d);
        let v = pkg(&d).join("input_validators/v");
        let staged = copy_of(&v, &d, &cache).expect("stage").expect("a copy");
        assert!(staged.starts_with(cache.root()), "{staged:?}");
        assert_eq!(read(&staged.join("v.cpp")), "#include \"h.h\"\n");
        // A file that is no package's is built where it lies.
        let elsewhere = tempfile::tempdir().expect("tempdir");
        let lone = elsewhere.path().join("a.py");
        std::fs::write(&lone, "print(1)\n").expect("write");
        assert_eq!(copy_of(&lone, &d, &cache).expect("stage"), None);
    }

    #[test]
    fn a_copy_keeps_no_setuid_bit_and_no_write_bit_for_others() {
        let d = package("");
        let v = pkg(&d).join("input_validators/v");
        std::fs::write(v.join("helper"), "#!/bin/sh\nid\n").expect("write");
        std::fs::set_permissions(v.join("helper"), std::fs::Permissions::from_mode(0o6777))
            .expect("chmod");
        std::fs::set_permissions(v.join("v.cpp"), std::fs::Permissions::from_mode(0o666))
            .expect("chmod");
        let staged = copy_of(&v, &d, &cache_of(&d))
            .expect("stage")
            .expect("a copy");
        let mode = |p: &Path| p.symlink_metadata().expect("meta").permissions().mode() & 0o7777;
        assert_eq!(mode(&staged.join("helper")), 0o755);
        assert_eq!(mode(&staged.join("v.cpp")), 0o644);
    }

    #[test]
    fn a_link_or_a_path_out_of_the_package_is_an_error_naming_it() {
        let d = package("");
        let secret = d.path().join("secret");
        std::fs::write(&secret, "root:x:0:0").expect("write");
        let v = pkg(&d).join("input_validators/v");
        symlink(&secret, v.join("loot.txt")).expect("link");
        let cache = cache_of(&d);
        let e = copy_of(&v, &d, &cache).expect_err("a link out");
        assert!(e.to_string().contains("input_validators/v/loot.txt"), "{e}");
        std::fs::remove_file(v.join("loot.txt")).expect("rm");
        symlink("/proc/self/environ", v.join("env.h")).expect("link");
        let e = copy_of(&v, &d, &cache).expect_err("a link out");
        assert!(e.to_string().contains("env.h"), "{e}");
        // The program itself reached through a folder linked outside.
        std::fs::remove_file(v.join("env.h")).expect("rm");
        symlink(secret.parent().expect("parent"), pkg(&d).join("generators")).expect("link");
        let generator = pkg(&d)
            .join("generators")
            .join(secret.file_name().expect("name"));
        let e = copy_of(&generator, &d, &cache).expect_err("a link out");
        assert!(e.to_string().contains("generators is a link"), "{e}");
    }

    #[test]
    fn a_submission_mentioning_a_constant_is_built_from_a_substituted_copy() {
        let d = package("constants:\n  N: 7\n");
        let s = pkg(&d).join("submissions/accepted/a");
        std::fs::create_dir_all(&s).expect("mkdir");
        std::fs::write(s.join("a.py"), "print({{N}})\n").expect("write");
        std::fs::write(pkg(&d).join("shared/b.py"), "print({{N}})\n").expect("write");
        symlink("../../../shared/b.py", s.join("b.py")).expect("link");
        let cache = cache_of(&d);
        let staged = copy_of(&s, &d, &cache).expect("stage").expect("a copy");
        assert_eq!(staged.file_name(), s.file_name());
        assert_eq!(read(&staged.join("a.py")), "print(7)\n");
        // Its links are not part of it, as when it is built as it lies.
        assert!(!staged.join("b.py").exists());
        // A single file too; one outside `submissions/` and the program
        // folders is copied as written.
        let one = pkg(&d).join("submissions/accepted/one.py");
        std::fs::write(&one, "print({{N}})\n").expect("write");
        let staged = copy_of(&one, &d, &cache).expect("stage").expect("a copy");
        assert_eq!(read(&staged), "print(7)\n");
        let elsewhere = pkg(&d).join("shared/b.py");
        let staged = copy_of(&elsewhere, &d, &cache)
            .expect("stage")
            .expect("a copy");
        assert_eq!(read(&staged), "print({{N}})\n");
    }

    #[test]
    fn a_submission_of_links_only_is_an_empty_folder() {
        let d = package("");
        let s = pkg(&d).join("submissions/accepted/a");
        std::fs::create_dir_all(&s).expect("mkdir");
        std::fs::write(pkg(&d).join("shared/a.cpp"), "int main(){}\n").expect("write");
        symlink("../../../shared/a.cpp", s.join("a.cpp")).expect("link");
        let staged = copy_of(&s, &d, &cache_of(&d))
            .expect("stage")
            .expect("a copy");
        assert!(staged.is_dir());
        assert_eq!(std::fs::read_dir(&staged).expect("list").count(), 0);
    }

    #[test]
    fn names_lose_dot_dot_without_following_links() {
        assert_eq!(normal(Path::new("/a/b/../c/./d")), PathBuf::from("/a/c/d"));
        assert_eq!(normal(Path::new("/a/../../b")), PathBuf::from("/b"));
    }
}
