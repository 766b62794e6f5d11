//! A package's own programs (generators, input and output validators,
//! interactors) are built from a copy when the files as they lie would not
//! build as the format's tools build them:
//!
//! - `{{constants}}` in their sources are replaced (see `constants`);
//! - symbolic links to files are followed. grundy builds a folder from the
//!   regular files it holds (a submission consists of what it holds), but a
//!   package's programs are the setter's, and BAPCtools builds them through
//!   links: its example packages link `validation.h` to the copy BAPCtools
//!   ships, and a problem repository may share one header between its
//!   validators the same way. The copy holds the file the link names.
//!
//! The package's example submissions (under `submissions/`) are built
//! from a copy only when they mention a constant: the format lists
//! "example submissions" among the files whose constant sequences "will
//! be replaced" (2025-09, "Constants"). Their links are not followed: a
//! submission consists of the regular files it holds.
//!
//! The copy is stored in the cache by its content, so it outlives the
//! build (a `run` script is run where it lies) and is made once.

use std::path::{Component, Path, PathBuf};

use super::constants::Constants;

/// The folders of a package whose programs are the setter's (built with
/// their links followed).
const PROGRAMS: [&str; 6] = [
    "generators",
    "input_validators",
    "input_validator",
    "input_format_validators",
    "output_validators",
    "output_validator",
];

/// A copied program past these is not a program but a link to somewhere
/// large (a link to `/`): refused rather than copied.
const MAX_FILES: usize = 1000;
const MAX_BYTES: u64 = 256 << 20;
const MAX_DEPTH: usize = 16;

/// The folder of a package that holds its example submissions.
const SUBMISSIONS: &str = "submissions";

/// When `program` (a file or folder) is a generator or validator of an
/// ICPC package and holds a link or mentions a constant, the path of a
/// copy of it (links followed, constants replaced), under the same name, to
/// build instead; else `None`.
pub fn stage(program: &Path, cache: &crate::cache::Cache) -> std::io::Result<Option<PathBuf>> {
    stage_in(program, cache, |first| PROGRAMS.contains(&first), true)
}

/// When `submission` (a file or folder) is an example submission of an
/// ICPC package (under its `submissions/`) and mentions one of the
/// package's constants, the path of a copy of it with the constants
/// replaced, under the same name, to build instead; else `None`. A
/// submission from elsewhere is built as written: the format replaces
/// constants in the package's files only.
pub fn stage_submission(
    submission: &Path,
    cache: &crate::cache::Cache,
) -> std::io::Result<Option<PathBuf>> {
    stage_in(submission, cache, |first| first == SUBMISSIONS, false)
}

fn stage_in(
    program: &Path,
    cache: &crate::cache::Cache,
    in_folder: impl Fn(&str) -> bool,
    follow_links: bool,
) -> std::io::Result<Option<PathBuf>> {
    let Some((package, rel)) = package_of(program) else {
        return Ok(None);
    };
    let first = rel.components().next().and_then(|c| match c {
        Component::Normal(s) => s.to_str(),
        _ => None,
    });
    if !first.is_some_and(in_folder) {
        return Ok(None);
    }
    let constants = Constants::of_dir(&package);
    if constants.is_empty() && !follow_links {
        return Ok(None);
    }
    let (files, linked) = files_of(program, follow_links)?;
    if constants.is_empty() && !linked {
        return Ok(None);
    }
    // (place in the copy, bytes, mode): text files substituted, others
    // copied as they are.
    let mut changed = linked;
    let mut copy = Vec::new();
    for (rel, f) in &files {
        let bytes = std::fs::read(f)?;
        let bytes = match String::from_utf8(bytes) {
            Ok(text) if !constants.is_empty() => {
                let (out, _) = constants.substitute(&text);
                changed |= out != text;
                out.into_bytes()
            }
            Ok(text) => text.into_bytes(),
            Err(e) => e.into_bytes(),
        };
        let mode = std::fs::metadata(f)?.permissions();
        copy.push((rel.clone(), bytes, mode));
    }
    if !changed {
        return Ok(None);
    }
    let name = program.file_name().unwrap_or_default().to_os_string();
    let mut parts: Vec<Vec<u8>> = vec![b"stage-2".to_vec(), name.as_encoded_bytes().to_vec()];
    for (rel, bytes, mode) in &copy {
        use std::os::unix::fs::PermissionsExt;
        parts.push(rel.as_os_str().as_encoded_bytes().to_vec());
        parts.push(mode.mode().to_le_bytes().to_vec());
        parts.push(bytes.clone());
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let key = crate::cache::Key::of(&refs);
    let dir = cache.dir_or_fill("staged", &key, |work: &Path| -> std::io::Result<()> {
        let top = work.join(&name);
        for (rel, bytes, mode) in &copy {
            let to = if rel.as_os_str().is_empty() {
                top.clone()
            } else {
                top.join(rel)
            };
            if let Some(parent) = to.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&to, bytes)?;
            std::fs::set_permissions(&to, mode.clone())?;
        }
        Ok(())
    })?;
    Ok(Some(dir.join(name)))
}

