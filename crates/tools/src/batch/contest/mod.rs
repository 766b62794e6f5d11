//! `grundy contest contest.yaml`: judge a local contest's submissions and
//! rank the contestants, ICPC- or IOI-style.
//!
//! Judging goes through the same engine and journal as `grade`: each
//! distinct file is judged once, an interrupted run resumes with
//! `--resume`, and running again with `--resume` as new submissions arrive
//! judges only the new ones, which makes a live scoreboard.

pub mod config;
pub mod log;
pub mod score;
pub mod time;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::event::{ContestResults, Event, EventSink};
use super::grade::{Batch, note, open_journal, prepare_and_judge, refuse_earlier_run};
use super::model::{Issue, IssueKind, Item};
use super::{BatchError, RunSummary};
use crate::judge::Because;
use crate::judge::Context;
use crate::problem::{Problem, ProblemId, ProblemSet};

pub use config::{Contest, Scoring};
pub use score::{Attempt, Standings};

pub struct ContestOptions {
    pub file: PathBuf,
    pub jobs: usize,
    pub out: PathBuf,
    pub resume: bool,
    /// `--all`: run every test, even after its group has failed.
    pub all: bool,
}

/// The run, and the standings when it finished.
pub struct ContestRun {
    pub summary: RunSummary,
    pub standings: Option<Standings>,
    pub issues: Vec<Issue>,
}

