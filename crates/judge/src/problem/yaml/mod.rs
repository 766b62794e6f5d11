//! Our YAML problem spec (see docs/problem-format.md) and its translation to
//! the [`Problem`] model.
//!
//! Every check that can run during deserialisation does, so that serde_yaml
//! reports it with a line and column; only checks that need the file system
//! (does the statement exist?) run afterwards, and name the key instead.

mod fields;
mod programs;

use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{
    CheckerSpec, Group, InteractorSpec, Limits, Problem, ProblemId, Sample, SpecError, TestSource,
};
pub(super) use fields::is_id;
use fields::{RawGroup, RawId, RawLimits, RawSample, TEST_KINDS};
use programs::{INTERACTOR_HELP, RawChecker, RawInteractor};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProblem {
    id: RawId,
    title: String,
    #[serde(default)]
    source: String,
    statement: Option<PathBuf>,
    reference: Option<PathBuf>,
    seed: Option<u64>,
    #[serde(default)]
    limits: RawLimits,
    #[serde(default)]
    checker: RawChecker,
    interactor: Option<RawInteractor>,
    #[serde(default)]
    samples: Vec<RawSample>,
    #[serde(default)]
    groups: Vec<RawGroup>,
    #[serde(default)]
    input_validators: Vec<PathBuf>,
    /// The arguments of every input validator on every test, unless the
    /// test's group gives its own.
    input_validator_args: Option<Vec<String>>,
    /// Multi-pass: the most runs of a submission on one test, each on the
    /// `nextpass.in` the ICPC output validator (or interactor) wrote.
    passes: Option<u32>,
    /// A game described by its rules (docs/problem-format.md, "Games
    /// described in YAML"); each value checked as it is read, the keys
    /// together once the spec is read (located then by [`crate::yaml::locate`]).
    game: Option<crate::catalog::described::RawGame>,
}

/// `passes: N`, checked: only a program speaking the ICPC validator
/// protocol can ask for another pass (by writing `nextpass.in` into its
/// feedback folder), so the problem needs one as its checker or
/// interactor; the bounds are the package format's (at least 2) and
/// grundy's (each pass is a full run).
fn multi_pass(
    n: u32,
    checker: &CheckerSpec,
    interactor: Option<&RawInteractor>,
) -> Result<u32, Refusal> {
    let icpc = matches!(checker, CheckerSpec::Icpc { .. })
        || matches!(interactor.map(|i| &i.0), Some(InteractorSpec::Icpc { .. }));
    if !icpc {
        return Err(Refusal::PassesWithoutIcpc);
    }
    let max = crate::problem::model::MAX_PASSES;
    if !(2..=max).contains(&n) {
        return Err(Refusal::Passes { max, found: n });
    }
    Ok(n)
}

/// Why a value of `problem.yaml` is refused. Most are raised while serde
/// reads the value, which adds the line and column; the folder check runs
/// afterwards and names the file.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    #[error("problem id `{id}`: use lowercase letters, digits and '-' (like `nim-yes-no`)")]
    Id { id: String },
    #[error(
        "unknown interactor `{name}` (built-in interactors: {}; or a program file such as interactor.cpp)",
        crate::games::play::Game::names().join(", ")
    )]
    UnknownInteractor { name: String },
    #[error("interactor: expected {INTERACTOR_HELP}")]
    InteractorShape,
    #[error("testlib interactor: expected a program path")]
    TestlibInteractor,
    #[error("unknown interactor kind `{kind}`, expected {INTERACTOR_HELP}")]
    InteractorKind { kind: String },
    #[error("icpc checker: expected a program path or {{program, args}}: {source}")]
    IcpcChecker { source: serde_yaml::Error },
    #[error("group name `sample` is reserved for the samples")]
    ReservedGroup,
    #[error(
        "group name `{name}`: use letters, digits, '-' and '_' (like `large` or `anti-overflow`)"
    )]
    GroupName { name: String },
    #[error("points must be a number >= 0, found {points}")]
    Points { points: f64 },
    #[error("{TEST_KINDS}")]
    TestKinds,
    #[error("`count` must be at least 1")]
    ZeroCount,
    #[error("`count` and `seed` belong to `generator` or `program` entries")]
    CountOutsideGenerated,
    #[error("`params` belongs to `generator` entries")]
    ParamsOutsideGenerator,
    #[error("`args` belongs to `program` entries")]
    ArgsOutsideProgram,
    #[error("generated tests take their answers from the reference; drop `answer`")]
    GeneratedAnswer,
    #[error(
        "unknown generator `{name}` (built-in generators: {}; and `game` for a game described under `game:`)",
        crate::catalog::family_names().join(", ")
    )]
    UnknownGenerator { name: String },
    #[error("id `{id}` does not match its folder `{folder}`: rename one of them")]
    Folder { id: String, folder: String },
    #[error(
        "passes: a multi-pass problem needs `checker: {{icpc: PROGRAM}}` or `interactor: {{icpc: PROGRAM}}`, the program that writes `nextpass.in`"
    )]
    PassesWithoutIcpc,
    #[error("passes: at least 2 and at most {max}, found {found}")]
    Passes { max: u32, found: u32 },
}

