//! `grundy grade DIR`: walk the class folder, judge what is not judged yet,
//! and write the reports.
//!
//! The output folder holds `plan.json` (what was found), `journal.jsonl`
//! (every result, as it was produced) and, once everything is judged, the
//! reports. `--resume` reads the journal and judges only what is missing,
//! so the reports of an interrupted and resumed run are those of an
//! uninterrupted one. A shard (`--shard K/N`) writes the plan and its
//! journal only; `grundy merge` makes the reports.

mod summary;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use super::engine::{Engine, ReadyProblem};
use super::event::{Event, EventSink, Interrupted, People, Planned, PlannedWork};
use super::interrupt::Interrupt;
use super::journal::{self, Journal};
use super::model::{
    ClassReport, FORMAT_VERSION, FeedbackLevel, Item, ItemKey, Plan, Record, Shard,
};
use super::walk::{self, Layout};
use super::{BatchError, output};
use crate::judge::Because;
use crate::judge::{self, Context};
use crate::problem::{Problem, ProblemId, ProblemSet, SPEC_FILE};
use crate::verdict::Overall;
pub use summary::{class_overall, describe, describe_identical, issue_text, problem_info};

/// What `grade` was asked to do.
#[derive(Debug, Clone)]
pub struct GradeOptions {
    pub dir: PathBuf,
    /// `--problem ID`: one file per student, all for this problem.
    pub problem: Option<String>,
    /// Tests run at once (already checked against the machine).
    pub jobs: usize,
    pub out: PathBuf,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub feedback: FeedbackLevel,
    /// `--all`: run every test, even after its group has failed.
    pub all: bool,
}

/// How a run ended.
#[derive(Debug)]
pub struct RunSummary {
    /// Submissions judged by this run.
    pub judged: usize,
    /// Submissions whose result came from the journal.
    pub reused: usize,
    /// The signal that stopped the run before it finished.
    pub interrupted: Option<i32>,
    /// How what was judged went (the CLI turns it into an exit code of
    /// docs/reference.md).
    pub overall: Overall,
    /// Lines for stdout: where the reports are, what was found.
    pub lines: Vec<String>,
}

/// Grades a class, telling `sink` everything that happens: notes, the
/// plan, each submission and test, the interrupt, and the finished class
/// (from which the reports are written).
pub fn grade(
    set: &ProblemSet,
    ctx: &Context,
    opts: &GradeOptions,
    sink: &mut dyn EventSink,
) -> Result<RunSummary, BatchError> {
    if !opts.dir.is_dir() {
        return Err(BatchError::Usage(Because::new(format!(
            "{}: not a folder (grade takes the folder of submissions: one file or one folder per student)",
            opts.dir.display()
        ))));
    }
    refuse_earlier_run(&opts.out, opts.resume)?;
    let fixed = match &opts.problem {
        Some(id) => Some(
            set.find(id)
                .map_err(|e| BatchError::Usage(Because::cause(e)))?,
        ),
        None => None,
    };
    let is_problem =
        |name: &str| !name.contains('/') && set.dir.join(name).join(SPEC_FILE).is_file();
    let layout = Layout {
        problem: fixed.as_ref().map(|p| p.id.0.as_str()),
        is_problem: &is_problem,
        languages: &ctx.languages,
        skip: where_it_would_be(&opts.out),
    };
    let walked = walk::walk(&opts.dir, &layout).map_err(|e| {
        BatchError::Usage(Because::of(
            format!("{}: cannot read the folder", opts.dir.display()),
            e,
        ))
    })?;
    if walked.students.is_empty() && walked.issues.is_empty() {
        return Err(BatchError::Usage(Because::new(format!(
            "{}: no submissions found (expected one folder per student, or one file per student with --problem ID)",
            opts.dir.display()
        ))));
    }
    for issue in &walked.issues {
        note(
            sink,
            &format!(
                "{}: {}",
                opts.dir.join(&issue.path).display(),
                issue_text(issue)
            ),
        )?;
    }

    // The problems: the one named, or every one a file is named after.
    let mut problems: BTreeMap<ProblemId, Problem> = BTreeMap::new();
    if let Some(p) = fixed {
        problems.insert(p.id.clone(), p);
    } else {
        let ids: BTreeSet<&ProblemId> = walked
            .items
            .iter()
            .map(|i| &i.problem)
            .chain(walked.issues.iter().filter_map(|i| i.problem.as_ref()))
            .collect();
        for id in ids {
            let p = set
                .find(id.as_str())
                .map_err(|e| BatchError::Usage(Because::cause(e)))?;
            problems.insert(id.clone(), p);
        }
    }
    let plan = Plan {
        version: FORMAT_VERSION,
        shard: opts.shard,
        feedback: opts.feedback,
        students: walked.students,
        problems: problems.values().map(problem_info).collect(),
        items: walked.items,
        issues: walked.issues,
    };

    let out = &opts.out;
    let (mut journal, loaded) = open_out(out, opts, sink)?;
    output::write_plan(out, &plan)?;

    let share: Vec<_> = plan
        .items
        .iter()
        .filter(|i| opts.shard.is_none_or(|s| s.owns(i)))
        .cloned()
        .collect();
    let (run, records) = prepare_and_judge(
        ctx,
        &problems,
        &share,
        Batch {
            root: &opts.dir,
            jobs: opts.jobs,
            all: opts.all,
            shrink: opts.feedback == FeedbackLevel::FirstFail,
            people: People::Students,
        },
        loaded.records,
        &mut journal,
        sink,
    )?;
    let mut summary = RunSummary {
        judged: run.judged,
        reused: run.reused,
        interrupted: run.interrupted,
        overall: Overall::Accepted,
        lines: Vec::new(),
    };
    if run.interrupted.is_some() {
        return Ok(summary);
    }

    if let Some(shard) = opts.shard {
        let mine: Vec<&Record> = share.iter().filter_map(|i| records.get(&i.key())).collect();
        summary.overall = Overall::of(
            mine.iter()
                .filter_map(|r| r.result.as_ref().map(|r| r.verdict)),
            mine.iter().any(|r| r.result.is_none()),
        );
        summary.lines.push(format!(
            "shard {shard}: {} of {} submissions judged into {}; combine the shards with `grundy merge OUT... --out DIR`",
            mine.len(),
            plan.items.len(),
            out.display()
        ));
        return Ok(summary);
    }
    let class = ClassReport::new(&plan, &records);
    summary.lines.push(describe(&class));
    summary.lines.extend(describe_identical(&class));
    sink.event(&Event::ClassFinished { out, class: &class })
        .map_err(BatchError::Reporter)?;
    summary.overall = class_overall(&class);
    Ok(summary)
}

