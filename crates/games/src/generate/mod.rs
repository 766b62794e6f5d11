//! Seeded test generation: turn a problem's samples and test groups into
//! concrete inputs, byte-identical on every machine for the same seed.

mod params;
mod rng;

pub use params::Params;
pub use rng::Rng;

use thiserror::Error;

/// Why a generator could not write a test.
#[derive(Debug, Error, PartialEq)]
pub enum GenError {
    #[error("parameter `{key}`: expected {expected}, found {found}")]
    Param {
        key: String,
        expected: &'static str,
        found: String,
    },
    #[error("missing parameter `{0}`")]
    Missing(String),
    #[error("unknown parameter `{key}` (this generator takes: {known})")]
    Unknown { key: String, known: String },
    #[error("{0}")]
    Impossible(String),
}

impl GenError {
    pub(crate) fn param(key: &str, expected: &'static str, found: &serde_yaml::Value) -> Self {
        let found = serde_yaml::to_string(found)
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "an unreadable value".into());
        GenError::Param {
            key: key.to_string(),
            expected,
            found,
        }
    }
}

use std::path::{Path, PathBuf};

/// A built-in generator family: writes one test input from parameters and a
/// seeded stream. The same parameters and stream always give the same bytes.
pub struct Family {
    pub name: &'static str,
    /// One line for `grundy gen --help`-style listings and for spec errors.
    pub about: &'static str,
    pub generate: fn(&Params, &mut Rng) -> Result<String, GenError>,
}

/// A generator family made for one problem (a described game's): it
/// holds what it needs, so it is a closure rather than a function.
pub struct OwnFamily {
    pub name: &'static str,
    pub generate: Box<GenerateFn>,
}

/// What an [`OwnFamily`] runs.
pub type GenerateFn = dyn Fn(&Params, &mut Rng) -> Result<String, GenError> + Send + Sync;

/// The generator families a problem may name. Generation takes them as an
/// argument (the catalog provides them) so that it knows no problem.
pub struct Families {
    fixed: Vec<&'static Family>,
    own: Vec<OwnFamily>,
}

impl Families {
    pub fn new(families: impl IntoIterator<Item = &'static Family>) -> Self {
        Families {
            fixed: families.into_iter().collect(),
            own: Vec::new(),
        }
    }

    /// These families and a problem's own.
    pub fn with(mut self, own: OwnFamily) -> Self {
        self.own.push(own);
        self
    }

    /// Whether a family of this name exists.
    pub fn has(&self, name: &str) -> bool {
        self.own.iter().any(|f| f.name == name) || self.fixed.iter().any(|f| f.name == name)
    }

    /// Runs the family `name`; `None` when there is none of that name.
    pub fn generate(
        &self,
        name: &str,
        params: &Params,
        rng: &mut Rng,
    ) -> Option<Result<String, GenError>> {
        if let Some(own) = self.own.iter().find(|f| f.name == name) {
            return Some((own.generate)(params, rng));
        }
        let fam = self.fixed.iter().find(|f| f.name == name)?;
        Some((fam.generate)(params, rng))
    }

    /// All family names, for "expected one of …" messages.
    pub fn names(&self) -> Vec<&'static str> {
        self.own
            .iter()
            .map(|f| f.name)
            .chain(self.fixed.iter().map(|f| f.name))
            .collect()
    }
}

/// Where a test's input comes from.
#[derive(Debug, Clone, PartialEq)]
pub enum TestSource {
    /// `count` tests from a built-in generator family.
    Generated {
        family: String,
        params: Params,
        count: u32,
        seed: Option<u64>,
    },
    /// `count` tests from a generator program given `seed args...`.
    External {
        program: PathBuf,
        args: Vec<String>,
        count: u32,
        seed: Option<u64>,
    },
    /// One test from a program of the problem run with exactly these
    /// arguments (a BAPCtools `generators.yaml` command, its `{seed}`
    /// already fixed): its standard output is the input, unless it writes
    /// `testcase.in` (and perhaps `testcase.ans`) in its working folder.
    Command { program: PathBuf, args: Vec<String> },
    /// One handmade test written in the spec.
    Inline {
        input: String,
        answer: Option<String>,
    },
    /// One handmade test read from a file (and its answer, if given).
    File {
        input: PathBuf,
        answer: Option<PathBuf>,
    },
}

