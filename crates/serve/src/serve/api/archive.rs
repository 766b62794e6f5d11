//! The contest written in the Contest Archive (package) format of the
//! ICPC specification, as the jury's download `/jury/archive.zip`: what
//! the Contest API serves the jury, one file an endpoint (`api.json`,
//! `contest.json`, `state.json`, `<endpoint>.json`, `scoreboard.json`),
//! the event feed as `event-feed.ndjson`, and each submission's source as
//! `submissions/<id>/files.zip`. The ICPC resolver and other tools load
//! such a folder (or its zip) to replay the contest.

use std::io::Write as _;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;
use serde_json::Value;

use super::access::{Access, Lens, Who};
use super::{ApiError, COLLECTIONS, feed, list, objects, scoreboard_and_awards, zip_of};
use crate::serve::db::{Context, DbResult};
use crate::serve::web::Shared;

/// The archive's files: path inside the archive, bytes.
pub fn files(app: &Shared, c: &Connection) -> Result<Vec<(String, Vec<u8>)>, ApiError> {
    let who = Access::Admin;
    let cid = objects::contest_id(app);
    let json = |v: &Value| serde_json::to_vec_pretty(v).unwrap_or_default();
    let mut out = vec![
        ("api.json".to_string(), json(&objects::api_info())),
        ("contest.json".to_string(), json(&objects::contest(app))),
    ];
    let (board, _) = scoreboard_and_awards(app, c, &who)?;
    out.push(("state.json".into(), json(&board["state"])));
    out.push(("scoreboard.json".into(), json(&board)));
    for name in COLLECTIONS {
        let items = list(app, c, &who, &cid, name)?;
        out.push((format!("{name}.json"), json(&Value::Array(items))));
    }
    let lens = Lens::read(c, who, &app.clock)?;
    let mut feed_lines = feed::prelude(app, &lens);
    let (log, _) = feed::log_lines(&app.config, c, &cid, 0, &lens, None)?;
    feed_lines.extend(log);
    feed_lines.push(format!(
        "{}\n",
        serde_json::json!({"type": "state", "id": null, "data": board["state"]})
    ));
    out.push(("event-feed.ndjson".into(), feed_lines.concat().into_bytes()));
    for (id, name, source) in sources(c)? {
        let zip = zip_of(&name, &source).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("cannot zip submission {id}: {e}"),
            )
        })?;
        out.push((format!("submissions/{id}/files.zip"), zip));
    }
    Ok(out)
}

/// Every team submission's file name and bytes.
fn sources(c: &Connection) -> DbResult<Vec<(i64, String, Vec<u8>)>> {
    let mut st = c
        .prepare_cached(
            "SELECT s.id, s.file_name, s.source FROM submissions s
             JOIN accounts a ON a.id = s.account_id WHERE a.role = 'team' ORDER BY s.id",
        )
        .what("cannot read the sources")?;
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .what("cannot read the sources")?;
    rows.collect::<rusqlite::Result<Vec<_>>>()
        .what("cannot read the sources")
}

/// The files in one zip archive, under a folder named after the contest.
pub fn zip(folder: &str, files: &[(String, Vec<u8>)]) -> zip::result::ZipResult<Vec<u8>> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .unix_permissions(0o644);
    for (path, bytes) in files {
        w.start_file(format!("{folder}/{path}"), options)?;
        w.write_all(bytes)?;
    }
    Ok(w.finish()?.into_inner())
}

/// `/jury/archive.zip`: the archive, for the jury.
pub async fn download(State(app): State<Shared>, Who(who): Who) -> Result<Response, ApiError> {
    if !who.is_admin() {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "the contest archive is for the jury",
        ));
    }
    let a = Shared::clone(&app);
    let files = app.db.read(move |c| Ok(files(&a, c))).await??;
    let cid = objects::contest_id(&app);
    let bytes = zip(&cid, &files).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("cannot write the archive: {e}"),
        )
    })?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/zip".to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{cid}.zip\""),
            ),
        ],
        bytes,
    )
        .into_response())
}
