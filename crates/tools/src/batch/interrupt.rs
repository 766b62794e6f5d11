//! Stopping cleanly on Ctrl-C (SIGINT) and SIGTERM (what Slurm and
//! Kubernetes send before they kill).
//!
//! The first signal raises the judge's cancellation flag (its
//! [`crate::sandbox::Cancel`], which the sandbox's watchers check): no new
//! submission or test starts, the
//! programs running are killed within about 100 ms, and the submissions
//! they belonged to are left unrecorded (resume judges them again). Every
//! finished record is already in the journal, and the working folders are
//! removed as the stack unwinds normally. A second SIGINT exits at once
//! (code 130); the programs still running die with the judge (they are
//! started with a parent-death signal), and the next judge removes the
//! temporary folder left behind.

use std::io;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use signal_hook::consts::{SIGINT, SIGTERM};

/// The installed handlers. They stay for the life of the process: removing
/// them would leave Ctrl-C ignored rather than restore its default.
pub struct Interrupt {
    flag: Arc<AtomicBool>,
    which: Arc<AtomicUsize>,
}

impl Interrupt {
    /// Installs the handlers for SIGINT and SIGTERM; they set `cancel`.
    pub fn install(cancel: &crate::sandbox::Cancel) -> io::Result<Interrupt> {
        let flag = cancel.flag();
        let which = Arc::new(AtomicUsize::new(0));
        for sig in [SIGINT, SIGTERM] {
            // Registered before the flag, so it sees the flag of an earlier signal.
            if sig == SIGINT {
                signal_hook::flag::register_conditional_shutdown(sig, 130, Arc::clone(&flag))?;
            }
            signal_hook::flag::register(sig, Arc::clone(&flag))?;
            signal_hook::flag::register_usize(sig, Arc::clone(&which), sig as usize)?;
        }
        Ok(Interrupt { flag, which })
    }

    /// The flag to hand to the judge (set when a signal arrived).
    pub fn flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.flag)
    }

    /// The signal that stopped the run, if one did.
    pub fn signal(&self) -> Option<i32> {
        if self.flag.load(Ordering::SeqCst) {
            Some(self.which.load(Ordering::SeqCst) as i32)
                .filter(|&s| s != 0)
                .or(Some(SIGINT))
        } else {
            None
        }
    }
}
