//! BAPCtools' `generators/generators.yaml`: the test data of a package
//! described as commands, files and inline text, read into test sources
//! that the judge materialises like the tests of our own specs.
//!
//! The common subset is read, as BAPCtools' `doc/generators.md` states it:
//! `solution:` (the program that writes the answers), `data:` trees of
//! folders (a map, or a list of one-key maps numbered in order) whose test
//! cases are a generator command (`gen.py {seed} n=5`), `copy:` of files
//! under `generators/`, or inline `in:` / `ans:` text, with `count:`, and
//! inline `test_group.yaml` / `testdata.yaml` settings. `{seed}` is fixed
//! as BAPCtools fixes it (a hash of the salt and the command), so the same
//! package makes the same tests here and there. Everything else
//! (`include:`, the `generators:` dictionary, per-case `solution:`,
//! visualizers) is reported per item and the rest is read.

mod case;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_yaml::{Mapping, Value};

use super::constants::{Constants, ConstantsError};
use super::schema::RawTestdata;
use crate::problem::TestSource;
use case::{counts, seed_of, substitute};

/// What `generators.yaml` describes, ready to judge.
#[derive(Debug, Default)]
pub struct Plan {
    /// The tests of `data/sample/`, in order.
    pub samples: Vec<TestSource>,
    /// (folder under `data/`, its tests) for each folder under
    /// `data/secret/` with tests, in order (the root first).
    pub secret: Vec<(String, Vec<TestSource>)>,
    /// `solution:` of the root (a path from the package root).
    pub solution: Option<PathBuf>,
    /// Inline settings per folder under `data/` (`""` is `data/` itself).
    pub settings: BTreeMap<String, RawTestdata>,
    /// A test case's own settings (its `yaml:`, which BAPCtools writes as
    /// the test's `.yaml`), with the folder it is in; found again by the
    /// test it made, as a test is all a judged test carries back.
    pub cases: Vec<CaseSettings>,
    pub notes: Vec<String>,
}

impl Plan {
    /// The settings in force in `folder` (under `data/`, `""` for `data/`
    /// itself): the inline ones from the root down, a key set lower
    /// overriding the same key set higher.
    pub fn settings_for(&self, folder: &str) -> RawTestdata {
        let mut merged = self.settings.get("").cloned().unwrap_or_default();
        let mut at = String::new();
        for part in folder.split('/').filter(|p| !p.is_empty()) {
            if !at.is_empty() {
                at.push('/');
            }
            at.push_str(part);
            if let Some(s) = self.settings.get(&at) {
                merged = super::testdata::merge(merged, s.clone());
            }
        }
        merged
    }
}

/// A test case's `yaml:` settings and where the test is.
#[derive(Debug, Clone)]
pub struct CaseSettings {
    /// The folder under `data/` (`secret/group1`).
    pub folder: String,
    /// The test case's place in the file (`secret/group1/03-big`).
    pub name: String,
    pub test: TestSource,
    pub settings: RawTestdata,
}

/// Keys that make a map a test case rather than a folder (BAPCtools'
/// rule: any of them present).
const CASE_KEYS: [&str; 12] = [
    "copy",
    "generate",
    "count",
    "match",
    "in",
    "ans",
    "out",
    "interaction",
    "hint",
    "desc",
    "in.statement",
    "ans.statement",
];

/// Keys of a test case that change no test: read, not used.
const CASE_QUIET: [&str; 6] = ["hint", "desc", "match", "retries", "png", "svg"];

/// Why `generators.yaml` cannot be read; `at` is the folder, as
/// `data/secret/`.
#[derive(Debug, thiserror::Error)]
pub enum PlanError {
    /// Not YAML (serde's message says where).
    #[error(transparent)]
    Yaml(serde_yaml::Error),
    #[error("expected a map at the top")]
    NotAMap,
    /// A folder's settings (`test_group.yaml:` / `testdata.yaml:`) are
    /// not settings.
    #[error("{at}: `{key}`: {source}")]
    Settings {
        at: String,
        key: &'static str,
        source: serde_yaml::Error,
    },
    #[error("{0}: `data:` list items must be one-key maps")]
    ListItem(String),
    #[error("{0}: `data:` must be a map or a list")]
    Data(String),
    /// A command names a constant the package does not have: a mistake
    /// in the file, not a test to skip.
    #[error(transparent)]
    Constants(ConstantsError),
    /// A path that climbs out of the package (`copy: ../../../tmp/x`): the
    /// judge reads a package's files beneath its folder only.
    #[error("{at}: `{path}` leads outside the package: a package's files are read inside it only")]
    LeavesPackage { at: String, path: String },
}

