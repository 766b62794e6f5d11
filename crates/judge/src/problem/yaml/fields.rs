//! The values of `problem.yaml` checked where they are written (an id, a
//! group's name and points, a test entry of one kind), so that serde_yaml
//! locates a refusal by line and column.

use std::path::PathBuf;

use serde::Deserialize;

use super::Refusal;
use crate::generate::Params;
use crate::problem::TestSource;
use crate::units::{SpecBytes, SpecDuration};

/// A problem id, validated where it is written.
#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
pub(super) struct RawId(pub(super) String);

impl TryFrom<String> for RawId {
    type Error = Refusal;
    fn try_from(s: String) -> Result<Self, Refusal> {
        if is_name(&s, false) {
            Ok(RawId(s))
        } else {
            Err(Refusal::Id { id: s })
        }
    }
}

/// A group name, validated where it is written.
#[derive(Debug, Deserialize)]
#[serde(try_from = "String")]
pub(super) struct RawGroupName(pub(super) String);

impl TryFrom<String> for RawGroupName {
    type Error = Refusal;
    fn try_from(s: String) -> Result<Self, Refusal> {
        if s == "sample" {
            Err(Refusal::ReservedGroup)
        } else if is_name(&s, true) {
            Ok(RawGroupName(s))
        } else {
            Err(Refusal::GroupName { name: s })
        }
    }
}

pub(in crate::problem) fn is_id(s: &str) -> bool {
    is_name(s, false)
}

fn is_name(s: &str, allow_upper_and_underscore: bool) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.bytes().all(|b| {
            b.is_ascii_lowercase()
                || b.is_ascii_digit()
                || b == b'-'
                || (allow_upper_and_underscore && (b.is_ascii_uppercase() || b == b'_'))
        })
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLimits {
    pub(super) time: Option<SpecDuration>,
    pub(super) memory: Option<SpecBytes>,
    pub(super) output: Option<SpecBytes>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSample {
    pub(super) input: String,
    pub(super) output: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawGroup {
    pub(super) name: RawGroupName,
    pub(super) points: Option<RawPoints>,
    /// The input validators' arguments on this group's tests, in place of
    /// the problem's.
    pub(super) input_validator_args: Option<Vec<String>>,
    pub(super) tests: Vec<RawTest>,
}

#[derive(Debug, Deserialize)]
#[serde(try_from = "f64")]
pub(super) struct RawPoints(pub(super) f64);

impl TryFrom<f64> for RawPoints {
    type Error = Refusal;
    fn try_from(p: f64) -> Result<Self, Refusal> {
        if p.is_finite() && p >= 0.0 {
            Ok(RawPoints(p))
        } else {
            Err(Refusal::Points { points: p })
        }
    }
}

/// One entry of a group's `tests:` list, before we know which kind it is.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTestFields {
    pub(super) generator: Option<String>,
    pub(super) program: Option<PathBuf>,
    pub(super) input: Option<String>,
    pub(super) file: Option<PathBuf>,
    pub(super) answer: Option<String>,
    pub(super) params: Option<Params>,
    pub(super) args: Option<Vec<serde_yaml::Value>>,
    pub(super) count: Option<u32>,
    pub(super) seed: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(try_from = "RawTestFields")]
pub(super) struct RawTest(pub(super) TestSource);

pub(super) const TEST_KINDS: &str =
    "each test entry needs exactly one of `generator`, `program`, `input` or `file`";

impl TryFrom<RawTestFields> for RawTest {
    type Error = Refusal;
    fn try_from(f: RawTestFields) -> Result<Self, Refusal> {
        let kinds = [
            f.generator.is_some(),
            f.program.is_some(),
            f.input.is_some(),
            f.file.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return Err(Refusal::TestKinds);
        }
        if f.count == Some(0) {
            return Err(Refusal::ZeroCount);
        }
        let generated = f.generator.is_some() || f.program.is_some();
        if !generated && (f.count.is_some() || f.seed.is_some()) {
            return Err(Refusal::CountOutsideGenerated);
        }
        if f.params.is_some() && f.generator.is_none() {
            return Err(Refusal::ParamsOutsideGenerator);
        }
        if f.args.is_some() && f.program.is_none() {
            return Err(Refusal::ArgsOutsideProgram);
        }
        if f.answer.is_some() && generated {
            return Err(Refusal::GeneratedAnswer);
        }
        let count = f.count.unwrap_or(1);
        let source = if let Some(family) = f.generator {
            // `game` is a described game's own family: whether the spec
            // has a `game:` is checked once the whole spec is read.
            if crate::catalog::family(&family).is_none()
                && family != crate::catalog::described::generate::FAMILY
            {
                return Err(Refusal::UnknownGenerator { name: family });
            }
            TestSource::Generated {
                family,
                params: f.params.unwrap_or_default(),
                count,
                seed: f.seed,
            }
        } else if let Some(program) = f.program {
            TestSource::External {
                program,
                args: f.args.unwrap_or_default().iter().map(scalar_text).collect(),
                count,
                seed: f.seed,
            }
        } else if let Some(input) = f.input {
            TestSource::Inline {
                input,
                answer: f.answer,
            }
        } else {
            TestSource::File {
                input: f.file.unwrap_or_default(),
                answer: f.answer.map(PathBuf::from),
            }
        };
        Ok(RawTest(source))
    }
}

fn scalar_text(v: &serde_yaml::Value) -> String {
    match v {
        serde_yaml::Value::String(s) => s.clone(),
        other => serde_yaml::to_string(other)
            .map(|s| s.trim().to_string())
            .unwrap_or_default(),
    }
}
