//! The ICPC Contest API (version 2023-06), read-only, under `/api`: the
//! contest, its state, problems, languages, judgement types, teams,
//! submissions (and their files), judgements, runs, clarifications,
//! awards, the scoreboard and the event feed, each as the client may see
//! it (`access`). Tools of the field (the ICPC resolver, contest data
//! servers, shadowing systems) read a grundy contest through it.
//!
//! Modules: `access` (who asks, what they see), `objects` (the objects),
//! `board` (scoreboard and awards), `feed` (the event feed), `archive`
//! (the contest in the Contest Archive format, for the jury).

pub mod access;
pub mod archive;
pub mod board;
pub mod feed;
pub mod objects;

use std::collections::BTreeMap;

use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use serde_json::{Value, json};

use crate::serve::THAWED;
use crate::serve::clock::{Millis, contest_time};
use crate::serve::db::{Db, DbError};
use crate::serve::web::{Refused, Shared};
use access::{Access, Lens, Who};

/// A refused API request: its status and a JSON body saying why.
#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    pub fn unauthorised(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, message)
    }

    fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let shown = if self.status.is_server_error() {
            "the server failed on this request; it is in the organiser's log".to_string()
        } else {
            self.message.clone()
        };
        let mut res = (
            self.status,
            axum::Json(json!({"code": self.status.as_u16(), "message": shown})),
        )
            .into_response();
        if self.status == StatusCode::UNAUTHORIZED {
            res.headers_mut().insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Basic realm=\"grundy\""),
            );
        }
        res.extensions_mut().insert(Refused(self.message));
        res
    }
}

/// The API's routes (merged into the server's, behind the same checks).
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api", get(info))
        .route("/api/", get(info))
        .route("/api/contests", get(contests))
        .route("/api/contests/{cid}", get(contest))
        .route("/api/contests/{cid}/access", get(access_of))
        .route("/api/contests/{cid}/state", get(state))
        .route("/api/contests/{cid}/scoreboard", get(scoreboard))
        .route("/api/contests/{cid}/event-feed", get(event_feed))
        .route("/api/contests/{cid}/{collection}", get(collection))
        .route("/api/contests/{cid}/{collection}/{id}", get(one))
        .route("/api/contests/{cid}/submissions/{id}/files", get(files))
        .route("/jury/archive.zip", get(archive::download))
}

/// A JSON answer any origin may read (the API's data is read by
/// scoreboards served from elsewhere; credentials are never shared).
fn answer(v: Value) -> Response {
    let mut res = axum::Json(v).into_response();
    res.headers_mut().insert(
        header::ACCESS_CONTROL_ALLOW_ORIGIN,
        HeaderValue::from_static("*"),
    );
    res
}

fn check_contest(app: &Shared, cid: &str) -> Result<(), ApiError> {
    if cid == objects::contest_id(app) {
        Ok(())
    } else {
        Err(ApiError::not_found(format!(
            "no contest `{cid}`: this server holds `{}`",
            objects::contest_id(app)
        )))
    }
}

async fn info(_: Who) -> Response {
    answer(objects::api_info())
}

async fn contests(State(app): State<Shared>, _: Who) -> Response {
    answer(json!([objects::contest(&app)]))
}

async fn contest(
    State(app): State<Shared>,
    _: Who,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    Ok(answer(objects::contest(&app)))
}