/// What [`materialise`] needs of a problem: where its files are, its base
/// seed, its samples and its groups' test sources. The spec builds it
/// (`Problem::recipe`), so generation does not depend on the spec.
pub struct Recipe<'a> {
    /// The spec file, named in errors.
    pub spec_path: &'a Path,
    /// The problem folder: test files and generator programs are relative to it.
    pub dir: &'a Path,
    pub seed: u64,
    /// (input, output) of each sample.
    pub samples: Vec<(&'a str, &'a str)>,
    /// (name, test sources) of each group, in spec order.
    pub groups: Vec<(&'a str, &'a [TestSource])>,
}

impl Recipe<'_> {
    /// Narrows the recipe to the tests of `groups` (the samples are group
    /// [`SAMPLE_GROUP`]), when every one of them makes a test; otherwise
    /// leaves it whole and says so (`false`). A group's tests do not depend
    /// on the others (each test's stream is seeded by its group, entry and
    /// number; its name numbers within its group), so the narrowed recipe
    /// makes the same bytes under the same names as the whole one does for
    /// those groups, without generating the rest.
    pub fn only(&mut self, groups: &[String]) -> bool {
        let makes_tests = |g: &String| {
            (g == SAMPLE_GROUP && !self.samples.is_empty())
                || self.groups.iter().any(|(name, sources)| {
                    name == g && sources.iter().map(entry_count).sum::<u32>() > 0
                })
        };
        if groups.is_empty() || !groups.iter().all(makes_tests) {
            return false;
        }
        if !groups.iter().any(|g| g == SAMPLE_GROUP) {
            self.samples.clear();
        }
        self.groups
            .retain(|(name, _)| groups.iter().any(|g| g == name));
        true
    }
}

/// One concrete test: its input, and its answer when the spec gives one
/// (otherwise the reference solution provides it).
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    pub name: String,
    pub group: String,
    pub input: Vec<u8>,
    pub answer: Option<Vec<u8>>,
}

/// The group name of the samples (worth nothing: `verdict::scoring`).
pub const SAMPLE_GROUP: &str = "sample";

/// A test could not be produced; names the problem's spec and the entry.
#[derive(Debug, thiserror::Error)]
#[error("{}: group `{group}`, test entry {entry}: {source}", spec.display())]
pub struct MaterialiseError {
    pub spec: PathBuf,
    pub group: String,
    pub entry: usize,
    /// Boxed: the error travels through every `Result` of generation.
    pub source: Box<EntryError>,
}

