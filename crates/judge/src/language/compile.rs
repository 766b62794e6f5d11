//! Compiling a source file once, into the content-addressed cache.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::compiler_run::{compile_env, compile_limits, compiler_failure, limit_message};
use super::naming::Naming;
use super::sources::SourceSet;
use super::toolchain::{self, resolve, toolchain};
use super::{Language, LanguageError, java, pch};
use crate::cache::{Cache, Key};
use crate::run_kind::RunKind;
use crate::sandbox::{self, Exit, LimitHit, Runner};
use crate::units::Bytes;

/// Compiler output beyond this is cut: a CE message is for reading.
pub(super) const LOG_CAP: usize = 64 * 1024;
const MAIN_CLASS_FILE: &str = "main-class";
/// How a compiler driver (gcc, g++, rustc's linker call) reports that one
/// of its own children got `SIGXFSZ` (the words of `strsignal`): the
/// kernel's file size limit stopped the assembler or the linker, which the
/// sandbox cannot see, as it waits for the driver alone. Named as the disk
/// limit so that the message says what stopped the compile; at worst a
/// source that prints these words itself in a diagnostic gets the same CE
/// with the limit named.
const CHILD_PAST_FILE_SIZE: &str = "File size limit exceeded";
/// How `strerror(ENOSPC)` reads in a compiler's messages.
const NO_SPACE: &str = "No space left on device";
pub(super) const FAILED_FILE: &str = "compile-failed.log";
/// How near its memory limit a failed compile's peak must be for the limit
/// to be named as the cause (the group's own tasks and the judge's helper
/// stacks are counted apart from the compiler's).
const MEMORY_LIMIT_REACHED: Bytes = Bytes::mib(16);

const LOG_FILE: &str = "compile.log";
/// The files the judge writes into an artefact folder after the compiler
/// ran there (and so never trusts to be what it wrote: see `beneath`).
const JUDGE_FILES: [&str; 3] = [MAIN_CLASS_FILE, FAILED_FILE, LOG_FILE];

/// Part of every compile cache key: raised whenever what an entry holds or
/// means changes, so that entries of an older grundy (such as the empty
/// executables an old `exe` bug left) are never used again. They age out
/// of the cache like any unused entry.
///
/// 3: compile commands get the source's path relative to the compiler's
/// folder, so that a program's `__FILE__` no longer names a scratch folder.
pub(super) const CACHE_FORMAT: &[u8] = b"grundy-compile-format-3";

/// A program ready to run, living in the cache.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub language: Language,
    /// The artefact folder (source, binary, class files).
    pub dir: PathBuf,
    pub main_class: Option<String>,
    /// The compile cache key: equal keys mean the same program.
    pub key: Key,
    /// The compiler's messages (warnings), capped.
    pub log: String,
    /// How the program's own messages are to name its source.
    pub naming: Naming,
}

/// The result of a compilation the submission is responsible for. Its
/// messages name the source by the file name compiled; [`Self::shown_as`]
/// names it otherwise.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // one per submission, never stored in bulk
pub enum CompileOutcome {
    Ready(Compiled),
    /// A compile error (`CE`), with the compiler's message.
    Failed {
        log: String,
        naming: Naming,
    },
}

impl CompileOutcome {
    /// The outcome with the source named `shown` (the name the file was
    /// submitted under) in the compiler's messages and the program's.
    pub fn shown_as(self, shown: &str) -> CompileOutcome {
        match self {
            CompileOutcome::Ready(mut c) => {
                c.naming = c.naming.shown_as(shown);
                c.log = c.naming.apply(&c.log);
                CompileOutcome::Ready(c)
            }
            CompileOutcome::Failed { log, naming } => {
                let naming = naming.shown_as(shown);
                CompileOutcome::Failed {
                    log: naming.apply(&log),
                    naming,
                }
            }
        }
    }

    /// The compiler's messages.
    pub fn log(&self) -> &str {
        match self {
            CompileOutcome::Ready(c) => &c.log,
            CompileOutcome::Failed { log, .. } => log,
        }
    }
}

