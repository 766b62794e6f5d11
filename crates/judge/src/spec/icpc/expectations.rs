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

/// How a submission's results break a rule of `submissions.yaml`.
#[derive(Debug, thiserror::Error)]
pub enum Broken {
    #[error("score {} of {}, expected {}", short(*score), short(*max), need.describe())]
    Score {
        score: f64,
        max: f64,
        need: ScoreNeed,
    },
    /// A rule under a test group key: the group, then how it broke.
    #[error("{group}: {broken}")]
    InGroup { group: String, broken: Box<Broken> },
    #[error("no scored test data group matches `{0}`")]
    NoScoredGroup(String),
    #[error("a score is expected, but the problem is not scored")]
    NotScored,
    #[error("{code} on {path}, not permitted")]
    NotPermitted { code: &'static str, path: String },
    #[error("no test got a required verdict")]
    NoRequired,
    #[error("no judge message contains {0:?}")]
    NoMessage(String),
}

impl ScoreNeed {
    /// Whether `score` (of at most `max`) meets it; `Err` says how not.
    pub fn check(self, score: f64, max: f64) -> Result<(), Broken> {
        let eps = 1e-6 * max.abs().max(1.0);
        let ok = match self {
            ScoreNeed::Range(lo, hi) => score >= lo - eps && score <= hi + eps,
            ScoreNeed::Partial => score > eps && score < max - eps,
        };
        if ok {
            Ok(())
        } else {
            Err(Broken::Score {
                score,
                max,
                need: self,
            })
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

/// `use_for_time_limit`: how a rule's runs take part in deriving the time
/// limit, when the file says so instead of leaving it to the rule's
/// verdicts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeUse {
    /// `false`: its runs bound nothing.
    Off,
    /// `lower`: its slowest run × `ac_to_time_limit` bounds the limit from
    /// below (and it may not time out: permitted AC, WA, RTE).
    Lower,
    /// `upper`: its slowest run ÷ `time_limit_to_tle` bounds the limit from
    /// above (and it must time out somewhere: required TLE).
    Upper,
}

/// Where a rule comes from, so that a report can say which part of the
/// package asked for it.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Origin {
    /// The default rule the format gives a verdict folder (`accepted/`).
    Folder(String),
    /// A folder's default rule with keys replaced by `submissions.yaml`'s
    /// bare folder key.
    Replaced(String),
    /// A glob of `submissions.yaml` (and the test group key under it).
    Glob(String),
    /// Made in code (unit tests).
    #[default]
    Unknown,
}

impl Origin {
    /// Said after "per": `accepted/ (the format's default)`,
    /// `submissions.yaml `accepted/b.cpp``.
    pub fn describe(&self) -> String {
        match self {
            Origin::Folder(f) => format!("{f}/ (the format's default)"),
            Origin::Replaced(f) => {
                format!("{f}/ (the format's default with submissions.yaml's `{f}` keys)")
            }
            Origin::Glob(g) => format!("submissions.yaml `{g}`"),
            Origin::Unknown => "submissions.yaml".into(),
        }
    }
}

/// A scoring submission's (score, maximum) in the package's units: of the
/// whole submission (`None`), or of the test data group(s) a glob names;
/// `None` when nothing scored matches.
pub type ScoreOf<'a> = dyn Fn(Option<&str>) -> Option<(f64, f64)> + 'a;

/// One requirement on a submission's test verdicts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rule {
    pub permitted: Option<Vec<Code>>,
    pub required: Option<Vec<Code>>,
    pub message: Option<String>,
    /// What the submission's score (the package's) must be: of the whole
    /// submission, or under a test group key of that group's tests.
    pub score: Option<ScoreNeed>,
    /// The test data groups it applies to (a glob under `data/`); every
    /// test when `None`.
    pub tests: Option<String>,
    /// `use_for_time_limit`, when stated.
    pub time_use: Option<TimeUse>,
    pub origin: Origin,
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
        match self.time_use {
            Some(TimeUse::Off) => parts.push("use_for_time_limit false".into()),
            Some(TimeUse::Lower) => parts.push("use_for_time_limit lower".into()),
            Some(TimeUse::Upper) => parts.push("use_for_time_limit upper".into()),
            None => {}
        }
        parts.join(" ")
    }

    /// The rule with where it comes from, for reports:
    /// `accepted/ (the format's default): permitted [AC]`.
    pub fn describe_with_origin(&self) -> String {
        format!("{}: {}", self.origin.describe(), self.describe())
    }

    /// Whether its runs bound the time limit from below, as the format's
    /// "Timelimit inference" says: a rule that does not permit `TLE`, or
    /// says `use_for_time_limit: lower`; never with `false`.
    pub fn bounds_from_below(&self) -> bool {
        match self.time_use {
            Some(TimeUse::Lower) => true,
            Some(_) => false,
            None => self
                .permitted
                .as_ref()
                .is_some_and(|p| !p.contains(&Code::TLE)),
        }
    }

