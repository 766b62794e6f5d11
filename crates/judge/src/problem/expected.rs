//! What each known submission of a problem must get, per test, in place
//! of its folder's single verdict: the rules a package's
//! `submissions/submissions.yaml` states (its "Example submissions"), or
//! the defaults its verdict folders carry. The loader reads them once
//! (into [`crate::problem::PackageFacts`]); `verify` checks submissions
//! against them and the time-limit derivation picks its runs with them.
//!
//! Every glob is over paths under `submissions/` (a submission is matched
//! when it or a folder above it is); its `permitted` verdicts are the only
//! ones any test may get, at least one test must get one of its
//! `required`, and its `message` must appear in some test's judge message.
//! A rule scoped to a test data group (a glob over paths under `data/`)
//! applies to those tests only. For scoring problems, `score` is checked on
//! the whole submission or on a test data group (the package's score, see
//! `problem::package_score`). `use_for_time_limit` and the rules themselves
//! say which runs bound the time limit (the format's "Timelimit
//! inference"; see [`Rule::bounds_from_below`]).

use globset::{GlobBuilder, GlobMatcher};

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
    pub(in crate::problem) fn parse(s: &str) -> Option<Code> {
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
pub(in crate::problem) fn default_rule(folder: &str) -> Option<Rule> {
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

/// A parsed `submissions.yaml`.
#[derive(Debug, Clone, Default)]
pub struct Expectations {
    /// (glob, rules) in file order; bare default-folder names excluded.
    pub(in crate::problem) globs: Vec<(String, Vec<Rule>)>,
    /// (glob, how to build it) for globs that say a `language` or an
    /// `entrypoint`, in file order (a later match overrides).
    pub(in crate::problem) builds: Vec<(String, Build)>,
    /// Default folders whose rules the file replaces (key by key).
    pub(in crate::problem) overrides: Vec<(String, Rule)>,
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
pub(in crate::problem) fn matcher(glob: &str) -> Option<GlobMatcher> {
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
