//! The problem model every input format ends as.
//!
//! Our YAML specs and (later) ICPC problem packages are both loaded into a
//! [`Problem`]; nothing downstream knows which format a problem came from.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The most passes grundy runs on one test of a multi-pass problem: every
/// pass is a full run of the submission, so a typo such as `2000000` must
/// not mean hours. Both problem formats are held to it.
pub const MAX_PASSES: u32 = 1000;

pub use crate::generate::TestSource;
pub use crate::units::Bytes;

/// A problem id such as `nim-winning-move`: lowercase letters, digits and dashes.
/// Results carry it too; in JSON it is the plain string.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ProblemId(pub String);

impl ProblemId {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl PartialEq<str> for ProblemId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ProblemId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

impl PartialEq<String> for ProblemId {
    fn eq(&self, other: &String) -> bool {
        &self.0 == other
    }
}

impl fmt::Display for ProblemId {
    /// Padded as asked (`{:<18}`), so that tables line up.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// The ICPC format's rule for a package that states no time limit: the
/// slowest accepted run times `ac_to_time_limit`, as a multiple of
/// `resolution` seconds (at least one): from 2023-07 the smallest multiple
/// at least that (the format's "rounded up"); in legacy packages the
/// nearest, as problemtools computes the legacy limit
/// (`max(1, int(0.5 + t))` seconds). 2023-07 on: `time_multipliers`,
/// `time_resolution`; legacy: `time_multiplier`, whose default is 5, and
/// `time_safety_margin`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeRule {
    pub ac_to_time_limit: f64,
    pub time_limit_to_tle: f64,
    pub resolution: f64,
    pub rounding: Rounding,
}

/// How a derived time limit becomes a multiple of the resolution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rounding {
    /// The smallest multiple at least the product (2023-07 on).
    Up,
    /// The nearest multiple, halves up (legacy, problemtools' rule).
    Nearest,
}

impl TimeRule {
    /// The time limit for a slowest accepted run of `slowest`.
    pub fn limit(&self, slowest: Duration) -> Duration {
        let exact = slowest.as_secs_f64() * self.ac_to_time_limit / self.resolution;
        let steps = match self.rounding {
            Rounding::Up => exact.ceil(),
            Rounding::Nearest => (exact + 0.5).floor(),
        };
        Duration::from_secs_f64(steps.max(1.0) * self.resolution)
    }
}

/// The resource limits of one test run, before any language multiplier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// CPU time (all threads and children).
    pub time: Duration,
    /// Peak resident memory.
    pub memory: Bytes,
    /// Bytes written to standard output.
    pub output: Bytes,
    /// Whether the language table's time multipliers and memory allowances
    /// apply: yes for our specs; no for an ICPC package, whose limits are
    /// the package's as written (the format has no such allowance).
    pub language_allowance: bool,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(1),
            memory: Bytes::mib(256),
            output: Bytes::mib(64),
            language_allowance: true,
        }
    }
}

/// How a problem decides whether an output is right.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum CheckerSpec {
    /// Whitespace-separated tokens, compared case-sensitively (the default).
    #[default]
    Tokens,
    /// Line by line; differences in whitespace only are `PE`.
    Exact,
    /// Tokens, with numbers equal within an absolute or relative tolerance.
    Float { abs: f64, rel: f64 },
    /// A checker written in Rust for one game (e.g. `nim-winning-move`).
    Game(String),
    /// A testlib-style program: `checker input output answer`.
    Testlib(PathBuf),
    /// An ICPC output validator: `validator input answer feedback_dir < output`.
    Icpc { program: PathBuf, args: Vec<String> },
    /// The default output validator of an ICPC problem package, with the
    /// `validator_flags` of its `problem.yaml`.
    IcpcDefault(IcpcFlags),
}

/// The flags of the ICPC default output validator (`validator_flags`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct IcpcFlags {
    /// `case_sensitive`: tokens compare case-sensitively (default: not).
    pub case_sensitive: bool,
    /// `space_change_sensitive`: whitespace between tokens must be the same.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance` (or `float_tolerance`).
    pub float_abs: Option<f64>,
    /// `float_relative_tolerance` (or `float_tolerance`).
    pub float_rel: Option<f64>,
}

