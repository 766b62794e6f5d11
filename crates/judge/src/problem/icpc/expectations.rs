//! `submissions/submissions.yaml` (2023-07 and 2025-09): what each known
//! submission must get, per test, in place of its folder's single verdict.
//!
//! The format's rules, as its "Example submissions" section states them:
//! every key is a glob over paths under `submissions/` (a submission is
//! matched when it or a folder above it is); its `permitted` verdicts are
//! the only ones any test may get, at least one test must get one of its
//! `required`, and its `message` must appear in some test's judge message.
//! A key under a glob that is not one of these names a test data group
//! (a glob over paths under `data/`), and the rules below it apply to those
//! tests only. The verdict folders carry default rules; a key that is a
//! folder's bare name replaces them key by key, any other key adds rules.
//! grundy checks `permitted`, `required`, `message` and, for scoring
//! problems, `score` (on the whole submission or on a test data group: the
//! package's score, see `scoring::package_score`). `use_for_time_limit`
//! and the rules themselves say which runs bound the time limit (the
//! format's "Timelimit inference"; see [`Rule::bounds_from_below`]).

use std::path::Path;

use serde_yaml::Value;

use crate::problem::expected::{
    Build, Code, Expectations, Origin, Rule, ScoreNeed, TimeUse, default_rule, matcher,
};

/// Why `submissions/submissions.yaml` cannot be read as rules; `glob` is
/// the key the rule is under.
#[derive(Debug, thiserror::Error)]
pub enum ExpectationsError {
    /// Not YAML (serde's message says where).
    #[error(transparent)]
    Yaml(serde_yaml::Error),
    /// Too large or too deeply nested to be read (the message says where).
    #[error(transparent)]
    Located(crate::yaml::YamlError),
    #[error("expected a map from submission globs to their rules")]
    NotAMap,
    #[error("a key is not a string")]
    KeyNotAString,
    #[error("`{0}` is not a glob pattern grundy reads")]
    NotAGlob(String),
    #[error("`{0}`: expected a map of rules")]
    RulesNotAMap(String),
    #[error("`{0}`: a key is not a string")]
    RuleKeyNotAString(String),
    #[error("`{0}`: `message` must be a string")]
    MessageNotAString(String),
    #[error("`{glob}`: `{group}` is neither a known key nor a test group with rules")]
    UnknownKey { glob: String, group: String },
    #[error("`{glob}`: `{group}` is not a glob pattern")]
    GroupNotAGlob { glob: String, group: String },
    #[error("`{glob}`: `{group}`: test groups nest one level only")]
    Nested { glob: String, group: String },
    #[error("`{0}`: `use_for_time_limit` must be true, false, `lower` or `upper`")]
    TimeUse(String),
    #[error("`{0}`: `score` must be a number or a list of two numbers")]
    Score(String),
    #[error("`{glob}`: `{key}` must be a list of verdicts")]
    CodesNotAList { glob: String, key: String },
    #[error("`{glob}`: `{key}`: `{word}` is not one of AC, WA, TLE, RTE")]
    Code {
        glob: String,
        key: String,
        word: String,
    },
}

/// Keys of a submission entry that describe it without constraining its
/// verdicts: read, not used.
const DESCRIPTIVE: [&str; 3] = ["authors", "author", "model_solution"];

/// The format's language ids grundy has, as grundy names them.
fn language_id(format: &str) -> Option<&'static str> {
    match format.to_ascii_lowercase().as_str() {
        "c" => Some("c"),
        "cpp" | "c++" => Some("cpp"),
        "java" => Some("java"),
        "python" | "python3" => Some("python"),
        "python2" => Some("python2"),
        "bash" | "sh" => Some("bash"),
        "rust" => Some("rust"),
        _ => None,
    }
}

