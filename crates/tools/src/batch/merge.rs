//! `grundy merge OUT1 OUT2 … --out OUT`: the outputs of the shards of one
//! class become the reports an unsharded run would have written.
//!
//! Every shard walked the whole folder and wrote the whole plan, so the
//! plans must agree (same students, problems, files and contents); every
//! shard of `N` must be there; and every item needs a record. Anything else
//! is refused with a message saying which output is missing or different.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::event::{Event, EventSink};
use super::grade::{RunSummary, class_overall, describe};
use super::journal;
use super::model::{ClassReport, FeedbackLevel, ItemKey, Plan, Record};
use super::{BatchError, output};
use crate::judge::Because;

pub struct MergeOptions {
    pub inputs: Vec<PathBuf>,
    pub out: PathBuf,
    /// Replaces the feedback level the shards were run with.
    pub feedback: Option<FeedbackLevel>,
}

/// Merges the shards; the merged class goes to `sink`
/// ([`Event::ClassFinished`]), whose consumer writes the reports.
pub fn merge(opts: &MergeOptions, sink: &mut dyn EventSink) -> Result<RunSummary, BatchError> {
    if opts.inputs.is_empty() {
        return Err(BatchError::Usage(Because::new(
            "merge needs the output folders of the shards",
        )));
    }
    let mut plan: Option<(PathBuf, Plan)> = None;
    let mut shards: BTreeMap<u32, Vec<PathBuf>> = BTreeMap::new();
    let mut count = None;
    let mut records: BTreeMap<ItemKey, Record> = BTreeMap::new();
    for dir in &opts.inputs {
        let this = output::read_plan(dir)?.ok_or_else(|| {
            BatchError::Usage(Because::new(format!(
                "{}: no {} here: not the output of `grundy grade` (or of a shard of it)",
                dir.display(),
                output::PLAN_FILE
            )))
        })?;
        match &plan {
            None => plan = Some((dir.clone(), this.clone())),
            Some((first_dir, first)) => {
                if !same_class(first, &this) {
                    return Err(BatchError::Usage(Because::new(format!(
                        "{} and {} graded different classes (their plans differ: students, problems or files); merge only the shards of one run",
                        first_dir.display(),
                        dir.display()
                    ))));
                }
            }
        }
        if let Some(s) = this.shard {
            if count.is_some_and(|c| c != s.count) {
                return Err(BatchError::Usage(Because::new(format!(
                    "{}: shard {s} does not belong with shards of {} (different N)",
                    dir.display(),
                    count.unwrap_or(0)
                ))));
            }
            count = Some(s.count);
            shards.entry(s.index).or_default().push(dir.clone());
        }
        let loaded = journal::read(&dir.join(journal::FILE_NAME)).map_err(|e| {
            BatchError::Usage(Because::of(
                format!("{}: cannot read the journal", dir.display()),
                e,
            ))
        })?;
        for r in loaded.records {
            // A result beats an earlier "could not judge" of the same item.
            let keep_old = r.result.is_none()
                && records
                    .get(&r.key())
                    .is_some_and(|old| old.result.is_some());
            if !keep_old {
                records.insert(r.key(), r);
            }
        }
    }
    let Some((_, mut plan)) = plan else {
        return Err(BatchError::Usage(Because::new(
            "merge needs the output folders of the shards",
        )));
    };
    if let Some(n) = count {
        let missing: Vec<String> = (0..n)
            .filter(|k| !shards.contains_key(k))
            .map(|k| format!("{k}/{n}"))
            .collect();
        if !missing.is_empty() {
            return Err(BatchError::Usage(Because::new(format!(
                "shard {} missing: give the output folders of all {n} shards",
                missing.join(", ")
            ))));
        }
    }
    let unjudged: Vec<&str> = plan
        .items
        .iter()
        .filter(|i| !records.contains_key(&i.key()))
        .map(|i| i.file.as_str())
        .collect();
    if !unjudged.is_empty() {
        return Err(BatchError::Usage(Because::new(format!(
            "{} no result in these outputs (first: {}): a shard did not finish; run it again with --resume, then merge",
            if unjudged.len() == 1 {
                "1 submission has".to_string()
            } else {
                format!("{} submissions have", unjudged.len())
            },
            unjudged[0]
        ))));
    }

    plan.shard = None;
    if let Some(level) = opts.feedback {
        plan.feedback = level;
    }
    let out = &opts.out;
    std::fs::create_dir_all(out).map_err(|e| {
        BatchError::Usage(Because::of(
            format!("{}: cannot create the output folder", out.display()),
            e,
        ))
    })?;
    let journal_path = out.join(journal::FILE_NAME);
    let inputs: BTreeSet<PathBuf> = opts
        .inputs
        .iter()
        .filter_map(|p| p.canonicalize().ok())
        .collect();
    let is_input = out.canonicalize().is_ok_and(|o| inputs.contains(&o));
    if is_input || std::fs::metadata(&journal_path).is_ok_and(|m| m.len() > 0) {
        return Err(BatchError::Usage(Because::new(format!(
            "{} already holds a run: merge into a new folder",
            out.display()
        ))));
    }
    // The merged folder is a finished run of its own: plan, journal, reports.
    output::write_plan(out, &plan)?;
    let mut lines = Vec::new();
    for r in records.values() {
        let mut line =
            serde_json::to_vec(r).map_err(|e| BatchError::Internal(Because::cause(e)))?;
        line.push(b'\n');
        lines.extend(line);
    }
    output::atomic_write(&journal_path, &lines).map_err(|e| {
        BatchError::Internal(Because::of(
            format!("cannot write {}", journal_path.display()),
            e,
        ))
    })?;
    let class = ClassReport::new(&plan, &records);
    let mut lines = vec![describe(&class)];
    lines.extend(super::grade::describe_identical(&class));
    sink.event(&Event::ClassFinished { out, class: &class })
        .map_err(BatchError::Reporter)?;
    Ok(RunSummary {
        judged: 0,
        reused: records.len(),
        interrupted: None,
        overall: class_overall(&class),
        lines,
    })
}

/// Whether two plans describe the same class (shard and feedback aside).
fn same_class(a: &Plan, b: &Plan) -> bool {
    a.students == b.students
        && a.problems == b.problems
        && a.items == b.items
        && a.issues == b.issues
}
