//! The batch runner: judges many submissions on a few worker threads and
//! hands each finished record to the journal at once, and every start,
//! test and finish to the run's event sink (on the calling thread).
//!
//! `jobs` workers each take the next submission and run its tests, every
//! test run taking one of `jobs` slots shared by the whole batch
//! ([`Slots`]), so at most `jobs` tests use a CPU at any moment while
//! one submission's groups may run side by side: a program sleeping until
//! the wall-time limit in each group then overlaps its groups with each
//! other and with the rest of the class, and a slot freed by any
//! submission goes to whichever test asked first. A test that sleeps
//! lends its slot, and admits one more submission (up to `4 × jobs`
//! judgings and runs alive at once), so that sleepers overlap the rest
//! of the class even at `--jobs 1`. Meanwhile compiler
//! threads work ahead in the same order, filling the compile cache on the
//! cores the tests leave free, so that a worker usually finds its program
//! compiled.
//! Submissions with the same content, language and problem are judged
//! once and the result is given to each. Records reach the journal in the
//! order they finish; the reports sort them later.

mod ahead;
mod failing_input;

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, mpsc};

use super::BatchError;
use super::event::{Event, EventSink};
use super::journal::Journal;
use super::model::{Item, ItemKey, Record};
use crate::cache::Key;
use crate::judge::Because;
use crate::judge::{self, Context, Options, Prepared, Slots, TestResult, pool};
use crate::problem::ProblemId;
use crate::verdict::Verdict;
use ahead::{Ahead, LOOKAHEAD, compilers};
pub use failing_input::quote_input;
use failing_input::smallest_failing_input;

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
    let spec = crate::problem::file::read_regular(&p.problem.spec_path).unwrap_or_default();
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
            Err(e) => e.to_string().into_bytes(),
        });
    }
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Key::of(&refs).0
}

/// The last part of a class-relative path (`alice/nim.c` → `nim.c`).
fn file_name(file: &str) -> &str {
    file.rsplit('/').next().unwrap_or(file)
}

/// Runs judgings in parallel.
pub struct Engine<'a> {
    pub ctx: &'a Context,
    pub problems: &'a BTreeMap<ProblemId, ReadyProblem>,
    /// Item files are relative to this folder.
    pub root: &'a Path,
    pub jobs: usize,
    pub cancel: Arc<AtomicBool>,
    /// Shrink each first failing input to a smaller one that still fails
    /// (for `--feedback first-fail`).
    pub shrink: bool,
    /// Records kept from before (a resumed run): an item whose twin (same
    /// problem, language and content) has one takes its result, as items
    /// of one run share theirs, instead of being judged again.
    pub earlier: &'a BTreeMap<ItemKey, Record>,
}