/// Reads `submissions/submissions.yaml` of the package in `dir` (a
/// `scoring` problem or not): `None` when there is none. Notes go to
/// `notes`; a malformed file is an error naming it.
pub fn load(
    dir: &Path,
    scoring: bool,
    notes: &mut Vec<String>,
) -> Result<Option<Expectations>, ExpectationsError> {
    let path = dir.join("submissions").join("submissions.yaml");
    let Ok(text) = crate::problem::file::read_text(&path) else {
        // A scoring problem's folders are checked by the format's rules
        // (`partially_accepted/` is a score, not a verdict).
        return Ok(scoring.then(Expectations::default));
    };
    crate::yaml::check(&path, &text).map_err(ExpectationsError::Located)?;
    parse(&text, notes).map(Some)
}

fn parse(text: &str, notes: &mut Vec<String>) -> Result<Expectations, ExpectationsError> {
    let value: Value = serde_yaml::from_str(text).map_err(ExpectationsError::Yaml)?;
    let mut out = Expectations::default();
    let map = match value {
        Value::Null => return Ok(out),
        Value::Mapping(m) => m,
        _ => return Err(ExpectationsError::NotAMap),
    };
    for (key, body) in map {
        let glob = key
            .as_str()
            .ok_or(ExpectationsError::KeyNotAString)?
            .trim_end_matches('/')
            .to_string();
        if matcher(&glob).is_none() {
            return Err(ExpectationsError::NotAGlob(glob));
        }
        let Value::Mapping(body) = body else {
            return Err(ExpectationsError::RulesNotAMap(glob));
        };
        let (mut own, mut scoped) = rules_of(&glob, &body, notes)?;
        let is_folder = default_rule(&glob).is_some();
        own.origin = if is_folder {
            Origin::Replaced(glob.clone())
        } else {
            Origin::Glob(glob.clone())
        };
        // A test group's rule says its group itself (`on secret/big:`).
        for r in &mut scoped {
            r.origin = Origin::Glob(glob.clone());
        }
        let text = |k: &str| body.get(k).and_then(Value::as_str).map(String::from);
        let (language, entrypoint) = (text("language"), text("entrypoint"));
        if language.is_some() || entrypoint.is_some() {
            let mapped = language.as_deref().and_then(language_id).map(String::from);
            out.builds.push((
                glob.clone(),
                Build {
                    foreign: language.filter(|_| mapped.is_none()),
                    language: mapped,
                    entrypoint,
                },
            ));
        }
        if is_folder {
            out.overrides.push((glob.clone(), own));
            out.globs.push((glob, scoped));
        } else {
            let mut rules = vec![own];
            rules.extend(scoped);
            out.globs.push((glob, rules));
        }
    }
    Ok(out)
}

