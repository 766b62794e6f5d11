//! The time a batch run has left, from what is left to do.
//!
//! An estimate from the elapsed rate (tests done per second) swings with
//! what happened to run first: a resumed run that spent its first seconds
//! preparing says minutes for seconds of work, and a run waiting on one
//! long test says the same few seconds until the test ends. Here each test
//! left costs what the tests of its problem in its language cost so far
//! (their wall time; a test that times out costs its wall limit, as it was
//! measured), a test running for longer than that is taken to run to its
//! wall limit, and the work left is divided by the rate at which this run
//! gets through test time (which counts `--jobs` and every overhead).
//!
//! What is shown counts down between estimates and does not go up again
//! for a small change: only a new estimate well above it (a run of
//! time-outs, a slower language's turn) replaces it. Until a test of the
//! run has finished nothing is known, and nothing is shown.

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use crate::batch::event::PlannedWork;
use crate::batch::model::Item;
use crate::problem::ProblemId;

/// A new estimate replaces the countdown shown when it is above it by
/// more than this share…
const RAISE_SHARE: f64 = 0.25;
/// …and this much.
const RAISE_MIN: Duration = Duration::from_secs(3);
/// Judging must have run this long for its rate to mean anything.
const MIN_ELAPSED: Duration = Duration::from_secs(1);

/// A running mean of test costs, in seconds.
#[derive(Debug, Default, Clone, Copy)]
struct Mean {
    sum: f64,
    n: usize,
}

impl Mean {
    fn add(&mut self, x: f64) {
        self.sum += x;
        self.n += 1;
    }

    fn get(&self) -> Option<f64> {
        (self.n > 0).then(|| self.sum / self.n as f64)
    }
}

/// What a submission has left.
#[derive(Debug)]
struct Left {
    tests: usize,
    wall_limit: Duration,
    /// While it runs: when its last test ended (or it started).
    since: Option<Instant>,
}

