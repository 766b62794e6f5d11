//! What changed, told twice: written to the append-only `events` table
//! (each row an ICPC Contest API event: type, id, operation, the object as
//! that API shapes it), and announced to the pages listening over
//! server-sent events, which then fetch what they show.
//!
//! Announcements carry no secret: a page learns that submission 12
//! changed, or that the scoreboard did, and asks for what its viewer may
//! see. Who hears what is decided in [`Notice::audience`].

use std::collections::HashMap;

use rusqlite::{Connection, params};
use serde_json::Value;
use tokio::sync::broadcast;

use super::clock::Millis;
use super::db::{Context, DbResult};

/// The kinds of event-log rows (the Contest API's endpoint names).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    State,
    Teams,
    Problems,
    Submissions,
    Judgements,
    Runs,
    Clarifications,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::State => "state",
            Kind::Teams => "teams",
            Kind::Problems => "problems",
            Kind::Submissions => "submissions",
            Kind::Judgements => "judgements",
            Kind::Runs => "runs",
            Kind::Clarifications => "clarifications",
        }
    }
}

/// Create, update or delete.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Create,
    Update,
    Delete,
}

impl Op {
    fn name(self) -> &'static str {
        match self {
            Op::Create => "create",
            Op::Update => "update",
            Op::Delete => "delete",
        }
    }
}

/// Appends one row to the event log (inside the caller's transaction, so
/// that the change and its event are kept together or not at all).
pub fn log(c: &Connection, kind: Kind, id: &str, op: Op, data: &Value) -> DbResult<i64> {
    c.prepare_cached(
        "INSERT INTO events (time_ms, type, object_id, op, data) VALUES (?1, ?2, ?3, ?4, ?5)",
    )
    .and_then(|mut st| {
        st.execute(params![
            Millis::now().0,
            kind.name(),
            id,
            op.name(),
            data.to_string()
        ])
    })
    .what("cannot append to the event log")?;
    Ok(c.last_insert_rowid())
}

/// A change a listening page may want to show.
#[derive(Debug, Clone, PartialEq)]
pub enum Notice {
    /// A submission was queued, its judging advanced or finished.
    Submission { id: i64, account: i64 },
    /// A result that may move the scoreboard; `frozen_only`: it happened
    /// after the freeze, so only the jury's scoreboard changes.
    Scoreboard { jury_only: bool },
    /// A clarification for `to` (`None`: everyone), or a request for the jury.
    Clarification { to: Option<i64>, for_jury: bool },
    /// The contest's state (freeze, thaw) changed.
    State,
}

/// Who is listening.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listener {
    Public,
    Team(i64),
    Jury,
}

impl Notice {
    /// Whether `who` hears this notice.
    pub fn audience(&self, who: Listener) -> bool {
        match (self, who) {
            (_, Listener::Jury) => true,
            (Notice::Submission { account, .. }, Listener::Team(me)) => *account == me,
            (Notice::Submission { .. }, Listener::Public) => false,
            (Notice::Scoreboard { jury_only }, _) => !jury_only,
            (Notice::Clarification { to, for_jury }, Listener::Team(me)) => {
                !for_jury && to.is_none_or(|t| t == me)
            }
            (Notice::Clarification { .. }, Listener::Public) => false,
            (Notice::State, _) => true,
        }
    }

    /// The SSE event name and its data.
    pub fn sse(&self) -> (&'static str, String) {
        match self {
            Notice::Submission { id, .. } => ("submission", format!("{{\"id\":{id}}}")),
            Notice::Scoreboard { .. } => ("scoreboard", "{}".into()),
            Notice::Clarification { .. } => ("clarification", "{}".into()),
            Notice::State => ("state", "{}".into()),
        }
    }
}

/// The announcements' channels: judge threads and handlers send, each SSE
/// stream receives. A slow page that falls behind gets a `reload` event.
///
/// A notice goes only to the channels of those who hear it: one for
/// everyone, one per team, and one with every notice (the jury, the
/// Contest API's feed). With one channel for all, each test a judge ran
/// woke every open page of the contest (hundreds) to be dropped by all but
/// one.
#[derive(Clone)]
pub struct Hub {
    all: broadcast::Sender<Notice>,
    everyone: broadcast::Sender<Notice>,
    teams: std::sync::Arc<std::sync::Mutex<HashMap<i64, broadcast::Sender<Notice>>>>,
}

/// How many notices a listener may fall behind before it is told to reload.
const BACKLOG: usize = 1024;
/// The same for a team's own channel (its submissions' tests).
const TEAM_BACKLOG: usize = 256;

impl Default for Hub {
    fn default() -> Self {
        Hub {
            all: broadcast::channel(BACKLOG).0,
            everyone: broadcast::channel(BACKLOG).0,
            teams: Default::default(),
        }
    }
}

/// Which channels a notice goes to, beyond the one with every notice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Route {
    Everyone,
    Team(i64),
    Nobody,
}