/// The canonical path `path` has or would have: the output folder may sit
/// inside the class folder (`grade .`), and is never a student, whether it
/// exists yet or not.
fn where_it_would_be(path: &Path) -> Option<PathBuf> {
    if let Ok(p) = path.canonicalize() {
        return Some(p);
    }
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    Some(parent.canonicalize().ok()?.join(path.file_name()?))
}

/// Opens OUT and its journal: a fresh run needs an empty OUT (or one with
/// no journal), a resumed one the same shard.
fn open_out(
    out: &Path,
    opts: &GradeOptions,
    sink: &mut dyn EventSink,
) -> Result<(Journal, journal::Loaded), BatchError> {
    if opts.resume
        && let Some(old) = output::read_plan(out)?
        && old.shard != opts.shard
    {
        let show = |s: Option<Shard>| s.map_or("no shard".to_string(), |s| format!("--shard {s}"));
        return Err(BatchError::Usage(Because::new(format!(
            "{} was graded with {}: resume it with the same",
            out.display(),
            show(old.shard)
        ))));
    }
    open_journal(out, opts.resume, sink)
}

/// Tells `sink` a line for the person running the command.
pub fn note(sink: &mut dyn EventSink, line: &str) -> Result<(), BatchError> {
    sink.event(&Event::Note(line)).map_err(BatchError::Reporter)
}

/// Without `resume`, refuses an OUT that holds an earlier run (a journal
/// with something in it): mixing two runs' results silently would be
/// worse. Checked first, before any line about the class, so that the
/// refusal is not lost under them.
pub fn refuse_earlier_run(out: &Path, resume: bool) -> Result<(), BatchError> {
    let started = std::fs::metadata(out.join(journal::FILE_NAME)).is_ok_and(|m| m.len() > 0);
    if started && !resume {
        return Err(BatchError::Usage(Because::new(format!(
            "{} holds an earlier run ({}): add --resume to continue it, or remove it (or choose another --out) to start again",
            out.display(),
            journal::FILE_NAME
        ))));
    }
    Ok(())
}

