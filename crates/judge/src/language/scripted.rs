//! Programs given as a folder with `build` and/or `run` scripts, as the
//! ICPC package format allows for validators and interactors: `build` runs
//! once in (a copy of) the folder, and `run` is then the program; a folder
//! whose `build` leaves no `run` is built by the language of its files, as
//! any folder of sources.
//!
//! The copy and what `build` makes of it live in the compile cache, keyed
//! by every file of the folder, so a package's interactor is built once,
//! not once per judge run. `build` runs in the sandbox with the compile
//! limits, like a compiler: it is the package's code, and a `build` that
//! fails is the problem's fault, reported with what the script wrote.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::compile::{CACHE_FORMAT, FAILED_FILE, FillError, LOG_CAP, fail, read_log};
use super::compiler_run::{COMPILE_MEMORY, compile_env, compile_limits, limit_message};
use super::{CompileOutcome, Compiled, Language, LanguageError, Languages, compile};
use crate::cache::{Cache, Key};
use crate::run_kind::RunKind;
use crate::sandbox::{Exit, LimitHit, Runner};

/// The folder inside the artefact that holds the program's files.
const PROGRAM: &str = "program";
/// The deepest folder copied: packages nest a few levels at most.
const MAX_DEPTH: usize = 16;

/// Whether `path` is a program folder with a `build` or `run` script.
pub fn is_scripted(path: &Path) -> bool {
    path.is_dir() && (path.join("build").is_file() || path.join("run").is_file())
}

/// Builds the program folder `dir` (see the module's doc), or takes the
/// build from the cache.
pub fn build(
    dir: &Path,
    languages: &Languages,
    cache: &Cache,
    runner: &Runner,
) -> Result<CompileOutcome, LanguageError> {
    let mut text = Vec::new();
    fingerprint(dir, Path::new(""), &mut text, 0)?;
    let key = Key::of(&[CACHE_FORMAT, b"scripted", &text]);
    let filled = cache.dir_or_fill("bin", &key, |work| fill(dir, work, runner));
    let artefact = match filled {
        Ok(d) => d,
        Err(FillError::Language(e)) => return Err(e),
        Err(FillError::TimedOut) => {
            return Ok(CompileOutcome::Failed {
                log: limit_message(LimitHit::Wall, &compile_limits(COMPILE_MEMORY))
                    .replace("compilation", "`build`"),
                naming: Default::default(),
            });
        }
    };
    if let Some(log) = crate::beneath::read(&artefact, FAILED_FILE, LOG_CAP as u64 + 4096)? {
        return Ok(CompileOutcome::Failed {
            log: String::from_utf8_lossy(&log).into_owned(),
            naming: Default::default(),
        });
    }
    let program = artefact.join(PROGRAM);
    if program.join("run").is_file() {
        return Ok(CompileOutcome::Ready(Compiled {
            language: run_script(),
            dir: artefact,
            main_class: None,
            key,
            log: String::new(),
            naming: Default::default(),
        }));
    }
    // No `run`: the files (as `build` left them) are a program in one of
    // grundy's languages.
    let lang = languages.detect(&program)?;
    compile(lang, &program, cache, runner)
}

/// The language of a built folder: its `run` script, run as it is.
fn run_script() -> Language {
    Language {
        id: "run-script".into(),
        name: "run script".into(),
        extensions: Vec::new(),
        source_name: format!("{PROGRAM}/run"),
        compile: None,
        run: vec![format!("{{dir}}/{PROGRAM}/run")],
        time_multiplier: 1.0,
        memory_allowance: crate::units::Bytes(0),
        // A script may start any runtime, some of which reserve far more
        // address space than they use.
        cap_address_space: false,
        compile_all_sources: false,
        compile_memory: COMPILE_MEMORY,
    }
}

