//! The Contest API's objects (version 2023-06), read from the database and
//! the contest file, as a client with a given [`Lens`] may see them.
//!
//! The event feed (`feed`) sends the same objects as they changed: the
//! shapes here and there are kept the same by [`shape`], which the feed
//! applies to what the event log holds, so that replaying the feed leaves
//! a client with what these endpoints return.

use rusqlite::Connection;
use serde_json::{Map, Value, json};

use super::access::Lens;
use crate::batch::contest::score::Scoring;
use crate::judge::SubmissionResult;
use crate::serve::clock::{Millis, contest_time};
use crate::serve::config::Config;
use crate::serve::db::{Context, DbResult};
use crate::serve::judgement;
use crate::serve::web::App;
use crate::verdict::Verdict;

/// The Contest API version these objects follow.
pub const VERSION: &str = "2023-06";

/// The contest's id: the contest file's name without its extension, in
/// the characters an API id may hold.
pub fn contest_id(app: &App) -> String {
    let stem = app
        .config
        .path
        .file_stem()
        .map_or_else(|| "contest".into(), |s| s.to_string_lossy().into_owned());
    let mut id: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(36)
        .collect();
    while id.starts_with(['.', '-']) || id.ends_with('.') {
        id = id.trim_matches(['.', '-']).to_string();
        if id.is_empty() {
            break;
        }
    }
    if id.is_empty() { "contest".into() } else { id }
}

/// Seconds rounded to the millisecond, as the API writes run times.
pub fn seconds(s: f64) -> f64 {
    (s * 1000.0).round() / 1000.0
}

pub fn api_info() -> Value {
    json!({
        "version": VERSION,
        "version_url": format!("https://ccs-specs.icpc.io/{VERSION}/contest_api"),
        "provider": {"name": "grundy", "version": env!("CARGO_PKG_VERSION")},
    })
}

pub fn contest(app: &App) -> Value {
    let c = &app.config;
    let duration = app.clock.end.map_or(0, |e| e.0 - app.clock.start.0);
    let mut o = json!({
        "id": contest_id(app),
        "name": c.title,
        "formal_name": c.title,
        "start_time": app.clock.start.rfc3339(),
        "duration": contest_time(duration.max(0)),
        "scoreboard_freeze_duration": c.freeze.map(|f| contest_time(f.as_millis() as i64)),
        "scoreboard_type": match c.scoring { Scoring::Icpc => "pass-fail", Scoring::Ioi => "score" },
    });
    if c.scoring == Scoring::Icpc {
        o["penalty_time"] = json!(c.penalty_minutes);
    }
    o
}

pub fn judgement_types() -> Vec<Value> {
    judgement::all()
        .into_iter()
        .map(|t| json!({"id": t.id, "name": t.name, "penalty": t.penalty, "solved": t.solved}))
        .collect()
}

pub fn languages(app: &App) -> Vec<Value> {
    app.allowed_languages()
        .into_iter()
        .map(|l| {
            json!({
                "id": l.id,
                "name": l.name,
                "entry_point_required": false,
                "entry_point_name": null,
                "extensions": l.extensions,
            })
        })
        .collect()
}

pub fn problems(app: &App, lens: &Lens) -> Vec<Value> {
    if !lens.started {
        return Vec::new();
    }
    app.problems
        .iter()
        .enumerate()
        .map(|(i, p)| {
            json!({
                "id": p.id.as_str(),
                "label": p.label,
                "name": p.title,
                "ordinal": i,
                "time_limit": seconds(p.time_limit.as_secs_f64()),
                "test_data_count": p.tests,
            })
        })
        .collect()
}

/// A team as the event log and the endpoint show it.
/// The group of a team, if the contest file gives it one.
pub fn group_of<'a>(config: &'a Config, login: &str) -> Option<&'a str> {
    config
        .people
        .iter()
        .find(|p| p.login == login)
        .and_then(|p| p.group.as_deref())
}

/// The teams' groups, each once, sorted.
pub fn group_ids(config: &Config) -> Vec<&str> {
    let mut g: Vec<&str> = config
        .people
        .iter()
        .filter_map(|p| p.group.as_deref())
        .collect();
    g.sort_unstable();
    g.dedup();
    g
}

/// A team; its group comes from the contest file.
pub fn team(config: &Config, login: &str, name: &str) -> Value {
    json!({
        "id": login,
        "label": login,
        "name": name,
        "display_name": name,
        "organization_id": null,
        "group_ids": group_of(config, login).into_iter().collect::<Vec<_>>(),
        "hidden": false,
    })
}