impl Notice {
    fn route(&self) -> Route {
        match self {
            Notice::Submission { account, .. } => Route::Team(*account),
            Notice::Scoreboard { jury_only: true } => Route::Nobody,
            Notice::Scoreboard { jury_only: false } | Notice::State => Route::Everyone,
            Notice::Clarification { for_jury: true, .. } => Route::Nobody,
            Notice::Clarification { to: Some(t), .. } => Route::Team(*t),
            Notice::Clarification { to: None, .. } => Route::Everyone,
        }
    }
}

impl Hub {
    pub fn tell(&self, n: Notice) {
        // Nobody listening is fine.
        match n.route() {
            Route::Everyone => drop(self.everyone.send(n.clone())),
            Route::Team(t) => {
                if let Some(tx) = self.lock_teams().get(&t) {
                    let _ = tx.send(n.clone());
                }
            }
            Route::Nobody => {}
        }
        let _ = self.all.send(n);
    }

    /// Every notice (the jury's pages, the Contest API's feed, which
    /// decides what its client may see itself).
    pub fn listen(&self) -> broadcast::Receiver<Notice> {
        self.all.subscribe()
    }

    /// The channels `who` hears: among them, each notice `who` hears
    /// arrives once, and no other.
    pub fn listen_as(&self, who: Listener) -> Vec<broadcast::Receiver<Notice>> {
        match who {
            Listener::Jury => vec![self.all.subscribe()],
            Listener::Public => vec![self.everyone.subscribe()],
            Listener::Team(me) => {
                let mine = self
                    .lock_teams()
                    .entry(me)
                    .or_insert_with(|| broadcast::channel(TEAM_BACKLOG).0)
                    .subscribe();
                vec![self.everyone.subscribe(), mine]
            }
        }
    }

    fn lock_teams(&self) -> std::sync::MutexGuard<'_, HashMap<i64, broadcast::Sender<Notice>>> {
        self.teams
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_team_hears_only_its_own_submissions_and_nothing_frozen() {
        let mine = Notice::Submission { id: 1, account: 7 };
        assert!(mine.audience(Listener::Team(7)));
        assert!(!mine.audience(Listener::Team(8)));
        assert!(!mine.audience(Listener::Public));
        assert!(mine.audience(Listener::Jury));
        let frozen = Notice::Scoreboard { jury_only: true };
        assert!(!frozen.audience(Listener::Team(7)) && frozen.audience(Listener::Jury));
        let answer = Notice::Clarification {
            to: Some(8),
            for_jury: false,
        };
        assert!(!answer.audience(Listener::Team(7)) && answer.audience(Listener::Team(8)));
        let request = Notice::Clarification {
            to: None,
            for_jury: true,
        };
        assert!(!request.audience(Listener::Team(7)));
    }

    /// Each listener gets, over the channels it listens to, every notice
    /// of its audience once (a page then drops the rest, see
    /// [`Notice::audience`]), and never another team's submissions: those
    /// are what a judge sends for every test it runs.
    #[test]
    fn every_listener_hears_its_audience_once_and_no_other_teams_submissions() {
        let notices = [
            Notice::Submission { id: 1, account: 7 },
            Notice::Submission { id: 2, account: 8 },
            Notice::Scoreboard { jury_only: false },
            Notice::Scoreboard { jury_only: true },
            Notice::Clarification {
                to: Some(7),
                for_jury: false,
            },
            Notice::Clarification {
                to: Some(8),
                for_jury: false,
            },
            Notice::Clarification {
                to: None,
                for_jury: false,
            },
            Notice::Clarification {
                to: None,
                for_jury: true,
            },
            Notice::State,
        ];
        let hub = Hub::default();
        let who = [
            Listener::Public,
            Listener::Team(7),
            Listener::Team(8),
            Listener::Jury,
        ];
        let mut ears: Vec<_> = who.iter().map(|w| hub.listen_as(*w)).collect();
        for n in &notices {
            hub.tell(n.clone());
        }
        for (w, channels) in who.iter().zip(ears.iter_mut()) {
            let mut heard = Vec::new();
            for rx in channels.iter_mut() {
                while let Ok(n) = rx.try_recv() {
                    heard.push(n);
                }
            }
            if *w != Listener::Jury {
                let others = heard
                    .iter()
                    .filter(|n| matches!(n, Notice::Submission { .. }) && !n.audience(*w))
                    .count();
                assert_eq!(others, 0, "{w:?}: {heard:?}");
            }
            let shown: Vec<&Notice> = heard.iter().filter(|n| n.audience(*w)).collect();
            let expected: Vec<&Notice> = notices.iter().filter(|n| n.audience(*w)).collect();
            assert_eq!(shown.len(), expected.len(), "{w:?}: {heard:?}");
            for n in expected {
                assert_eq!(shown.iter().filter(|h| **h == n).count(), 1, "{w:?}: {n:?}");
            }
        }
    }
}