/// The endpoints and properties a client may read (no capabilities: the
/// API here only reads).
async fn access_of(
    State(app): State<Shared>,
    _: Who,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let props = |o: &Value| -> Vec<String> {
        o.as_object()
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default()
    };
    let endpoints = vec![
        json!({"type": "contest", "properties": props(&objects::contest(&app))}),
        json!({"type": "judgement-types", "properties": ["id", "name", "penalty", "solved"]}),
        json!({"type": "languages", "properties": ["id", "name", "entry_point_required", "entry_point_name", "extensions"]}),
        json!({"type": "problems", "properties": ["id", "label", "name", "ordinal", "time_limit", "test_data_count"]}),
        json!({"type": "groups", "properties": ["id", "name"]}),
        json!({"type": "teams", "properties": props(&objects::team(&app.config, "t", "t"))}),
        json!({"type": "state", "properties": ["started", "frozen", "ended", "thawed", "finalized", "end_of_updates"]}),
        json!({"type": "submissions", "properties": ["id", "language_id", "problem_id", "team_id", "time", "contest_time", "entry_point", "files"]}),
        json!({"type": "judgements", "properties": ["id", "submission_id", "judgement_type_id", "score", "start_time", "start_contest_time", "end_time", "end_contest_time", "max_run_time"]}),
        json!({"type": "runs", "properties": ["id", "judgement_id", "ordinal", "judgement_type_id", "time", "contest_time", "run_time"]}),
        json!({"type": "clarifications", "properties": ["id", "from_team_id", "to_team_id", "reply_to_id", "problem_id", "text", "time", "contest_time"]}),
        json!({"type": "awards", "properties": ["id", "citation", "team_ids"]}),
        json!({"type": "scoreboard", "properties": ["time", "contest_time", "state", "rows"]}),
        json!({"type": "event-feed", "properties": ["type", "id", "data", "token"]}),
    ];
    Ok(answer(json!({"capabilities": [], "endpoints": endpoints})))
}

async fn state(
    State(app): State<Shared>,
    _: Who,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let a = Shared::clone(&app);
    let v = app.db.read(move |c| current_state(&a, c)).await?;
    Ok(answer(v))
}

fn current_state(app: &Shared, c: &rusqlite::Connection) -> crate::serve::db::DbResult<Value> {
    let thawed = crate::serve::setting_time(c, THAWED)?;
    let finalized = crate::serve::setting_time(c, crate::serve::FINALIZED)?;
    Ok(crate::serve::state_json(
        &app.clock,
        thawed,
        finalized,
        Millis::now(),
    ))
}

/// The scoreboard object the client may see, and the awards of it.
pub fn scoreboard_and_awards(
    app: &Shared,
    c: &rusqlite::Connection,
    who: &Access,
) -> crate::serve::db::DbResult<(Value, Vec<Value>)> {
    let thawed = Db::setting(c, THAWED)?.is_some();
    let b = app
        .boards
        .get(c, &app.config, &app.clock, board::view(who), thawed)?;
    let now = Millis::now();
    let v = json!({
        "time": now.rfc3339(),
        "contest_time": contest_time((now.0 - app.clock.start.0).max(0)),
        "state": current_state(app, c)?,
        "rows": board::rows(&b),
    });
    Ok((v, board::awards(&b, &app.config)))
}

async fn scoreboard(
    State(app): State<Shared>,
    Who(who): Who,
    Path(cid): Path<String>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let a = Shared::clone(&app);
    let (v, _) = app
        .db
        .read(move |c| scoreboard_and_awards(&a, c, &who))
        .await?;
    Ok(answer(v))
}

/// Every object of a collection the client may see.
pub fn list(
    app: &Shared,
    c: &rusqlite::Connection,
    who: &Access,
    cid: &str,
    name: &str,
) -> Result<Vec<Value>, ApiError> {
    let lens = Lens::read(c, who.clone(), &app.clock)?;
    Ok(match name {
        "judgement-types" => objects::judgement_types(),
        "languages" => objects::languages(app),
        "problems" => objects::problems(app, &lens),
        "groups" => objects::groups(&app.config),
        "organizations" => Vec::new(),
        "teams" => objects::teams(&app.config, c)?,
        "submissions" => objects::submissions(c, cid)?,
        "judgements" => objects::judgements(app, c, &lens)?,
        "runs" => objects::runs(app, c, &lens)?,
        "clarifications" => objects::clarifications(app, c, &lens)?,
        "awards" => scoreboard_and_awards(app, c, who)?.1,
        other => {
            return Err(ApiError::not_found(format!(
                "no endpoint `{other}` (the endpoints: {})",
                COLLECTIONS.join(", ")
            )));
        }
    })
}