/// The files of `program` (itself, or those under the folder, links
/// followed when `follow_links`, else left out) with their place in the
/// copy, and whether a link was followed. A link that names nothing is
/// left out: the build then says which file it misses.
fn files_of(
    program: &Path,
    follow_links: bool,
) -> std::io::Result<(Vec<(PathBuf, PathBuf)>, bool)> {
    if !program.is_dir() {
        return Ok((vec![(PathBuf::new(), program.to_path_buf())], false));
    }
    let mut files = Vec::new();
    let mut linked = false;
    let mut total = 0u64;
    let walk = walkdir::WalkDir::new(program)
        .follow_links(follow_links)
        .max_depth(MAX_DEPTH)
        .sort_by_file_name();
    for entry in walk.into_iter().filter_map(Result::ok) {
        linked |= follow_links && entry.path_is_symlink() && entry.depth() > 0;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(program)
            .map(Path::to_path_buf)
            .unwrap_or_else(|_| PathBuf::from(entry.file_name()));
        total += entry.metadata().map(|m| m.len()).unwrap_or(0);
        files.push((rel, entry.into_path()));
        if files.len() > MAX_FILES || total > MAX_BYTES {
            return Err(std::io::Error::other(format!(
                "{}: more than {MAX_FILES} files or {} MiB with its links followed",
                program.display(),
                MAX_BYTES >> 20
            )));
        }
    }
    Ok((files, linked))
}

/// The package holding `path` and the path inside it, when `path` lies in
/// an ICPC package. The last component is not resolved: a program that is
/// itself a link still belongs where it is linked from.
fn package_of(path: &Path) -> Option<(PathBuf, PathBuf)> {
    let parent =
        std::fs::canonicalize(path.parent().filter(|p| !p.as_os_str().is_empty())?).ok()?;
    let abs = parent.join(path.file_name()?);
    let mut at = abs.parent();
    while let Some(dir) = at {
        if dir.join(crate::spec::SPEC_FILE).is_file() {
            if !super::is_package(dir) {
                return None;
            }
            let rel = abs.strip_prefix(dir).ok()?.to_path_buf();
            return Some((dir.to_path_buf(), rel));
        }
        at = dir.parent();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(constants: &str) -> tempfile::TempDir {
        let d = tempfile::tempdir().expect("tempdir");
        let p = d.path();
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

    #[test]
    fn a_linked_header_is_copied_as_the_file_it_names() {
        let d = package("");
        let v = d.path().join("input_validators/v");
        std::os::unix::fs::symlink("../../shared/h.h", v.join("h.h")).expect("link");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        let staged = stage(&v, &cache).expect("stage").expect("a copy");
        let header = staged.join("h.h");
        assert!(
            !header
                .symlink_metadata()
                .expect("meta")
                .file_type()
                .is_symlink()
        );
        assert_eq!(
            std::fs::read_to_string(header).expect("read"),
            "#define N {{N}}\n"
        );
    }

    #[test]
    fn constants_are_replaced_in_linked_files_too() {
        let d = package("constants:\n  N: 7\n");
        let v = d.path().join("input_validators/v");
        std::os::unix::fs::symlink("../../shared/h.h", v.join("h.h")).expect("link");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        let staged = stage(&v, &cache).expect("stage").expect("a copy");
        assert_eq!(
            std::fs::read_to_string(staged.join("h.h")).expect("read"),
            "#define N 7\n"
        );
    }

    #[test]
    fn a_folder_without_links_or_constants_is_built_where_it_lies() {
        let d = package("");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        let v = d.path().join("input_validators/v");
        assert_eq!(stage(&v, &cache).expect("stage"), None);
    }

    #[test]
    fn a_submission_mentioning_a_constant_is_built_from_a_substituted_copy() {
        let d = package("constants:\n  N: 7\n");
        let s = d.path().join("submissions/accepted/a");
        std::fs::create_dir_all(&s).expect("mkdir");
        std::fs::write(s.join("a.py"), "print({{N}})\n").expect("write");
        std::fs::write(d.path().join("shared/b.py"), "print({{N}})\n").expect("write");
        std::os::unix::fs::symlink("../../../shared/b.py", s.join("b.py")).expect("link");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        let staged = stage_submission(&s, &cache)
            .expect("stage")
            .expect("a copy");
        assert_eq!(staged.file_name(), s.file_name());
        assert_eq!(
            std::fs::read_to_string(staged.join("a.py")).expect("read"),
            "print(7)\n"
        );
        // Its links are not part of it, as when it is built as it lies.
        assert!(!staged.join("b.py").exists());
        // A single file too; one outside `submissions/` is left alone.
        let one = d.path().join("submissions/accepted/one.py");
        std::fs::write(&one, "print({{N}})\n").expect("write");
        let staged = stage_submission(&one, &cache)
            .expect("stage")
            .expect("a copy");
        assert_eq!(std::fs::read_to_string(staged).expect("read"), "print(7)\n");
        let elsewhere = d.path().join("shared/b.py");
        assert_eq!(stage_submission(&elsewhere, &cache).expect("stage"), None);
    }

    #[test]
    fn a_submission_without_constants_is_built_where_it_lies() {
        let d = package("constants:\n  N: 7\n");
        let one = d.path().join("submissions/accepted/one.py");
        std::fs::create_dir_all(one.parent().expect("parent")).expect("mkdir");
        std::fs::write(&one, "print(7)\n").expect("write");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        assert_eq!(stage_submission(&one, &cache).expect("stage"), None);
    }

    #[test]
    fn submissions_are_never_staged_as_programs() {
        let d = package("");
        let s = d.path().join("submissions/accepted/a");
        std::fs::create_dir_all(&s).expect("mkdir");
        std::fs::write(d.path().join("shared/a.cpp"), "int main(){}\n").expect("write");
        std::os::unix::fs::symlink("../../../shared/a.cpp", s.join("a.cpp")).expect("link");
        let cache = crate::cache::Cache::open(d.path().join("cache")).expect("cache");
        assert_eq!(stage(&s, &cache).expect("stage"), None);
    }
}
