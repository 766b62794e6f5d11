//! The language table: built-in entries, overridable by a config file.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::units::Bytes;

/// How to build and run programs of one language.
///
/// Commands are argv lists with placeholders: `{src}` the source file,
/// `{dir}` the artefact folder, `{bin}` the compiled binary (`{dir}/main`),
/// `{main}` the Java main class, `{memory_mib}` the memory limit in MiB,
/// `{stack_mib}` the same capped at the JVM's largest stack (1024 MiB).
#[derive(Debug, Clone, PartialEq)]
pub struct Language {
    pub id: String,
    pub name: String,
    pub extensions: Vec<String>,
    /// File name the source is saved under before compiling (`{src}`).
    pub source_name: String,
    pub compile: Option<Vec<String>>,
    pub run: Vec<String>,
    /// CPU-time limits are multiplied by this (interpreter and JIT overhead).
    pub time_multiplier: f64,
    /// Extra memory granted on top of the problem's limit (runtime overhead).
    pub memory_allowance: Bytes,
    /// Whether an address-space cap may be used to enforce memory: fine for
    /// native code, fatal for runtimes that reserve large virtual ranges.
    pub cap_address_space: bool,
    /// For a submission folder: whether `{src}` in the compile command
    /// stands for every source file (C, C++, Java, Python) or for the entry
    /// only (Rust, whose compiler follows `mod` declarations itself).
    pub compile_all_sources: bool,
    /// The memory a compile of this language may use (all its processes
    /// together where the run has a memory group). A languages file may
    /// lower it, for a machine or a test cage with less memory than the
    /// default's 8 GiB.
    pub compile_memory: Bytes,
}

fn lang(
    id: &str,
    name: &str,
    extensions: &[&str],
    source_name: &str,
    compile: Option<&[&str]>,
    run: &[&str],
) -> Language {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    Language {
        id: id.into(),
        name: name.into(),
        extensions: strings(extensions),
        source_name: source_name.into(),
        compile: compile.map(strings),
        run: strings(run),
        time_multiplier: 1.0,
        memory_allowance: Bytes(0),
        cap_address_space: true,
        compile_all_sources: true,
        compile_memory: super::compiler_run::COMPILE_MEMORY,
    }
}

/// The languages grundy knows without any configuration.
///
/// Multipliers and allowances (documented in README.md): Python's start-up
/// and interpretation cost 3x; the JVM's JIT and GC threads count towards
/// CPU time (2x) and its runtime needs about 64 MiB beyond the heap.
pub fn builtin() -> Vec<Language> {
    let c = lang(
        "c",
        "C (gcc, C17)",
        &["c"],
        "main.c",
        Some(&[
            "gcc",
            "-O2",
            "-std=gnu17",
            "-pipe",
            "-o",
            "{bin}",
            "{src}",
            "-lm",
        ]),
        &["{bin}"],
    );
    let cpp = lang(
        "cpp",
        "C++ (g++, C++17)",
        &["cpp", "cc", "cxx", "c++"],
        "main.cpp",
        Some(&[
            "g++",
            "-O2",
            "-std=gnu++17",
            "-pipe",
            "-o",
            "{bin}",
            "{src}",
        ]),
        &["{bin}"],
    );
    let mut java = lang(
        "java",
        "Java",
        &["java"],
        "Main.java",
        Some(&["javac", "-encoding", "UTF-8", "-d", "{dir}", "{src}"]),
        &[
            "java",
            "-Xmx{memory_mib}m",
            "-Xss{stack_mib}m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xshare:auto",
            "-cp",
            "{dir}",
            "{main}",
        ],
    );
    java.time_multiplier = 2.0;
    java.memory_allowance = Bytes::mib(64);
    java.cap_address_space = false;
    // `.py3` is BAPCtools' and problemtools' other name for Python 3.
    let mut python = lang(
        "python",
        "Python 3",
        &["py", "py3"],
        "main.py",
        Some(&[
            "python3",
            "-c",
            "import sys\nfor f in sys.argv[1:]: compile(open(f, 'rb').read(), f, 'exec')",
            "{src}",
        ]),
        &["python3", "{src}"],
    );
    python.time_multiplier = 3.0;
    python.memory_allowance = Bytes::mib(32);
    // Python 2: `.py2`, or a `.py` whose `#!` line names python2 (see
    // `Languages::detect`), as problemtools tells the two apart. Judged
    // where a `python2` interpreter is installed; elsewhere "no toolchain".
    let mut python2 = lang(
        "python2",
        "Python 2",
        &["py2"],
        "main.py",
        Some(&[
            "python2",
            "-c",
            "import sys\nfor f in sys.argv[1:]: compile(open(f, 'rb').read(), f, 'exec')",
            "{src}",
        ]),
        &["python2", "{src}"],
    );
    python2.time_multiplier = 3.0;
    python2.memory_allowance = Bytes::mib(32);
    // Shell scripts (BAPCtools' `.sh` submissions and generators), run by
    // bash as BAPCtools runs them; `bash -n` is the syntax check.
    let mut bash = lang(
        "bash",
        "Bash",
        &["sh"],
        "main.sh",
        Some(&["bash", "-n", "{src}"]),
        &["bash", "{src}"],
    );
    bash.memory_allowance = Bytes::mib(8);
    let mut rust = lang(
        "rust",
        "Rust (rustc, 2021)",
        &["rs"],
        "main.rs",
        Some(&["rustc", "-O", "--edition", "2021", "-o", "{bin}", "{src}"]),
        &["{bin}"],
    );
    rust.memory_allowance = Bytes::mib(8);
    rust.compile_all_sources = false;
    let exe = lang("exe", "ready executable", &[], "main", None, &["{bin}"]);
    let mut all = vec![c, cpp, java, python, python2, rust, bash, exe];
    // Native runtimes still map a few MiB of libraries beyond what they use.
    for l in all.iter_mut().filter(|l| l.cap_address_space) {
        l.memory_allowance = Bytes(l.memory_allowance.0 + Bytes::mib(16).0);
    }
    all
}

