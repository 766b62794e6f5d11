//! What changed, told twice: written to the append-only `events` table
//! (each row an ICPC Contest API event: type, id, operation, the object as
//! that API shapes it), and announced to the pages listening over
//! server-sent events, which then fetch what they show.
//!
//! Announcements carry no secret: a page learns that submission 12
//! changed, or that the scoreboard did, and asks for what its viewer may
//! see. Who hears what is decided in [`Notice::audience`].

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
    c.execute(
        "INSERT INTO events (time_ms, type, object_id, op, data) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            Millis::now().0,
            kind.name(),
            id,
            op.name(),
            data.to_string()
        ],
    )
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

/// The announcements' channel: judge threads and handlers send, each SSE
/// stream receives. A slow page that falls behind gets a `reload` event.
#[derive(Clone)]
pub struct Hub {
    tx: broadcast::Sender<Notice>,
}

impl Default for Hub {
    fn default() -> Self {
        Hub {
            tx: broadcast::channel(1024).0,
        }
    }
}

impl Hub {
    pub fn tell(&self, n: Notice) {
        // Nobody listening is fine.
        let _ = self.tx.send(n);
    }

    pub fn listen(&self) -> broadcast::Receiver<Notice> {
        self.tx.subscribe()
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
}
