//! `grundy mutants`: the library does the work (`grundy::mutants`); this
//! prints and maps the outcome to an exit status.

use std::time::{Duration, Instant};

use anyhow::anyhow;
use grundy::judge::Context;
use grundy::mutants::{self, MutantsError, harden};
use grundy::report;
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
        println!("{}", report::mutants_header());
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
            println!("{o}");
        } else {
            println!("{}", report::mutants_line(&before));
            print!("{}", report::mutants_details(&before));
            if let Some(a) = &after {
                println!(
                    "  hardened {}: score {} -> {}",
                    p.spec_path.display(),
                    report::score_text(before.score()),
                    report::score_text(a.score())
                );
                print!("{}", report::mutants_details(a));
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
            (
                c.survived == 0 && c.error == 0,
                report::score_text(m.score()),
            )
        }
        Err(MutantsError::NoRustReference { .. }) => (true, "no-rust".into()),
        Err(_) => (false, "error".into()),
    }
}