impl Compiled {
    /// What the program said (its stderr), with its source named as
    /// submitted and no folder of the judge's in it.
    pub fn messages(&self, text: &str) -> String {
        self.naming.apply(text)
    }

    /// The command that runs this program with `memory` as its limit.
    pub fn argv(&self, memory: Bytes) -> Vec<OsString> {
        let vars = Vars {
            src: self.dir.join(&self.language.source_name),
            dir: self.dir.clone(),
            main: self.main_class.clone().unwrap_or_default(),
            memory_mib: memory.0.div_ceil(1 << 20),
        };
        let mut argv: Vec<OsString> = self.language.run.iter().map(|a| vars.fill(a)).collect();
        if let Some(first) = argv.first_mut()
            && let Some(p) = resolve(&first.to_string_lossy())
        {
            *first = p.into_os_string();
        }
        argv
    }
}

/// The largest thread stack the JVM accepts, in MiB.
const MAX_STACK_MIB: u64 = 1024;

struct Vars {
    src: PathBuf,
    dir: PathBuf,
    main: String,
    memory_mib: u64,
}

impl Vars {
    fn fill(&self, arg: &str) -> OsString {
        arg.replace("{src}", &self.src.to_string_lossy())
            .replace("{bin}", &self.dir.join("main").to_string_lossy())
            .replace("{dir}", &self.dir.to_string_lossy())
            .replace("{main}", &self.main)
            .replace("{memory_mib}", &self.memory_mib.to_string())
            // The JVM refuses a thread stack above 1 GiB (`Invalid thread
            // stack size`), and the ICPC format's default memory is 2 GiB.
            .replace(
                "{stack_mib}",
                &self.memory_mib.clamp(1, MAX_STACK_MIB).to_string(),
            )
            .into()
    }
}

/// Why a fill of the cache stopped.
pub(super) enum FillError {
    Language(LanguageError),
    /// The compile ran out of wall time. Not cached: a compile that waited
    /// for a CPU may succeed on a less loaded machine.
    TimedOut,
}

impl From<std::io::Error> for FillError {
    fn from(e: std::io::Error) -> Self {
        FillError::Language(e.into())
    }
}

/// What is compiled: one file, or a folder of files (see `sources`).
enum Input {
    File(Vec<u8>),
    /// The files, and those (relative to `src/`) that `{src}` stands for.
    Folder(SourceSet, Vec<PathBuf>),
}

/// Where a folder submission's files are put inside the artefact folder,
/// apart from what the compiler writes.
const FOLDER_SOURCES: &str = "src";