/// The judge's side of an interactive problem, which plays against the
/// submission while it runs instead of checking its output afterwards.
#[derive(Debug, Clone, PartialEq)]
pub enum InteractorSpec {
    /// A game interactor built into grundy (`nim-play`, `misere-nim-play`,
    /// `wythoff-play`): see `games::play`.
    Builtin(String),
    /// An ICPC / Kattis interactor (the output validator of an interactive
    /// package): `interactor input answer feedback_dir/ [args]`, exit 42
    /// accepted, 43 wrong answer, anything else an internal error. The
    /// path is relative to the problem folder, as a checker's.
    Icpc { program: PathBuf, args: Vec<String> },
    /// A testlib interactor (`registerInteraction`): `interactor input
    /// output`, with testlib's exit codes (0 ok, 1 wrong answer,
    /// 2 presentation error, 3 failure).
    Testlib(PathBuf),
    /// The judge plays the problem's described game (`game:` with
    /// `question: play`): see `Problem::game`.
    Described,
}

impl InteractorSpec {
    /// The program a problem supplies as its interactor, if it is one
    /// (relative to the problem folder).
    pub fn program(&self) -> Option<&std::path::Path> {
        match self {
            InteractorSpec::Builtin(_) | InteractorSpec::Described => None,
            InteractorSpec::Icpc { program, .. } | InteractorSpec::Testlib(program) => {
                Some(program)
            }
        }
    }
}

/// A named group of tests worth some points, all-or-nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    pub points: f64,
    pub tests: Vec<TestSource>,
}

/// A sample test: shown in the statement, judged first, worth nothing.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    pub input: String,
    pub output: String,
}

/// A loaded, validated problem.
#[derive(Debug, Clone)]
pub struct Problem {
    pub id: ProblemId,
    pub title: String,
    pub source: String,
    /// The folder holding `problem.yaml`; relative paths in the spec start here.
    pub dir: PathBuf,
    /// The spec file itself, for messages.
    pub spec_path: PathBuf,
    pub statement: Option<PathBuf>,
    pub reference: Option<PathBuf>,
    pub seed: u64,
    pub limits: Limits,
    pub checker: CheckerSpec,
    /// Set for interactive problems; the checker is then unused.
    pub interactor: Option<InteractorSpec>,
    /// Multi-pass problems (an ICPC package's `type: multi-pass`): the most
    /// runs of the submission on one test, each on the input the output
    /// validator wrote for it (`limits.validation_passes`), at most
    /// [`MAX_PASSES`]. `None`: one run.
    pub passes: Option<u32>,
    pub samples: Vec<Sample>,
    pub groups: Vec<Group>,
    /// Input validator programs of the spec (`input_validators:`), paths
    /// under the problem folder: run by `verify` on every test input with
    /// the ICPC exit codes (42 valid). A problem the catalog does not know
    /// has no other way to have its inputs checked.
    pub input_validators: Vec<PathBuf>,
    /// The arguments those programs get, by group (`input_validator_args:`).
    pub input_validator_args: InputValidatorArgs,
    /// A package with no time limit: how to derive one from its accepted
    /// submissions (done when the problem is prepared).
    pub time_rule: Option<TimeRule>,
    /// How far above the time limit a submission known to time out must
    /// still run (an ICPC package's `time_limit_to_tle`, legacy
    /// `time_safety_margin`), whether the package states its limit or not;
    /// `None`: grundy's own margin (`verify::margins::TLE_MARGIN`).
    pub tle_margin: Option<f64>,
    /// An ICPC scoring problem (`type: scoring`): its score is the points
    /// of its groups as the package counts them, and a test may give a
    /// score of its own (`score.txt`). Read when the spec is loaded.
    pub scoring: bool,
    /// What was read but cannot be honoured, one line per item (an ICPC
    /// package's unsupported parts): shown by `verify`, never silent.
    pub notes: Vec<String>,
    /// The game, when the spec describes it (`game:`): its oracle,
    /// answers, input format, generators and (for a played game) the
    /// judge's player come from the description.
    pub game: Option<std::sync::Arc<crate::catalog::described::GameSpec>>,
    /// What a problem package (ICPC / Kattis format) says beyond this
    /// model, read once by the loader so that nothing downstream reads the
    /// package's files again; `None` for one of our specs.
    pub package: Option<PackageFacts>,
}