/// The collections `/contests/{id}/{collection}` serves.
pub const COLLECTIONS: &[&str] = &[
    "judgement-types",
    "languages",
    "problems",
    "groups",
    "organizations",
    "teams",
    "submissions",
    "judgements",
    "runs",
    "clarifications",
    "awards",
];

async fn collection(
    State(app): State<Shared>,
    Who(who): Who,
    Path((cid, name)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let a = Shared::clone(&app);
    let items = app
        .db
        .read(move |c| Ok(list(&a, c, &who, &cid, &name)))
        .await??;
    Ok(answer(Value::Array(items)))
}

async fn one(
    State(app): State<Shared>,
    Who(who): Who,
    Path((cid, name, id)): Path<(String, String, String)>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let a = Shared::clone(&app);
    let n = name.clone();
    let items = app
        .db
        .read(move |c| Ok(list(&a, c, &who, &cid, &n)))
        .await??;
    items
        .into_iter()
        .find(|o| o["id"].as_str() == Some(id.as_str()))
        .map(answer)
        .ok_or_else(|| ApiError::not_found(format!("no {name} `{id}` that you may see")))
}

/// A submission's source as a zip archive holding the one file, for the
/// jury and the team that sent it.
async fn files(
    State(app): State<Shared>,
    Who(who): Who,
    Path((cid, id)): Path<(String, i64)>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let found = app
        .db
        .read(move |c| {
            use crate::serve::db::Context as _;
            use rusqlite::OptionalExtension as _;
            c.query_row(
                "SELECT account_id, file_name, source FROM submissions WHERE id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Vec<u8>>(2)?,
                    ))
                },
            )
            .optional()
            .what("cannot read a submission")
        })
        .await?;
    let Some((account, name, source)) = found else {
        return Err(ApiError::not_found(format!("no submission `{id}`")));
    };
    if !(who.is_admin() || who.is_team(account)) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            format!("the files of submission `{id}` are for the jury and the team that sent it"),
        ));
    }
    let zip = zip_of(&name, &source).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot zip submission {id}: {e}"),
        )
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                "attachment; filename=\"files.zip\"".to_string(),
            ),
        ],
        zip,
    )
        .into_response())
}

/// A zip archive of one file at its root. The name is the submission's
/// own file name (checked when it was sent: no folders).
pub fn zip_of(name: &str, bytes: &[u8]) -> zip::result::ZipResult<Vec<u8>> {
    use std::io::Write as _;
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .unix_permissions(0o644);
    let base = std::path::Path::new(name).file_name().map_or_else(
        || "source".to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    w.start_file(base, options)?;
    w.write_all(bytes)?;
    Ok(w.finish()?.into_inner())
}

#[derive(serde::Deserialize)]
struct FeedQuery {
    since_token: Option<String>,
    stream: Option<bool>,
}

async fn event_feed(
    State(app): State<Shared>,
    Who(who): Who,
    Path(cid): Path<String>,
    Query(q): Query<BTreeMap<String, String>>,
) -> Result<Response, ApiError> {
    check_contest(&app, &cid)?;
    let q = FeedQuery {
        since_token: q.get("since_token").cloned(),
        stream: match q.get("stream").map(String::as_str) {
            None => None,
            Some("true") => Some(true),
            Some("false") => Some(false),
            Some(other) => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!("`stream` is `true` or `false`, not `{other}`"),
                ));
            }
        },
    };
    let last = app.db.read(feed::last_token).await?;
    let since = match q.since_token.as_deref() {
        None => 0,
        Some(t) => match t.parse::<i64>() {
            Ok(n) if (0..=last).contains(&n) => n,
            _ => {
                return Err(ApiError::new(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "`since_token` `{t}` is not a token of this feed: read it from the start"
                    ),
                ));
            }
        },
    };
    Ok(feed::respond(
        app,
        who,
        cid,
        since,
        q.stream.unwrap_or(true),
    ))
}