/// Compiles `source` (a file, or a folder in one language) as `lang`, or
/// takes the result from the cache.
pub fn compile(
    lang: &Language,
    source: &Path,
    cache: &Cache,
    runner: &Runner,
) -> Result<CompileOutcome, LanguageError> {
    let mut lang = lang.clone();
    let (input, text, java_public) = if source.is_dir() {
        let set = SourceSet::read(source)?;
        let entry = match set.entry(&lang) {
            Ok(e) => e,
            Err(why) => {
                return Ok(CompileOutcome::Failed {
                    log: why.to_string(),
                    naming: Naming::default(),
                });
            }
        };
        let listed: Vec<PathBuf> = if lang.compile_all_sources {
            let mut all: Vec<PathBuf> = set.sources_of(&lang).cloned().collect();
            all.retain(|p| p != &entry);
            all.insert(0, entry.clone());
            all
        } else {
            vec![entry.clone()]
        };
        lang.source_name = Path::new(FOLDER_SOURCES)
            .join(&entry)
            .to_string_lossy()
            .into_owned();
        let text = set.key_bytes();
        (Input::Folder(set, listed), text, None)
    } else {
        let text = crate::beneath::read_file(source, crate::beneath::SOURCE_CAP).map_err(|e| {
            LanguageError::Read {
                path: source.to_path_buf(),
                source: e,
            }
        })?;
        let java_public = (lang.id == "java")
            .then(|| java::public_class(&String::from_utf8_lossy(&text)))
            .flatten();
        if let Some(name) = &java_public {
            if let Err(why) = java::check_file_name(name) {
                return Ok(CompileOutcome::Failed {
                    log: why.to_string(),
                    naming: Naming::default(),
                });
            }
            lang.source_name = format!("{name}.java");
        }
        (Input::File(text.clone()), text, java_public)
    };
    // The compiler's real path is only needed (and, behind a version
    // manager's shim, only worth asking for) when it is run.
    let compiler_identity = match &lang.compile {
        Some(cmd) => Some(toolchain::identity(&lang, &cmd[0])?),
        None => None,
    };
    if let Some(first) = lang.run.first().filter(|p| !p.contains('{')) {
        toolchain(&lang, first)?;
    }
    let key = Key::of(&[
        CACHE_FORMAT,
        lang.id.as_bytes(),
        if matches!(input, Input::Folder(..)) {
            b"folder"
        } else {
            b"file"
        },
        lang.source_name.as_bytes(),
        lang.compile
            .as_ref()
            .map(|c| c.join("\u{1f}"))
            .unwrap_or_default()
            .as_bytes(),
        compiler_identity.as_deref().unwrap_or_default(),
        // A compile stopped at its memory limit is remembered: under
        // another limit the same source may compile.
        &lang.compile_memory.0.to_le_bytes(),
        &text,
    ]);
    let filled = cache.dir_or_fill("bin", &key, |work| {
        let compiler = match &lang.compile {
            Some(cmd) => Some(toolchain(&lang, &cmd[0]).map_err(FillError::Language)?),
            None => None,
        };
        build(
            &lang,
            compiler.as_deref(),
            &input,
            work,
            java_public.as_deref(),
            runner,
            cache,
        )
    });
    let dir = match filled {
        Ok(dir) => dir,
        Err(FillError::Language(e)) => return Err(e),
        Err(FillError::TimedOut) => {
            return Ok(CompileOutcome::Failed {
                log: limit_message(LimitHit::Wall, &compile_limits(lang.compile_memory)),
                naming: Naming::default(),
            });
        }
    };
    // A folder's files keep their own names; one file is named as given.
    let naming = match &input {
        Input::Folder(..) => Naming::new(&dir, &format!("{FOLDER_SOURCES}/"), ""),
        Input::File(_) => Naming::new(
            &dir,
            &lang.source_name,
            &source
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| lang.source_name.clone()),
        ),
    };
    let text = |name: &str| -> Result<Option<String>, LanguageError> {
        let bytes = crate::beneath::read(&dir, name, LOG_CAP as u64 + 4096)?;
        Ok(bytes.map(|b| String::from_utf8_lossy(&b).into_owned()))
    };
    if let Some(log) = text(FAILED_FILE)? {
        return Ok(CompileOutcome::Failed {
            log: naming.apply(&log),
            naming,
        });
    }
    let main_class = text(MAIN_CLASS_FILE)?;
    let log = naming.apply(&text(LOG_FILE)?.unwrap_or_default());
    Ok(CompileOutcome::Ready(Compiled {
        language: lang,
        dir,
        main_class,
        key,
        log,
        naming,
    }))
}

