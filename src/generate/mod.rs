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

use crate::spec::{Problem, TestSource};

/// One concrete test: its input, and its answer when the spec gives one
/// (otherwise the reference solution provides it).
#[derive(Debug, Clone, PartialEq)]
pub struct TestCase {
    pub name: String,
    pub group: String,
    pub input: Vec<u8>,
    pub answer: Option<Vec<u8>>,
}

/// The group name of the samples.
pub const SAMPLE_GROUP: &str = "sample";

/// A test could not be produced; names the problem's spec and the entry.
#[derive(Debug, thiserror::Error)]
#[error("{}: group `{group}`, test entry {entry}: {message}", spec.display())]
pub struct MaterialiseError {
    pub spec: PathBuf,
    pub group: String,
    pub entry: usize,
    pub message: String,
}

/// Runs an external generator program: `(program, seed, args) -> stdout`.
pub type ExternalRunner<'a> = dyn Fn(&Path, u64, &[String]) -> Result<Vec<u8>, String> + 'a;

/// Every test of `problem` in judging order: samples, then each group in
/// spec order. `seed` replaces the spec's base seed (`gen --seed`).
pub fn materialise(
    problem: &Problem,
    seed: Option<u64>,
    external: &ExternalRunner<'_>,
) -> Result<Vec<TestCase>, MaterialiseError> {
    let base = seed.unwrap_or(problem.seed);
    let mut tests: Vec<TestCase> = problem
        .samples
        .iter()
        .enumerate()
        .map(|(i, s)| TestCase {
            name: format!("{SAMPLE_GROUP}-{}", i + 1),
            group: SAMPLE_GROUP.into(),
            input: s.input.clone().into_bytes(),
            answer: Some(s.output.clone().into_bytes()),
        })
        .collect();
    for group in &problem.groups {
        let total: u32 = group.tests.iter().map(entry_count).sum();
        let width = total.to_string().len();
        let mut k = 0u32;
        for (entry, source) in group.tests.iter().enumerate() {
            let fail = |message: String| MaterialiseError {
                spec: problem.spec_path.clone(),
                group: group.name.clone(),
                entry: entry + 1,
                message,
            };
            for (input, answer) in
                entry_tests(problem, base, &group.name, entry, source, external).map_err(fail)?
            {
                k += 1;
                tests.push(TestCase {
                    name: format!("{}-{:0width$}", group.name, k),
                    group: group.name.clone(),
                    input,
                    answer,
                });
            }
        }
    }
    Ok(tests)
}

fn entry_count(source: &TestSource) -> u32 {
    match source {
        TestSource::Generated { count, .. } | TestSource::External { count, .. } => *count,
        _ => 1,
    }
}

type Produced = Vec<(Vec<u8>, Option<Vec<u8>>)>;

fn entry_tests(
    problem: &Problem,
    base: u64,
    group: &str,
    entry: usize,
    source: &TestSource,
    external: &ExternalRunner<'_>,
) -> Result<Produced, String> {
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
            let fam = crate::catalog::family(family)
                .ok_or_else(|| format!("unknown generator `{family}`"))?;
            (0..*count)
                .map(|k| {
                    let text = (fam.generate)(params, &mut stream(*seed, k))
                        .map_err(|e| format!("generator `{family}`: {e}"))?;
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
            let program = problem.dir.join(program);
            (0..*count)
                .map(|k| {
                    let s = stream(*seed, k).next_u64() >> 1;
                    let out = external(&program, s, args)
                        .map_err(|e| format!("generator program {}: {e}", program.display()))?;
                    Ok((out, None))
                })
                .collect()
        }
        TestSource::Inline { input, answer } => Ok(vec![(
            input.clone().into_bytes(),
            answer.clone().map(String::into_bytes),
        )]),
        TestSource::File { input, answer } => {
            let read = |p: &Path| {
                std::fs::read(problem.dir.join(p))
                    .map_err(|e| format!("cannot read {}: {e}", problem.dir.join(p).display()))
            };
            let answer = answer.as_deref().map(read).transpose()?;
            Ok(vec![(read(input)?, answer)])
        }
    }
}
