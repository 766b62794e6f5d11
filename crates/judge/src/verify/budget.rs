//! What `verify` may spend: one overall budget for the whole check, and
//! the limits of each run of a package's own programs.
//!
//! A package's programs (input validators, generators, output validators,
//! interactors) are trusted, but a broken one can loop or sleep: with a
//! fixed minute per run, a validator that never ends costs a minute on
//! every test. Each run's limit is derived from the problem's time limit,
//! as the reference tools derive theirs, and the whole check has a budget:
//! when it runs out every run still going is stopped (the judge's own
//! cancellation, as on Ctrl-C) and verify says what was running.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::problem::{Bytes, Limits};
use crate::sandbox::Cancel;

/// The limits of one run of a package's input validator: CPU time from
/// the problem's time limit (`run_kind::validator_time`); the format's
/// `validation_memory` and `validation_output` defaults.
pub fn program_limits(time_limit: Duration) -> Limits {
    Limits {
        time: crate::run_kind::validator_time(time_limit),
        memory: Bytes::mib(2048),
        output: Bytes::mib(8),
        language_allowance: false,
    }
}

/// How [`program_limits`] are derived, for a message that names the limit.
pub fn program_limits_rule() -> String {
    crate::run_kind::validator_time_rule()
}

/// The overall budget of one `verify`: a watcher that cancels the judge's
/// runs when it runs out, and what was running then.
pub struct Budget {
    total: Duration,
    spent: Arc<AtomicBool>,
    /// What verify is doing now (see [`Budget::doing`]).
    now: Arc<Mutex<String>>,
    /// What it was doing when the budget ran out.
    at_end: Arc<Mutex<Option<String>>>,
    /// Tells the watcher that verify ended first.
    done: Option<std::sync::mpsc::Sender<()>>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl Budget {
    /// A budget of `total` from now, cancelling `cancel`'s runs when spent.
    pub fn start(total: Duration, cancel: Cancel) -> Budget {
        let spent = Arc::new(AtomicBool::new(false));
        let (done, ended) = std::sync::mpsc::channel::<()>();
        let flag = Arc::clone(&spent);
        let now = Arc::new(Mutex::new(String::new()));
        let at_end = Arc::new(Mutex::new(None));
        let (doing, stopped) = (Arc::clone(&now), Arc::clone(&at_end));
        let deadline = std::time::Instant::now() + total;
        let watcher = std::thread::spawn(move || {
            // Woken early when verify ends (the sender is dropped); spent
            // when the deadline passed first.
            let _ = ended.recv_timeout(total);
            if std::time::Instant::now() >= deadline {
                // What ran when it ran out: the steps after it only fail.
                if let (Ok(doing), Ok(mut stopped)) = (doing.lock(), stopped.lock()) {
                    *stopped = Some(doing.clone());
                }
                flag.store(true, Ordering::SeqCst);
                cancel.cancel();
            }
        });
        Budget {
            total,
            spent,
            at_end,
            now,
            done: Some(done),
            watcher: Some(watcher),
        }
    }

    /// The whole budget.
    pub fn total(&self) -> Duration {
        self.total
    }

    /// Whether it ran out (and runs were stopped).
    pub fn spent(&self) -> bool {
        self.spent.load(Ordering::SeqCst)
    }

    /// Records what verify runs now, for the message when the budget runs
    /// out while it runs.
    pub fn doing(&self, what: &str) {
        if let Ok(mut now) = self.now.lock() {
            now.clear();
            now.push_str(what);
        }
    }

    /// What verify was running when the budget ran out (else what it
    /// runs now).
    pub fn running(&self) -> String {
        if let Ok(at_end) = self.at_end.lock()
            && let Some(what) = at_end.as_ref()
        {
            return what.clone();
        }
        self.now.lock().map(|s| s.clone()).unwrap_or_default()
    }
}

impl Drop for Budget {
    fn drop(&mut self) {
        drop(self.done.take());
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spent_budget_cancels_the_runs() {
        let cancel = Cancel::default();
        let b = Budget::start(Duration::ZERO, cancel.clone());
        // The watcher cancels at once; dropping the budget waits for it.
        drop(b);
        assert!(cancel.is_cancelled());
        let cancel = Cancel::default();
        let b = Budget::start(Duration::from_secs(3600), cancel.clone());
        b.doing("reference");
        assert_eq!(b.running(), "reference");
        drop(b);
        assert!(!cancel.is_cancelled());
    }
}