/// The rule a map states for every test, and the rules under its test
/// group keys.
fn rules_of(
    glob: &str,
    body: &serde_yaml::Mapping,
    notes: &mut Vec<String>,
) -> Result<(Rule, Vec<Rule>), ExpectationsError> {
    let mut own = Rule::default();
    let mut scoped = Vec::new();
    for (k, v) in body {
        let k = k
            .as_str()
            .ok_or_else(|| ExpectationsError::RuleKeyNotAString(glob.to_string()))?;
        match k {
            "permitted" => own.permitted = Some(codes(glob, k, v)?),
            "required" => own.required = Some(codes(glob, k, v)?),
            "message" => {
                own.message = Some(
                    v.as_str()
                        .ok_or_else(|| ExpectationsError::MessageNotAString(glob.to_string()))?
                        .to_string(),
                );
            }
            "score" => own.score = Some(score_need(glob, v)?),
            "use_for_time_limit" => own.time_use = time_use(glob, v)?,
            "language" | "entrypoint" => {}
            _ if DESCRIPTIVE.contains(&k) => {}
            group => {
                let Value::Mapping(inner) = v else {
                    return Err(ExpectationsError::UnknownKey {
                        glob: glob.to_string(),
                        group: group.to_string(),
                    });
                };
                if matcher(group).is_none() {
                    return Err(ExpectationsError::GroupNotAGlob {
                        glob: glob.to_string(),
                        group: group.to_string(),
                    });
                }
                let (mut rule, deeper) = rules_of(glob, inner, notes)?;
                if !deeper.is_empty() {
                    return Err(ExpectationsError::Nested {
                        glob: glob.to_string(),
                        group: group.to_string(),
                    });
                }
                rule.tests = Some(group.trim_end_matches('/').to_string());
                scoped.push(rule);
            }
        }
    }
    // `lower` and `upper` are verdict rules too, unless stated otherwise;
    // stated otherwise in a way that contradicts them, the format calls
    // it an error: said, and `use_for_time_limit` decides the bound.
    match own.time_use {
        Some(TimeUse::Lower) => match &own.permitted {
            None => own.permitted = Some(vec![Code::AC, Code::WA, Code::RTE]),
            Some(p) if p.contains(&Code::TLE) => notes.push(format!(
                "submissions.yaml: `{glob}`: `use_for_time_limit: lower` with TLE permitted: inconsistent, as the format says; its runs bound the time limit from below"
            )),
            Some(_) => {}
        },
        Some(TimeUse::Upper) => match &own.required {
            None => own.required = Some(vec![Code::TLE]),
            Some(r) if r.as_slice() != [Code::TLE] => notes.push(format!(
                "submissions.yaml: `{glob}`: `use_for_time_limit: upper` without `required: [TLE]`: inconsistent, as the format says; its runs bound the time limit from above"
            )),
            Some(_) => {}
        },
        _ => {}
    }
    Ok((own, scoped))
}

/// `use_for_time_limit: false | true | lower | upper`; `true` is the
/// default (the rule's verdicts decide), so it states nothing. `lower` and
/// `upper` also constrain the verdicts, as the format says:
/// `permitted: [AC, WA, RTE]` and `required: [TLE]`.
fn time_use(glob: &str, v: &Value) -> Result<Option<TimeUse>, ExpectationsError> {
    match v {
        Value::Bool(true) => Ok(None),
        Value::Bool(false) => Ok(Some(TimeUse::Off)),
        Value::String(s) if s == "lower" => Ok(Some(TimeUse::Lower)),
        Value::String(s) if s == "upper" => Ok(Some(TimeUse::Upper)),
        _ => Err(ExpectationsError::TimeUse(glob.to_string())),
    }
}

