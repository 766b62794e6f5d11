//! The package's `input_validators/`: the programs the format runs on
//! every test input (standard input; exit 42 valid, 43 invalid).
//!
//! The setter's own validators (the spec's `input_validators:`) are the
//! word of the person who knows the problem, so each goes into the package
//! as it is, as a program folder `input_validators/<name>/` (the layout that
//! also holds a validator of several files). They already speak the
//! format's protocol, since `verify` runs them the same way, with the
//! arguments the spec gives them (`input_validator_args:`), which the
//! package's `testdata.yaml` files give them too ([`write_args`]). A
//! catalog problem also gets one written from the catalog's description
//! of its input (it ignores arguments); the format requires every
//! validator to accept, so both must. Only a problem with neither gets a
//! validator that accepts any input, and a note says so.

use std::path::Path;

use super::{ExportError, Exported, make_executable, validators, write_bytes};
use crate::judge::Because;
use crate::problem::Problem;

/// The folder of the validator written from the catalog's input format.
const CATALOG_VALIDATOR: &str = "validate";

/// Writes `to/input_validators/`.
pub fn write(problem: &Problem, to: &Path, out: &mut Exported) -> Result<(), ExportError> {
    let folder = to.join("input_validators");
    let mut taken: Vec<String> = Vec::new();
    // A catalog problem's format, or a described game's.
    let format = problem.input_format();
    if let Some(f) = &format {
        let source = validators::python_input_validator(f, &problem.title);
        let path = folder.join(CATALOG_VALIDATOR).join("validate.py");
        write_bytes(&path, source.as_bytes())?;
        make_executable(&path)?;
        taken.push(CATALOG_VALIDATOR.into());
    }
    for program in &problem.input_validators {
        let source = crate::problem::read_regular(program).map_err(|e| {
            ExportError::Usage(Because::of(
                format!("cannot read the input validator {}", program.display()),
                e,
            ))
        })?;
        let file = program
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "validator".into());
        let name = folder_name(program, &taken);
        let path = folder.join(&name).join(&file);
        write_bytes(&path, &source)?;
        if source.starts_with(b"#!") || program.extension().is_none() {
            make_executable(&path)?;
        }
        taken.push(name);
    }
    if taken.is_empty() {
        out.notes.push(
            "no input format is known for this problem and its spec lists no `input_validators`: \
             the package's input validator accepts any input"
                .into(),
        );
        let path = folder.join(CATALOG_VALIDATOR).join("validate.py");
        write_bytes(&path, ACCEPT_ALL.as_bytes())?;
        make_executable(&path)?;
    }
    Ok(())
}

/// `data/testdata.yaml` with the problem's arguments, and a secret
/// group's own `testdata.yaml` where the group gives its own: the legacy
/// format's `input_validator_flags`, which a group's folder inherits from
/// `data/` and replaces. `groups`: the secret groups in folder order
/// (`data/secret/01-<first>`, …).
pub fn write_args(problem: &Problem, to: &Path, groups: &[&str]) -> Result<(), ExportError> {
    let args = &problem.input_validator_args;
    let file = |folder: &Path, list: &[String]| -> Result<(), ExportError> {
        let flags = flags(&problem.spec_path, list)?;
        let text = format!("input_validator_flags: {}\n", super::yaml_string(&flags));
        write_bytes(&folder.join("testdata.yaml"), text.as_bytes())
    };
    if !args.problem.is_empty() {
        file(&to.join("data"), &args.problem)?;
    }
    for (k, group) in groups.iter().enumerate() {
        if let Some(list) = args.groups.get(*group) {
            file(&super::secret_folder(to, k + 1, group), list)?;
        }
    }
    Ok(())
}

/// The arguments as the format's one string, which its tools split at
/// white space: an argument holding any (or none at all) would arrive
/// as other arguments, so it is refused, naming the spec (`spec`).
fn flags(spec: &Path, list: &[String]) -> Result<String, ExportError> {
    if let Some(bad) = list
        .iter()
        .find(|a| a.is_empty() || a.chars().any(char::is_whitespace))
    {
        return Err(ExportError::Usage(Because::new(format!(
            "{}: input_validator_args: {:?} is empty or holds white space, which the package's \
             `input_validator_flags` (one string split at spaces) cannot carry; \
             split it into arguments without spaces",
            spec.display(),
            bad
        ))));
    }
    Ok(list.join(" "))
}

const ACCEPT_ALL: &str = "#!/usr/bin/env python3\n# Accepts every input: grundy knows no input format for this problem.\nimport sys\nsys.stdin.buffer.read()\nsys.exit(42)\n";

/// A program folder's name: the file's stem in the characters the format
/// allows in names, unique among the validators already written.
fn folder_name(program: &Path, taken: &[String]) -> String {
    let stem: String = program
        .file_stem()
        .map(|s| s.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = if stem.is_empty() || !stem.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        format!("v{stem}")
    } else {
        stem
    };
    if !taken.contains(&stem) {
        return stem;
    }
    (2..)
        .map(|k| format!("{stem}{k}"))
        .find(|n| !taken.contains(n))
        .unwrap_or(stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folder_names_fit_the_format_and_do_not_collide() {
        let taken = vec!["validate".to_string()];
        assert_eq!(
            folder_name(Path::new("p/validator.py"), &taken),
            "validator"
        );
        assert_eq!(
            folder_name(Path::new("p/validate.cpp"), &taken),
            "validate2"
        );
        assert_eq!(folder_name(Path::new("p/My Check.py"), &taken), "my_check");
        assert_eq!(folder_name(Path::new("p/_x.py"), &taken), "v_x");
    }

    #[test]
    fn flags_are_one_string_and_refuse_what_it_cannot_carry() {
        let spec = Path::new("p/problem.yaml");
        let list = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            flags(spec, &list(&["--max-n", "30"])).expect("flags"),
            "--max-n 30"
        );
        for bad in [&["--name", "a b"][..], &["--x", ""]] {
            let e = flags(spec, &list(bad)).expect_err("refused").to_string();
            assert!(
                e.contains("p/problem.yaml: input_validator_args:")
                    && e.contains("split it into arguments without spaces"),
                "{e}"
            );
        }
    }
}