/// Judges a contest, telling `sink` what happens; its scoreboard files
/// are written by the consumer of [`Event::ContestFinished`].
pub fn contest(
    set: &ProblemSet,
    ctx: &Context,
    opts: &ContestOptions,
    sink: &mut dyn EventSink,
) -> Result<ContestRun, BatchError> {
    let contest = config::load(&opts.file)?;
    refuse_earlier_run(&opts.out, opts.resume)?;
    let mut problems: BTreeMap<ProblemId, Problem> = BTreeMap::new();
    for p in &contest.problems {
        let problem = set.find(p.id.as_str()).map_err(|e| {
            BatchError::Usage(Because::of(format!("{}: problems", opts.file.display()), e))
        })?;
        problems.insert(p.id.clone(), problem);
    }
    let logged = match &contest.source {
        config::Source::Log(path) => log::read_log(path)?,
        config::Source::Folder(dir) => {
            if !dir.is_dir() {
                return Err(BatchError::Usage(Because::new(format!(
                    "{}: submissions: {} is not a folder",
                    opts.file.display(),
                    dir.display()
                ))));
            }
            if contest.duration.is_none() {
                // A file copied or touched after the contest gets a late
                // time, and nothing would mark it as late.
                note(
                    sink,
                    &format!(
                        "{}: submission times come from the files' modification times and there is no `duration:`: every file counts, however late its time",
                        opts.file.display()
                    ),
                )?;
            }
            log::read_folder(dir, &contest.base)?
        }
    };
    let (counted, issues) = admit(&contest, &ctx.languages, logged)?;
    for i in &issues {
        note(
            sink,
            &format!("{}: {}: {}", i.path, i.kind.label(), i.message),
        )?;
    }

    let (mut journal, loaded) = open_journal(&opts.out, opts.resume, sink)?;
    let items: Vec<Item> = counted.iter().map(|(item, _)| item.clone()).collect();
    let (run, records) = prepare_and_judge(
        ctx,
        &problems,
        &items,
        Batch {
            root: &contest.base,
            jobs: opts.jobs,
            all: opts.all,
            shrink: false,
            people: super::event::People::Contestants,
        },
        loaded.records,
        &mut journal,
        sink,
    )?;
    let mut summary = RunSummary {
        judged: run.judged,
        reused: run.reused,
        interrupted: run.interrupted,
        overall: crate::verdict::Overall::Accepted,
        lines: Vec::new(),
    };
    if run.interrupted.is_some() {
        return Ok(ContestRun {
            summary,
            standings: None,
            issues,
        });
    }

    let mut issues = issues;
    let mut attempts = Vec::new();
    let mut results = Vec::new();
    // Submission order, so that the scoreboard's attempts and the report
    // come out in it without sorting each.
    let mut in_order: Vec<&(Item, u64)> = counted.iter().collect();
    in_order.sort_by(|(a, at), (b, bt)| {
        (at, &a.student, &a.problem, &a.file).cmp(&(bt, &b.student, &b.problem, &b.file))
    });
    for (item, time) in in_order {
        match records
            .get(&item.key())
            .and_then(|r| r.result.as_ref().map(|res| (r, res)))
        {
            Some((_, result)) => {
                results.push((item.student.as_str(), *time, result));
                attempts.push(Attempt {
                    contestant: item.student.clone(),
                    problem: item.problem.clone(),
                    time: *time,
                    file: item.file.clone(),
                    verdict: result.verdict,
                    score: result.score,
                });
            }
            None => issues.push(Issue {
                path: item.file.clone(),
                kind: IssueKind::NotJudged,
                student: Some(item.student.clone()),
                problem: Some(item.problem.clone()),
                message: records
                    .get(&item.key())
                    .and_then(|r| r.error.clone())
                    .unwrap_or_else(|| "no result".into()),
            }),
        }
    }
    issues.sort();
    let contestants: Vec<(String, String)> = match &contest.contestants {
        Some(list) => list
            .iter()
            .map(|c| (c.id.clone(), c.name.clone()))
            .collect(),
        None => counted
            .iter()
            .map(|(i, _)| i.student.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .map(|id| (id.clone(), id))
            .collect(),
    };
    let standings = score::standings(
        &contest.title,
        contest.scoring,
        contest.penalty_minutes,
        &contest.problems,
        &contestants,
        &attempts,
    );
    sink.event(&Event::ContestFinished {
        out: &opts.out,
        contest: &ContestResults {
            standings: &standings,
            attempts: &attempts,
            issues: &issues,
            results: &results,
        },
    })
    .map_err(BatchError::Reporter)?;
    // The exit status of docs/reference.md, as for `grade`: a script can tell "every
    // counted submission AC" (0) from "some rejected or not counted" (1)
    // from "the judge failed" (3); the scoreboard is written in all three.
    summary.overall =
        crate::verdict::Overall::of(attempts.iter().map(|a| a.verdict), !issues.is_empty());
    Ok(ContestRun {
        summary,
        standings: Some(standings),
        issues,
    })
}

/// Sorts the logged submissions into those that count (with their time
/// since the start) and the issues of those that do not.
#[allow(clippy::type_complexity)]
fn admit(
    contest: &Contest,
    languages: &crate::language::Languages,
    logged: Vec<log::Logged>,
) -> Result<(Vec<(Item, u64)>, Vec<Issue>), BatchError> {
    let mut counted = Vec::new();
    let mut issues = Vec::new();
    let mut not_counted = |l: &log::Logged, kind: IssueKind, message: String| {
        issues.push(Issue {
            path: l.file.clone(),
            kind,
            student: Some(l.contestant.clone()),
            problem: Some(l.problem.clone()),
            message: format!("{} ({})", message, l.origin),
        })
    };
    for l in logged {
        if !contest.problems.iter().any(|p| p.id == l.problem) {
            not_counted(
                &l,
                IssueKind::NotCounted,
                format!("`{}` is not a problem of this contest", l.problem),
            );
            continue;
        }
        if let Some(list) = &contest.contestants
            && !list.iter().any(|c| c.id == l.contestant)
        {
            not_counted(
                &l,
                IssueKind::NotCounted,
                format!("`{}` is not a contestant", l.contestant),
            );
            continue;
        }
        let elapsed = match (l.when, contest.start) {
            (time::When::Elapsed(s), _) => s as i64,
            (time::When::Clock(t), Some(start)) => t - start,
            (time::When::Clock(_), None) => {
                return Err(BatchError::Usage(Because::new(format!(
                    "{}: submissions have clock times: give the contest's `start:` (e.g. start: 2025-03-01T10:00:00Z)",
                    l.origin
                ))));
            }
        };
        if elapsed < 0 {
            not_counted(&l, IssueKind::NotCounted, "made before the start".into());
            continue;
        }
        if contest
            .duration
            .is_some_and(|d| elapsed as u64 > d.as_secs())
        {
            not_counted(&l, IssueKind::NotCounted, "made after the end".into());
            continue;
        }
        let path = contest.base.join(&l.file);
        if languages.detect(&path).is_err() {
            not_counted(
                &l,
                IssueKind::UnknownExtension,
                "no language has this extension".into(),
            );
            continue;
        }
        match super::walk::read_source(&path) {
            Ok(bytes) => counted.push((
                Item {
                    student: l.contestant.clone(),
                    problem: l.problem.clone(),
                    file: l.file.clone(),
                    sha: super::walk::sha256(&bytes),
                },
                elapsed as u64,
            )),
            Err(why) => not_counted(&l, IssueKind::Unreadable, why.to_string()),
        }
    }
    Ok((counted, issues))
}
