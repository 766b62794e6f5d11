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
//! problems, `score` (on the whole submission: the package's score, see
//! `scoring::package_score`); the time-limit keys belong to time-limit
//! inference, which grundy does not do (noted).

use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};
use serde_yaml::Value;

use crate::verdict::Verdict;

/// The verdicts the format distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    AC,
    WA,
    TLE,
    RTE,
}

impl Code {
    fn parse(s: &str) -> Option<Code> {
        match s {
            "AC" => Some(Code::AC),
            "WA" => Some(Code::WA),
            "TLE" => Some(Code::TLE),
            "RTE" => Some(Code::RTE),
            _ => None,
        }
    }

    /// grundy's verdict as the format names it: the format has no
    /// presentation error (a wrong answer), and exceeding memory or output
    /// is a run-time error there. Compile and internal errors have no code.
    pub fn of(v: Verdict) -> Option<Code> {
        match v {
            Verdict::AC => Some(Code::AC),
            Verdict::WA | Verdict::PE => Some(Code::WA),
            Verdict::TLE => Some(Code::TLE),
            Verdict::RE | Verdict::MLE | Verdict::OLE => Some(Code::RTE),
            Verdict::CE | Verdict::IE => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Code::AC => "AC",
            Code::WA => "WA",
            Code::TLE => "TLE",
            Code::RTE => "RTE",
        }
    }
}

/// A requirement on a scoring problem's submission score, in the
/// package's units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ScoreNeed {
    /// Within `[lo, hi]` (`score: 40` is `[40, 40]`).
    Range(f64, f64),
    /// `partially_accepted/`: more than nothing, less than the maximum.
    Partial,
}

impl ScoreNeed {
    /// Whether `score` (of at most `max`) meets it; `Err` says how not.
    pub fn check(self, score: f64, max: f64) -> Result<(), String> {
        let eps = 1e-6 * max.abs().max(1.0);
        let ok = match self {
            ScoreNeed::Range(lo, hi) => score >= lo - eps && score <= hi + eps,
            ScoreNeed::Partial => score > eps && score < max - eps,
        };
        if ok {
            Ok(())
        } else {
            Err(format!(
                "score {} of {}, expected {}",
                short(score),
                short(max),
                self.describe()
            ))
        }
    }

    fn describe(self) -> String {
        match self {
            ScoreNeed::Range(lo, hi) if lo == hi => short(lo),
            ScoreNeed::Range(lo, hi) => format!("{} to {}", short(lo), short(hi)),
            ScoreNeed::Partial => "more than 0 and less than the maximum".into(),
        }
    }
}

fn short(x: f64) -> String {
    let r = (x * 1000.0).round() / 1000.0;
    if r.fract() == 0.0 {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

/// One requirement on a submission's test verdicts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rule {
    pub permitted: Option<Vec<Code>>,
    pub required: Option<Vec<Code>>,
    pub message: Option<String>,
    /// What the submission's score (the package's) must be.
    pub score: Option<ScoreNeed>,
    /// The test data groups it applies to (a glob under `data/`); every
    /// test when `None`.
    pub tests: Option<String>,
}

impl Rule {
    /// The rule in the file's own words, for reports.
    pub fn describe(&self) -> String {
        let codes = |v: &[Code]| v.iter().map(|c| c.name()).collect::<Vec<_>>().join(",");
        let mut parts = Vec::new();
        if let Some(t) = &self.tests {
            parts.push(format!("on {t}:"));
        }
        if let Some(p) = &self.permitted {
            parts.push(format!("permitted [{}]", codes(p)));
        }
        if let Some(r) = &self.required {
            parts.push(format!("required [{}]", codes(r)));
        }
        if let Some(m) = &self.message {
            parts.push(format!("message {m:?}"));
        }
        if let Some(n) = self.score {
            parts.push(format!("score {}", n.describe()));
        }
        parts.join(" ")
    }

    /// Whether the rule covers the test at `path` (relative to `data/`,
    /// without `.in`): the test or a group above it matches.
    fn covers(&self, path: &str) -> bool {
        match &self.tests {
            None => true,
            Some(glob) => matcher(glob).is_some_and(|m| matches_or_parent(&m, path)),
        }
    }

    /// Checks the rule against the tests' (path, verdict, message) and,
    /// for a scoring problem, the submission's (score, maximum) in the
    /// package's units; `Err` says what broke it.
    pub fn check(
        &self,
        tests: &[(String, Verdict, String)],
        score: Option<(f64, f64)>,
    ) -> Result<(), String> {
        if let Some(need) = self.score {
            match score {
                Some((got, max)) => need.check(got, max)?,
                None => return Err("a score is expected, but the problem is not scored".into()),
            }
        }
        let mine: Vec<&(String, Verdict, String)> =
            tests.iter().filter(|(p, _, _)| self.covers(p)).collect();
        if let Some(permitted) = &self.permitted {
            for (path, v, _) in &mine {
                if !Code::of(*v).is_some_and(|c| permitted.contains(&c)) {
                    return Err(format!("{} on {path}, not permitted", v.code()));
                }
            }
        }
        if let Some(required) = &self.required
            && !mine
                .iter()
                .any(|(_, v, _)| Code::of(*v).is_some_and(|c| required.contains(&c)))
        {
            return Err("no test got a required verdict".into());
        }
        if let Some(m) = &self.message
            && !mine.iter().any(|(_, _, said)| said.contains(m.as_str()))
        {
            return Err(format!("no judge message contains {m:?}"));
        }
        Ok(())
    }
}

/// The folders the format gives default rules, and those rules.
fn default_rule(folder: &str) -> Option<Rule> {
    use Code::*;
    let (permitted, required): (Option<&[Code]>, Option<&[Code]>) = match folder {
        "accepted" => (Some(&[AC]), None),
        "rejected" => (None, Some(&[RTE, TLE, WA])),
        "wrong_answer" => (Some(&[AC, WA]), Some(&[WA])),
        "time_limit_exceeded" => (Some(&[AC, TLE]), Some(&[TLE])),
        "run_time_error" => (Some(&[AC, RTE]), Some(&[RTE])),
        "brute_force" => (Some(&[AC, RTE, TLE]), Some(&[RTE, TLE])),
        // Scoring problems (legacy and problemtools): some score, not all.
        "partially_accepted" => {
            return Some(Rule {
                score: Some(ScoreNeed::Partial),
                ..Rule::default()
            });
        }
        _ => return None,
    };
    Some(Rule {
        permitted: permitted.map(<[Code]>::to_vec),
        required: required.map(<[Code]>::to_vec),
        ..Rule::default()
    })
}

/// Keys of a submission entry that describe it without constraining its
/// verdicts: read, not used.
const DESCRIPTIVE: [&str; 4] = ["authors", "author", "model_solution", "use_for_time_limit"];

/// How `submissions.yaml` says a submission is built (2025-09): its
/// language, which overrides detection, and its entry point.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Build {
    /// grundy's language id (`cpp`, `python`, …), mapped from the format's.
    pub language: Option<String>,
    /// The format's id when grundy has no such language (`kotlin`).
    pub foreign: Option<String>,
    pub entrypoint: Option<String>,
}

