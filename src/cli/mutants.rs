//! `grundy mutants`: the library does the work (`grundy::mutants`); this
//! prints and maps the outcome to an exit status.

use super::out::{out, outln};
use std::time::{Duration, Instant};

use anyhow::anyhow;
use grundy::judge::Context;
use grundy::markup::count;
use grundy::mutants::{self, Counts, MutantsError, Outcome, ProblemMutants, harden};
use grundy::spec::Problem;

use super::exit::{self, Failure, internal, usage};
use super::{Global, context, find};

fn failure(e: MutantsError) -> Failure {
    match e {
        MutantsError::Judge(j) => j.into(),
        MutantsError::Write { .. } => internal(anyhow!(e)),
        _ => usage(anyhow!(e)),
    }
}

pub fn run(
    g: &Global,
    ids: &[String],
    json: bool,
    jobs: usize,
    time_budget: Option<f64>,
    harden: bool,
) -> Result<u8, Failure> {
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
        Err(MutantsError::NoRustReference { .. }) => (true, "no-rust".into()),
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

/// One line: counts and score of a problem.
fn summary_line(m: &ProblemMutants) -> String {
    let c: Counts = m.counts();
    format!(
        "{:<18} {:>7} {:>6} {:>8} {:>10} {:>8} {:>7} {:>5} {:>7}  {:>7}  ({:.0} s)",
        m.id,
        c.mutants,
        c.killed,
        c.survived,
        c.equivalent,
        c.unviable,
        c.timeout,
        c.error,
        c.not_run,
        score_text(m.score()),
        m.elapsed.as_secs_f64()
    )
}

/// A score as `93.3%`, or `-` when no mutant was judged.
fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "-".into(), |s| format!("{s:.1}%"))
}

/// Why a mutant is taken to be equivalent: the inputs it was compared on
/// (or the games it won), each kind named only when there were some.
fn evidence(small: usize, random: usize, played: bool) -> String {
    if small + random == 0 {
        return "no input to compare it on (no oracle, no generated tests): equivalence unproven"
            .into();
    }
    let mut parts = Vec::new();
    if played {
        if small > 0 {
            parts.push(format!(
                "{} from small positions",
                count(small, "game", "games")
            ));
        }
        if random > 0 {
            parts.push(if small > 0 {
                format!("{random} random ones")
            } else {
                format!("{} from random positions", count(random, "game", "games"))
            });
        }
        let all = if small + random > 1 { "all " } else { "" };
        return format!("won {all}{}", parts.join(" and "));
    }
    if small > 0 {
        let every = if small == 1 {
            "the only one"
        } else {
            "all of them"
        };
        parts.push(format!(
            "{} ({every})",
            count(small, "small position", "small positions")
        ));
    }
    if random > 0 {
        parts.push(count(random, "random input", "random inputs"));
    }
    format!("same answers on {}", parts.join(" and "))
}

/// The details under a problem's line: survivors (with their smallest
/// input), equivalents (with the evidence) and errors.
fn details(m: &ProblemMutants) -> String {
    let mut out = String::new();
    for r in &m.results {
        let head = format!(
            "  {:<10} #{:<3} line {:<3} {}",
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
            Outcome::Equivalent {
                small_inputs,
                random_inputs,
                played,
            } => {
                out.push_str(&head);
                out.push_str(&format!(
                    "\n             {}\n",
                    evidence(*small_inputs, *random_inputs, *played)
                ));
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

#[cfg(test)]
mod tests {
    use super::evidence;

    #[test]
    fn evidence_names_only_the_inputs_there_were() {
        assert_eq!(evidence(0, 40, false), "same answers on 40 random inputs");
        assert_eq!(
            evidence(12, 1, false),
            "same answers on 12 small positions (all of them) and 1 random input"
        );
        assert_eq!(
            evidence(329, 120, true),
            "won all 329 games from small positions and 120 random ones"
        );
        assert_eq!(evidence(0, 1, true), "won 1 game from random positions");
        assert!(evidence(0, 0, false).contains("unproven"));
    }
}