/// Creates OUT and opens its journal. Without `resume`, OUT must not hold
/// an earlier run: mixing two runs' results silently would be worse.
pub fn open_journal(
    out: &Path,
    resume: bool,
    sink: &mut dyn EventSink,
) -> Result<(Journal, journal::Loaded), BatchError> {
    std::fs::create_dir_all(out).map_err(|e| {
        BatchError::Usage(Because::of(
            format!("{}: cannot create the output folder", out.display()),
            e,
        ))
    })?;
    let journal_path = out.join(journal::FILE_NAME);
    refuse_earlier_run(out, resume)?;
    let (journal, loaded) = Journal::open(out)
        .map_err(|e| BatchError::Usage(Because::of(journal_path.display().to_string(), e)))?;
    if loaded.torn_tail {
        note(
            sink,
            &format!(
                "{}: ignored a torn last line (a write cut short)",
                journal.path().display()
            ),
        )?;
    }
    for n in &loaded.bad_lines {
        note(
            sink,
            &format!("{}:{n}: unreadable line, ignored", journal.path().display()),
        )?;
    }
    Ok((journal, loaded))
}

/// What judging a share of items did.
pub struct Judged {
    pub judged: usize,
    pub reused: usize,
    /// Results (not "could not judge") among the judged.
    pub finished: usize,
    pub interrupted: Option<i32>,
}

/// Judges the items of `share` that have no result in `records` yet (each
/// distinct item once), stopping cleanly on Ctrl-C or SIGTERM; new records
/// go to the journal and into `records`. `sink` hears the plan first, then
/// each submission and test, and how an interrupt left things. With
/// `shrink`, each first failing input is also shrunk for feedback.
#[allow(clippy::too_many_arguments)] // one call per command, each argument named there
pub fn judge_items(
    ctx: &Context,
    ready: &BTreeMap<ProblemId, ReadyProblem>,
    root: &Path,
    (jobs, people): (usize, People),
    shrink: bool,
    share: &[Item],
    records: &mut BTreeMap<ItemKey, Record>,
    journal: &mut Journal,
    interrupt: &Interrupt,
    sink: &mut dyn EventSink,
) -> Result<Judged, BatchError> {
    let done = |key: &ItemKey| records.get(key).is_some_and(|r| r.result.is_some());
    let mut todo: Vec<Item> = share.iter().filter(|i| !done(&i.key())).cloned().collect();
    todo.sort();
    todo.dedup();
    let distinct: BTreeSet<ItemKey> = share.iter().map(Item::key).collect();
    let reused = distinct.len() - todo.len();
    let work = todo
        .iter()
        .filter_map(|i| {
            let p = ready.get(&i.problem)?;
            let limits = &p.prepared.problem.limits;
            let multiplier = ctx
                .languages
                .detect(&root.join(&i.file))
                .ok()
                .filter(|_| limits.language_allowance)
                .map_or(1.0, |l| l.time_multiplier);
            Some(PlannedWork {
                item: i.clone(),
                tests: p.prepared.tests.len(),
                wall_limit: crate::sandbox::RunLimits::wall_for(limits.time.mul_f64(multiplier)),
            })
        })
        .collect();
    let planned = Planned {
        people,
        students: share
            .iter()
            .map(|i| &i.student)
            .collect::<BTreeSet<_>>()
            .len(),
        problems: share
            .iter()
            .map(|i| &i.problem)
            .collect::<BTreeSet<_>>()
            .len(),
        submissions: distinct.len(),
        reused,
        reused_verdicts: distinct
            .iter()
            .filter_map(|k| records.get(k).and_then(|r| r.result.as_ref()))
            .map(|r| r.verdict)
            .collect(),
        tests: todo
            .iter()
            .filter_map(|i| ready.get(&i.problem))
            .map(|p| p.prepared.tests.len())
            .sum(),
        jobs,
        work,
    };
    sink.event(&Event::Started(&planned))
        .map_err(BatchError::Reporter)?;
    let engine = Engine {
        ctx,
        problems: ready,
        root,
        jobs,
        cancel: interrupt.flag(),
        shrink,
        earlier: &*records,
    };
    let fresh = engine.run(&todo, journal, sink)?;
    let judged = fresh.len();
    let finished = fresh.iter().filter(|r| r.result.is_some()).count();
    for r in fresh {
        records.insert(r.key(), r);
    }
    let interrupted = interrupt.signal().filter(|_| judged < todo.len());
    if let Some(signal) = interrupted {
        sink.event(&Event::Interrupted(&Interrupted {
            signal,
            kept: reused + finished,
            total: distinct.len(),
            journal: journal.path(),
        }))
        .map_err(BatchError::Reporter)?;
    }
    Ok(Judged {
        judged,
        reused,
        finished,
        interrupted,
    })
}