/// Why one entry of `generators.yaml` makes no test (it is skipped, with
/// this said in a note).
#[derive(Debug, thiserror::Error)]
pub enum Skip {
    #[error("no input given")]
    NoInput,
    #[error("expected a command or a map")]
    NotACase,
    #[error("a `solution:` of its own (the top `solution:` writes every answer)")]
    OwnSolution,
    #[error("neither `generate:`, `copy:` nor `in:`")]
    NoCommand,
    #[error(transparent)]
    Constants(ConstantsError),
    #[error("unbalanced quotes in the command")]
    Quotes,
    #[error("an empty command")]
    EmptyCommand,
    #[error("`{0}`: a program outside generators/ (not run)")]
    Outside(String),
    /// Not skipped: made into [`PlanError::LeavesPackage`].
    #[error("`{0}` leads outside the package")]
    LeavesPackage(String),
    #[error("`{0}` is built from the files the `generators:` list names (not read)")]
    Listed(String),
    #[error("`count:` must be between 1 and 10000")]
    CountRange,
    #[error("`count:` list of integers")]
    CountList,
    #[error("`count: {0}`: expected A..=B")]
    CountSpan(String),
    #[error("`count: {0}`")]
    CountBound(String),
    #[error("`count: {0}`: an empty or too long range")]
    CountLength(String),
    #[error("`count:` must be a number, a list or A..=B")]
    CountShape,
}

/// Reads `text` (the file `generators/generators.yaml` of a package).
/// `constants` are the package's (`{{name}}` is replaced in commands).
pub fn plan(text: &str, constants: &Constants) -> Result<Plan, PlanError> {
    let root: Value = serde_yaml::from_str(text).map_err(PlanError::Yaml)?;
    let root = match root {
        Value::Mapping(m) => m,
        Value::Null => Mapping::new(),
        _ => return Err(PlanError::NotAMap),
    };
    let mut plan = Plan::default();
    if let Some(s) = root.get("solution").and_then(Value::as_str) {
        let solution = PathBuf::from(s.trim_start_matches('/'));
        if !stays_inside(&solution) {
            return Err(PlanError::LeavesPackage {
                at: "solution".into(),
                path: s.to_string(),
            });
        }
        plan.solution = Some(solution);
    }
    // Programs built from listed files: not built here, so a command
    // naming one is skipped with that reason.
    let listed: Vec<String> = match root.get("generators") {
        Some(Value::Mapping(m)) => m.keys().map(key_text).collect(),
        _ => Vec::new(),
    };
    let mut walker = Walker {
        plan: &mut plan,
        listed,
        constants,
        unknown: None,
    };
    let salt = string_of(root.get("random_salt")).unwrap_or_default();
    walker.folder("", &root, &salt)?;
    // A command naming no constant is a mistake in the file, not a test
    // to skip.
    if let Some(e) = walker.unknown {
        return Err(PlanError::Constants(e));
    }
    Ok(plan)
}

struct Walker<'a> {
    plan: &'a mut Plan,
    /// The names the `generators:` dictionary defines.
    listed: Vec<String>,
    constants: &'a Constants,
    /// The first command that names an unknown constant.
    unknown: Option<ConstantsError>,
}

