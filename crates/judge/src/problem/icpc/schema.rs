//! The keys of `problem.yaml` and of the test-data settings files, for the
//! three versions of the format grundy reads.

use std::collections::BTreeMap;

use serde::Deserialize;

/// The `problem.yaml` of the package in `dir`, read again (for the parts
/// that only have the loaded problem); `None` when it cannot be read.
#[cfg(test)]
pub fn raw_package(dir: &std::path::Path) -> Option<RawPackage> {
    let path = dir.join(crate::problem::SPEC_FILE);
    let text = crate::problem::file::read_text(&path).ok()?;
    crate::yaml::from_str(&path, &text).ok()
}

/// The version a package declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Version {
    Legacy,
    /// `2023-07` (and its draft).
    V2023,
    /// `2025-09`, what BAPCtools writes now: like 2023-07 for what grundy
    /// reads, with `test_group.yaml` for the test-data settings.
    V2025,
}

/// Why `problem.yaml` asks for something grundy does not judge, or says
/// it in a shape the format does not allow.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum SchemaError {
    #[error(
        "problem_format_version `{0}` is not supported (grundy reads `legacy`, `2023-07` and `2025-09`)"
    )]
    Version(String),
    #[error("`type` must be a string or a list of strings")]
    TypeShape,
    #[error(
        "problem type `{0}` is not supported by grundy: it judges pass-fail, scoring, interactive and multi-pass problems"
    )]
    Type(String),
    #[error("limits.validation_passes must be at least 2, found {0}")]
    TooFewPasses(u64),
    #[error("limits.validation_passes: grundy runs at most {max} passes, found {found}")]
    TooManyPasses { max: u32, found: u64 },
}

impl Version {
    pub fn parse(text: Option<&str>) -> Result<Version, SchemaError> {
        match text {
            None | Some("legacy") => Ok(Version::Legacy),
            Some("2023-07" | "2023-07-draft") => Ok(Version::V2023),
            Some("2025-09" | "2025-09-draft") => Ok(Version::V2025),
            Some(other) => Err(SchemaError::Version(other.to_string())),
        }
    }

    /// The output validator's folder: `output_validators/` holds one or more
    /// in the legacy version, `output_validator/` is the one from 2023-07 on.
    pub fn validator_folder(self) -> &'static str {
        match self {
            Version::Legacy => "output_validators",
            _ => "output_validator",
        }
    }
}

/// Metadata keys of every version that change no verdict: read silently.
const METADATA: [&str; 12] = [
    "uuid",
    "author",
    "source_url",
    "license",
    "rights_owner",
    "keywords",
    "credits",
    "version",
    "embargo_until",
    "languages",
    "allow_file_writing",
    "constants",
];

/// The keys of `problem.yaml` grundy uses; any other key is kept in
/// `other`, so that an unknown one is noted rather than refused.
#[derive(Debug, Default, Deserialize)]
pub struct RawPackage {
    pub problem_format_version: Option<String>,
    #[serde(rename = "type")]
    pub kind: Option<serde_yaml::Value>,
    pub name: Option<serde_yaml::Value>,
    #[serde(default)]
    pub limits: RawLimits,
    pub validation: Option<String>,
    pub validator_flags: Option<String>,
    pub grading: Option<serde_yaml::Value>,
    pub source: Option<serde_yaml::Value>,
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_yaml::Value>,
}

impl RawPackage {
    /// The keys grundy neither uses nor knows as metadata.
    pub fn unknown_keys(&self) -> Vec<&str> {
        self.other
            .keys()
            .map(String::as_str)
            .filter(|k| !METADATA.contains(k))
            .collect()
    }
}

/// `limits:` of every version; sizes in MiB, times in seconds. The keys
/// that tell a judge how to derive a time limit from the accepted
/// submissions' run times are read and not used (grundy needs the limit).
#[derive(Debug, Default, Deserialize)]
pub struct RawLimits {
    pub time_limit: Option<f64>,
    /// Legacy: the limit is the slowest accepted run times this.
    pub time_multiplier: Option<f64>,
    pub time_safety_margin: Option<f64>,
    /// 2023-07 on: `ac_to_time_limit`, `time_limit_to_tle`.
    pub time_multipliers: Option<RawTimeMultipliers>,
    pub time_resolution: Option<f64>,
    pub memory: Option<u64>,
    pub output: Option<u64>,
    /// The most passes of a multi-pass problem (2023-07 on).
    pub validation_passes: Option<u64>,
}

#[derive(Debug, Default, Clone, Deserialize)]
pub struct RawTimeMultipliers {
    pub ac_to_time_limit: Option<f64>,
    pub time_limit_to_tle: Option<f64>,
}

