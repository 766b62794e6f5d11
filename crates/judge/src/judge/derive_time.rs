//! The time limit of an ICPC package that states none, derived as the
//! format says (its "Problem timing" and "Timelimit inference"): the
//! slowest run that bounds the limit from below, times `ac_to_time_limit`,
//! rounded up to a multiple of `time_resolution` (`problem::TimeRule`).
//!
//! Which runs bound it from below: legacy packages, as problemtools does,
//! every test of each `accepted/` submission. From 2023-07, each known
//! submission's tests its rules say may not time out (`accepted/`,
//! `wrong_answer/`, `run_time_error/` by default, any `permitted` without
//! `TLE`, `use_for_time_limit: lower`), less those a rule opts out of with
//! `use_for_time_limit: false`. The upper bound (`time_limit_to_tle`) only
//! makes the package wrong, never the limit different: `verify` checks it
//! (`verify::margins`).
//!
//! Done when the problem is prepared, so that `judge` and `verify` judge
//! with the same limit, and said in a note naming the submission and the
//! test it comes from. Measuring judges those submissions on every test,
//! which would make every command slow: the result is kept in the cache,
//! under a key of everything that decides it (the tests, the measured
//! submissions' sources and rules, the limits and validator settings, the
//! language table, grundy's version), so it is measured once per change.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::context::Context;
use super::prepared::{MeasuredRun, Prepared};
use super::{JudgeError, Options, judge};
use crate::cache::Key;
use crate::problem::PackageFacts;
use crate::problem::expected::{Rule, bounds_time_limit};
use crate::verdict::Verdict;

/// The bound the submissions run under while the limit is being found
/// (problemtools allows 300 s; an accepted run near it would make a limit
/// no contest uses).
const MEASURING_LIMIT: Duration = Duration::from_secs(60);

/// The cache kind of measured limits (`grundy cache show` lists it).
const CACHE_KIND: &str = "timelimits";

/// Bumped when what is stored, or how it is measured, changes.
const CACHE_FORMAT: &[u8] = b"derived-time-limit-2";

/// One submission whose runs bound the limit from below.
struct Measured {
    path: PathBuf,
    /// Its path under `submissions/`, as reports and rules name it.
    rel: String,
    rules: Vec<Rule>,
    language: Option<String>,
}

/// The slowest bounding run: what the limit is derived from.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Slowest {
    /// CPU seconds.
    time: f64,
    submission: String,
    test: String,
    /// The language and interpreter it ran with ("Python 3 run by
    /// /usr/bin/python3.11"): a limit from CPython is not one from PyPy.
    #[serde(default)]
    measured_with: String,
}

/// Sets `prepared`'s time limit from its known submissions when the
/// package gives none; a note says what it was derived from.
pub(super) fn apply(
    prepared: &mut Prepared,
    ctx: &Context,
    step: &dyn Fn(&str),
) -> Result<(), JudgeError> {
    let Some(rule) = prepared.problem.time_rule else {
        return Ok(());
    };
    let measured = bounding_submissions(prepared, ctx);
    let key = cache_key(prepared, ctx, &measured);
    let mut runs = Vec::new();
    let (slowest, from_cache) = match key.as_ref().and_then(|k| cached(ctx, k)) {
        Some(s) => (Some(s), true),
        None => {
            let s = measure(prepared, ctx, &measured, step, &mut runs);
            if let (Some(s), Some(k)) = (&s, &key) {
                // Best effort: a cache that cannot be written costs a
                // measurement next time, nothing else.
                if let Ok(bytes) = serde_json::to_vec(s) {
                    let _ = ctx.cache.put_file(CACHE_KIND, k, ".json", &bytes);
                }
            }
            (s, false)
        }
    };
    let kept = prepared.problem.limits.time;
    let note = match slowest {
        Some(s) => {
            let time = Duration::from_secs_f64(s.time.max(0.0));
            let limit = rule.limit(time);
            prepared.problem.limits.time = limit;
            format!(
                "time limit {} s, derived as the format says: the slowest run bounding it from below ({} on {}, {}{:.3} s) × ac_to_time_limit {}, {} multiple of time_resolution {} s{}",
                limit.as_secs_f64(),
                s.submission,
                s.test,
                if s.measured_with.is_empty() {
                    String::new()
                } else {
                    format!("{}: ", s.measured_with)
                },
                s.time,
                rule.ac_to_time_limit,
                match rule.rounding {
                    crate::problem::Rounding::Up => "rounded up to a",
                    crate::problem::Rounding::Nearest =>
                        "rounded to the nearest (problemtools' legacy rule)",
                },
                rule.resolution,
                if from_cache {
                    "; measured before on the same tests, submissions and settings, and kept in the cache"
                } else {
                    ""
                }
            )
        }
        None => {
            prepared.problem.limits.time = kept;
            format!(
                "no time limit given and no accepted submission ran here to derive one: judged with {} s",
                kept.as_secs_f64()
            )
        }
    };
    prepared.problem.notes.push(note);
    prepared.measured = runs;
    Ok(())
}