/// Why an item's file no longer holds what the walk planned to judge: the
/// record's `error`, so a resumed run judges it again.
#[derive(Debug, thiserror::Error)]
enum Drift {
    #[error("the file changed while grading: run again with --resume")]
    Changed,
    #[error(transparent)]
    Unreadable(#[from] super::walk::SourceError),
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
        let units = self.units(todo);
        let slots = Arc::new(Slots::new(self.jobs));
        // A worker per judging that may be under way at once: `jobs` of
        // them, and one more per test that sleeps (its slot lent), which
        // the slots admit.
        let workers = slots.most_alive().clamp(1, units.len().max(1));
        let test_jobs = self.jobs.max(1);
        let ahead = Ahead::new(units.len(), LOOKAHEAD);
        let mut records = Vec::new();
        let mut failure = None;
        let stop = || self.cancel.load(Ordering::SeqCst);
        let work = |u: usize, tx: &mpsc::Sender<Message>| {
            // Admitted in the class's order (first come, first served).
            let Some(_admitted) = slots.admit(Some(&self.cancel)) else {
                return; // cancelled: `stop` ends the pool
            };
            ahead.claim(u, &self.cancel);
            // The receiver lives until every worker is done: a unit ends
            // early only when cancelled, which `stop` sees.
            let _ = self.judge_unit(&units[u], todo, test_jobs, &slots, tx);
        };
        std::thread::scope(|s| {
            for _ in 0..compilers(self.jobs) {
                let (units, ahead) = (&units, &ahead);
                s.spawn(move || self.compile_ahead(units, todo, ahead));
            }
            pool::run(workers, units.len(), &stop, &work, |message| {
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
                            failure = Some(BatchError::Internal(Because::of(
                                format!("cannot write the journal {}", journal.path().display()),
                                e,
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
            // Every worker has ended: the compilers have nothing to work ahead of.
            ahead.close();
        });
        match failure {
            Some(e) => Err(e),
            None => Ok(records),
        }
    }

    /// The items of `todo` grouped by what judging them depends on: the
    /// problem, the language and the content (what the compile cache keys
    /// on, plus the tests). Each group is judged once, for its first item,
    /// and the result is copied to the others: a class often holds the
    /// same file several times (a shared template, a copied solution), and
    /// judging it again would only measure the same runs again. Groups are
    /// in the order of their first item.
    fn units(&self, todo: &[Item]) -> Vec<Vec<usize>> {
        let mut units: Vec<Vec<usize>> = Vec::new();
        let mut seen: HashMap<(&ProblemId, &str, String), usize> = HashMap::new();
        for (i, item) in todo.iter().enumerate() {
            let lang = self
                .ctx
                .languages
                .detect(&self.root.join(&item.file))
                .map(|l| l.id.clone());
            // A file whose language is unknown is judged on its own, to
            // report its own error.
            let Ok(lang) = lang else {
                units.push(vec![i]);
                continue;
            };
            match seen.entry((&item.problem, item.sha.as_str(), lang)) {
                Entry::Occupied(u) => units[*u.get()].push(i),
                Entry::Vacant(v) => {
                    v.insert(units.len());
                    units.push(vec![i]);
                }
            }
        }
        units
    }

    /// Compiles the units' sources into the cache ahead of the workers, so
    /// that while a worker runs a submission's tests the next submissions
    /// are being compiled on another core: a worker then finds its program
    /// in the cache. Nothing is recorded here; what fails is compiled (and
    /// reported) again by the worker.
    fn compile_ahead(&self, units: &[Vec<usize>], todo: &[Item], ahead: &Ahead) {
        while let Some(u) = ahead.next_to_compile(&self.cancel) {
            if let Some(item) = units[u].first().map(|&i| &todo[i])
                && let Some(ready) = self.problems.get(&item.problem)
                && self.twin(item).is_none()
            {
                let path = self.root.join(&item.file);
                let languages = self.ctx.languages_for(&ready.prepared.problem);
                if let Ok(lang) = languages.detect(&path) {
                    let _ =
                        crate::language::compile(lang, &path, &self.ctx.cache, &self.ctx.sandbox);
                }
            }
            ahead.compiled(u);
        }
    }

    /// Judges the first item of `unit` and gives its result to the others
    /// (each still checked to hold what was planned). False when the run is
    /// over (cancelled, or nobody listens any more).
    fn judge_unit(
        &self,
        unit: &[usize],
        todo: &[Item],
        test_jobs: usize,
        slots: &Arc<Slots>,
        tx: &mpsc::Sender<Message>,
    ) -> bool {
        let Some((&first, rest)) = unit.split_first() else {
            return true;
        };
        if let Some(from) = self.twin(&todo[first]) {
            for &i in unit {
                if self.cancel.load(Ordering::SeqCst) {
                    return false;
                }
                let record = self.copy_record(i, &todo[i], from, tx);
                if tx.send(Message::Done(record)).is_err() {
                    return false;
                }
            }
            return true;
        }
        let Some(judged) = self.judge_one(first, &todo[first], test_jobs, slots, tx) else {
            return true; // cancelled: the loop stops at its next check
        };
        // A result is shared; why one file could not be judged is not.
        let shared = judged.result.is_some().then(|| judged.clone());
        if tx.send(Message::Done(judged)).is_err() {
            return false;
        }
        for &i in rest {
            if self.cancel.load(Ordering::SeqCst) {
                return false;
            }
            let item = &todo[i];
            let record = match &shared {
                Some(from) => Some(self.copy_record(i, item, from, tx)),
                None => self.judge_one(i, item, test_jobs, slots, tx),
            };
            let Some(record) = record else {
                return true;
            };
            if tx.send(Message::Done(record)).is_err() {
                return false;
            }
        }
        true
    }

    /// A record from before of a file with `item`'s problem, language and
    /// content, judged on the problem's current tests, with a result.
    fn twin(&self, item: &Item) -> Option<&Record> {
        if self.earlier.is_empty() {
            return None;
        }
        let ready = self.problems.get(&item.problem)?;
        let lang = self
            .ctx
            .languages
            .detect(&self.root.join(&item.file))
            .ok()?;
        self.earlier.values().find(|r| {
            r.problem == item.problem
                && r.sha == item.sha
                && r.problem_key == ready.key
                && r.result.as_ref().is_some_and(|res| res.language == lang.id)
        })
    }

    /// The record of `item`, whose content is that of `from`'s file: the
    /// same result, under its own student and file.
    fn copy_record(
        &self,
        index: usize,
        item: &Item,
        from: &Record,
        tx: &mpsc::Sender<Message>,
    ) -> Record {
        let tests = self
            .problems
            .get(&item.problem)
            .map_or(0, |p| p.prepared.tests.len());
        let _ = tx.send(Message::Started(index, tests));
        let mut record = Record {
            student: item.student.clone(),
            problem: item.problem.clone(),
            file: item.file.clone(),
            sha: item.sha.clone(),
            ..from.clone()
        };
        if let Some(why) = self.unchanged(item).err() {
            record.result = None;
            record.first_fail_input = None;
            record.smallest_failing_input = None;
            record.error = Some(why.to_string());
        } else if let Some(result) = &mut record.result {
            result.submission = item.file.clone();
            // The messages name the file as this student submitted it (a
            // folder's files keep their own names).
            if self.root.join(&item.file).is_file() {
                result.rename_source(file_name(&from.file), file_name(&item.file));
            }
        }
        record
    }

    /// Whether `item`'s file still holds what the walk found; why not.
    fn unchanged(&self, item: &Item) -> Result<(), Drift> {
        let path = self.root.join(&item.file);
        let sha = super::walk::sha256(&super::walk::read_source(&path)?);
        if sha == item.sha {
            Ok(())
        } else {
            Err(Drift::Changed)
        }
    }

    /// Judges item `index`, telling `tx` when it starts and as each test
    /// finishes; `None` when cancelled before its result was complete.
    fn judge_one(
        &self,
        index: usize,
        item: &Item,
        test_jobs: usize,
        slots: &Arc<Slots>,
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
        if let Err(why) = self.unchanged(item) {
            record.error = Some(why.to_string());
            return Some(record);
        }
        let options = Options {
            jobs: test_jobs,
            all: ready.all,
            cancel: Some(Arc::clone(&self.cancel)),
            slots: Some(Arc::clone(slots)),
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
                    // Shrinking runs the program one candidate at a time:
                    // one slot of the batch's `--jobs`.
                    let slot = slots.take(Some(&self.cancel));
                    if slot.is_some() {
                        record.smallest_failing_input =
                            smallest_failing_input(prepared, self.ctx, &path, &result);
                    }
                }
                record.result = Some(result);
            }
            Err(e) => {
                let root = format!("{}/", self.root.display());
                record.error = Some(e.message().replace(&root, ""));
            }
        }
        // Shrinking runs too: an interrupt during it would leave a less
        // shrunk input than an uninterrupted run finds.
        (!self.cancel.load(Ordering::SeqCst)).then_some(record)
    }
}