/// Parses `text` (the contents of `path`) into a validated problem.
pub fn parse(path: &Path, text: &str) -> Result<Problem, SpecError> {
    let raw: RawProblem = from_yaml(path, text).map_err(|e| game_placed(e, text))?;
    let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
    let invalid = |message: String| SpecError::Invalid {
        path: path.to_path_buf(),
        message,
    };
    check_folder_name(&dir, &raw.id.0).map_err(|e| invalid(e.to_string()))?;
    let mut names = std::collections::BTreeSet::new();
    for g in &raw.groups {
        if !names.insert(g.name.0.as_str()) {
            return Err(invalid(format!("group `{}` is defined twice", g.name.0)));
        }
        if g.tests.is_empty() {
            return Err(invalid(format!("group `{}` has no tests", g.name.0)));
        }
    }
    let statement = match raw.statement {
        Some(p) => {
            let full = dir.join(&p);
            if !full.is_file() {
                return Err(invalid(format!(
                    "statement: `{}` does not exist (the path is relative to {})",
                    p.display(),
                    dir.display()
                )));
            }
            Some(full)
        }
        None => Some(dir.join("statement.md")).filter(|p| p.is_file()),
    };
    let reference = match raw.reference {
        Some(p) => Some(dir.join(p)),
        None => default_reference(&dir, &raw.id.0),
    };
    let mut input_validators = Vec::with_capacity(raw.input_validators.len());
    for p in &raw.input_validators {
        let full = dir.join(p);
        if !full.is_file() {
            return Err(invalid(format!(
                "input_validators: `{}` does not exist (the path is relative to {})",
                p.display(),
                dir.display()
            )));
        }
        input_validators.push(full);
    }
    let input_validator_args =
        validator_args(&raw.input_validator_args, &raw.groups, &input_validators)
            .map_err(invalid)?;
    let passes = match raw.passes {
        None => None,
        Some(n) => Some(
            multi_pass(n, &raw.checker.0, raw.interactor.as_ref())
                .map_err(|e| invalid(e.to_string()))?,
        ),
    };
    let game = match raw.game {
        None => None,
        Some(g) => Some(std::sync::Arc::new(
            crate::catalog::described::GameSpec::try_from(g).map_err(|e| {
                let mut at = vec![crate::yaml::KeyPart::Name("game".into())];
                at.extend(e.key());
                let (line, column) = crate::yaml::locate(text, &at).unwrap_or((1, 1));
                SpecError::Yaml {
                    path: path.to_path_buf(),
                    line,
                    column,
                    message: e.to_string(),
                }
            })?,
        )),
    };
    let uses_game_family = raw.groups.iter().any(|g| {
        g.tests.iter().any(|t| {
            matches!(&t.0, TestSource::Generated { family, .. }
                if family == crate::catalog::described::generate::FAMILY)
        })
    });
    if uses_game_family && game.is_none() {
        return Err(invalid(
            "groups: `generator: game` draws positions of a game described under `game:`, and this spec has no `game:`".into(),
        ));
    }
    let mut interactor = raw.interactor.map(|i| i.0);
    if let Some(g) = &game
        && g.played()
    {
        if interactor.is_some() {
            return Err(invalid(
                "interactor: a game with `question: play` is played by the judge from its description; drop `interactor:`".into(),
            ));
        }
        interactor = Some(InteractorSpec::Described);
    }
    let groups: Vec<Group> = if raw.groups.is_empty() {
        match &game {
            // A described game without groups gets the derived ones.
            Some(g) => derived_groups(g),
            // Judging nothing would report AC for any program.
            None => {
                return Err(invalid(
                    "groups: none are listed; a problem needs at least one group of tests".into(),
                ));
            }
        }
    } else {
        let all_without_points = raw.groups.iter().all(|g| g.points.is_none());
        raw.groups
            .into_iter()
            .map(|g| Group {
                name: g.name.0,
                points: match g.points {
                    Some(p) => p.0,
                    None if all_without_points => 1.0,
                    None => 0.0,
                },
                tests: g.tests.into_iter().map(|t| t.0).collect(),
            })
            .collect()
    };

    let defaults = Limits::default();
    Ok(Problem {
        id: ProblemId(raw.id.0),
        title: raw.title,
        source: raw.source,
        dir,
        spec_path: path.to_path_buf(),
        statement,
        reference,
        seed: raw.seed.unwrap_or(1),
        limits: Limits {
            time: raw.limits.time.map_or(defaults.time, |d| d.0),
            memory: raw.limits.memory.map_or(defaults.memory, |b| b.0),
            output: raw.limits.output.map_or(defaults.output, |b| b.0),
            language_allowance: true,
        },
        checker: raw.checker.0,
        interactor,
        passes,
        samples: raw
            .samples
            .into_iter()
            .map(|s| Sample {
                input: s.input,
                output: s.output,
            })
            .collect(),
        groups,
        input_validators,
        input_validator_args,
        time_rule: None,
        tle_margin: None,
        scoring: false,
        notes: Vec::new(),
        game,
        package: None,
    })
}

