//! The batch runner: judges many submissions on a few worker threads and
//! hands each finished record to the journal at once, and every start,
//! test and finish to the run's event sink (on the calling thread).
//!
//! `jobs` workers each take the next submission, compile it (once: the
//! compile cache is keyed by content) and run its tests one after the
//! other, so at most `jobs` tests run at any moment. When fewer submissions
//! than workers remain, the spare capacity goes to running one
//! submission's tests side by side. Records reach the journal in the order
//! they finish; the reports sort them later.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use super::BatchError;
use super::event::{Event, EventSink};
use super::journal::Journal;
use super::model::{Item, Record};
use crate::cache::Key;
use crate::judge::{self, Context, Options, Prepared, TestResult, pool};
use crate::verdict::Verdict;

/// How much of a failing test's input a feedback file may quote.
const INPUT_BYTES: usize = 1000;
const INPUT_LINES: usize = 20;

/// A problem ready for judging, with the fingerprint of its tests.
pub struct ReadyProblem {
    pub prepared: Prepared,
    pub key: String,
    /// `--all`: run the tests of a group after it has failed.
    pub all: bool,
}

impl ReadyProblem {
    /// The key also tells whether failed groups were cut short, so that a
    /// resumed run never mixes records of both kinds; a run with `--all`
    /// keeps the key records had before tests were ever skipped.
    pub fn new(prepared: Prepared, all: bool) -> ReadyProblem {
        let tests = fingerprint(&prepared);
        let key = if all {
            tests
        } else {
            Key::of(&[tests.as_bytes(), b"skip-after-group-failure"]).0
        };
        ReadyProblem { prepared, key, all }
    }
}

/// A fingerprint of what judging depends on: the spec file, and each test's
/// name, group, input and answer (their cache paths are content hashes).
fn fingerprint(p: &Prepared) -> String {
    let spec = std::fs::read(&p.problem.spec_path).unwrap_or_default();
    let mut parts: Vec<Vec<u8>> = vec![spec];
    for t in &p.tests {
        parts.push(t.name.clone().into_bytes());
        parts.push(t.group.clone().into_bytes());
        parts.push(
            t.input
                .file_name()
                .map(|n| n.as_encoded_bytes().to_vec())
                .unwrap_or_default(),
        );
        parts.push(match &t.answer {
            Ok(a) => a
                .file_name()
                .map(|n| n.as_encoded_bytes().to_vec())
                .unwrap_or_default(),
            Err(e) => e.clone().into_bytes(),
        });
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Key::of(&refs).0
}

/// Runs judgings in parallel.
pub struct Engine<'a> {
    pub ctx: &'a Context,
    pub problems: &'a BTreeMap<String, ReadyProblem>,
    /// Item files are relative to this folder.
    pub root: &'a Path,
    pub jobs: usize,
    pub cancel: Arc<AtomicBool>,
    /// Shrink each first failing input to a smaller one that still fails
    /// (for `--feedback first-fail`).
    pub shrink: bool,
}

/// What a worker tells the thread that owns the journal and the sink.
enum Message {
    Started(usize, usize),
    Test(usize, TestResult),
    Done(Record),
}