/// `testdata.yaml` (legacy, 2023-07) or `test_group.yaml` (2025-09): the
/// settings of a test-data folder, inherited by the folders below it.
#[derive(Debug, Default, Clone, Deserialize)]
pub struct RawTestdata {
    pub on_reject: Option<String>,
    pub grading: Option<serde_yaml::Value>,
    pub output_validator_flags: Option<String>,
    pub output_validator_args: Option<serde_yaml::Value>,
    /// Legacy: one string for every input validator.
    pub input_validator_flags: Option<String>,
    /// A string or list for every input validator, or (2023-07 on) a map
    /// from a validator's name to its own.
    pub input_validator_args: Option<serde_yaml::Value>,
    /// The grading keys of scoring problems (legacy and 2023-07), read by
    /// `scoring`: the score of an accepted and of a rejected test, the
    /// default grader's flags, the group's score range.
    /// Kept as written (a number, or a string of words), read leniently:
    /// a pass-fail package may carry them unused.
    pub accept_score: Option<serde_yaml::Value>,
    pub reject_score: Option<serde_yaml::Value>,
    pub grader_flags: Option<serde_yaml::Value>,
    pub range: Option<serde_yaml::Value>,
    /// The 2025-09 keys of `secret` and of a test data group: not
    /// inherited (each group states its own).
    pub max_score: Option<serde_yaml::Value>,
    pub score_aggregation: Option<String>,
    pub require_pass: Option<serde_yaml::Value>,
    #[serde(flatten)]
    pub other: BTreeMap<String, serde_yaml::Value>,
}

/// Pass-fail and scoring problems (interactive ones are taken out before):
/// multi-pass and submit-answer problems need judging modes grundy does
/// not have.
pub fn check_type(kind: Option<&serde_yaml::Value>) -> Result<(), SchemaError> {
    let kinds: Vec<String> = match kind {
        None => return Ok(()),
        Some(serde_yaml::Value::String(s)) => s.split_whitespace().map(String::from).collect(),
        Some(serde_yaml::Value::Sequence(v)) => v
            .iter()
            .filter_map(|k| k.as_str().map(String::from))
            .collect(),
        Some(_) => return Err(SchemaError::TypeShape),
    };
    match kinds
        .iter()
        .find(|k| k.as_str() != "pass-fail" && k.as_str() != "scoring")
    {
        None => Ok(()),
        Some(k) => Err(SchemaError::Type(k.clone())),
    }
}

/// The words of `type:` (a string of words or a list).
pub(super) fn kinds(kind: Option<&serde_yaml::Value>) -> Result<Vec<String>, SchemaError> {
    match kind {
        None => Ok(Vec::new()),
        Some(serde_yaml::Value::String(s)) => Ok(s.split_whitespace().map(String::from).collect()),
        Some(serde_yaml::Value::Sequence(v)) => Ok(v
            .iter()
            .filter_map(|k| k.as_str().map(String::from))
            .collect()),
        Some(_) => Err(SchemaError::TypeShape),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions() {
        assert_eq!(Version::parse(None), Ok(Version::Legacy));
        assert_eq!(Version::parse(Some("2023-07")), Ok(Version::V2023));
        assert_eq!(Version::parse(Some("2025-09")), Ok(Version::V2025));
        assert!(Version::parse(Some("1999")).is_err());
        assert_eq!(Version::V2025.validator_folder(), "output_validator");
    }

    #[test]
    fn unknown_keys_are_kept_not_refused() {
        let raw: RawPackage =
            serde_yaml::from_str("name: X\nuuid: 1\nfrobnicate: true\nlimits: {memory: 5, time_multipliers: {ac_to_time_limit: 2}}\n")
                .expect("parse");
        assert_eq!(raw.unknown_keys(), ["frobnicate"]);
        assert_eq!(raw.limits.memory, Some(5));
    }

    #[test]
    fn types() {
        assert!(check_type(None).is_ok());
        let pf = serde_yaml::Value::String("pass-fail".into());
        assert!(check_type(Some(&pf)).is_ok());
        let sc = serde_yaml::Value::String("scoring".into());
        assert!(check_type(Some(&sc)).is_ok());
        let mp = serde_yaml::Value::String("multi-pass".into());
        assert!(check_type(Some(&mp)).is_err());
    }

    #[test]
    fn refusals_say_what_was_found() {
        let e = Version::parse(Some("2019")).expect_err("unknown version");
        assert_eq!(
            e.to_string(),
            "problem_format_version `2019` is not supported (grundy reads `legacy`, `2023-07` and `2025-09`)"
        );
        let e = check_type(Some(&serde_yaml::Value::from("submit-answer"))).expect_err("type");
        assert_eq!(e, SchemaError::Type("submit-answer".into()));
        assert_eq!(
            e.to_string(),
            "problem type `submit-answer` is not supported by grundy: it judges pass-fail, scoring, interactive and multi-pass problems"
        );
    }
}