/// Copies the folder into the artefact and runs its `build` there.
fn fill(dir: &Path, work: &Path, runner: &Runner) -> Result<(), FillError> {
    let program = work.join(PROGRAM);
    copy_tree(dir, &program, 0)?;
    let build = program.join("build");
    if build.is_file() {
        let logs = tempfile::tempdir()?;
        // The format says `build` is executable; one that lost its mode on
        // the way (an archive) is still the POSIX shell script it must be.
        let argv = if is_executable(&build) {
            vec![build.clone().into_os_string()]
        } else {
            vec!["/bin/sh".into(), build.clone().into_os_string()]
        };
        let spec = RunKind::BuildScript
            .spec(
                argv,
                &program,
                logs.path().join("out"),
                compile_limits(COMPILE_MEMORY),
            )
            .env(compile_env(None, &program))
            .build();
        let outcome = runner
            .run(&spec)
            .map_err(|e| FillError::Language(e.into()))?;
        let log = read_log(&logs.path().join("out"), &outcome.stderr_head)
            .replace(&format!("{}/", program.display()), "");
        if let Some(hit) = outcome
            .crossed
            .first()
            .filter(|_| outcome.exit != Exit::Code(0))
        {
            if hit == LimitHit::Wall {
                return Err(FillError::TimedOut);
            }
            let why = limit_message(hit, &spec.limits).replace("compilation", "`build`");
            return fail(work, format!("{why}\n{log}").trim_end());
        }
        if outcome.exit != Exit::Code(0) {
            return fail(
                work,
                &format!(
                    "`build` failed ({}){}{}",
                    exit_text(&outcome.exit),
                    if log.trim().is_empty() { "" } else { ":\n" },
                    log.trim_end()
                ),
            );
        }
    }
    let run = program.join("run");
    if run.is_file() && !is_executable(&run) {
        std::fs::set_permissions(&run, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

fn exit_text(exit: &Exit) -> String {
    match exit {
        Exit::Code(c) => format!("exit code {c}"),
        Exit::Signal(s) => format!("killed by signal {s}"),
    }
}

fn is_executable(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Copies `from` into `to`: files (a link to a file is copied as the file
/// it names, as a package unpacked elsewhere would have it) and folders;
/// permissions are kept, so scripts stay executable.
fn copy_tree(from: &Path, to: &Path, depth: usize) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    if depth > MAX_DEPTH {
        return Ok(());
    }
    for entry in sorted(from)? {
        let name = entry.file_name().unwrap_or_default();
        let meta = std::fs::symlink_metadata(&entry)?;
        if meta.is_dir() {
            copy_tree(&entry, &to.join(name), depth + 1)?;
        } else if entry.is_file() {
            crate::beneath::copy_file(&entry, &to.join(name), crate::beneath::SOURCE_CAP)?;
        }
    }
    Ok(())
}

/// The bytes that identify the folder: every file's name, mode and content.
fn fingerprint(
    dir: &Path,
    rel: &Path,
    out: &mut Vec<u8>,
    depth: usize,
) -> Result<(), LanguageError> {
    if depth > MAX_DEPTH {
        return Ok(());
    }
    let read = |p: &Path, e: std::io::Error| LanguageError::Read {
        path: p.to_path_buf(),
        source: e,
    };
    for entry in sorted(dir).map_err(|e| read(dir, e))? {
        let name = entry.file_name().unwrap_or_default();
        let meta = std::fs::symlink_metadata(&entry).map_err(|e| read(&entry, e))?;
        if meta.is_dir() {
            fingerprint(&entry, &rel.join(name), out, depth + 1)?;
        } else if entry.is_file() {
            let bytes = crate::beneath::read_file(&entry, crate::beneath::SOURCE_CAP)
                .map_err(|e| read(&entry, e))?;
            let path = rel.join(name);
            let path = path.to_string_lossy();
            out.extend_from_slice(&(path.len() as u64).to_le_bytes());
            out.extend_from_slice(path.as_bytes());
            out.push(u8::from(is_executable(&entry)));
            out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
            out.extend_from_slice(&bytes);
        }
    }
    Ok(())
}

fn sorted(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    v.sort();
    Ok(v)
}