impl Engine<'_> {
    /// Judges `todo`, appending each record to `journal` as it arrives and
    /// telling `sink` what starts and finishes. Returns the new records;
    /// stops early (without error) when cancelled, and with an error when
    /// the journal cannot be written or the sink fails.
    pub fn run(
        &self,
        todo: &[Item],
        journal: &mut Journal,
        sink: &mut dyn EventSink,
    ) -> Result<Vec<Record>, BatchError> {
        let workers = self.jobs.clamp(1, todo.len().max(1));
        let test_jobs = (self.jobs / workers).max(1);
        let mut records = Vec::new();
        let mut failure = None;
        let stop = || self.cancel.load(Ordering::SeqCst);
        let work = |i: usize, tx: &mpsc::Sender<Message>| {
            if let Some(record) = self.judge_one(i, &todo[i], test_jobs, tx) {
                // The receiver lives until every worker is done.
                let _ = tx.send(Message::Done(record));
            }
        };
        pool::run(self.jobs, todo.len(), &stop, &work, |message| {
            if failure.is_some() {
                return; // draining: the workers stop at the next check
            }
            let told = match &message {
                Message::Started(i, tests) => sink.event(&Event::SubmissionStarted {
                    item: &todo[*i],
                    tests: *tests,
                }),
                Message::Test(i, result) => sink.event(&Event::TestFinished {
                    item: &todo[*i],
                    result,
                }),
                Message::Done(record) => {
                    if let Err(e) = journal.append(record) {
                        failure = Some(BatchError::Internal(format!(
                            "cannot write the journal {}: {e}",
                            journal.path().display()
                        )));
                        // Nothing more can be kept: stop everyone.
                        self.cancel.store(true, Ordering::SeqCst);
                        return;
                    }
                    sink.event(&Event::SubmissionFinished { record })
                }
            };
            if let Err(e) = told {
                failure = Some(BatchError::Reporter(e));
                self.cancel.store(true, Ordering::SeqCst);
                return;
            }
            if let Message::Done(record) = message {
                records.push(record);
            }
        });
        match failure {
            Some(e) => Err(e),
            None => Ok(records),
        }
    }

    /// Judges item `index`, telling `tx` when it starts and as each test
    /// finishes; `None` when cancelled before its result was complete.
    fn judge_one(
        &self,
        index: usize,
        item: &Item,
        test_jobs: usize,
        tx: &mpsc::Sender<Message>,
    ) -> Option<Record> {
        let ready = self.problems.get(&item.problem)?;
        // A closed channel means the run is over; the result is dropped then.
        let _ = tx.send(Message::Started(index, ready.prepared.tests.len()));
        let mut record = Record {
            student: item.student.clone(),
            problem: item.problem.clone(),
            file: item.file.clone(),
            sha: item.sha.clone(),
            problem_key: ready.key.clone(),
            result: None,
            error: None,
            first_fail_input: None,
            smallest_failing_input: None,
        };
        let path = self.root.join(&item.file);
        // The file may have changed since the walk: judge what was planned.
        match super::walk::read_source(&path).map(|b| super::walk::sha256(&b)) {
            Ok(sha) if sha == item.sha => {}
            Ok(_) => {
                record.error =
                    Some("the file changed while grading: run again with --resume".into());
                return Some(record);
            }
            Err(why) => {
                record.error = Some(why.to_string());
                return Some(record);
            }
        }
        let options = Options {
            jobs: test_jobs,
            all: ready.all,
            cancel: Some(Arc::clone(&self.cancel)),
            ..Options::default()
        };
        let prepared = &ready.prepared;
        let judged = judge::judge(prepared, self.ctx, &path, &options, &mut |event| {
            if let judge::Event::Test { result, .. } = event {
                let _ = tx.send(Message::Test(index, (*result).clone()));
            }
        });
        if self.cancel.load(Ordering::SeqCst) {
            // Runs stopped by the interrupt end in errors, not verdicts:
            // nothing judged from here on is recorded (resume judges it).
            return None;
        }
        match judged {
            Ok(mut result) => {
                let complete = !result.compile.ok
                    || result.tests.len() + result.skipped == prepared.tests.len();
                if !complete {
                    return None;
                }
                result.submission = item.file.clone();
                record.first_fail_input = result
                    .tests
                    .iter()
                    .find(|t| t.verdict != Verdict::AC)
                    .and_then(|t| prepared.tests.iter().find(|p| p.name == t.name))
                    .map(|t| quote_input(&t.input));
                if self.shrink {
                    record.smallest_failing_input =
                        smallest_failing_input(prepared, self.ctx, &path, &result);
                }
                record.result = Some(result);
            }
            Err(e) => {
                let root = format!("{}/", self.root.display());
                record.error = Some(e.to_string().replace(&root, ""));
            }
        }
        // Shrinking runs too: an interrupt during it would leave a less
        // shrunk input than an uninterrupted run finds.
        (!self.cancel.load(Ordering::SeqCst)).then_some(record)
    }
}

/// Candidates judged while shrinking one submission's failing input.
const SHRINK_CANDIDATES: usize = 200;
/// A safety net only: the candidate count is what bounds shrinking.
const SHRINK_TIME: std::time::Duration = std::time::Duration::from_secs(60);

/// A smaller input than the first failing test's on which the submission
/// gets the same verdict, when the problem's input format is known.
///
/// Only wrong answers are shrunk, by a count of candidates: their verdicts
/// do not depend on the machine's load, so a resumed run finds the same
/// input again.
fn smallest_failing_input(
    prepared: &Prepared,
    ctx: &Context,
    submission: &Path,
    result: &crate::judge::SubmissionResult,
) -> Option<String> {
    let failed = result.tests.iter().find(|t| t.verdict != Verdict::AC)?;
    if !matches!(failed.verdict, Verdict::WA | Verdict::PE) {
        return None;
    }
    let format = crate::catalog::entry(&prepared.problem.id.0)?.input_format()?;
    let test = prepared.tests.iter().find(|p| p.name == failed.name)?;
    let input = std::fs::read_to_string(&test.input).ok()?;
    let runner = crate::stress::Runner::new(&prepared.problem, ctx, submission, 1, None);
    let shrunk = crate::stress::shrink_within(
        &runner,
        &format,
        &input,
        failed.verdict,
        SHRINK_TIME,
        Some(SHRINK_CANDIDATES),
    )
    .ok()?;
    (shrunk.steps > 0).then(|| quote_text(&shrunk.input))
}

/// The start of a test input, for a student to read.
fn quote_input(path: &Path) -> String {
    let mut buf = Vec::new();
    let total = std::fs::metadata(path).map_or(0, |m| m.len());
    if let Ok(f) = std::fs::File::open(path) {
        let _ = f.take(INPUT_BYTES as u64).read_to_end(&mut buf);
    }
    quote(&String::from_utf8_lossy(&buf), total)
}

/// The start of an input held in memory, cut like [`quote_input`].
fn quote_text(text: &str) -> String {
    let head: String = text.chars().take(INPUT_BYTES).collect();
    quote(&head, text.len() as u64)
}

/// At most `INPUT_LINES` lines of `head`, saying so when the whole
/// (`total` bytes) was longer.
fn quote(head: &str, total: u64) -> String {
    let mut lines: Vec<&str> = head.split_inclusive('\n').take(INPUT_LINES).collect();
    let shown: usize = lines.iter().map(|l| l.len()).sum();
    let mut out: String = lines.drain(..).collect();
    if (shown as u64) < total {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&format!("[… cut: {total} bytes in all]\n"));
    }
    out
}
