//! The Contest API's event feed (`/event-feed`): NDJSON, one change a
//! line, from the beginning of the contest or from a `since_token`.
//!
//! What is sent: first the contest, the judgement types, the languages
//! and (from the start) the problems, which the contest file fixes; then
//! every row of the event log the client may see, in order, each with its
//! row number as its `token`; and the contest's `state` whenever it
//! changes (it is computed, not logged: the clock moves by itself). While
//! the scoreboard is frozen, the judgements and runs a client may not see
//! are held back; when the organiser unfreezes, they are sent (with their
//! own tokens, out of order). A newline is sent after 120 seconds without
//! an event, as the specification asks. `stream=false` ends the feed after
//! what exists now (what the contest archive holds).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use rusqlite::{Connection, OptionalExtension};
use serde_json::{Value, json};
use tokio::sync::mpsc;

use super::access::{Access, Lens};
use super::objects;
use crate::serve::clock::Millis;
use crate::serve::config::Config;
use crate::serve::db::{Context, DbResult};
use crate::serve::web::{App, Shared};
use crate::serve::{THAWED, state_json};

/// Silence after which a newline keeps the connection alive.
const KEEP_ALIVE: Duration = Duration::from_secs(120);

/// Event-log rows read at once.
const PAGE: i64 = 500;

/// One line of the feed.
fn line(kind: &str, id: Option<&str>, data: &Value, token: Option<i64>) -> String {
    let mut o = json!({"type": kind, "id": id, "data": data});
    if let Some(t) = token {
        o["token"] = json!(t.to_string());
    }
    format!("{o}\n")
}

/// The lines of what the contest file fixes.
pub fn prelude(app: &App, lens: &Lens) -> Vec<String> {
    let mut out = vec![line("contest", None, &objects::contest(app), None)];
    for (kind, items) in [
        ("judgement-types", objects::judgement_types()),
        ("languages", objects::languages(app)),
        ("problems", objects::problems(app, lens)),
        ("groups", objects::groups(&app.config)),
    ] {
        for o in items {
            out.push(line(kind, o["id"].as_str(), &o, None));
        }
    }
    out
}

/// The state line, and the state itself.
fn state(app: &App, c: &Connection) -> DbResult<Value> {
    let thawed = crate::serve::setting_time(c, THAWED)?;
    let finalized = crate::serve::setting_time(c, crate::serve::FINALIZED)?;
    Ok(state_json(&app.clock, thawed, finalized, Millis::now()))
}

