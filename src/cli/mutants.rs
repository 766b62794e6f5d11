//! `grundy mutants`: the library does the work (`grundy::mutants`); this
//! prints and maps the outcome to an exit status.

use super::out::{out, outln};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::anyhow;
use grundy::judge::Context;
use grundy::mutants::{self, Counts, MutantsError, Outcome, ProblemMutants, harden};
use grundy::problem::Problem;

use super::exit::{self, Failure, internal, usage};
use super::{Global, context, find};

fn failure(e: MutantsError) -> Failure {
    match e {
        MutantsError::Judge(j) => j.into(),
        MutantsError::Write { .. } => internal(anyhow!(e)),
        _ => usage(anyhow!(e)),
    }
}

/// What `grundy mutants` was asked to do, beyond the problems.
pub struct Choice {
    pub jobs: usize,
    pub time_budget: Option<f64>,
    pub harden: bool,
    pub programs: Vec<PathBuf>,
    pub kinds: Vec<String>,
}

pub fn run(g: &Global, ids: &[String], json: bool, choice: &Choice) -> Result<u8, Failure> {
    let Choice {
        jobs,
        time_budget,
        harden,
        ..
    } = *choice;
    if let Some(t) = time_budget
        && !(t.is_finite() && t > 0.0 && t <= 864_000.0)
    {
        return Err(usage(anyhow!(
            "--time-budget must be a number of seconds above 0, found {t}"
        )));
    }
    let problems = ids
        .iter()
        .map(|id| find(g, id))
        .collect::<Result<Vec<_>, _>>()?;
    let ctx = context(g)?;
    let deadline = time_budget.map(|t| Instant::now() + Duration::from_secs_f64(t));
    let mut all_killed = true;
    if !json {
        outln!("{}", header());
    }
    for p in &problems {
        let options = mutants::Options {
            jobs: jobs.max(1),
            time_budget: deadline.map(|d| d.saturating_duration_since(Instant::now())),
            only: choice.programs.clone(),
            kinds: choice.kinds.clone(),
            ..mutants::Options::default()
        };
        let before = mutants::run(p, &ctx, &options, &|_| {}).map_err(failure)?;
        let mut after = None;
        if harden && before.counts().survived > 0 {
            let existing: Vec<String> = p.groups.iter().map(|g| g.name.clone()).collect();
            let groups = harden::groups_for(before.survivors(), &existing);
            harden::write(&p.spec_path, &groups).map_err(failure)?;
            let hardened = find(g, &p.dir.to_string_lossy())?;
            after = Some(mutants::rejudge(&before, &hardened, &ctx, &options).map_err(failure)?);
        }
        let last = after.as_ref().unwrap_or(&before);
        let c = last.counts();
        all_killed &= c.survived == 0 && c.not_run == 0 && c.error == 0;
        if json {
            let mut o = before.json();
            if let Some(a) = &after {
                o["hardened"] = a.json();
            }
            outln!("{o}");
        } else {
            outln!("{}", summary_line(&before));
            out!("{}", details(&before));
            if let Some(a) = &after {
                outln!(
                    "  hardened {}: score {} -> {}",
                    p.spec_path.display(),
                    score_text(before.score()),
                    score_text(a.score())
                );
                out!("{}", details(a));
            }
        }
    }
    Ok(if all_killed {
        exit::OK
    } else {
        exit::NOT_ACCEPTED
    })
}

/// The mutants column of `verify --mutants`: whether no mutant survived,
/// and the score (or why there is none).
pub fn for_verify(p: &Problem, ctx: &Context, jobs: usize) -> (bool, String) {
    let options = mutants::Options {
        jobs: jobs.max(1),
        ..mutants::Options::default()
    };
    match mutants::run(p, ctx, &options, &|_| {}) {
        Ok(m) => {
            let c = m.counts();
            (c.survived == 0 && c.error == 0, score_text(m.score()))
        }
        Err(MutantsError::NoProgram { .. }) => (true, "no-program".into()),
        Err(_) => (false, "error".into()),
    }
}

// The text report: one summary line per problem, then every survivor with
// the smallest input it gets wrong, and the evidence for each equivalent.

/// The header of [`summary_line`]s.
fn header() -> String {
    format!(
        "{:<18} {:>7} {:>6} {:>8} {:>10} {:>8} {:>7} {:>5} {:>7}  {:>7}",
        "problem",
        "mutants",
        "killed",
        "survived",
        "equivalent",
        "unviable",
        "timeout",
        "error",
        "not-run",
        "score"
    )
}

/// One line: counts and score of a problem (over every program's
/// mutants), then one line per program.
fn summary_line(m: &ProblemMutants) -> String {
    let mut out = format!(
        "{}  ({:.0} s)",
        counts_line(&m.id.0, &m.counts()),
        m.elapsed.as_secs_f64()
    );
    if m.programs.len() > 1 || m.programs.iter().any(|e| e.skipped.is_some()) {
        for (i, e) in m.programs.iter().enumerate() {
            let name = format!("  {} ({})", e.program.file_name(), e.program.language);
            out.push('\n');
            match &e.skipped {
                Some(why) => out.push_str(&format!("{name}: not mutated: {why}")),
                None => out.push_str(&counts_line(&name, &m.counts_of(i, None))),
            }
        }
    }
    out
}

fn counts_line(name: &str, c: &Counts) -> String {
    format!(
        "{:<18} {:>7} {:>6} {:>8} {:>10} {:>8} {:>7} {:>5} {:>7}  {:>7}",
        name,
        c.mutants,
        c.killed,
        c.survived,
        c.equivalent,
        c.unviable,
        c.timeout,
        c.error,
        c.not_run,
        score_text(c.score()),
    )
}

/// A score as `93.3%`, or `-` when no mutant was judged.
fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "-".into(), |s| format!("{s:.1}%"))
}

/// The details under a problem's lines: survivors (with their smallest
/// input), equivalents (with the evidence) and errors, each with its
/// program.
fn details(m: &ProblemMutants) -> String {
    let mut out = String::new();
    let several = m.programs.len() > 1;
    for r in &m.results {
        let program = if several {
            format!("{} ", m.programs[r.program].program.file_name())
        } else {
            String::new()
        };
        let head = format!(
            "  {:<10} #{:<3} {program}line {:<3} {}",
            r.outcome.word(),
            r.mutant.index,
            r.mutant.line,
            r.mutant.description
        );
        match &r.outcome {
            Outcome::Survived { counterexample: c } if m.played => {
                out.push_str(&head);
                out.push_str(&format!("\n             {}\n", c.message));
            }
            Outcome::Survived { counterexample: c } => {
                out.push_str(&head);
                out.push('\n');
                out.push_str(&format!(
                    "             wrong on {:?}: expected {:?}, got {:?}\n",
                    c.input,
                    c.expected.trim_end(),
                    c.actual.trim_end()
                ));
            }
            Outcome::Equivalent(e) => {
                out.push_str(&head);
                out.push_str(&format!("\n             {}\n", e.reason()));
            }
            Outcome::Error { message } => {
                out.push_str(&head);
                out.push_str(&format!("\n             {message}\n"));
            }
            _ => {}
        }
    }
    out
}