/// The format's language ids grundy has, as grundy names them.
fn language_id(format: &str) -> Option<&'static str> {
    match format.to_ascii_lowercase().as_str() {
        "c" => Some("c"),
        "cpp" | "c++" => Some("cpp"),
        "java" => Some("java"),
        "python" | "python3" => Some("python"),
        "rust" => Some("rust"),
        _ => None,
    }
}

/// A parsed `submissions.yaml`.
#[derive(Debug, Default)]
pub struct Expectations {
    /// (glob, rules) in file order; bare default-folder names excluded.
    globs: Vec<(String, Vec<Rule>)>,
    /// (glob, how to build it) for globs that say a `language` or an
    /// `entrypoint`, in file order (a later match overrides).
    builds: Vec<(String, Build)>,
    /// Default folders whose rules the file replaces (key by key).
    overrides: Vec<(String, Rule)>,
}

/// Reads `submissions/submissions.yaml` of the package in `dir`: `None`
/// when there is none. Notes go to `notes`; a malformed file is an error
/// naming it.
pub fn load(dir: &Path, notes: &mut Vec<String>) -> Result<Option<Expectations>, String> {
    let path = dir.join("submissions").join("submissions.yaml");
    let Ok(text) = crate::spec::file::read_text(&path) else {
        // A scoring problem's folders are checked by the format's rules
        // (`partially_accepted/` is a score, not a verdict).
        return Ok(super::scoring::dir_is_scoring(dir).then(Expectations::default));
    };
    parse(&text, notes).map(Some)
}