/// When a signal arrived while the problems were being prepared (the
/// references it cancelled then fail because of it, not of the problem):
/// says so as an interrupted run that judged nothing, so that the command
/// stops as it does mid-judging, pointing at `--resume`.
pub fn stopped_while_preparing(
    interrupt: &Interrupt,
    share: &[Item],
    earlier: &[Record],
    journal: &Journal,
    sink: &mut dyn EventSink,
) -> Result<Option<Judged>, BatchError> {
    let Some(signal) = interrupt.signal() else {
        return Ok(None);
    };
    let distinct: BTreeSet<ItemKey> = share.iter().map(Item::key).collect();
    let kept = earlier
        .iter()
        .filter(|r| r.result.is_some() && distinct.contains(&r.key()))
        .map(Record::key)
        .collect::<BTreeSet<_>>()
        .len();
    sink.event(&Event::Interrupted(&Interrupted {
        signal,
        kept,
        total: distinct.len(),
        journal: journal.path(),
    }))
    .map_err(BatchError::Reporter)?;
    Ok(Some(Judged {
        judged: 0,
        reused: kept,
        finished: 0,
        interrupted: Some(signal),
    }))
}

/// The latest record of each item, keeping only those judged on the
/// problem's current tests.
pub fn latest(
    records: Vec<Record>,
    ready: &BTreeMap<ProblemId, ReadyProblem>,
) -> BTreeMap<ItemKey, Record> {
    let mut map = BTreeMap::new();
    for r in records {
        let current = ready.get(&r.problem).is_none_or(|p| p.key == r.problem_key);
        if current {
            map.insert(r.key(), r);
        }
    }
    map
}

/// How a batch judges its items: where their files are, `--jobs`,
/// `--all`, and whether a failure is shrunk for feedback.
pub struct Batch<'a> {
    pub root: &'a Path,
    pub jobs: usize,
    pub all: bool,
    pub shrink: bool,
    /// Who hands in the submissions, as the lines name them.
    pub people: People,
}

/// What `grade` and `contest` share: installs the signal handlers,
/// prepares the problems `items` need and judges the items not judged yet
/// (`earlier` holds the journal's records). A signal during preparation
/// ends the run there (see [`stopped_while_preparing`]), with no records.
#[allow(clippy::too_many_arguments)]
pub fn prepare_and_judge(
    ctx: &Context,
    problems: &BTreeMap<ProblemId, Problem>,
    items: &[Item],
    batch: Batch<'_>,
    earlier: Vec<Record>,
    journal: &mut Journal,
    sink: &mut dyn EventSink,
) -> Result<(Judged, BTreeMap<ItemKey, Record>), BatchError> {
    let interrupt = Interrupt::install(&ctx.sandbox.cancel)
        .map_err(|e| BatchError::Internal(Because::of("cannot handle signals", e)))?;
    let prepared = prepare_problems(
        problems,
        items.iter().map(|i| &i.problem),
        ctx,
        batch.all,
        sink,
    );
    if let Some(stopped) = stopped_while_preparing(&interrupt, items, &earlier, journal, sink)? {
        return Ok((stopped, BTreeMap::new()));
    }
    let ready = prepared?;
    let mut records = latest(earlier, &ready);
    let run = judge_items(
        ctx,
        &ready,
        batch.root,
        (batch.jobs, batch.people),
        batch.shrink,
        items,
        &mut records,
        journal,
        &interrupt,
        sink,
    )?;
    Ok((run, records))
}

/// Prepares (tests, answers, checker) each problem that has work.
pub fn prepare_problems<'a>(
    problems: &BTreeMap<ProblemId, Problem>,
    needed: impl Iterator<Item = &'a ProblemId>,
    ctx: &Context,
    all: bool,
    sink: &mut dyn EventSink,
) -> Result<BTreeMap<ProblemId, ReadyProblem>, BatchError> {
    let needed: BTreeSet<&ProblemId> = needed.collect();
    let mut ready = BTreeMap::new();
    for id in needed {
        let Some(problem) = problems.get(id) else {
            continue;
        };
        note(
            sink,
            &format!("preparing {id} (tests and reference answers)"),
        )?;
        let prepared = judge::prepare(problem, ctx)?;
        ready.insert(id.clone(), ReadyProblem::new(prepared, all));
    }
    Ok(ready)
}