/// The teams' groups the contest file names (a group's id is its name).
pub fn groups(config: &Config) -> Vec<Value> {
    group_ids(config)
        .into_iter()
        .map(|g| json!({"id": g, "name": g}))
        .collect()
}

pub fn teams(config: &Config, c: &Connection) -> DbResult<Vec<Value>> {
    let mut st = c
        .prepare_cached("SELECT login, name FROM accounts WHERE role = 'team' ORDER BY login")
        .what("cannot list the teams")?;
    let rows = st
        .query_map([], |r| {
            Ok(team(
                config,
                &r.get::<_, String>(0)?,
                &r.get::<_, String>(1)?,
            ))
        })
        .what("cannot list the teams")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list the teams")
}

/// Where a submission's files are downloaded.
pub fn files_ref(cid: &str, id: &str) -> Value {
    json!([{
        "href": format!("contests/{cid}/submissions/{id}/files"),
        "filename": "files.zip",
        "mime": "application/zip",
    }])
}

/// The submissions of teams (every client sees them; the sources only
/// through `files`, for the jury and the team itself).
pub fn submissions(c: &Connection, cid: &str) -> DbResult<Vec<Value>> {
    let mut st = c
        .prepare_cached(
            "SELECT s.id, a.login, s.problem, s.language, s.time_ms, s.contest_ms
             FROM submissions s JOIN accounts a ON a.id = s.account_id
             WHERE a.role = 'team' ORDER BY s.id",
        )
        .what("cannot list submissions")?;
    let rows = st
        .query_map([], |r| {
            let id: i64 = r.get(0)?;
            Ok(json!({
                "id": id.to_string(),
                "language_id": r.get::<_, String>(3)?,
                "problem_id": r.get::<_, String>(2)?,
                "team_id": r.get::<_, String>(1)?,
                "time": Millis(r.get(4)?).rfc3339(),
                "contest_time": contest_time(r.get(5)?),
                "entry_point": null,
                "files": files_ref(cid, &id.to_string()),
            }))
        })
        .what("cannot list submissions")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list submissions")
}

/// The longest test's CPU time of a result, in seconds.
pub fn max_run_time(result: &SubmissionResult) -> f64 {
    seconds(
        result
            .tests
            .iter()
            .map(|t| t.time.as_secs_f64())
            .fold(0.0, f64::max),
    )
}

/// The judgements the lens shows (every judging, also one cut short:
/// it stays unfinished, as the event feed left it).
pub fn judgements(app: &App, c: &Connection, lens: &Lens) -> DbResult<Vec<Value>> {
    let start = app.clock.start.0;
    let mut st = c
        .prepare_cached(
            "SELECT j.id, j.submission_id, j.started_ms, j.finished_ms, j.verdict, j.score,
                    j.result_json, s.account_id, s.time_ms
             FROM judgings j JOIN submissions s ON s.id = j.submission_id
             JOIN accounts a ON a.id = s.account_id
             WHERE a.role = 'team' ORDER BY j.id",
        )
        .what("cannot list judgements")?;
    let rows = st
        .query_map([], |r| {
            let id: i64 = r.get(0)?;
            let submission: i64 = r.get(1)?;
            let started: i64 = r.get(2)?;
            let finished: Option<i64> = r.get(3)?;
            let verdict: Option<String> = r.get(4)?;
            let score: Option<f64> = r.get(5)?;
            let result: Option<String> = r.get(6)?;
            let account: i64 = r.get(7)?;
            let time: i64 = r.get(8)?;
            let mut o = json!({
                "id": id.to_string(),
                "submission_id": submission.to_string(),
                "judgement_type_id": null,
                "start_time": Millis(started).rfc3339(),
                "start_contest_time": contest_time(started - start),
                "end_time": null,
                "end_contest_time": null,
            });
            let verdict = verdict.and_then(|v| v.parse::<Verdict>().ok());
            if let (Some(end), Some(v)) = (finished, verdict) {
                o["judgement_type_id"] = json!(judgement::of(v).id);
                o["end_time"] = json!(Millis(end).rfc3339());
                o["end_contest_time"] = json!(contest_time(end - start));
                o["score"] = json!(score.unwrap_or(0.0));
                let parsed = result
                    .as_deref()
                    .and_then(|t| serde_json::from_str::<SubmissionResult>(t).ok());
                o["max_run_time"] = json!(parsed.as_ref().map_or(0.0, max_run_time));
            }
            Ok((o, account, time))
        })
        .what("cannot list judgements")?;
    let all = rows
        .collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list judgements")?;
    Ok(all
        .into_iter()
        .filter(|(_, account, time)| lens.shows_result(*account, *time))
        .map(|(o, _, _)| o)
        .collect())
}