/// Who owns the result an event is about, and when it was submitted:
/// `None` when the event is not about a result (it shows to all).
fn result_owner(c: &Connection, kind: &str, data: &Value) -> DbResult<Option<(i64, i64)>> {
    let by_submission = |id: &str| -> DbResult<Option<(i64, i64)>> {
        c.prepare_cached("SELECT account_id, time_ms FROM submissions WHERE id = ?1")
            .what("cannot read a submission")?
            .query_row([id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()
            .what("cannot read a submission")
    };
    match kind {
        "judgements" => by_submission(data["submission_id"].as_str().unwrap_or_default()),
        "runs" => {
            let judging = data["judgement_id"].as_str().unwrap_or_default();
            let submission: Option<i64> = c
                .prepare_cached("SELECT submission_id FROM judgings WHERE id = ?1")
                .what("cannot read a judging")?
                .query_row([judging], |r| r.get(0))
                .optional()
                .what("cannot read a judging")?;
            match submission {
                Some(s) => by_submission(&s.to_string()),
                None => Ok(Some((-1, i64::MAX))),
            }
        }
        _ => Ok(None),
    }
}

/// Whether an event shows through a lens.
fn shows(c: &Connection, lens: &Lens, kind: &str, object: &str, data: &Value) -> DbResult<bool> {
    if kind == "clarifications" {
        let row: Option<(Option<i64>, Option<i64>, i64)> = c
            .prepare_cached(
                "SELECT from_account, to_account, to_all FROM clarifications WHERE id = ?1",
            )
            .what("cannot read a clarification")?
            .query_row([object], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .optional()
            .what("cannot read a clarification")?;
        return Ok(row.is_some_and(|(f, t, all)| lens.shows_clarification(f, t, all != 0)));
    }
    Ok(match result_owner(c, kind, data)? {
        None => true,
        Some((account, time)) => lens.shows_result(account, time),
    })
}

/// The lines of the event log after row `after` that `now` shows and
/// `before` did not (`before`: `None` for every row `now` shows); the
/// last row read.
pub fn log_lines(
    config: &Config,
    c: &Connection,
    cid: &str,
    after: i64,
    now: &Lens,
    before: Option<&Lens>,
) -> DbResult<(Vec<String>, i64)> {
    let mut out = Vec::new();
    let mut last = after;
    loop {
        let rows: Vec<(i64, String, String, String, Option<String>)> = {
            let mut st = c
                .prepare_cached(
                    "SELECT id, type, object_id, op, data FROM events WHERE id > ?1 ORDER BY id LIMIT ?2",
                )
                .what("cannot read the event log")?;
            let rows = st
                .query_map([last, PAGE], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })
                .what("cannot read the event log")?;
            rows.collect::<rusqlite::Result<Vec<_>>>()
                .what("cannot read the event log")?
        };
        let Some(end) = rows.last().map(|r| r.0) else {
            break;
        };
        for (id, kind, object, op, data) in rows {
            if kind == "state" {
                continue; // sent as computed
            }
            let data: Value = data
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .unwrap_or(Value::Null);
            if !shows(c, now, &kind, &object, &data)? {
                continue;
            }
            if let Some(b) = before
                && shows(c, b, &kind, &object, &data)?
            {
                continue;
            }
            let data = if op == "delete" {
                Value::Null
            } else {
                objects::shape(config, &kind, &data, cid)
            };
            out.push(line(&kind, Some(&object), &data, Some(id)));
        }
        last = end;
    }
    Ok((out, last))
}

/// The last row of the event log (0 when empty).
pub fn last_token(c: &Connection) -> DbResult<i64> {
    c.query_row("SELECT COALESCE(MAX(id), 0) FROM events", [], |r| r.get(0))
        .what("cannot read the event log")
}

/// The next instant the state changes by itself (start, freeze, end).
fn next_tick(app: &App, now: Millis) -> Option<Millis> {
    [Some(app.clock.start), app.clock.freeze, app.clock.end]
        .into_iter()
        .flatten()
        .filter(|t| *t > now)
        .min()
}

/// The feed as a streamed response; `since`: the token to start after.
pub fn respond(app: Shared, access: Access, cid: String, since: i64, stream: bool) -> Response {
    let (tx, rx) = mpsc::channel::<Result<Bytes, std::io::Error>>(16);
    tokio::spawn(async move {
        // A failed send: the client left.
        let _ = run(app, access, cid, since, stream, tx).await;
    });
    let body = Body::from_stream(tokio_stream::wrappers::ReceiverStream::new(rx));
    ([(header::CONTENT_TYPE, "application/x-ndjson")], body).into_response()
}

type Tx = mpsc::Sender<Result<Bytes, std::io::Error>>;

async fn send(tx: &Tx, lines: Vec<String>) -> Result<(), ()> {
    if lines.is_empty() {
        return Ok(());
    }
    tx.send(Ok(Bytes::from(lines.concat())))
        .await
        .map_err(|_| ())
}

async fn run(
    app: Shared,
    access: Access,
    cid: String,
    since: i64,
    stream: bool,
    tx: Tx,
) -> Result<(), ()> {
    let mut hub = app.hub.listen();
    let mut last = since;
    let mut sent_state: Option<Value> = None;
    let mut problems_sent = false;
    let mut old_lens: Option<Lens> = None;
    loop {
        let a = Shared::clone(&app);
        let (acc, c2) = (access.clone(), cid.clone());
        let first = old_lens.is_none();
        let previous = old_lens.clone();
        let step = app
            .db
            .read(move |c| {
                let lens = Lens::read(c, acc, &a.clock)?;
                let mut lines = Vec::new();
                if first {
                    lines.extend(prelude(&a, &lens));
                }
                // Held back before, shown now (an unfreeze).
                if let Some(p) = &previous
                    && p.withheld_from.is_some()
                    && lens.withheld_from.is_none()
                {
                    let (held, _) = log_lines(&a.config, c, &c2, 0, &lens, Some(p))?;
                    lines.extend(held.into_iter().filter(|l| token_of(l) <= last));
                }
                let (new, end) = log_lines(&a.config, c, &c2, last, &lens, None)?;
                lines.extend(new);
                let st = state(&a, c)?;
                Ok((lens, lines, end, st))
            })
            .await;
        let Ok((lens, mut lines, end, st)) = step else {
            return Err(());
        };
        if !problems_sent && lens.started {
            if !first {
                for o in objects::problems(&app, &lens) {
                    lines.push(line("problems", o["id"].as_str(), &o, None));
                }
            }
            problems_sent = true;
        }
        if sent_state.as_ref() != Some(&st) {
            lines.push(line("state", None, &st, None));
            sent_state = Some(st);
        }
        last = end;
        old_lens = Some(lens);
        send(&tx, lines).await?;
        // After the end of updates nothing more will come: the feed ends.
        let ended = sent_state
            .as_ref()
            .is_some_and(|s| !s["end_of_updates"].is_null());
        if !stream || ended {
            return Ok(());
        }
        let now = Millis::now();
        let wait = next_tick(&app, now)
            .map_or(KEEP_ALIVE, |t| {
                Duration::from_millis((t.0 - now.0 + 1) as u64)
            })
            .min(KEEP_ALIVE);
        tokio::select! {
            _ = hub.recv() => {}
            _ = tokio::time::sleep(wait) => {
                if wait == KEEP_ALIVE {
                    send(&tx, vec!["\n".into()]).await?;
                }
            }
            _ = tx.closed() => return Err(()),
        }
    }
}

/// The token of a feed line (0 when it has none).
fn token_of(line: &str) -> i64 {
    serde_json::from_str::<Value>(line)
        .ok()
        .and_then(|v| v["token"].as_str().and_then(|t| t.parse().ok()))
        .unwrap_or(0)
}