/// The arguments a spec's input validators get on each test: the
/// problem's (`input_validator_args:` at the top of the spec), unless the
/// test's group gives its own (the same key in the group). As in a
/// package's `testdata.yaml`, a group's list replaces the problem's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InputValidatorArgs {
    pub problem: Vec<String>,
    pub groups: std::collections::BTreeMap<String, Vec<String>>,
}

impl InputValidatorArgs {
    /// The arguments on a test of `group` (`sample` for the samples).
    pub fn for_group(&self, group: &str) -> &[String] {
        self.groups.get(group).unwrap_or(&self.problem)
    }
}

/// The parts of a problem package that the judge and `verify` need and
/// the common model has no place for: filled by the loader.
#[derive(Debug, Clone, Default)]
pub struct PackageFacts {
    /// A `legacy` package: its time limit comes from every test of the
    /// `accepted/` submissions, as problemtools derives it.
    pub legacy: bool,
    /// What each known submission must get (`submissions.yaml`, or the
    /// folders' defaults for a scoring problem); `None`: each folder's
    /// single verdict.
    pub expectations: Option<crate::problem::expected::Expectations>,
    /// Each test's path under `data/` without `.in` (how `submissions.yaml`
    /// names tests and groups), by its group and number.
    pub test_paths: std::collections::HashMap<(String, u32), String>,
    /// The input validator programs (`input_validators/`, …), run by
    /// `verify` with the format's exit codes.
    pub input_validators: Vec<PathBuf>,
    /// The arguments each input validator gets on each test, by the test's
    /// group and number and the validator's name (its file's stem): the
    /// settings in force in the test's folder, overridden by its own.
    pub input_validator_args: std::collections::HashMap<(String, u32, String), Vec<String>>,
    /// The groups whose output validator's `score.txt` is not read
    /// (2025-09 folders with an unbounded `max_score`): such a test earns
    /// its whole share when accepted.
    pub unscored_groups: Vec<String>,
    /// The package's `constants:` by name (`name` and `name.variant`):
    /// shown in place of `{{name}}` in its statement.
    pub constants: std::collections::BTreeMap<String, String>,
}

impl PackageFacts {
    /// The arguments the input validator at `validator` gets on test
    /// `name` (`<group>-<k>`) of group `group`.
    pub fn input_validator_args(&self, group: &str, name: &str, validator: &Path) -> Vec<String> {
        let stem = validator
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        test_number(name)
            .and_then(|k| self.input_validator_args.get(&(group.to_string(), k, stem)))
            .cloned()
            .unwrap_or_default()
    }

    /// The path under `data/` (without `.in`) of the test a result names,
    /// as `submissions.yaml` names tests; the test's own name when unknown.
    pub fn test_path(&self, group: &str, name: &str) -> String {
        test_number(name)
            .and_then(|k| self.test_paths.get(&(group.to_string(), k)))
            .cloned()
            .unwrap_or_else(|| name.to_string())
    }
}

impl Problem {
    /// Known submissions, ICPC style: `submissions/<verdict folder>/<file>`.
    pub fn submissions_dir(&self) -> PathBuf {
        self.dir.join("submissions")
    }

    /// The generator families this problem may name: the catalog's, and
    /// `game` for a described game.
    pub fn families(&self) -> crate::generate::Families {
        crate::catalog::families_for(self.game.as_ref())
    }

    /// The structure of this problem's inputs, when grundy knows it: a
    /// catalog problem's (by id) or a described game's.
    pub fn input_format(&self) -> Option<crate::catalog::format::InputFormat> {
        crate::catalog::input_format_for(&self.id.0, self.game.as_ref())
    }

    /// What test generation needs of this problem.
    pub fn recipe(&self) -> crate::generate::Recipe<'_> {
        crate::generate::Recipe {
            spec_path: &self.spec_path,
            dir: &self.dir,
            seed: self.seed,
            samples: self
                .samples
                .iter()
                .map(|s| (s.input.as_str(), s.output.as_str()))
                .collect(),
            groups: self
                .groups
                .iter()
                .map(|g| (g.name.as_str(), g.tests.as_slice()))
                .collect(),
        }
    }
}

/// The number a test's name ends with (`secret-03` is 3).
fn test_number(name: &str) -> Option<u32> {
    name.rsplit('-').next()?.parse().ok()
}