/// The runs (each test's result) the lens shows.
pub fn runs(app: &App, c: &Connection, lens: &Lens) -> DbResult<Vec<Value>> {
    let start = app.clock.start.0;
    let mut st = c
        .prepare_cached(
            "SELECT r.id, r.judging_id, r.ordinal, r.verdict, r.time_ms, r.at_ms,
                    s.account_id, s.time_ms
             FROM runs r JOIN judgings j ON j.id = r.judging_id
             JOIN submissions s ON s.id = j.submission_id
             JOIN accounts a ON a.id = s.account_id
             WHERE a.role = 'team' ORDER BY r.id",
        )
        .what("cannot list runs")?;
    let rows = st
        .query_map([], |r| {
            let verdict: String = r.get(3)?;
            let at: i64 = r.get(5)?;
            let o = json!({
                "id": r.get::<_, i64>(0)?.to_string(),
                "judgement_id": r.get::<_, i64>(1)?.to_string(),
                "ordinal": r.get::<_, i64>(2)?,
                "judgement_type_id": verdict.parse::<Verdict>().map_or("JE", |v| judgement::of(v).id),
                "time": Millis(at).rfc3339(),
                "contest_time": contest_time(at - start),
                "run_time": seconds(r.get::<_, f64>(4)? / 1000.0),
            });
            Ok((o, r.get::<_, i64>(6)?, r.get::<_, i64>(7)?))
        })
        .what("cannot list runs")?;
    let all = rows
        .collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list runs")?;
    Ok(all
        .into_iter()
        .filter(|(_, account, time)| lens.shows_result(*account, *time))
        .map(|(o, _, _)| o)
        .collect())
}

/// The clarifications the lens shows.
pub fn clarifications(app: &App, c: &Connection, lens: &Lens) -> DbResult<Vec<Value>> {
    let start = app.clock.start.0;
    let mut st = c
        .prepare_cached(
            "SELECT k.id, k.from_account, f.login, k.to_account, t.login, k.to_all, k.reply_to,
                    k.problem, k.text, k.time_ms
             FROM clarifications k
             LEFT JOIN accounts f ON f.id = k.from_account
             LEFT JOIN accounts t ON t.id = k.to_account
             ORDER BY k.id",
        )
        .what("cannot list clarifications")?;
    let rows = st
        .query_map([], |r| {
            let to_all = r.get::<_, i64>(5)? != 0;
            let to: Option<String> = r.get(4)?;
            let time: i64 = r.get(9)?;
            let o = json!({
                "id": r.get::<_, i64>(0)?.to_string(),
                "from_team_id": r.get::<_, Option<String>>(2)?,
                "to_team_id": if to_all { None } else { to },
                "reply_to_id": r.get::<_, Option<i64>>(6)?.map(|i| i.to_string()),
                "problem_id": r.get::<_, Option<String>>(7)?,
                "text": r.get::<_, String>(8)?,
                "time": Millis(time).rfc3339(),
                "contest_time": contest_time(time - start),
            });
            Ok((
                o,
                r.get::<_, Option<i64>>(1)?,
                r.get::<_, Option<i64>>(3)?,
                to_all,
            ))
        })
        .what("cannot list clarifications")?;
    let all = rows
        .collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot list clarifications")?;
    Ok(all
        .into_iter()
        .filter(|(_, from, to, to_all)| lens.shows_clarification(*from, *to, *to_all))
        .map(|(o, ..)| o)
        .collect())
}

/// What the event log holds, in the shape the endpoints return (the log
/// was written for the pages first: a few names and fields differ).
pub fn shape(config: &Config, kind: &str, data: &Value, cid: &str) -> Value {
    let mut o: Map<String, Value> = data.as_object().cloned().unwrap_or_default();
    match kind {
        "teams" => {
            let login = o
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            let name = o
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            return team(config, &login, &name);
        }
        "submissions" => {
            let id = o
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_string();
            o.insert("entry_point".into(), Value::Null);
            o.insert("files".into(), files_ref(cid, &id));
        }
        "judgements" => {
            if let Some(t) = o.get("max_run_time").and_then(Value::as_f64) {
                o.insert("max_run_time".into(), json!(seconds(t)));
            }
        }
        "runs" => {
            if let Some(t) = o.get("run_time").and_then(Value::as_f64) {
                o.insert("run_time".into(), json!(seconds(t)));
            }
        }
        "clarifications" => {
            let to = o
                .remove("to_team_ids")
                .and_then(|v| v.as_array().and_then(|a| a.first().cloned()))
                .unwrap_or(Value::Null);
            o.insert("to_team_id".into(), to);
        }
        _ => {}
    }
    Value::Object(o)
}
