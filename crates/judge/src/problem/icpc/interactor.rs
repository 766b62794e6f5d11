//! Interactive packages: `type: interactive` (2023-07 and later) or
//! `validation: custom interactive` (legacy). The package's output
//! validator is then its interactor, found where the format puts the
//! validator and called with the validator's arguments, so the rules of
//! [`super::validators`] for finding the program apply unchanged.

use std::path::Path;

use super::schema::{self, RawPackage, SchemaError, Version, kinds};
use crate::problem::{CheckerSpec, InteractorSpec, SpecError};

/// Whether the package is interactive; every other problem type than
/// pass-fail, interactive and multi-pass (read by [`super::multipass`]) is
/// refused as before (by [`schema::check_type`]).
pub fn is_interactive(raw: &RawPackage) -> Result<bool, SchemaError> {
    let kinds = kinds(raw.kind.as_ref())?;
    let rest: Vec<serde_yaml::Value> = kinds
        .iter()
        .filter(|k| k.as_str() != "interactive" && k.as_str() != "multi-pass")
        .map(|k| serde_yaml::Value::String(k.clone()))
        .collect();
    schema::check_type(Some(&serde_yaml::Value::Sequence(rest)))?;
    let by_type = kinds.iter().any(|k| k == "interactive");
    let words: Vec<&str> = raw
        .validation
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let by_validation = matches!(words.as_slice(), ["custom", "interactive"]);
    Ok(by_type || by_validation)
}

/// The interactor of an interactive package: its output validator, with
/// `args` (the validator arguments in force for the secret data).
pub fn interactor(
    dir: &Path,
    spec: &Path,
    raw: &RawPackage,
    args: Vec<String>,
    version: Version,
) -> Result<InteractorSpec, SpecError> {
    // The validator rules with the interactive part taken out: a legacy
    // package's `custom interactive` is a `custom` validator, and from
    // 2023-07 on the folder's presence says it is custom.
    let plain = RawPackage {
        validation: match version {
            Version::Legacy => Some("custom".into()),
            _ => raw.validation.clone(),
        },
        validator_flags: raw.validator_flags.clone(),
        ..RawPackage::default()
    };
    match super::validators::checker(dir, spec, &plain, args, version)? {
        CheckerSpec::Icpc { program, args } => Ok(InteractorSpec::Icpc { program, args }),
        _ => Err(SpecError::Invalid {
            path: dir.join(version.validator_folder()),
            message: format!(
                "an interactive problem needs its interactor as the output validator in {}/",
                version.validator_folder()
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(yaml: &str) -> RawPackage {
        serde_yaml::from_str(yaml).expect("parse")
    }

    #[test]
    fn both_spellings_are_interactive_and_other_types_still_refused() {
        assert_eq!(is_interactive(&raw("name: x\n")), Ok(false));
        assert_eq!(is_interactive(&raw("type: interactive\n")), Ok(true));
        assert_eq!(
            is_interactive(&raw("type: [pass-fail, interactive]\n")),
            Ok(true)
        );
        assert_eq!(
            is_interactive(&raw("validation: custom interactive\n")),
            Ok(true)
        );
        assert_eq!(is_interactive(&raw("validation: custom\n")), Ok(false));
        assert_eq!(
            is_interactive(&raw("type: [interactive, multi-pass]\n")),
            Ok(true)
        );
        assert_eq!(is_interactive(&raw("type: multi-pass\n")), Ok(false));
        assert!(is_interactive(&raw("type: [multi-pass, submit-answer]\n")).is_err());
        assert_eq!(is_interactive(&raw("type: scoring\n")), Ok(false));
    }
}