/// The result `path` (judged as `language`, when not detected) got while
/// the time limit was measured, when that is its result under the derived
/// limit too: accepted on every test, each run within the CPU and
/// wall-clock time it now gets (a run within the limit is not changed by
/// a higher one), on a problem whose tests are ordinary runs (an
/// interactor's or a pass's limits follow the submission's, and their
/// runs are not in the result). `None`: judge it.
pub fn measured_result(
    prepared: &Prepared,
    ctx: &Context,
    path: &Path,
    language: Option<&str>,
) -> Option<super::SubmissionResult> {
    if !matches!(prepared.kind, super::Kind::Ordinary) {
        return None;
    }
    let same = |a: &Path| {
        a == path
            || std::fs::canonicalize(a)
                .ok()
                .is_some_and(|a| std::fs::canonicalize(path).is_ok_and(|b| a == b))
    };
    let m = prepared
        .measured
        .iter()
        .find(|m| m.language.as_deref() == language && same(&m.path))?;
    let r = &m.result;
    if r.verdict != Verdict::AC || r.tests.len() != prepared.tests.len() {
        return None;
    }
    let languages = ctx.languages_for(&prepared.problem);
    let lang = languages.by_id(&r.language).ok()?;
    let limits = &prepared.problem.limits;
    let cpu = if limits.language_allowance {
        limits.time.mul_f64(lang.time_multiplier)
    } else {
        limits.time
    };
    let wall = crate::sandbox::RunLimits::wall_for(cpu);
    r.tests
        .iter()
        .all(|t| t.verdict == Verdict::AC && t.time <= cpu && t.wall <= wall)
        .then(|| r.clone())
}

/// What the loader read of the package; a problem that is not one has
/// its time limit derived as a legacy package's.
fn facts(prepared: &Prepared) -> std::borrow::Cow<'_, PackageFacts> {
    match &prepared.problem.package {
        Some(f) => std::borrow::Cow::Borrowed(f),
        None => std::borrow::Cow::Owned(PackageFacts {
            legacy: true,
            ..PackageFacts::default()
        }),
    }
}

/// The known submissions with some test whose run bounds the limit from
/// below, in a language with a toolchain here.
fn bounding_submissions(prepared: &Prepared, ctx: &Context) -> Vec<Measured> {
    let languages = ctx.languages_for(&prepared.problem);
    let root = prepared.problem.dir.join("submissions");
    let facts = facts(prepared);
    let legacy = facts.legacy;
    let expected = facts.expectations.clone().unwrap_or_default();
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(&root)
        .min_depth(2)
        .max_depth(2)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
    {
        let name = entry.file_name().to_string_lossy();
        let ext = entry.path().extension().unwrap_or_default();
        if name.starts_with('.') || ext == "md" || ext == "disabled" {
            continue;
        }
        let Ok(rel) = entry.path().strip_prefix(&root) else {
            continue;
        };
        let rel = rel.to_string_lossy().into_owned();
        if legacy && !rel.starts_with("accepted/") {
            continue;
        }
        let rules = expected.rules_for(&rel);
        let bounds = prepared.tests.iter().any(|t| {
            let at = facts.test_path(&t.group, &t.name);
            legacy || bounds_time_limit(&rules, &at, false)
        });
        if !bounds {
            continue;
        }
        let build = expected.build_for(&rel).unwrap_or_default();
        if build.foreign.is_some() {
            continue;
        }
        let lang = match &build.language {
            Some(id) => languages.by_id(id),
            None => languages.detect(entry.path()),
        };
        if !lang.is_ok_and(|l| crate::language::missing_toolchain(l).is_none()) {
            continue;
        }
        out.push(Measured {
            path: entry.into_path(),
            rel,
            rules,
            language: build.language,
        });
    }
    out
}

