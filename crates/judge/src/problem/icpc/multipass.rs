//! Multi-pass packages (`type: multi-pass`, 2023-07 and later, alone or
//! with `interactive`): the submission runs again on the input its output
//! validator writes as `nextpass.in`, up to `limits.validation_passes`
//! runs per test (the format's "Multi-pass validation"). Here only the
//! number of passes is read; the judge runs them.

use super::schema::{RawPackage, SchemaError, kinds};
pub use crate::problem::model::MAX_PASSES;

/// The format's default of `limits.validation_passes`.
pub const DEFAULT_PASSES: u32 = 2;

/// The most passes of a test when the package is multi-pass, `None` when it
/// is not (a `validation_passes` of another type is noted, not used).
pub fn passes(raw: &RawPackage, notes: &mut Vec<String>) -> Result<Option<u32>, SchemaError> {
    let multi = kinds(raw.kind.as_ref())?.iter().any(|k| k == "multi-pass");
    let given = raw.limits.validation_passes;
    if !multi {
        if given.is_some() {
            notes.push(
                "problem.yaml: `limits.validation_passes` not used: the problem is not multi-pass"
                    .into(),
            );
        }
        return Ok(None);
    }
    match given {
        None => Ok(Some(DEFAULT_PASSES)),
        Some(n) if n < 2 => Err(SchemaError::TooFewPasses(n)),
        Some(n) => u32::try_from(n)
            .ok()
            .filter(|n| *n <= MAX_PASSES)
            .map(Some)
            .ok_or(SchemaError::TooManyPasses {
                max: MAX_PASSES,
                found: n,
            }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes_of(yaml: &str) -> (Result<Option<u32>, String>, Vec<String>) {
        let raw: RawPackage = serde_yaml::from_str(yaml).expect("parse");
        let mut notes = Vec::new();
        (passes(&raw, &mut notes).map_err(|e| e.to_string()), notes)
    }

    #[test]
    fn default_given_and_refused_counts() {
        assert_eq!(passes_of("type: multi-pass\n").0, Ok(Some(2)));
        assert_eq!(
            passes_of("type: [interactive, multi-pass]\nlimits: {validation_passes: 5}\n").0,
            Ok(Some(5))
        );
        assert!(
            passes_of("type: multi-pass\nlimits: {validation_passes: 1}\n")
                .0
                .is_err()
        );
        assert!(
            passes_of("type: multi-pass\nlimits: {validation_passes: 100000}\n")
                .0
                .is_err()
        );
        let (plain, notes) = passes_of("type: pass-fail\nlimits: {validation_passes: 3}\n");
        assert_eq!(plain, Ok(None));
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert_eq!(passes_of("name: x\n").0, Ok(None));
    }
}
