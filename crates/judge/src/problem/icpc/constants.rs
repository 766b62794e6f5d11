//! Problem constants (`constants:` in `problem.yaml`, 2025-09 and
//! BAPCtools): `{{name}}` and `{{name.variant}}` replaced by their values
//! where the format and BAPCtools replace them.
//!
//! Replaced in: generator commands of `generators.yaml`, `test_group.yaml`
//! / `testdata.yaml`, the sources of the package's own programs
//! (generators, input and output validators) and of its example
//! submissions (under `submissions/`, which the format lists too), which
//! are built from a substituted copy. Not replaced in test data, inline
//! `in:`/`ans:` text or `problem.yaml` itself. (BAPCtools builds
//! submissions as written: its own `constants` package files a submission
//! that prints a `{{…}}` under `wrong_answer/`, against the format.)
//!
//! An unknown name is an error in a settings or generators file, where
//! `{{…}}` can mean nothing else; in a source file it stays as written (as
//! the format says, and since `{{x}}` is ordinary C++ or Python there).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_yaml::Value;

use super::schema::RawPackage;

/// Why a package's constants, or a `{{name}}` in a file, are refused.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ConstantsError {
    #[error("`constants` must be a map from names to values")]
    NotAMap,
    #[error("constants: `{0}` is not a name (letters, digits and `_`, not starting with a digit)")]
    BadName(String),
    #[error("constants: `{0}` needs a `value` (a number or a string)")]
    NoValue(String),
    #[error("constants: `{0}`: a variant key is not a name")]
    BadVariantKey(String),
    #[error("constants: `{name}.{variant}` must be a number or a string")]
    BadVariant { name: String, variant: String },
    #[error("constants: `{0}` must be a number, a string or a map with `value`")]
    BadValue(String),
    /// `{{name}}` in a settings or generators file names no constant;
    /// `known` are the names there are.
    #[error("{}: `{{{{{name}}}}}` names no constant of problem.yaml{}", path.display(), known_ones(known))]
    Unknown {
        path: PathBuf,
        name: String,
        known: Vec<String>,
    },
}

/// The end of [`ConstantsError::Unknown`]'s message: the names there are.
fn known_ones(known: &[String]) -> String {
    if known.is_empty() {
        " (it has no `constants:`)".to_string()
    } else {
        let names: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
        format!(" (it has {})", names.join(", "))
    }
}

/// The constants of a package: `name` and `name.variant` to their text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constants(BTreeMap<String, String>);