/// `input_validator_args:` of the problem and of its groups; refused where
/// no program would get them (the spec lists no `input_validators:`).
fn validator_args(
    problem: &Option<Vec<String>>,
    raw_groups: &[RawGroup],
    validators: &[PathBuf],
) -> Result<super::InputValidatorArgs, String> {
    let groups: std::collections::BTreeMap<String, Vec<String>> = raw_groups
        .iter()
        .filter_map(|g| Some((g.name.0.clone(), g.input_validator_args.clone()?)))
        .collect();
    let given = problem.is_some() || !groups.is_empty();
    if given && validators.is_empty() {
        let whose = match groups.keys().next() {
            Some(g) if problem.is_none() => format!("group `{g}`: "),
            _ => String::new(),
        };
        return Err(format!(
            "{whose}input_validator_args: no program would get them; list the validators under `input_validators:`"
        ));
    }
    Ok(super::InputValidatorArgs {
        problem: problem.clone().unwrap_or_default(),
        groups,
    })
}

/// The groups of a described game whose spec lists none.
fn derived_groups(game: &crate::catalog::described::GameSpec) -> Vec<Group> {
    game.default_groups()
        .into_iter()
        .map(|g| Group {
            name: g.name.to_string(),
            points: f64::from(g.points),
            tests: g
                .entries
                .into_iter()
                .map(|(count, knobs)| TestSource::Generated {
                    family: crate::catalog::described::generate::FAMILY.to_string(),
                    // The derived knobs are written by grundy: valid YAML.
                    params: serde_yaml::from_str(&knobs).unwrap_or_default(),
                    count,
                    seed: None,
                })
                .collect(),
        })
        .collect()
}