/// `score: 40` or `score: [20, 60]`.
fn score_need(glob: &str, v: &Value) -> Result<ScoreNeed, ExpectationsError> {
    let bad = || ExpectationsError::Score(glob.to_string());
    match v {
        Value::Number(n) => n.as_f64().map(|x| ScoreNeed::Range(x, x)).ok_or_else(bad),
        Value::Sequence(items) => match items.as_slice() {
            [lo, hi] => match (lo.as_f64(), hi.as_f64()) {
                (Some(lo), Some(hi)) if lo <= hi => Ok(ScoreNeed::Range(lo, hi)),
                _ => Err(bad()),
            },
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}

fn codes(glob: &str, key: &str, v: &Value) -> Result<Vec<Code>, ExpectationsError> {
    let words: Vec<&str> = match v {
        Value::String(s) => vec![s.as_str()],
        Value::Sequence(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => {
            return Err(ExpectationsError::CodesNotAList {
                glob: glob.to_string(),
                key: key.to_string(),
            });
        }
    };
    words
        .into_iter()
        .map(|w| {
            Code::parse(w).ok_or_else(|| ExpectationsError::Code {
                glob: glob.to_string(),
                key: key.to_string(),
                word: w.to_string(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::expected::*;
    use crate::verdict::Verdict;

    fn t(path: &str, v: Verdict) -> (String, Verdict, String) {
        (path.to_string(), v, String::new())
    }

    #[test]
    fn folder_defaults_globs_and_overrides() {
        let mut notes = Vec::new();
        let e = parse(
            "wrong_answer:\n  permitted: [AC, WA, TLE]\nslow_accepted/*.py:\n  permitted: [AC, TLE]\n  language: python3\n\"{accepted,rejected}/b.cpp\":\n  message: too big\n",
            &mut notes,
        )
        .expect("parse");
        // `language` is understood now, and `message` is not a verdict rule.
        assert!(notes.is_empty(), "{notes:?}");
        let build = e.build_for("slow_accepted/s.py").expect("a build");
        assert_eq!(build.language.as_deref(), Some("python"));
        // The override keeps the default `required: [WA]`.
        let wa = e.rules_for("wrong_answer/x.py");
        assert_eq!(wa.len(), 1);
        assert_eq!(wa[0].permitted, Some(vec![Code::AC, Code::WA, Code::TLE]));
        assert_eq!(wa[0].required, Some(vec![Code::WA]));
        assert!(
            wa[0]
                .check(
                    &[t("secret/1", Verdict::TLE), t("secret/2", Verdict::WA)],
                    None
                )
                .is_ok()
        );
        assert!(wa[0].check(&[t("secret/1", Verdict::TLE)], None).is_err());
        // A folder without defaults is checked once a glob names it.
        assert_eq!(e.rules_for("slow_accepted/s.py").len(), 1);
        assert!(e.rules_for("slow_accepted/s.cpp").is_empty());
        // Braces, and a folder submission matched through its parent.
        let b = e.rules_for("accepted/b.cpp");
        assert_eq!(b.len(), 2);
        assert!(b[1].check(&[t("s", Verdict::AC)], None).is_err());
        assert_eq!(e.rules_for("accepted/dir").len(), 1);
    }

    #[test]
    fn test_group_rules_apply_to_their_tests_only() {
        let mut notes = Vec::new();
        let e = parse(
            "time_limit_exceeded/easy_only.py:\n  sample:\n    permitted: [AC]\n  secret/*-hard:\n    permitted: [AC, TLE]\n    required: [TLE]\n",
            &mut notes,
        )
        .expect("parse");
        let rules = e.rules_for("time_limit_exceeded/easy_only.py");
        assert_eq!(rules.len(), 3, "{rules:?}");
        let tests = [
            t("sample/1", Verdict::AC),
            t("secret/a-easy/1", Verdict::AC),
            t("secret/b-hard/1", Verdict::TLE),
        ];
        assert!(rules.iter().all(|r| r.check(&tests, None).is_ok()));
        let bad = [
            t("sample/1", Verdict::TLE),
            t("secret/b-hard/1", Verdict::TLE),
        ];
        assert!(rules.iter().any(|r| r.check(&bad, None).is_err()));
        assert!(parse("a.py:\n  permitted: [OK]\n", &mut notes).is_err());
    }

    #[test]
    fn time_limit_bounds_follow_the_rules_and_use_for_time_limit() {
        let mut notes = Vec::new();
        let e = parse(
            "wrong_answer/quick.py:\n  use_for_time_limit: false\nrejected/slow.py:\n  use_for_time_limit: lower\nrejected/spin.py:\n  use_for_time_limit: upper\ntime_limit_exceeded:\n  use_for_time_limit: false\naccepted/x.py:\n  secret/big:\n    use_for_time_limit: false\n",
            &mut notes,
        )
        .expect("parse");
        assert!(notes.is_empty(), "{notes:?}");
        let rules = |rel: &str| e.rules_for(rel);
        // The folder defaults: accepted/ and wrong_answer/ bound from below.
        assert!(rules("accepted/a.py").iter().any(Rule::bounds_from_below));
        assert!(
            rules("wrong_answer/b.py")
                .iter()
                .any(Rule::bounds_from_below)
        );
        assert!(
            !rules("brute_force/b.py")
                .iter()
                .any(Rule::bounds_from_below)
        );
        // Opted out by its own glob.
        assert!(
            rules("wrong_answer/quick.py")
                .iter()
                .any(Rule::opts_out_of_time_limit)
        );
        // `lower` and `upper` are verdict rules as well.
        let slow = rules("rejected/slow.py");
        let lower = slow.iter().find(|r| r.bounds_from_below()).expect("lower");
        assert_eq!(lower.permitted, Some(vec![Code::AC, Code::WA, Code::RTE]));
        assert!(
            rules("rejected/spin.py")
                .iter()
                .any(Rule::bounds_from_above)
        );
        // The default rule of time_limit_exceeded/ is replaced key by key.
        let tle = rules("time_limit_exceeded/t.py");
        assert_eq!(tle.len(), 1);
        assert!(!tle[0].bounds_from_above());
        assert_eq!(tle[0].required, Some(vec![Code::TLE]));
        // A test group's opt-out covers that group's tests only.
        let x = rules("accepted/x.py");
        let off = x.iter().find(|r| r.opts_out_of_time_limit()).expect("off");
        assert!(off.covers("secret/big/1") && !off.covers("secret/small/1"));
        // Each rule says where it comes from.
        assert_eq!(
            rules("accepted/a.py")[0].describe_with_origin(),
            "accepted/ (the format's default): permitted [AC]"
        );
        assert!(
            tle[0]
                .describe_with_origin()
                .starts_with("time_limit_exceeded/ (the format's default with submissions.yaml's `time_limit_exceeded` keys)"),
            "{}",
            tle[0].describe_with_origin()
        );
        assert!(
            slow[1]
                .describe_with_origin()
                .starts_with("submissions.yaml `rejected/slow.py`: ")
        );
        assert!(parse("a.py:\n  use_for_time_limit: sometimes\n", &mut notes).is_err());
    }

    #[test]
    fn a_group_score_is_checked_against_that_groups_score() {
        let mut notes = Vec::new();
        let e = parse(
            "partial.py:\n  score: [30, 60]\n  secret/a:\n    score: 40\n",
            &mut notes,
        )
        .expect("parse");
        let rules = e.rules_for("partial.py");
        let score = |glob: Option<&str>| match glob {
            None => Some((40.0, 100.0)),
            Some("secret/a") => Some((40.0, 40.0)),
            Some(_) => None,
        };
        assert!(rules.iter().all(|r| r.check(&[], Some(&score)).is_ok()));
        let less = |glob: Option<&str>| match glob {
            None => Some((30.0, 100.0)),
            Some(_) => Some((0.0, 40.0)),
        };
        let why = rules
            .iter()
            .find_map(|r| r.check(&[], Some(&less)).err())
            .expect("broken")
            .to_string();
        assert_eq!(why, "secret/a: score 0 of 40, expected 40");
    }

    #[test]
    fn grundy_verdicts_map_onto_the_formats() {
        assert_eq!(Code::of(Verdict::PE), Some(Code::WA));
        assert_eq!(Code::of(Verdict::MLE), Some(Code::RTE));
        assert_eq!(Code::of(Verdict::CE), None);
    }

    #[test]
    fn malformed_rules_and_broken_ones_say_where() {
        let mut notes = Vec::new();
        let e = parse("a.py:\n  permitted: [OK]\n", &mut notes).expect_err("bad code");
        assert_eq!(
            e.to_string(),
            "`a.py`: `permitted`: `OK` is not one of AC, WA, TLE, RTE"
        );
        let e = parse("a.py: [x\n", &mut notes).expect_err("not yaml");
        assert!(matches!(e, ExpectationsError::Yaml(_)), "{e:?}");
        let broken = Broken::InGroup {
            group: "secret/a".into(),
            broken: Box::new(Broken::Score {
                score: 12.0,
                max: 40.0,
                need: ScoreNeed::Range(20.0, 30.5),
            }),
        };
        assert_eq!(
            broken.to_string(),
            "secret/a: score 12 of 40, expected 20 to 30.5"
        );
    }
}
