//! The limits a package states, taken as they are: no language allowance
//! (the format has none) and the format's defaults where none is given.

use std::path::Path;
use std::time::Duration;

use super::schema::RawLimits;
use crate::spec::{Bytes, Limits};

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

/// The limits: memory and output in MiB; the time limit from `time_limit`
/// (2023-07 on), else the `.timelimit` file judges such as DOMjudge write,
/// else 1 s with a note (the format derives it from the accepted
/// submissions' run times, which grundy does not).
pub fn limits(dir: &Path, raw: &RawLimits, notes: &mut Vec<String>) -> Result<Limits, String> {
    let mut limits = Limits {
        time: Duration::from_secs(1),
        memory: Bytes::mib(DEFAULT_MEMORY_MIB),
        output: Bytes::mib(DEFAULT_OUTPUT_MIB),
        language_allowance: false,
    };
    if let Some(m) = raw.memory {
        if m == 0 {
            return Err("limits.memory must be at least 1 (MiB)".into());
        }
        limits.memory = Bytes::mib(m);
    }
    if let Some(o) = raw.output {
        if o == 0 {
            return Err("limits.output must be at least 1 (MiB)".into());
        }
        limits.output = Bytes::mib(o);
    }
    let seconds = match raw.time_limit {
        Some(t) => Some(t),
        None => timelimit_file(dir)?,
    };
    match seconds {
        Some(t) => {
            if !(t.is_finite() && t > 0.0 && t <= 3600.0) {
                return Err(format!(
                    "the time limit must be between 0 and 3600 seconds, found {t}"
                ));
            }
            limits.time = Duration::from_secs_f64(t);
        }
        None => notes
            .push("no time limit given (limits.time_limit or .timelimit): judged with 1 s".into()),
    }
    Ok(limits)
}

fn timelimit_file(dir: &Path) -> Result<Option<f64>, String> {
    let path = dir.join(".timelimit");
    match crate::spec::file::read_text(&path) {
        Err(_) => Ok(None),
        Ok(text) => text.trim().parse::<f64>().map(Some).map_err(|_| {
            format!(
                "{}: expected a number of seconds, found `{}`",
                path.display(),
                text.trim()
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_formats_and_exact() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut notes = Vec::new();
        let l = limits(d.path(), &RawLimits::default(), &mut notes).expect("limits");
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
        let l = limits(d.path(), &raw, &mut notes).expect("limits");
        assert_eq!(l.memory, Bytes::mib(512));
        assert_eq!(l.time, Duration::from_millis(2500));
        assert!(notes.is_empty());
        let zero = RawLimits {
            memory: Some(0),
            ..RawLimits::default()
        };
        assert!(limits(d.path(), &zero, &mut notes).is_err());
    }
}