/// Judges each bounding submission with a generous limit: its slowest run
/// on a test that bounds the limit from below (a run that timed out even
/// then, or that the judge could not finish, tells nothing).
fn measure(
    prepared: &mut Prepared,
    ctx: &Context,
    measured: &[Measured],
    step: &dyn Fn(&str),
    runs: &mut Vec<MeasuredRun>,
) -> Option<Slowest> {
    let facts = facts(prepared).into_owned();
    let legacy = facts.legacy;
    let languages = ctx.languages_for(&prepared.problem);
    let kept = prepared.problem.limits.time;
    prepared.problem.limits.time = MEASURING_LIMIT;
    let mut slowest: Option<Slowest> = None;
    for (i, m) in measured.iter().enumerate() {
        step(&format!(
            "measuring the time limit: {} on {} (at most {} s a test) [{}/{}]",
            m.rel,
            crate::markup::count(prepared.tests.len(), "test", "tests"),
            MEASURING_LIMIT.as_secs(),
            i + 1,
            measured.len()
        ));
        let options = Options {
            all: true,
            language: m.language.clone(),
            ..Options::default()
        };
        let Ok(result) = judge(prepared, ctx, &m.path, &options, &mut |_| {}) else {
            continue;
        };
        runs.push(MeasuredRun {
            path: m.path.clone(),
            language: m.language.clone(),
            result,
        });
        let Some(MeasuredRun { result, .. }) = runs.last() else {
            continue;
        };
        // Legacy: accepted submissions that are accepted, as problemtools.
        if legacy && result.verdict != Verdict::AC {
            continue;
        }
        for t in &result.tests {
            let at = facts.test_path(&t.group, &t.name);
            let counts = legacy || bounds_time_limit(&m.rules, &at, false);
            if !counts || matches!(t.verdict, Verdict::TLE | Verdict::IE | Verdict::CE) {
                continue;
            }
            let time = t.time.as_secs_f64();
            if slowest.as_ref().is_none_or(|s| time > s.time) {
                slowest = Some(Slowest {
                    time,
                    submission: m.rel.clone(),
                    test: t.name.clone(),
                    measured_with: measured_with(&languages, &result.language),
                });
            }
        }
    }
    prepared.problem.limits.time = kept;
    slowest
}

/// The language `id` and the interpreter that ran it, as a note says them.
fn measured_with(languages: &crate::language::Languages, id: &str) -> String {
    let Ok(lang) = languages.by_id(id) else {
        return id.to_string();
    };
    match crate::language::interpreter(lang) {
        Some(path) => format!("{} run by {}", lang.name, path.display()),
        None => lang.name.clone(),
    }
}

/// The key of everything the measurement depends on; `None` when a
/// source cannot be read (then it is measured, not cached).
fn cache_key(prepared: &Prepared, ctx: &Context, measured: &[Measured]) -> Option<Key> {
    let p = &prepared.problem;
    let mut parts: Vec<Vec<u8>> = vec![
        CACHE_FORMAT.to_vec(),
        env!("CARGO_PKG_VERSION").as_bytes().to_vec(),
        format!(
            "{:?}|{:?}|{:?}|{:?}|{:?}|{:?}",
            p.time_rule,
            p.limits,
            p.checker,
            p.interactor,
            p.passes,
            ctx.languages_for(p).table
        )
        .into_bytes(),
    ];
    for t in &prepared.tests {
        // Inputs and answers live in the cache under their content's key:
        // their paths name their content.
        let answer = match &t.answer {
            Ok(a) => a.display().to_string(),
            Err(e) => e.to_string(),
        };
        parts.push(format!("{}|{}|{}|{answer}", t.name, t.group, t.input.display()).into_bytes());
    }
    for folder in ["output_validator", "output_validators"] {
        parts.push(folder_bytes(&p.dir.join(folder))?);
    }
    for m in measured {
        parts.push(format!("{}|{:?}|{:?}", m.rel, m.rules, m.language).into_bytes());
        parts.push(if m.path.is_dir() {
            folder_bytes(&m.path)?
        } else {
            crate::problem::file::read_capped(&m.path, crate::beneath::SOURCE_CAP).ok()?
        });
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Some(Key::of(&refs))
}

/// Every file under `dir` (none when it does not exist), named, in order.
fn folder_bytes(dir: &Path) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    if !dir.is_dir() {
        return Some(out);
    }
    for e in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let e = e.ok()?;
        if !e.file_type().is_file() {
            continue;
        }
        let rel = e.path().strip_prefix(dir).ok()?;
        let bytes = crate::problem::file::read_capped(e.path(), crate::beneath::SOURCE_CAP).ok()?;
        out.extend_from_slice(rel.to_string_lossy().as_bytes());
        out.extend_from_slice(&(bytes.len() as u64).to_le_bytes());
        out.extend_from_slice(&bytes);
    }
    Some(out)
}

fn cached(ctx: &Context, key: &Key) -> Option<Slowest> {
    let path = ctx.cache.existing_file(CACHE_KIND, key, ".json")?;
    let bytes = std::fs::read(path).ok()?;
    serde_json::from_slice(&bytes).ok()
}