/// The folder name and the id must agree, or `grundy judge ID` would find a
/// different problem than the one the spec describes.
fn check_folder_name(dir: &Path, id: &str) -> Result<(), Refusal> {
    match dir.file_name().and_then(|n| n.to_str()) {
        Some(name) if name != id => Err(Refusal::Folder {
            id: id.to_string(),
            folder: name.to_string(),
        }),
        _ => Ok(()),
    }
}

/// `<project>/reference/<id>.rs` (or `<id>.<other extension>`), where the
/// project is the folder holding the problems folder.
fn default_reference(dir: &Path, id: &str) -> Option<PathBuf> {
    // A relative `nim/` (run from inside `problems/`) has no parent to
    // climb: climb the absolute path instead.
    let dir = std::path::absolute(dir).ok()?;
    let folder = dir.parent()?.parent()?.join("reference");
    let rust = folder.join(format!("{id}.rs"));
    if rust.is_file() {
        return Some(rust);
    }
    let mut others: Vec<PathBuf> = std::fs::read_dir(&folder)
        .ok()?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_stem().is_some_and(|s| s == id))
        .collect();
    others.sort();
    others.into_iter().next()
}

/// A refusal of one of `game:`'s own keys, which serde places at the
/// section's start: placed at the key, which the message names first
/// (`game: ending: …` becomes `game.ending: …` at its line).
fn game_placed(e: SpecError, text: &str) -> SpecError {
    const KEYS: [&str; 7] = [
        "heaps", "tokens", "heap", "ending", "question", "cases", "list",
    ];
    let SpecError::Yaml {
        path,
        line,
        column,
        message,
    } = e
    else {
        return e;
    };
    let keyed = message.strip_prefix("game: ").and_then(|rest| {
        let (key, why) = rest.split_once(": ")?;
        KEYS.contains(&key).then_some((key, why))
    });
    match keyed {
        Some((key, why)) => {
            let at = [
                crate::yaml::KeyPart::Name("game".into()),
                crate::yaml::KeyPart::Name(key.into()),
            ];
            let (line, column) = crate::yaml::locate(text, &at).unwrap_or((line, column));
            SpecError::Yaml {
                path,
                line,
                column,
                message: format!("game.{key}: {why}"),
            }
        }
        None => SpecError::Yaml {
            path,
            line,
            column,
            message,
        },
    }
}

/// Parses `text`, the YAML file `path` of a problem, into `T`, its size and
/// nesting bounded first (see `crate::yaml::from_str`).
pub(crate) fn from_yaml<T: serde::de::DeserializeOwned>(
    path: &Path,
    text: &str,
) -> Result<T, SpecError> {
    crate::yaml::from_str(path, text).map_err(located)
}