/// Why one test entry of a group gave no tests.
#[derive(Debug, thiserror::Error)]
pub enum EntryError {
    #[error("unknown generator `{0}`")]
    UnknownFamily(String),
    #[error("generator `{family}`: {source}")]
    Family { family: String, source: GenError },
    /// A generator program with a seed (`External`) failed; the runner's
    /// own error.
    #[error("generator program {}: {source}", program.display())]
    Program {
        program: PathBuf,
        source: RunnerError,
    },
    /// A package's generator command (`Command`) failed.
    #[error("generator {} {}: {source}", program.display(), args.join(" "))]
    Command {
        program: PathBuf,
        args: Vec<String>,
        source: RunnerError,
    },
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Runs a generator program: `(program, seed, args) -> (input, answer)`.
/// With a seed it is the first argument (our specs' convention); without,
/// the arguments are the whole command line (a package's own commands).
/// The answer is what the program wrote as `testcase.ans`, if anything.
/// Its error `E` is the runner's own (the judge's is typed; a test's
/// runner may say it in words).
pub type ExternalRunner<'a, E = String> =
    dyn Fn(&Path, Option<u64>, &[String]) -> Result<(Vec<u8>, Option<Vec<u8>>), E> + 'a;

/// A failed generator program's error, as its runner gave it.
pub type RunnerError = Box<dyn std::error::Error + Send + Sync>;

/// Every test of `problem` in judging order: samples, then each group in
/// spec order. `seed` replaces the spec's base seed (`gen --seed`).
pub fn materialise<E: Into<RunnerError>>(
    problem: &Recipe<'_>,
    seed: Option<u64>,
    families: &Families,
    external: &ExternalRunner<'_, E>,
) -> Result<Vec<TestCase>, MaterialiseError> {
    let base = seed.unwrap_or(problem.seed);
    let mut tests: Vec<TestCase> = problem
        .samples
        .iter()
        .enumerate()
        .map(|(i, (input, output))| TestCase {
            name: format!("{SAMPLE_GROUP}-{}", i + 1),
            group: SAMPLE_GROUP.into(),
            input: input.as_bytes().to_vec(),
            answer: Some(output.as_bytes().to_vec()),
        })
        .collect();
    for &(name, sources) in &problem.groups {
        let total: u32 = sources.iter().map(entry_count).sum();
        let width = total.to_string().len();
        let mut k = 0u32;
        for (entry, source) in sources.iter().enumerate() {
            let fail = |source: EntryError| MaterialiseError {
                spec: problem.spec_path.to_path_buf(),
                group: name.to_string(),
                entry: entry + 1,
                source: Box::new(source),
            };
            for (input, answer) in
                entry_tests(problem.dir, base, name, entry, source, families, external)
                    .map_err(fail)?
            {
                k += 1;
                tests.push(TestCase {
                    name: format!("{name}-{k:0width$}"),
                    group: name.to_string(),
                    input,
                    answer,
                });
            }
        }
    }
    Ok(tests)
}

/// How many tests one entry of a group makes.
pub fn entry_count(source: &TestSource) -> u32 {
    match source {
        TestSource::Generated { count, .. } | TestSource::External { count, .. } => *count,
        _ => 1,
    }
}

type Produced = Vec<(Vec<u8>, Option<Vec<u8>>)>;

fn entry_tests<E: Into<RunnerError>>(
    dir: &Path,
    base: u64,
    group: &str,
    entry: usize,
    source: &TestSource,
    families: &Families,
    external: &ExternalRunner<'_, E>,
) -> Result<Produced, EntryError> {
    let stream = |seed: Option<u64>, k: u32| {
        let mixed = base.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed.unwrap_or(0);
        Rng::derive(mixed, &format!("{group}/{entry}/{k}"))
    };
    match source {
        TestSource::Generated {
            family,
            params,
            count,
            seed,
        } => {
            if !families.has(family) {
                return Err(EntryError::UnknownFamily(family.clone()));
            }
            (0..*count)
                .map(|k| {
                    let text = families
                        .generate(family, params, &mut stream(*seed, k))
                        .ok_or_else(|| EntryError::UnknownFamily(family.clone()))?
                        .map_err(|source| EntryError::Family {
                            family: family.clone(),
                            source,
                        })?;
                    Ok((text.into_bytes(), None))
                })
                .collect()
        }
        TestSource::External {
            program,
            args,
            count,
            seed,
        } => {
            let program = dir.join(program);
            (0..*count)
                .map(|k| {
                    let s = stream(*seed, k).next_u64() >> 1;
                    let (out, _) =
                        external(&program, Some(s), args).map_err(|e| EntryError::Program {
                            program: program.clone(),
                            source: e.into(),
                        })?;
                    Ok((out, None))
                })
                .collect()
        }
        TestSource::Command { program, args } => {
            let program = dir.join(program);
            let made = external(&program, None, args).map_err(|e| EntryError::Command {
                program: program.clone(),
                args: args.clone(),
                source: e.into(),
            })?;
            Ok(vec![made])
        }
        TestSource::Inline { input, answer } => Ok(vec![(
            input.clone().into_bytes(),
            answer.clone().map(String::into_bytes),
        )]),
        TestSource::File { input, answer } => {
            // Beneath the problem's folder: a test file linked out of it
            // (`1.in -> /etc/shadow`) is an error naming the link.
            let within = crate::beneath::Within::open(dir).map_err(|source| EntryError::Read {
                path: dir.to_path_buf(),
                source,
            })?;
            let read = |p: &Path| {
                within
                    .read(p, crate::beneath::DATA_CAP)
                    .map_err(|source| EntryError::Read {
                        path: dir.join(p),
                        source,
                    })
            };
            let answer = answer.as_deref().map(read).transpose()?;
            Ok(vec![(read(input)?, answer)])
        }
    }
}
