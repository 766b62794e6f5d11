//! The limits a package states, taken as they are: no language allowance
//! (the format has none) and the format's defaults where none is given.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::schema::{RawLimits, Version};
use crate::problem::{Bytes, Limits, Rounding, TimeRule};

// The format leaves `memory` and `output` to the "system default" and gives
// 2048 MiB and 8 MiB as the typical one: the Limits tables of
// https://www.kattis.com/problem-package-format/spec/legacy.html and
// https://www.kattis.com/problem-package-format/spec/2025-09.html (2023-07
// was completed as 2025-09 and redirects there). grundy takes the typical
// values, so a package judges here as on a judge with stock settings.

/// The format's typical default memory limit, in MiB (every version).
pub const DEFAULT_MEMORY_MIB: u64 = 2048;
/// The format's typical default output limit, in MiB (every version).
pub const DEFAULT_OUTPUT_MIB: u64 = 8;

/// Why a package's limits are refused; the message names the key (or
/// the `.timelimit` file) and the value found.
#[derive(Debug, thiserror::Error)]
pub enum LimitsError {
    /// `limits.memory` or `limits.output` is 0.
    #[error("limits.{key} must be at least 1 (MiB)")]
    NoMib { key: &'static str },
    #[error("the time limit must be between 0 and 3600 seconds, found {0}")]
    Time(f64),
    #[error("limits.time_resolution must be a positive number of seconds, found {0}")]
    Resolution(f64),
    #[error("limits: `{name}` must be a number of at least 1, found {value}")]
    Multiplier { name: &'static str, value: f64 },
    /// The `.timelimit` file does not hold a number.
    #[error("{}: expected a number of seconds, found `{found}`", path.display())]
    TimelimitFile { path: PathBuf, found: String },
}

/// The limits: memory and output in MiB; the time limit from `time_limit`
/// (2023-07 on), else the `.timelimit` file judges such as DOMjudge write,
/// else `domjudge-problem.ini`'s `timelimit` (`ini`, DOMjudge's order);
/// else 1 s for now, with a note: preparing the problem derives the limit
/// from the accepted submissions ([`time_rule`]).
pub fn limits(
    dir: &Path,
    raw: &RawLimits,
    ini: Option<&super::domjudge::Ini>,
    notes: &mut Vec<String>,
) -> Result<Limits, LimitsError> {
    let mut limits = Limits {
        time: Duration::from_secs(1),
        memory: Bytes::mib(DEFAULT_MEMORY_MIB),
        output: Bytes::mib(DEFAULT_OUTPUT_MIB),
        language_allowance: false,
    };
    if let Some(m) = raw.memory {
        if m == 0 {
            return Err(LimitsError::NoMib { key: "memory" });
        }
        limits.memory = Bytes::mib(m);
    }
    if let Some(o) = raw.output {
        if o == 0 {
            return Err(LimitsError::NoMib { key: "output" });
        }
        limits.output = Bytes::mib(o);
    }
    let ini_time = ini.and_then(|i| i.timelimit);
    let file = super::domjudge::FILE;
    let seconds = match (raw.time_limit, timelimit_file(dir)?) {
        (Some(t), _) => Some((t, "problem.yaml's `limits.time_limit`")),
        (None, Some(t)) => Some((t, ".timelimit")),
        (None, None) => ini_time.map(|t| (t, file)),
    };
    // Where the limit came from when DOMjudge's file names one: from it,
    // or from a file read before it.
    match (seconds, ini_time) {
        (Some((t, from)), Some(_)) if from == file => notes.push(format!(
            "time limit {t} s from {file} (`timelimit`), as DOMjudge reads it: problem.yaml and .timelimit name none"
        )),
        (Some((t, from)), Some(mine)) if t != mine => notes.push(format!(
            "{file}: `timelimit = {mine}` not used: {from} ({t} s) comes first, as DOMjudge reads them"
        )),
        _ => {}
    }
    let seconds = seconds.map(|(t, _)| t);
    match seconds {
        Some(t) => {
            if !(t.is_finite() && t > 0.0 && t <= 3600.0) {
                return Err(LimitsError::Time(t));
            }
            limits.time = Duration::from_secs_f64(t);
        }
        None => notes.push(
            "no time limit given (limits.time_limit or .timelimit): derived from the accepted submissions, as the format says".into(),
        ),
    }
    Ok(limits)
}

/// The format's rule deriving the time limit from the accepted
/// submissions, when the package states no limit (`None` when it does).
/// Defaults: legacy `time_multiplier` 5 and `time_safety_margin` 2;
/// 2023-07 on `ac_to_time_limit` 2.0 and `time_limit_to_tle` 1.5; a
/// `time_resolution` of 1 s (problemtools and BAPCtools read it for every
/// version).
pub fn time_rule(
    dir: &Path,
    raw: &RawLimits,
    ini: Option<&super::domjudge::Ini>,
    version: Version,
) -> Result<Option<TimeRule>, LimitsError> {
    if raw.time_limit.is_some()
        || timelimit_file(dir)?.is_some()
        || ini.is_some_and(|i| i.timelimit.is_some())
    {
        return Ok(None);
    }
    let (ac, tle) = multipliers(raw, version);
    let resolution = raw.time_resolution.unwrap_or(1.0);
    check_multipliers(ac, tle)?;
    if !(resolution.is_finite() && resolution > 0.0) {
        return Err(LimitsError::Resolution(resolution));
    }
    Ok(Some(TimeRule {
        ac_to_time_limit: ac,
        time_limit_to_tle: tle,
        resolution,
        rounding: match version {
            Version::Legacy => Rounding::Nearest,
            _ => Rounding::Up,
        },
    }))
}

/// `time_limit_to_tle` (legacy `time_safety_margin`): it applies whether
/// the package states its time limit or not (`time_limit × time_limit_to_tle
/// <= T_tle` is one of the two inequalities the limit must meet).
pub fn tle_margin(raw: &RawLimits, version: Version) -> Result<f64, LimitsError> {
    let (ac, tle) = multipliers(raw, version);
    check_multipliers(ac, tle)?;
    Ok(tle)
}

/// (`ac_to_time_limit`, `time_limit_to_tle`) with the version's defaults.
fn multipliers(raw: &RawLimits, version: Version) -> (f64, f64) {
    let m = raw.time_multipliers.clone().unwrap_or_default();
    match version {
        Version::Legacy => (
            raw.time_multiplier.or(m.ac_to_time_limit).unwrap_or(5.0),
            raw.time_safety_margin
                .or(m.time_limit_to_tle)
                .unwrap_or(2.0),
        ),
        _ => (
            m.ac_to_time_limit.or(raw.time_multiplier).unwrap_or(2.0),
            m.time_limit_to_tle
                .or(raw.time_safety_margin)
                .unwrap_or(1.5),
        ),
    }
}

fn check_multipliers(ac: f64, tle: f64) -> Result<(), LimitsError> {
    for (name, v, least) in [
        ("ac_to_time_limit", ac, 1.0),
        ("time_limit_to_tle", tle, 1.0),
    ] {
        if !(v.is_finite() && v >= least) {
            return Err(LimitsError::Multiplier { name, value: v });
        }
    }
    Ok(())
}

fn timelimit_file(dir: &Path) -> Result<Option<f64>, LimitsError> {
    let path = dir.join(".timelimit");
    match crate::problem::file::read_text(&path) {
        Err(_) => Ok(None),
        Ok(text) => text
            .trim()
            .parse::<f64>()
            .map(Some)
            .map_err(|_| LimitsError::TimelimitFile {
                found: text.trim().to_string(),
                path,
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_derived_limit_is_the_formats_rule() {
        let d = tempfile::tempdir().expect("tempdir");
        let raw = |y: &str| -> RawLimits { serde_yaml::from_str(y).expect("yaml") };
        let rule = |y: &str, v| time_rule(d.path(), &raw(y), None, v).expect("rule");
        // A stated limit: nothing to derive.
        assert_eq!(rule("time_limit: 2\n", Version::V2025), None);
        let r = rule("{}", Version::V2025).expect("a rule");
        assert_eq!(
            (r.ac_to_time_limit, r.time_limit_to_tle, r.resolution),
            (2.0, 1.5, 1.0)
        );
        let secs = |s: f64| Duration::from_secs_f64(s);
        // Slowest 0.3 s: 0.6 s, at least one step of 1 s.
        assert_eq!(r.limit(secs(0.3)), secs(1.0));
        // Slowest 1.2 s: 2.4 s, rounded up to 3 s.
        assert_eq!(r.limit(secs(1.2)), secs(3.0));
        let legacy = rule("{}", Version::Legacy).expect("a rule");
        assert_eq!(legacy.ac_to_time_limit, 5.0);
        // Legacy rounds to the nearest second, as problemtools'
        // `max(1, int(0.5 + t))`: 2.5 s → 3 s, 16.16 s → 16 s, 0.1 s → 1 s.
        assert_eq!(legacy.limit(secs(0.5)), secs(3.0));
        assert_eq!(legacy.limit(secs(3.232)), secs(16.0));
        assert_eq!(legacy.limit(secs(3.3)), secs(17.0));
        assert_eq!(legacy.limit(secs(0.02)), secs(1.0));
        // 2023-07 on rounds up: 16.16 s → 17 s.
        assert_eq!(r.limit(secs(8.08)), secs(17.0));
        let fine = rule(
            "time_multipliers: {ac_to_time_limit: 3}\ntime_resolution: 0.25\n",
            Version::V2023,
        )
        .expect("a rule");
        assert_eq!(fine.limit(secs(0.5)), secs(1.5));
        assert_eq!(fine.limit(secs(0.05)), secs(0.25));
        assert!(time_rule(d.path(), &raw("time_resolution: 0\n"), None, Version::V2025).is_err());
        std::fs::write(d.path().join(".timelimit"), "4\n").expect("write");
        assert_eq!(rule("{}", Version::V2025), None);
    }

    #[test]
    fn defaults_are_the_formats_and_exact() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut notes = Vec::new();
        let l = limits(d.path(), &RawLimits::default(), None, &mut notes).expect("limits");
        assert_eq!(l.memory, Bytes::mib(2048));
        assert_eq!(l.output, Bytes::mib(8));
        assert!(!l.language_allowance);
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn package_limits_and_timelimit_file() {
        let d = tempfile::tempdir().expect("tempdir");
        std::fs::write(d.path().join(".timelimit"), "2.5\n").expect("write");
        let raw = RawLimits {
            memory: Some(512),
            ..RawLimits::default()
        };
        let mut notes = Vec::new();
        let l = limits(d.path(), &raw, None, &mut notes).expect("limits");
        assert_eq!(l.memory, Bytes::mib(512));
        assert_eq!(l.time, Duration::from_millis(2500));
        assert!(notes.is_empty());
        let zero = RawLimits {
            memory: Some(0),
            ..RawLimits::default()
        };
        assert!(limits(d.path(), &zero, None, &mut notes).is_err());
    }

    #[test]
    fn refusals_say_the_key_and_the_value_found() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut notes = Vec::new();
        let zero = RawLimits {
            output: Some(0),
            ..RawLimits::default()
        };
        let e = limits(d.path(), &zero, None, &mut notes).expect_err("output 0");
        assert_eq!(e.to_string(), "limits.output must be at least 1 (MiB)");
        let raw = |y: &str| -> RawLimits { serde_yaml::from_str(y).expect("yaml") };
        let e = tle_margin(
            &raw("time_multipliers: {time_limit_to_tle: 0.5}\n"),
            Version::V2025,
        )
        .expect_err("a margin below 1");
        assert_eq!(
            e.to_string(),
            "limits: `time_limit_to_tle` must be a number of at least 1, found 0.5"
        );
        std::fs::write(d.path().join(".timelimit"), " fast \n").expect("write");
        let e =
            limits(d.path(), &RawLimits::default(), None, &mut notes).expect_err("not a number");
        let file = d.path().join(".timelimit");
        assert!(matches!(&e, LimitsError::TimelimitFile { path, .. } if *path == file));
        assert_eq!(
            e.to_string(),
            format!(
                "{}: expected a number of seconds, found `fast`",
                file.display()
            )
        );
    }
}