/// One entry of a languages config file; omitted fields keep the built-in
/// value of the same id.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LanguageOverride {
    id: String,
    name: Option<String>,
    extensions: Option<Vec<String>>,
    source_name: Option<String>,
    compile: Option<Vec<String>>,
    run: Option<Vec<String>>,
    time_multiplier: Option<f64>,
    memory_allowance: Option<String>,
    cap_address_space: Option<bool>,
    compile_memory: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LanguagesFile {
    pub languages: Vec<LanguageOverride>,
}

impl LanguagesFile {
    /// The ids of the entries that set `compile` or `run`.
    pub(crate) fn commands_set(&self) -> Vec<String> {
        self.languages
            .iter()
            .filter(|o| o.compile.is_some() || o.run.is_some())
            .map(|o| o.id.clone())
            .collect()
    }
}

/// What is wrong with a languages config file; each names the file and,
/// for an entry, the language.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("{}: cannot read: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{0}")]
    Yaml(crate::yaml::YamlError),
    #[error("{}: new language `{id}` needs a `run` command", path.display())]
    NewNeedsRun { path: PathBuf, id: String },
    #[error("{}: `{id}`: time_multiplier must be > 0", path.display())]
    TimeMultiplier { path: PathBuf, id: String },
    #[error("{}: `{id}`: memory_allowance `{value}` is not a size like 64MiB", path.display())]
    MemoryAllowance {
        path: PathBuf,
        id: String,
        value: String,
    },
    #[error("{}: `{id}`: compile_memory `{value}` is not a size like 2GiB", path.display())]
    CompileMemory {
        path: PathBuf,
        id: String,
        value: String,
    },
    #[error("{}: `{id}`: `run` must not be empty", path.display())]
    EmptyRun { path: PathBuf, id: String },
}

/// Applies a config file's entries to the table, naming the file on errors.
pub(crate) fn apply(
    table: &mut Vec<Language>,
    path: &Path,
    file: LanguagesFile,
) -> Result<(), ConfigError> {
    let at = |id: &str| (path.to_path_buf(), id.to_string());
    for o in file.languages {
        let existing = table.iter().position(|l| l.id == o.id);
        let mut l = match existing {
            Some(i) => table[i].clone(),
            None => {
                let run = o.run.clone().ok_or_else(|| {
                    let (path, id) = at(&o.id);
                    ConfigError::NewNeedsRun { path, id }
                })?;
                Language {
                    id: o.id.clone(),
                    name: o.id.clone(),
                    extensions: Vec::new(),
                    source_name: "main".into(),
                    compile: None,
                    run,
                    time_multiplier: 1.0,
                    memory_allowance: Bytes(0),
                    cap_address_space: true,
                    compile_all_sources: false,
                    compile_memory: super::compiler_run::COMPILE_MEMORY,
                }
            }
        };
        if let Some(v) = o.name {
            l.name = v;
        }
        if let Some(v) = o.extensions {
            l.extensions = v
                .into_iter()
                .map(|e| e.trim_start_matches('.').to_lowercase())
                .collect();
        }
        if let Some(v) = o.source_name {
            l.source_name = v;
        }
        if let Some(v) = o.compile {
            l.compile = (!v.is_empty()).then_some(v);
        }
        if let Some(v) = o.run {
            l.run = v;
        }
        if let Some(v) = o.time_multiplier {
            if !(v.is_finite() && v > 0.0) {
                let (path, id) = at(&o.id);
                return Err(ConfigError::TimeMultiplier { path, id });
            }
            l.time_multiplier = v;
        }
        if let Some(v) = o.memory_allowance {
            l.memory_allowance = crate::units::parse_bytes(&v).ok_or_else(|| {
                let (path, id) = at(&o.id);
                ConfigError::MemoryAllowance {
                    path,
                    id,
                    value: v.clone(),
                }
            })?;
        }
        if let Some(v) = o.compile_memory {
            l.compile_memory = crate::units::parse_bytes(&v)
                .filter(|b| b.0 > 0)
                .ok_or_else(|| {
                    let (path, id) = at(&o.id);
                    ConfigError::CompileMemory {
                        path,
                        id,
                        value: v.clone(),
                    }
                })?;
        }
        if let Some(v) = o.cap_address_space {
            l.cap_address_space = v;
        }
        if l.run.is_empty() {
            let (path, id) = at(&o.id);
            return Err(ConfigError::EmptyRun { path, id });
        }
        match existing {
            Some(i) => table[i] = l,
            None => table.push(l),
        }
    }
    Ok(())
}