/// Fills a fresh artefact folder: the source, and the compiler's products.
fn build(
    lang: &Language,
    compiler: Option<&Path>,
    input: &Input,
    work: &Path,
    java_public: Option<&str>,
    runner: &Runner,
    cache: &Cache,
) -> Result<(), FillError> {
    match input {
        Input::File(text) => std::fs::write(work.join(&lang.source_name), text)?,
        Input::Folder(set, _) => set.write_to(&work.join(FOLDER_SOURCES))?,
    }
    if lang.compile.is_none() {
        // A ready executable: the artefact is the file itself (copying a
        // file onto itself would empty it).
        let bin = work.join("main");
        if lang.source_name != "main" {
            std::fs::copy(work.join(&lang.source_name), &bin)?;
        }
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&bin, std::fs::Permissions::from_mode(0o755))?;
        return Ok(());
    }
    let logs = tempfile::tempdir()?;
    // The compiler runs in a folder of its own, next to `work`, holding a
    // copy of the sources; what it leaves there is copied into `work`
    // after it. As root that folder is a tmpfs of the compile's disk
    // limit, which bounds everything it writes (see `Runner::run_kept`).
    let place = work.parent().unwrap_or(work);
    let run_dir = tempfile::Builder::new()
        .prefix("compile-")
        .tempdir_in(place)?;
    let run_dir = run_dir.keep();
    let outcome = compile_in(lang, compiler, input, work, &run_dir, &logs, runner, cache);
    // Removing the folder detaches its tmpfs everywhere; a tree the
    // compiler built on disk (no tmpfs) may be as deep as it liked.
    let removed = crate::beneath::remove_tree(&run_dir);
    let (outcome, precompiled) = outcome?;
    removed?;
    let run_prefix = format!("{}/", run_dir.display());
    finish(
        lang,
        input,
        work,
        java_public,
        &logs,
        outcome,
        precompiled,
        &run_prefix,
    )
}

/// Runs the compiler of `lang` in `run_dir` with the sources of `work`.
#[allow(clippy::too_many_arguments)]
fn compile_in(
    lang: &Language,
    compiler: Option<&Path>,
    input: &Input,
    work: &Path,
    run_dir: &Path,
    logs: &tempfile::TempDir,
    runner: &Runner,
    cache: &Cache,
) -> Result<(sandbox::RunOutcome, Option<pch::Precompiled>), FillError> {
    let Some(cmd) = &lang.compile else {
        return Err(FillError::Language(LanguageError::Io(
            std::io::Error::other("no compile command"),
        )));
    };
    // The source's path relative to the compiler's folder (its working
    // folder): the compiler's messages and the program's `__FILE__` then
    // name the file, not the scratch folder.
    let vars = Vars {
        src: PathBuf::from(&lang.source_name),
        dir: run_dir.to_path_buf(),
        main: String::new(),
        memory_mib: 0,
    };
    let mut argv: Vec<OsString> = Vec::new();
    for a in cmd {
        match input {
            Input::Folder(_, listed) if a == "{src}" => argv.extend(
                listed
                    .iter()
                    .map(|p| Path::new(FOLDER_SOURCES).join(p).into_os_string()),
            ),
            _ => argv.push(vars.fill(a)),
        }
    }
    let mut precompiled = None;
    if let Some(c) = compiler {
        argv[0] = c.as_os_str().to_owned();
        // A precompiled bits/stdc++.h, found first on the include path.
        if let Input::File(text) = input
            && pch::includes_stdcpp(text)
        {
            precompiled = pch::include_dir(c, cmd, cache, runner);
        }
        if let Some(p) = &precompiled {
            argv.splice(1..1, ["-I".into(), p.dir.clone().into_os_string()]);
        }
    }
    // The compiler reads the source in its folder and leaves its
    // products there: the kind keeps it.
    let spec = RunKind::Compiler
        .spec(
            argv,
            run_dir,
            logs.path().join("out"),
            compile_limits(lang.compile_memory),
        )
        .env(compile_env(compiler, run_dir))
        .build();
    let outcome = runner
        .run_kept(&spec, work)
        .map_err(|e| FillError::Language(e.into()))?;
    Ok((outcome, precompiled))
}