    /// Whether its runs bound the time limit from above: a rule requiring
    /// exactly `TLE` (not `[TLE, RTE]`), or `use_for_time_limit: upper`.
    pub fn bounds_from_above(&self) -> bool {
        match self.time_use {
            Some(TimeUse::Upper) => true,
            Some(_) => false,
            None => self.required.as_deref() == Some(&[Code::TLE]),
        }
    }

    /// Whether the rule takes its runs out of the time-limit derivation.
    pub fn opts_out_of_time_limit(&self) -> bool {
        self.time_use == Some(TimeUse::Off)
    }

    /// Whether the rule covers the test at `path` (relative to `data/`,
    /// without `.in`): the test or a group above it matches.
    pub fn covers(&self, path: &str) -> bool {
        match &self.tests {
            None => true,
            Some(glob) => matcher(glob).is_some_and(|m| matches_or_parent(&m, path)),
        }
    }

    /// Checks the rule against the tests' (path, verdict, message) and,
    /// for a scoring problem, a score: `score(None)` is the submission's
    /// (score, maximum) in the package's units, `score(Some(glob))` that
    /// of the test data group(s) the glob names. `Err` says what broke it.
    pub fn check(
        &self,
        tests: &[(String, Verdict, String)],
        score: Option<&ScoreOf>,
    ) -> Result<(), Broken> {
        if let Some(need) = self.score {
            let of = score.and_then(|f| f(self.tests.as_deref()));
            match (of, score) {
                (Some((got, max)), _) => need.check(got, max).map_err(|why| match &self.tests {
                    Some(g) => Broken::InGroup {
                        group: g.clone(),
                        broken: Box::new(why),
                    },
                    None => why,
                })?,
                (None, Some(_)) => {
                    return Err(Broken::NoScoredGroup(
                        self.tests.as_deref().unwrap_or("").to_string(),
                    ));
                }
                (None, None) => {
                    return Err(Broken::NotScored);
                }
            }
        }
        let mine: Vec<&(String, Verdict, String)> =
            tests.iter().filter(|(p, _, _)| self.covers(p)).collect();
        if let Some(permitted) = &self.permitted {
            for (path, v, _) in &mine {
                if !Code::of(*v).is_some_and(|c| permitted.contains(&c)) {
                    return Err(Broken::NotPermitted {
                        code: v.code(),
                        path: path.clone(),
                    });
                }
            }
        }
        if let Some(required) = &self.required
            && !mine
                .iter()
                .any(|(_, v, _)| Code::of(*v).is_some_and(|c| required.contains(&c)))
        {
            return Err(Broken::NoRequired);
        }
        if let Some(m) = &self.message
            && !mine.iter().any(|(_, _, said)| said.contains(m.as_str()))
        {
            return Err(Broken::NoMessage(m.clone()));
        }
        Ok(())
    }
}

/// Whether a submission with `rules` has its run on the test at `path`
/// (under `data/`, without `.in`) bound the time limit, from below or
/// (`above`) from above: some rule of that kind covers the test, and no
/// rule covering it says `use_for_time_limit: false`. grundy's reading of
/// the opt-out: any rule stating it takes the tests it covers out, the
/// folder's default rule included, so that `accepted/slow.py:
/// {use_for_time_limit: false}` does what it says.
pub fn bounds_time_limit(rules: &[Rule], path: &str, above: bool) -> bool {
    let kind = |r: &Rule| {
        if above {
            r.bounds_from_above()
        } else {
            r.bounds_from_below()
        }
    };
    rules.iter().any(|r| kind(r) && r.covers(path))
        && !rules
            .iter()
            .any(|r| r.opts_out_of_time_limit() && r.covers(path))
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
const DESCRIPTIVE: [&str; 3] = ["authors", "author", "model_solution"];

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
pub fn load(
    dir: &Path,
    notes: &mut Vec<String>,
) -> Result<Option<Expectations>, ExpectationsError> {
    let path = dir.join("submissions").join("submissions.yaml");
    let Ok(text) = crate::spec::file::read_text(&path) else {
        // A scoring problem's folders are checked by the format's rules
        // (`partially_accepted/` is a score, not a verdict).
        return Ok(super::scoring::dir_is_scoring(dir).then(Expectations::default));
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
            base.origin = Origin::Folder(folder.to_string());
            if let Some((_, o)) = self.overrides.iter().find(|(f, _)| f == folder) {
                base.origin.clone_from(&o.origin);
                if o.time_use.is_some() {
                    base.time_use = o.time_use;
                }
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
                                || r.time_use.is_some()
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