impl Walker<'_> {
    /// A folder at `path` under `data/` (`""` the root).
    fn folder(&mut self, path: &str, node: &Mapping, salt: &str) -> Result<(), PlanError> {
        let salt = string_of(node.get("random_salt")).unwrap_or_else(|| salt.to_string());
        for key in ["test_group.yaml", "testdata.yaml"] {
            if let Some(v) = node.get(key) {
                let raw: RawTestdata =
                    serde_yaml::from_value(v.clone()).map_err(|source| PlanError::Settings {
                        at: shown(path),
                        key,
                        source,
                    })?;
                self.plan.settings.insert(path.to_string(), raw);
            }
        }
        if node.get("include").is_some() {
            self.plan.notes.push(format!(
                "generators.yaml: {}: `include:` not read; the included tests are not repeated here",
                shown(path)
            ));
        }
        if !path.is_empty() && node.get("solution").is_some() {
            self.plan.notes.push(format!(
                "generators.yaml: {}: `solution:` of a folder not used; the answers come from the top `solution:`",
                shown(path)
            ));
        }
        // (key, value, numbered) in the order the format gives them.
        let mut entries: Vec<(String, Value, bool)> = Vec::new();
        match node.get("data") {
            None | Some(Value::Null) => {}
            Some(Value::Mapping(m)) => {
                let mut v: Vec<(String, Value, bool)> = m
                    .iter()
                    .map(|(k, v)| (key_text(k), v.clone(), false))
                    .collect();
                v.sort_by(|a, b| a.0.cmp(&b.0));
                entries = v;
            }
            Some(Value::Sequence(items)) => {
                for item in items {
                    let Value::Mapping(m) = item else {
                        return Err(PlanError::ListItem(shown(path)));
                    };
                    for (k, v) in m {
                        entries.push((key_text(k), v.clone(), true));
                    }
                }
            }
            Some(_) => return Err(PlanError::Data(shown(path))),
        }
        let mut tests = Vec::new();
        let mut number = 0usize;
        for (name, value, numbered) in entries {
            if is_case(&value) {
                if numbered {
                    number += 1;
                }
                let label = if numbered {
                    format!("{number:02}-{name}")
                } else {
                    name.clone()
                };
                let at = join(path, &label);
                match self.case(&at, &value, &salt) {
                    Ok(mut made) => {
                        if let Some(v) = value.get("yaml").filter(|v| !v.is_null()) {
                            let settings: RawTestdata =
                                serde_yaml::from_value(v.clone()).map_err(|source| {
                                    PlanError::Settings {
                                        at: format!("data/{at}"),
                                        key: "yaml",
                                        source,
                                    }
                                })?;
                            self.plan.cases.extend(made.iter().map(|t| CaseSettings {
                                folder: path.to_string(),
                                name: at.clone(),
                                test: t.clone(),
                                settings: settings.clone(),
                            }));
                        }
                        tests.append(&mut made)
                    }
                    Err(Skip::LeavesPackage(path)) => {
                        return Err(PlanError::LeavesPackage {
                            at: format!("data/{at}"),
                            path,
                        });
                    }
                    Err(why) => self
                        .plan
                        .notes
                        .push(format!("generators.yaml: {at}: skipped: {why}")),
                }
            } else if let Value::Mapping(m) = &value {
                let sub = join(path, &name);
                if path.is_empty() && !matches!(name.as_str(), "sample" | "secret") {
                    self.plan.notes.push(format!(
                        "generators.yaml: data/{name}/: not judged (only sample/ and secret/ are tests)"
                    ));
                    continue;
                }
                self.folder(&sub, m, &salt)?;
            }
        }
        if path == "sample" || path.starts_with("sample/") {
            self.plan.samples.append(&mut tests);
        } else if path == "secret" || path.starts_with("secret/") {
            if !tests.is_empty() {
                self.plan.secret.push((path.to_string(), tests));
                // Root first, then subfolders in the order met (depth first).
                self.plan
                    .secret
                    .sort_by_key(|(p, _)| (p != "secret", p.clone()));
            }
        } else if !tests.is_empty() {
            self.plan.notes.push(format!(
                "generators.yaml: test cases directly in {}: not judged",
                shown(path)
            ));
        }
        Ok(())
    }

    /// The tests one entry makes (several with `count:`).
    fn case(&mut self, at: &str, value: &Value, salt: &str) -> Result<Vec<TestSource>, Skip> {
        let map = match value {
            Value::Null => return Err(Skip::NoInput),
            Value::String(s) if s.ends_with(".in") => {
                let mut m = Mapping::new();
                m.insert("copy".into(), s.trim_end_matches(".in").into());
                m
            }
            Value::String(s) => {
                let mut m = Mapping::new();
                m.insert("generate".into(), s.as_str().into());
                m
            }
            Value::Mapping(m) => m.clone(),
            _ => return Err(Skip::NotACase),
        };
        for k in map.keys() {
            let k = key_text(k);
            let known = matches!(
                k.as_str(),
                "generate" | "copy" | "in" | "ans" | "count" | "random_salt" | "solution" | "yaml"
            ) || CASE_QUIET.contains(&k.as_str());
            if !known {
                self.plan
                    .notes
                    .push(format!("generators.yaml: {at}: `{k}` not used"));
            }
        }
        if map.get("solution").is_some() {
            return Err(Skip::OwnSolution);
        }
        let salt = string_of(map.get("random_salt")).unwrap_or_else(|| salt.to_string());
        // Inline text ends with a newline, as BAPCtools writes it.
        let text = |k: &str| {
            string_of(map.get(k)).map(|mut t| {
                if !t.is_empty() && !t.ends_with('\n') {
                    t.push('\n');
                }
                t
            })
        };
        let answer = text("ans");
        if let Some(input) = text("in") {
            return Ok(vec![TestSource::Inline { input, answer }]);
        }
        if let Some(copy) = string_of(map.get("copy")) {
            let base = Path::new("generators").join(copy.trim_start_matches('/'));
            if !stays_inside(&base) {
                return Err(Skip::LeavesPackage(copy));
            }
            let input = PathBuf::from(format!("{}.in", base.display()));
            let ans = PathBuf::from(format!("{}.ans", base.display()));
            return Ok(vec![TestSource::File {
                input,
                answer: Some(ans),
            }]);
        }
        let Some(command) = string_of(map.get("generate")) else {
            return Err(Skip::NoCommand);
        };
        // Constants first, then `{count}` and the seed, as BAPCtools does.
        let command = match self.constants.substitute_strict(&command, Path::new(at)) {
            Ok(c) => c,
            Err(e) => {
                self.unknown.get_or_insert(e.clone());
                return Err(Skip::Constants(e));
            }
        };
        let counts = counts(map.get("count"))?;
        let mut out = Vec::new();
        for &c in &counts {
            let mut cmd = command.clone();
            if map.get("count").is_some() {
                cmd = cmd.replace("{count}", &c.to_string());
            }
            let mut seed_text = salt.clone();
            if c != 1 {
                seed_text.push_str(&format!(":{}", c - 1));
            }
            seed_text.push_str(cmd.trim());
            let seed = seed_of(&seed_text);
            // Split as BAPCtools splits: shell words, quotes removed.
            let words = shlex::split(&cmd).ok_or(Skip::Quotes)?;
            let mut words = words.into_iter();
            let program = words.next().ok_or(Skip::EmptyCommand)?;
            let program = program.as_str();
            if program.starts_with('/') {
                return Err(Skip::Outside(program.to_string()));
            }
            if self.listed.iter().any(|l| l == program) {
                return Err(Skip::Listed(program.to_string()));
            }
            if !stays_inside(&Path::new("generators").join(program)) {
                return Err(Skip::LeavesPackage(program.to_string()));
            }
            let args: Vec<String> = words.map(|w| substitute(&w, seed)).collect();
            out.push(TestSource::Command {
                program: Path::new("generators").join(program),
                args,
            });
        }
        Ok(out)
    }
}