fn parse(text: &str, notes: &mut Vec<String>) -> Result<Expectations, String> {
    let value: Value = serde_yaml::from_str(text).map_err(|e| e.to_string())?;
    let mut out = Expectations::default();
    let map = match value {
        Value::Null => return Ok(out),
        Value::Mapping(m) => m,
        _ => return Err("expected a map from submission globs to their rules".into()),
    };
    for (key, body) in map {
        let glob = key
            .as_str()
            .ok_or_else(|| "a key is not a string".to_string())?
            .trim_end_matches('/')
            .to_string();
        if matcher(&glob).is_none() {
            return Err(format!("`{glob}` is not a glob pattern grundy reads"));
        }
        let Value::Mapping(body) = body else {
            return Err(format!("`{glob}`: expected a map of rules"));
        };
        let (own, scoped) = rules_of(&glob, &body, notes)?;
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
        if default_rule(&glob).is_some() {
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
) -> Result<(Rule, Vec<Rule>), String> {
    let mut own = Rule::default();
    let mut scoped = Vec::new();
    for (k, v) in body {
        let k = k
            .as_str()
            .ok_or_else(|| format!("`{glob}`: a key is not a string"))?;
        match k {
            "permitted" => own.permitted = Some(codes(glob, k, v)?),
            "required" => own.required = Some(codes(glob, k, v)?),
            "message" => {
                own.message = Some(
                    v.as_str()
                        .ok_or_else(|| format!("`{glob}`: `message` must be a string"))?
                        .to_string(),
                );
            }
            "score" => own.score = Some(score_need(glob, v)?),
            "language" | "entrypoint" => {}
            _ if DESCRIPTIVE.contains(&k) => {}
            group => {
                let Value::Mapping(inner) = v else {
                    return Err(format!(
                        "`{glob}`: `{group}` is neither a known key nor a test group with rules"
                    ));
                };
                if matcher(group).is_none() {
                    return Err(format!("`{glob}`: `{group}` is not a glob pattern"));
                }
                let (mut rule, deeper) = rules_of(glob, inner, notes)?;
                if !deeper.is_empty() {
                    return Err(format!(
                        "`{glob}`: `{group}`: test groups nest one level only"
                    ));
                }
                if rule.score.take().is_some() {
                    notes.push(format!(
                        "submissions.yaml: `{glob}`: `{group}`: a group's `score` not checked (grundy checks the submission's)"
                    ));
                }
                rule.tests = Some(group.trim_end_matches('/').to_string());
                scoped.push(rule);
            }
        }
    }
    Ok((own, scoped))
}

/// `score: 40` or `score: [20, 60]`.
fn score_need(glob: &str, v: &Value) -> Result<ScoreNeed, String> {
    let bad = || format!("`{glob}`: `score` must be a number or a list of two numbers");
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

fn codes(glob: &str, key: &str, v: &Value) -> Result<Vec<Code>, String> {
    let words: Vec<&str> = match v {
        Value::String(s) => vec![s.as_str()],
        Value::Sequence(items) => items.iter().filter_map(Value::as_str).collect(),
        _ => return Err(format!("`{glob}`: `{key}` must be a list of verdicts")),
    };
    words
        .into_iter()
        .map(|w| {
            Code::parse(w)
                .ok_or_else(|| format!("`{glob}`: `{key}`: `{w}` is not one of AC, WA, TLE, RTE"))
        })
        .collect()
}

impl Expectations {
    /// How the submission at `rel` (relative to `submissions/`) is built,
    /// when the file says.
    pub fn build_for(&self, rel: &str) -> Option<Build> {
        self.builds
            .iter()
            .rev()
            .find(|(glob, _)| matcher(glob).is_some_and(|m| matches_or_parent(&m, rel)))
            .map(|(_, b)| b.clone())
    }

    /// The rules for the submission at `rel` (relative to `submissions/`):
    /// its folder's defaults (as the file may replace them) and every glob
    /// matching it or a folder above it. Empty: no expectation at all.
    pub fn rules_for(&self, rel: &str) -> Vec<Rule> {
        let folder = rel.split('/').next().unwrap_or("");
        let mut rules = Vec::new();
        if let Some(mut base) = default_rule(folder) {
            if let Some((_, o)) = self.overrides.iter().find(|(f, _)| f == folder) {
                if o.permitted.is_some() {
                    base.permitted.clone_from(&o.permitted);
                }
                if o.required.is_some() {
                    base.required.clone_from(&o.required);
                }
                if o.message.is_some() {
                    base.message.clone_from(&o.message);
                }
                if o.score.is_some() {
                    base.score = o.score;
                }
            }
            rules.push(base);
        }
        for (glob, these) in &self.globs {
            if matcher(glob).is_some_and(|m| matches_or_parent(&m, rel)) {
                rules.extend(
                    these
                        .iter()
                        .filter(|r| {
                            r.permitted.is_some()
                                || r.required.is_some()
                                || r.message.is_some()
                                || r.score.is_some()
                        })
                        .cloned(),
                );
            }
        }
        rules
    }
}

/// `*` stays within one path component; `{a,b}` alternatives are allowed,
/// as the format says.
fn matcher(glob: &str) -> Option<GlobMatcher> {
    // Spaces inside `{…}` are not part of the alternatives (BAPCtools'
    // own tests write `{ 4 }`).
    let mut clean = String::with_capacity(glob.len());
    let mut depth = 0usize;
    for c in glob.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ' ' if depth > 0 => continue,
            _ => {}
        }
        clean.push(c);
    }
    GlobBuilder::new(&clean)
        .literal_separator(true)
        .build()
        .ok()
        .map(|g| g.compile_matcher())
}

fn matches_or_parent(m: &GlobMatcher, path: &str) -> bool {
    let mut prefix = String::new();
    for (i, part) in path.split('/').enumerate() {
        if i > 0 {
            prefix.push('/');
        }
        prefix.push_str(part);
        if m.is_match(&prefix) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn grundy_verdicts_map_onto_the_formats() {
        assert_eq!(Code::of(Verdict::PE), Some(Code::WA));
        assert_eq!(Code::of(Verdict::MLE), Some(Code::RTE));
        assert_eq!(Code::of(Verdict::CE), None);
    }
}