fn is_name(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn scalar(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

impl Constants {
    /// The `constants:` map of a `problem.yaml`; `Err` names the entry
    /// that is not a constant as the format defines them.
    pub fn read(raw: &RawPackage) -> Result<Constants, ConstantsError> {
        let mut out = BTreeMap::new();
        let Some(value) = raw.other.get("constants") else {
            return Ok(Constants(out));
        };
        let Value::Mapping(map) = value else {
            return Err(ConstantsError::NotAMap);
        };
        for (k, v) in map {
            let name = k
                .as_str()
                .filter(|n| is_name(n))
                .ok_or_else(|| ConstantsError::BadName(scalar(k).unwrap_or_default()))?;
            match v {
                Value::Mapping(variants) => {
                    let value = variants
                        .get("value")
                        .and_then(scalar)
                        .ok_or_else(|| ConstantsError::NoValue(name.to_string()))?;
                    for (vk, vv) in variants {
                        let variant = vk
                            .as_str()
                            .filter(|n| is_name(n))
                            .ok_or_else(|| ConstantsError::BadVariantKey(name.to_string()))?;
                        let text = scalar(vv).ok_or_else(|| ConstantsError::BadVariant {
                            name: name.to_string(),
                            variant: variant.to_string(),
                        })?;
                        out.insert(format!("{name}.{variant}"), text);
                    }
                    out.insert(name.to_string(), value);
                }
                other => {
                    let text =
                        scalar(other).ok_or_else(|| ConstantsError::BadValue(name.to_string()))?;
                    out.insert(format!("{name}.value"), text.clone());
                    out.insert(name.to_string(), text);
                }
            }
        }
        Ok(Constants(out))
    }

    /// The constants of the package in `dir` (read from its `problem.yaml`;
    /// none when it cannot be read), for tests: the loader reads them
    /// once, with the rest of the file, and passes them on.
    #[cfg(test)]
    pub fn of_dir(dir: &Path) -> Constants {
        super::schema::raw_package(dir)
            .and_then(|raw| Constants::read(&raw).ok())
            .unwrap_or_default()
    }

    /// The constants the problem model keeps ([`Constants::into_map`]).
    pub fn from_map(map: BTreeMap<String, String>) -> Constants {
        Constants(map)
    }

    /// The constants by name (`name` and `name.variant`), as the problem
    /// model keeps them.
    pub fn into_map(self) -> BTreeMap<String, String> {
        self.0
    }

    /// The statement `text` of a package with these constants as the
    /// format shows it: `{{name}}` replaced in Markdown, `\constant{name}`
    /// in LaTeX.
    pub fn in_statement(map: &BTreeMap<String, String>, text: String, latex: bool) -> String {
        let constants = Constants(map.clone());
        if constants.is_empty() {
            text
        } else if latex {
            constants.substitute_latex(&text)
        } else {
            constants.substitute(&text).0
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `text` with every `{{name}}` / `{{name.variant}}` it knows
    /// replaced, and the names it does not know (left as written).
    pub fn substitute(&self, text: &str) -> (String, Vec<String>) {
        self.replace(text, "{{", "}}")
    }

    /// `text`, a LaTeX statement, with every `\constant{name}` /
    /// `\constant{name.variant}` it knows replaced (the format's command
    /// for constants in LaTeX, where `{{…}}` is ordinary TeX).
    pub fn substitute_latex(&self, text: &str) -> String {
        self.replace(text, "\\constant{", "}").0
    }

    /// Replaces each `open` name `close` it knows; returns the names it
    /// does not know, left as written.
    fn replace(&self, text: &str, open: &str, close: &str) -> (String, Vec<String>) {
        let mut out = String::with_capacity(text.len());
        let mut unknown = Vec::new();
        let mut rest = text;
        while let Some(start) = rest.find(open) {
            out.push_str(&rest[..start]);
            let after = &rest[start + open.len()..];
            let token = after.find(close).map(|end| &after[..end]).filter(|t| {
                let mut parts = t.splitn(2, '.');
                parts.next().is_some_and(is_name) && parts.next().is_none_or(is_name)
            });
            match token {
                Some(t) => {
                    match self.0.get(t) {
                        Some(v) => out.push_str(v),
                        None => {
                            out.push_str(&rest[start..start + open.len() + t.len() + close.len()]);
                            if !unknown.iter().any(|u| u == t) {
                                unknown.push(t.to_string());
                            }
                        }
                    }
                    rest = &after[t.len() + close.len()..];
                }
                None => {
                    out.push_str(open);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        (out, unknown)
    }

    /// [`Self::substitute`] for a settings or generators file at `path`:
    /// an unknown name is an error naming the file.
    pub fn substitute_strict(&self, text: &str, path: &Path) -> Result<String, ConstantsError> {
        let (out, unknown) = self.substitute(text);
        match unknown.first() {
            None => Ok(out),
            Some(name) => Err(ConstantsError::Unknown {
                path: path.to_path_buf(),
                name: name.clone(),
                known: self
                    .0
                    .keys()
                    .filter(|k| !k.contains('.'))
                    .cloned()
                    .collect(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn constants(yaml: &str) -> Result<Constants, String> {
        let raw: RawPackage = serde_yaml::from_str(yaml).map_err(|e| e.to_string())?;
        Constants::read(&raw).map_err(|e| e.to_string())
    }

    #[test]
    fn latex_statements_name_constants_with_their_command() {
        let c = constants("constants:\n  N: {value: 5, WORD: five}\n").expect("constants");
        assert_eq!(
            c.substitute_latex("$n \\le \\constant{N}$, \\constant{N.WORD}, \\constant{M}, {{N}}"),
            "$n \\le 5$, five, \\constant{M}, {{N}}"
        );
    }

    #[test]
    fn values_and_variants_are_replaced_and_unknown_names_kept() {
        let c = constants("constants:\n  FIVE: {value: 5, WORD: five}\n  SIX: 6\n  F: 10.0\n")
            .expect("constants");
        let (out, unknown) = c.substitute(
            "{{FIVE}} {{FIVE.value}} {{FIVE.WORD}} {{SIX}} {{F}} {{SEVEN}} {{1,2}} {{a b}}",
        );
        assert_eq!(out, "5 5 five 6 10.0 {{SEVEN}} {{1,2}} {{a b}}");
        assert_eq!(unknown, ["SEVEN"]);
        let e = c
            .substitute_strict("gen.py {{SEVEN}}", Path::new("generators/generators.yaml"))
            .expect_err("unknown")
            .to_string();
        assert!(
            e.contains("generators/generators.yaml") && e.contains("{{SEVEN}}"),
            "{e}"
        );
        assert!(e.contains("`FIVE`"), "{e}");
    }

    #[test]
    fn malformed_constants_are_named() {
        assert!(constants("constants:\n  9x: 1\n").is_err());
        let e = constants("constants:\n  K: {tex: '5'}\n").expect_err("no value");
        assert!(e.contains("`K` needs a `value`"), "{e}");
        assert!(constants("constants: [1]\n").is_err());
    }

    #[test]
    fn an_unknown_name_lists_the_names_there_are() {
        let c = Constants::read(
            &serde_yaml::from_str("constants:\n  N: 5\n  W: {value: 1, tex: one}\n").expect("yaml"),
        )
        .expect("constants");
        let e = c
            .substitute_strict("{{M}}", Path::new("data/test_group.yaml"))
            .expect_err("unknown");
        assert_eq!(
            e.to_string(),
            "data/test_group.yaml: `{{M}}` names no constant of problem.yaml (it has `N`, `W`)"
        );
        let e = Constants::default()
            .substitute_strict("{{M}}", Path::new("g.yaml"))
            .expect_err("none");
        assert_eq!(
            e.to_string(),
            "g.yaml: `{{M}}` names no constant of problem.yaml (it has no `constants:`)"
        );
        let raw: RawPackage = serde_yaml::from_str("constants:\n  K: {v: {}}\n").expect("yaml");
        assert!(matches!(
            Constants::read(&raw),
            Err(ConstantsError::NoValue(name)) if name == "K"
        ));
    }
}