/// The language of a submission, as far as costs go: its extension.
fn language(item: &Item) -> String {
    item.file
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// The estimate of a run's time left.
#[derive(Debug)]
pub struct Eta {
    started: Instant,
    costs: HashMap<(ProblemId, String), Mean>,
    by_problem: HashMap<ProblemId, Mean>,
    all: Mean,
    left: BTreeMap<Item, Left>,
    shown: Option<(Instant, Duration)>,
}

impl Eta {
    /// An estimate for `work`, judging from `now`.
    pub fn new(now: Instant, work: &[PlannedWork]) -> Eta {
        Eta {
            started: now,
            costs: HashMap::new(),
            by_problem: HashMap::new(),
            all: Mean::default(),
            left: work
                .iter()
                .map(|w| {
                    (
                        w.item.clone(),
                        Left {
                            tests: w.tests,
                            wall_limit: w.wall_limit,
                            since: None,
                        },
                    )
                })
                .collect(),
            shown: None,
        }
    }

    /// `item`'s judging began.
    pub fn started(&mut self, item: &Item, now: Instant) {
        if let Some(l) = self.left.get_mut(item) {
            l.since = Some(now);
        }
    }

    /// One of `item`'s tests took `wall`.
    pub fn test(&mut self, item: &Item, wall: Duration, now: Instant) {
        let secs = wall.as_secs_f64();
        self.costs
            .entry((item.problem.clone(), language(item)))
            .or_default()
            .add(secs);
        self.by_problem
            .entry(item.problem.clone())
            .or_default()
            .add(secs);
        self.all.add(secs);
        if let Some(l) = self.left.get_mut(item) {
            l.tests = l.tests.saturating_sub(1);
            l.since = Some(now);
        }
    }

    /// `item` is done (its tests not run cost nothing).
    pub fn finished(&mut self, item: &Item) {
        self.left.remove(item);
    }

    /// What one test of `item` is expected to cost, in seconds.
    fn cost(&self, item: &Item) -> f64 {
        self.costs
            .get(&(item.problem.clone(), language(item)))
            .and_then(Mean::get)
            .or_else(|| self.by_problem.get(&item.problem).and_then(Mean::get))
            .or_else(|| self.all.get())
            .unwrap_or(0.0)
    }

    /// The time left, as of `now`; `None` until it can be known.
    pub fn left(&mut self, now: Instant) -> Option<Duration> {
        if self.left.is_empty() {
            return Some(Duration::ZERO);
        }
        let elapsed = now.saturating_duration_since(self.started);
        if self.all.n == 0 || elapsed < MIN_ELAPSED {
            return None;
        }
        // Test time got through so far (the tests running included) and
        // test time left.
        let mut done = self.all.sum;
        let mut todo = 0.0;
        for (item, l) in &self.left {
            let cost = self.cost(item);
            match l.since {
                Some(since) if l.tests > 0 => {
                    let running = now.saturating_duration_since(since).as_secs_f64();
                    done += running;
                    // A test past the usual cost is taken to run to its
                    // wall limit (a program that sleeps, or spins to TLE).
                    let rest = if running < cost {
                        cost - running
                    } else {
                        (l.wall_limit.as_secs_f64() - running).max(0.0)
                    };
                    todo += rest + (l.tests - 1) as f64 * cost;
                }
                _ => todo += l.tests as f64 * cost,
            }
        }
        if done <= 0.0 {
            return None;
        }
        let rate = done / elapsed.as_secs_f64();
        let estimate = Duration::from_secs_f64((todo / rate).min(1e9));
        let shown = match self.shown {
            Some((at, value)) => {
                let countdown = value.saturating_sub(now.saturating_duration_since(at));
                let raise = countdown.mul_f64(1.0 + RAISE_SHARE) + RAISE_MIN;
                if countdown.is_zero() || estimate <= countdown || estimate > raise {
                    self.shown = Some((now, estimate));
                    estimate
                } else {
                    countdown
                }
            }
            None => {
                self.shown = Some((now, estimate));
                estimate
            }
        };
        Some(shown)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work(n: usize, tests: usize, ext: &str) -> Vec<PlannedWork> {
        (0..n)
            .map(|i| PlannedWork {
                item: Item {
                    student: format!("s{i:02}"),
                    problem: ProblemId("nim".into()),
                    file: format!("s{i:02}.{ext}"),
                    sha: i.to_string(),
                },
                tests,
                wall_limit: Duration::from_secs(6),
            })
            .collect()
    }

    const S: fn(u64) -> Duration = Duration::from_secs;

    /// Judges `w` one test after another, each taking `cost`, from `t`.
    fn judge(eta: &mut Eta, w: &PlannedWork, t: &mut Instant, cost: Duration) {
        eta.started(&w.item, *t);
        for _ in 0..w.tests {
            *t += cost;
            eta.test(&w.item, cost, *t);
        }
        eta.finished(&w.item);
    }

    #[test]
    fn nothing_is_known_before_a_test_ends_and_then_the_work_left_is_counted() {
        let t0 = Instant::now();
        let w = work(10, 4, "c");
        let mut eta = Eta::new(t0, &w);
        assert_eq!(eta.left(t0 + S(5)), None, "no test has ended");
        let mut t = t0;
        judge(&mut eta, &w[0], &mut t, S(1));
        // Nine submissions of four one-second tests left, one at a time.
        assert_eq!(eta.left(t), Some(S(36)));
        judge(&mut eta, &w[1], &mut t, S(1));
        assert_eq!(eta.left(t), Some(S(32)));
    }

    #[test]
    fn a_resume_counts_only_what_is_left() {
        // Three submissions left of a class whose others were judged in an
        // earlier run: the estimate starts with this run's judging, and
        // counts this run's work.
        let t = Instant::now();
        let w = work(3, 4, "py");
        let mut eta = Eta::new(t, &w);
        eta.started(&w[0].item, t);
        eta.test(&w[0].item, S(1), t + S(1));
        assert_eq!(eta.left(t + S(1)), Some(S(11)));
    }

    #[test]
    fn it_counts_down_and_does_not_go_up_for_a_little_slower_test() {
        let t0 = Instant::now();
        let w = work(10, 4, "c");
        let mut eta = Eta::new(t0, &w);
        let mut t = t0;
        judge(&mut eta, &w[0], &mut t, S(1));
        assert_eq!(eta.left(t), Some(S(36)));
        eta.started(&w[1].item, t);
        // Half a second later, mid-test: the countdown.
        let mid = t + Duration::from_millis(500);
        assert_eq!(eta.left(mid), Some(Duration::from_millis(35_500)));
        // A test a little slower than the others: the new estimate is a
        // little above the countdown, which goes on.
        t += Duration::from_millis(1500);
        eta.test(&w[1].item, Duration::from_millis(1500), t);
        let after = eta.left(t).expect("known");
        assert_eq!(after, S(36) - Duration::from_millis(1500));
    }

    #[test]
    fn a_test_running_past_the_usual_cost_is_taken_to_its_wall_limit() {
        let t0 = Instant::now();
        let w = work(2, 1, "c");
        let mut eta = Eta::new(t0, &w);
        let mut t = t0;
        judge(&mut eta, &w[0], &mut t, S(1));
        assert_eq!(eta.left(t), Some(S(1)));
        // The last submission's test sleeps: after 2 s it is past the
        // usual 1 s, so it may run to its 6 s wall limit, 4 s more, and
        // the estimate goes up for that reason.
        eta.started(&w[1].item, t);
        let later = t + S(2);
        let left = eta.left(later).expect("known");
        assert!(left >= S(4), "{left:?}");
    }

    #[test]
    fn a_finished_run_has_nothing_left() {
        let t0 = Instant::now();
        let w = work(1, 2, "c");
        let mut eta = Eta::new(t0, &w);
        let mut t = t0;
        judge(&mut eta, &w[0], &mut t, S(1));
        assert_eq!(eta.left(t), Some(Duration::ZERO));
    }
}