/// Turns a compile's outcome into the artefact folder `work`: its log, or
/// a remembered compile error.
#[allow(clippy::too_many_arguments)]
fn finish(
    lang: &Language,
    input: &Input,
    work: &Path,
    java_public: Option<&str>,
    logs: &tempfile::TempDir,
    outcome: sandbox::RunOutcome,
    precompiled: Option<pch::Precompiled>,
    run_prefix: &str,
) -> Result<(), FillError> {
    let spec_limits = compile_limits(lang.compile_memory);
    // The compiler's products were copied into `work` and may be anything,
    // links named like the judge's own files included: those go first.
    for name in JUDGE_FILES {
        crate::beneath::remove_file(work, name)?;
    }
    // Messages name the file as `main.c`, not by the scratch folder it was in.
    let mut log = read_log(&logs.path().join("out"), &outcome.stderr_head)
        .replace(run_prefix, "")
        .replace(&format!("{}/", work.display()), "");
    if let Some(p) = &precompiled {
        log = log.replace(
            &p.dir.display().to_string(),
            &p.system.display().to_string(),
        );
    }
    let failed = outcome.exit != Exit::Code(0);
    let in_tmpfs = outcome
        .isolation
        .mechanisms
        .contains(&"tmpfs working folder");
    if let Some(hit) = outcome
        .crossed
        .first()
        .or_else(|| {
            log.contains(CHILD_PAST_FILE_SIZE)
                .then_some(LimitHit::Output)
        })
        .or_else(|| {
            // In a tmpfs of the compile's own disk limit, "no space" can
            // only mean that limit. The watcher samples the tmpfs, so a
            // compile that fills it and fails at once (its files then
            // freed) may end between two looks; the compiler's message is
            // the kernel's refusal, seen every time.
            (in_tmpfs && log.contains(NO_SPACE)).then_some(LimitHit::Output)
        })
        .or_else(|| {
            // A compiler refused memory inside a system call (its `read`
            // into a buffer the group cannot charge fails with `EFAULT`)
            // fails at its limit without the group's out-of-memory event:
            // a failed compile whose peak reached the limit was stopped by
            // it.
            (outcome.peak_memory.0.saturating_add(MEMORY_LIMIT_REACHED.0) >= spec_limits.memory.0)
                .then_some(LimitHit::Memory)
        })
        .filter(|_| failed)
    {
        if hit == LimitHit::Wall {
            return Err(FillError::TimedOut);
        }
        // The same source fails the same way on any machine: remembered
        // like any compile error, without what the compiler left.
        return fail(
            work,
            format!("{}\n{log}", limit_message(hit, &spec_limits)).trim_end(),
        );
    }
    if outcome.exit != Exit::Code(0) {
        if let Some(why) = compiler_failure(&outcome.exit, &log) {
            return Err(FillError::Language(LanguageError::CompilerFailed {
                why,
                log: log.trim_end().to_string(),
            }));
        }
        return fail(
            work,
            if log.is_empty() {
                "the compiler failed without a message"
            } else {
                &log
            },
        );
    }
    crate::beneath::write(work, LOG_FILE, log.as_bytes())?;
    if lang.id == "java" {
        let skip = matches!(input, Input::Folder(..)).then(|| work.join(FOLDER_SOURCES));
        match java::main_class(work, java_public, skip.as_deref()) {
            Some(main) => crate::beneath::write(work, MAIN_CLASS_FILE, main.as_bytes())?,
            None => {
                return fail(
                    work,
                    "no class declares `public static void main(String[] args)`",
                );
            }
        }
    }
    Ok(())
}

/// Makes `work` a cached compile error: only the message is kept, not
/// what the compiler wrote (which may be as large as its output limit).
pub(super) fn fail(work: &Path, log: &str) -> Result<(), FillError> {
    for entry in std::fs::read_dir(work)? {
        crate::beneath::remove_tree(&entry?.path())?;
    }
    crate::beneath::write(work, FAILED_FILE, log.as_bytes())?;
    Ok(())
}

pub(super) fn read_log(out: &Path, err: &[u8]) -> String {
    let mut bytes = std::fs::read(out).unwrap_or_default();
    bytes.extend_from_slice(err);
    if bytes.len() > LOG_CAP {
        bytes.truncate(LOG_CAP);
        bytes.extend_from_slice(b"\n[... compiler output cut ...]\n");
    }
    String::from_utf8_lossy(&bytes).into_owned()
}