/// A located YAML error as the spec's error.
pub(crate) fn located(e: crate::yaml::YamlError) -> SpecError {
    let crate::yaml::YamlError {
        path,
        line,
        column,
        message,
    } = e;
    SpecError::Yaml {
        path,
        line,
        column,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::programs::icpc_checker;
    use super::*;

    /// What `parse` says of `toy/problem.yaml` holding a valid head and
    /// then `rest`.
    fn refusal(rest: &str) -> String {
        let text = format!("id: toy\ntitle: T\n{rest}");
        match parse(Path::new("toy/problem.yaml"), &text) {
            Ok(_) => panic!("accepted:\n{text}"),
            Err(e) => e.to_string(),
        }
    }

    const ONE_TEST: &str = "groups:\n  - name: a\n    tests:\n      - input: \"1\\n1\\n\"\n";

    #[test]
    fn refusals_raised_while_reading_keep_their_text() {
        for (rest, want) in [
            (
                "groups:\n  - name: a\n    points: -1\n    tests: []\n",
                "toy/problem.yaml:4:5: groups[0]: points must be a number >= 0, found -1",
            ),
            (
                "groups:\n  - name: sample\n    tests: []\n",
                "toy/problem.yaml:4:5: groups[0]: group name `sample` is reserved for the samples",
            ),
            (
                "groups:\n  - name: a\n    tests:\n      - {input: x, count: 0}\n",
                "toy/problem.yaml:6:7: groups[0].tests: `count` must be at least 1",
            ),
            (
                &format!("interactor: {{testlib: 3}}\n{ONE_TEST}"),
                "toy/problem.yaml:1:1: testlib interactor: expected a program path",
            ),
            (
                &format!("interactor: {{judge: x.py}}\n{ONE_TEST}"),
                "toy/problem.yaml:1:1: unknown interactor kind `judge`, expected a built-in interactor name, a program path, {icpc: PROGRAM} or {testlib: PROGRAM}",
            ),
        ] {
            assert_eq!(refusal(rest), want, "{rest}");
        }
    }

    #[test]
    fn an_icpc_checker_refusal_keeps_serdes_reason_as_its_source() {
        let v: serde_yaml::Value = serde_yaml::from_str("{program: c.py, flags: 1}").expect("YAML");
        let e = icpc_checker(v).expect_err("unknown key");
        let source = std::error::Error::source(&e).expect("a source").to_string();
        assert!(source.contains("unknown field `flags`"), "{source}");
        assert!(
            e.to_string()
                .starts_with("icpc checker: expected a program path or {program, args}: "),
            "{e}"
        );
    }

    /// `input_validator_args:` of the problem apply to every group (and the
    /// samples) but those giving their own; with no validator to get them
    /// they are refused, naming where they were given.
    #[test]
    fn input_validator_args_by_group() {
        let tmp = tempfile::tempdir().expect("tmp");
        let spec = tmp.path().join("toy/problem.yaml");
        std::fs::create_dir_all(tmp.path().join("toy")).expect("mkdir");
        std::fs::write(tmp.path().join("toy/v.py"), "").expect("write");
        let group = |name: &str, args: &str| {
            format!("  - name: {name}\n{args}    tests:\n      - input: \"1\\n1\\n\"\n")
        };
        let text = format!(
            "id: toy\ntitle: T\ninput_validators: [v.py]\ninput_validator_args: [--max, \"9\"]\ngroups:\n{}{}",
            group("small", "    input_validator_args: [--max, \"3\"]\n"),
            group("large", "")
        );
        let p = parse(&spec, &text).expect("parses");
        let args = &p.input_validator_args;
        assert_eq!(args.for_group("small"), ["--max", "3"]);
        assert_eq!(args.for_group("large"), ["--max", "9"]);
        assert_eq!(args.for_group("sample"), ["--max", "9"]);

        let none = format!(
            "id: toy\ntitle: T\ngroups:\n{}",
            group("small", "    input_validator_args: [-x]\n")
        );
        let e = parse(&spec, &none).expect_err("no validator");
        assert!(
            e.to_string()
                .contains("group `small`: input_validator_args: no program would get them"),
            "{e}"
        );
    }

    #[test]
    fn the_folder_must_be_named_as_the_id() {
        let text = format!("id: toy\ntitle: T\n{ONE_TEST}");
        let e = parse(Path::new("other/problem.yaml"), &text).expect_err("mismatch");
        assert_eq!(
            e.to_string(),
            "other/problem.yaml: id `toy` does not match its folder `other`: rename one of them"
        );
    }

    #[test]
    fn passes_are_refused_without_an_icpc_program_or_out_of_range() {
        let tokens = CheckerSpec::Tokens;
        let e = multi_pass(3, &tokens, None).expect_err("no icpc program");
        assert_eq!(
            e.to_string(),
            "passes: a multi-pass problem needs `checker: {icpc: PROGRAM}` or `interactor: {icpc: PROGRAM}`, the program that writes `nextpass.in`"
        );
        let icpc = CheckerSpec::Icpc {
            program: "v.cpp".into(),
            args: Vec::new(),
        };
        let e = multi_pass(1, &icpc, None).expect_err("one pass");
        assert!(matches!(e, Refusal::Passes { found: 1, .. }));
        assert!(e.to_string().starts_with("passes: at least 2 and at most "));
    }
}