/// Whether the relative path `rel` stays in the folder it is relative to
/// by its names alone (`a/../b` does, `a/../../b` does not).
fn stays_inside(rel: &Path) -> bool {
    let mut depth = 0usize;
    for c in rel.components() {
        match c {
            std::path::Component::Normal(_) => depth += 1,
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => return false,
        }
    }
    true
}

fn is_case(v: &Value) -> bool {
    match v {
        Value::Null | Value::String(_) => true,
        Value::Mapping(m) => m.keys().any(|k| CASE_KEYS.contains(&key_text(k).as_str())),
        _ => false,
    }
}

fn string_of(v: Option<&Value>) -> Option<String> {
    match v? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

fn key_text(k: &Value) -> String {
    string_of(Some(k)).unwrap_or_default()
}

fn join(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}/{name}")
    }
}

fn shown(path: &str) -> String {
    if path.is_empty() {
        "data/".into()
    } else {
        format!("data/{path}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_are_bapctools_seeds() {
        // int(hashlib.sha512(b"gen.py {seed} 5").hexdigest(), 16) % 2**31,
        // computed by Python's hashlib.
        assert_eq!(seed_of("gen.py {seed} 5"), PYTHON_SEED);
        assert_eq!(substitute("n={seed:2}", 7), "n=7");
        assert_eq!(substitute("{name}.txt", 7), "testcase.txt");
    }

    const PYTHON_SEED: u64 = 1747917994;

    #[test]
    fn the_common_subset_is_read_and_the_rest_noted() {
        let p = plan(
            "solution: /submissions/accepted/a.py\n\
             data:\n  sample:\n    data:\n      - '': {in: '1 2', ans: '3'}\n\
             \x20 secret:\n    test_group.yaml: {output_validator_args: [case_sensitive]}\n\
             \x20   include: [sample]\n    data:\n      a: gen.py {seed} 5\n      b: {copy: manual/b}\n\
             \x20     c: {generate: 'gen.py {count}', count: 2}\n      g1:\n        data:\n          x: {in: '4 5'}\n",
            &Constants::default(),
        )
        .expect("plan");
        assert_eq!(p.solution, Some(PathBuf::from("submissions/accepted/a.py")));
        assert_eq!(p.samples.len(), 1);
        assert_eq!(p.secret.len(), 2);
        assert_eq!(p.secret[0].0, "secret");
        assert_eq!(p.secret[0].1.len(), 4);
        assert_eq!(p.secret[1].0, "secret/g1");
        match &p.secret[0].1[0] {
            TestSource::Command { program, args } => {
                assert_eq!(program, Path::new("generators/gen.py"));
                assert_eq!(args, &[seed_of("gen.py {seed} 5").to_string(), "5".into()]);
            }
            other => panic!("{other:?}"),
        }
        assert!(p.settings.contains_key("secret"));
        assert!(
            p.notes.iter().any(|n| n.contains("include")),
            "{:?}",
            p.notes
        );
    }

    #[test]
    fn a_plan_refusal_keeps_serdes_error_and_a_skip_says_why() {
        let e = plan(
            "data:\n  secret:\n    test_group.yaml: [1, 2]\n",
            &Constants::default(),
        )
        .expect_err("settings that are a list");
        let PlanError::Settings { at, key, source } = &e else {
            panic!("{e:?}");
        };
        assert_eq!((at.as_str(), *key), ("data/secret/", "test_group.yaml"));
        assert_eq!(
            e.to_string(),
            format!("data/secret/: `test_group.yaml`: {source}")
        );
        let p = plan(
            "data:\n  secret:\n    data:\n      a: {generate: 'gen.py', count: 0}\n      b: /bin/gen\n",
            &Constants::default(),
        )
        .expect("plan");
        let notes = p.notes.join("\n");
        assert!(
            notes.contains(
                "generators.yaml: secret/a: skipped: `count:` must be between 1 and 10000"
            ),
            "{notes}"
        );
        assert!(
            notes.contains("generators.yaml: secret/b: skipped: `/bin/gen`: a program outside generators/ (not run)"),
            "{notes}"
        );
        let e = plan(
            "data:\n  secret:\n    data:\n      a: gen.py {{N}}\n",
            &Constants::default(),
        )
        .expect_err("unknown constant");
        assert!(
            matches!(&e, PlanError::Constants(ConstantsError::Unknown { name, .. }) if name == "N")
        );
        assert_eq!(
            e.to_string(),
            "secret/a: `{{N}}` names no constant of problem.yaml (it has no `constants:`)"
        );
    }
}
