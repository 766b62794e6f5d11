//! Taking a submission: a file upload (its language from its extension)
//! or pasted source with a chosen language. Refused, each with its own
//! status and sentence: a source over the upload limit (413), a language
//! not allowed (415), a problem not in the contest, an empty or malformed
//! form (400), a post for another team, before the start, after the end
//! or after a deadline that refuses late work (403).

use axum::extract::{Multipart, State};
use axum::http::StatusCode;
use axum::response::Redirect;
use rusqlite::params;
use serde_json::json;

use super::error::Refusal;
use super::identity::{TeamUser, check_csrf};
use super::{App, Shared};
use crate::serve::clock::{Millis, Phase, contest_time};
use crate::serve::config::Late;
use crate::serve::db::Context as _;
use crate::serve::events::{self, Kind, Notice, Op};
use crate::serve::queue::{self, Reason};

/// What a submission form may hold beyond the source: its other fields.
pub const FORM_ALLOWANCE: u64 = 64 * 1024;

/// What the form held.
#[derive(Default)]
struct Sent {
    csrf: String,
    problem: String,
    team: Option<String>,
    language: String,
    file_name: Option<String>,
    file: Option<Vec<u8>>,
    pasted: String,
}

/// A form field's text, bounded (the body limit bounds the whole).
fn text(bytes: &[u8]) -> Result<String, Refusal> {
    String::from_utf8(bytes.to_vec()).map_err(|_| Refusal::bad("a form field is not UTF-8 text"))
}

async fn read_form(mut m: Multipart) -> Result<Sent, Refusal> {
    let mut sent = Sent::default();
    loop {
        let field = match m.next_field().await {
            Ok(Some(f)) => f,
            Ok(None) => break,
            Err(e) => return Err(multipart_refusal(e)),
        };
        let name = field.name().unwrap_or_default().to_string();
        let file_name = field.file_name().map(str::to_string);
        let bytes = field.bytes().await.map_err(multipart_refusal)?;
        match name.as_str() {
            "csrf" => sent.csrf = text(&bytes)?,
            "problem" => sent.problem = text(&bytes)?,
            "team" => sent.team = Some(text(&bytes)?),
            "language" => sent.language = text(&bytes)?,
            "source" => sent.pasted = text(&bytes)?,
            // A file input left empty still sends a part, unnamed and empty.
            "file" if file_name.as_deref().is_some_and(|n| !n.is_empty()) || !bytes.is_empty() => {
                sent.file_name = file_name;
                sent.file = Some(bytes.to_vec());
            }
            _ => {}
        }
    }
    Ok(sent)
}

fn multipart_refusal(e: axum::extract::multipart::MultipartError) -> Refusal {
    let status = e.status();
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        Refusal::new(status, "the submission is larger than this contest allows")
    } else {
        Refusal::new(
            if status.is_client_error() {
                status
            } else {
                StatusCode::BAD_REQUEST
            },
            format!("the form could not be read: {}", e.body_text()),
        )
    }
}

/// The deadline of a problem (a class), resolved.
pub fn deadline(app: &App, problem: &str) -> Option<Millis> {
    app.deadlines
        .iter()
        .find(|(p, _)| p == problem)
        .map(|(_, d)| *d)
}

pub async fn submit(
    State(app): State<Shared>,
    TeamUser(me): TeamUser,
    headers: axum::http::HeaderMap,
    form: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Redirect, Refusal> {
    // A body announced over the limit is refused before it is read.
    let announced = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > app.config.upload_limit.0 + FORM_ALLOWANCE) {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "the submission is larger than this contest allows",
        ));
    }
    let form = form.map_err(|e| Refusal::bad(format!("not a submission form: {e}")))?;
    let sent = read_form(form).await?;
    check_csrf(&me, &sent.csrf)?;
    if let Some(team) = &sent.team
        && team != &me.account.login
    {
        return Err(Refusal::forbidden(format!(
            "you are signed in as `{}` and cannot submit for `{team}`",
            me.account.login
        )));
    }
    let problem = app.problem(&sent.problem).ok_or_else(|| {
        Refusal::bad(format!(
            "there is no problem `{}` in this contest",
            sent.problem
        ))
    })?;
    let (file_name, source) = match (sent.file, sent.pasted.trim().is_empty()) {
        (Some(_), false) => {
            return Err(Refusal::bad("send a file or paste the source, not both"));
        }
        (Some(bytes), true) => (sent.file_name.unwrap_or_default(), bytes),
        (None, false) => {
            let lang = app
                .allowed_languages()
                .into_iter()
                .find(|l| l.id == sent.language)
                .ok_or_else(|| {
                    Refusal::new(
                        StatusCode::UNSUPPORTED_MEDIA_TYPE,
                        "choose the language of the pasted source",
                    )
                })?;
            let ext = lang.extensions.first().cloned().unwrap_or_default();
            (format!("main.{ext}"), sent.pasted.into_bytes())
        }
        (None, true) => return Err(Refusal::bad("no file and no source: nothing to judge")),
    };
    if source.is_empty() {
        return Err(Refusal::bad(format!("`{file_name}` is empty")));
    }
    if source.len() as u64 > app.config.upload_limit.0 {
        return Err(Refusal::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "`{file_name}` is {} bytes; this contest takes at most {}",
                source.len(),
                app.config.upload_limit
            ),
        ));
    }
    if file_name.chars().count() > 200 || file_name.chars().any(char::is_control) {
        return Err(Refusal::bad(
            "the file name is too long or holds control characters",
        ));
    }
    let language = language_of(&app, &file_name, &sent.language)?;
    let now = Millis::now();
    let late = match app.clock.phase(now) {
        Phase::Before => return Err(Refusal::forbidden("the contest has not started yet")),
        Phase::Over => {
            return Err(Refusal::forbidden(
                "the contest is over: no more submissions",
            ));
        }
        Phase::Running => match deadline(&app, problem.id.as_str()) {
            Some(d) if now >= d => match app.config.homework.as_ref().map(|h| h.late) {
                Some(Late::Accept) | Some(Late::Penalty(_)) => true,
                _ => {
                    return Err(Refusal::forbidden(format!(
                        "the deadline for {} was {}: late submissions are refused",
                        problem.title,
                        d.rfc3339()
                    )));
                }
            },
            _ => false,
        },
    };
    let account = me.account.id;
    let login = me.account.login.clone();
    let pid = problem.id.to_string();
    let start = app.clock.start;
    let sha = crate::batch::walk::sha256(&source);
    let id = app
        .db
        .write(move |c| {
            let tx = c.transaction().what("cannot start a transaction")?;
            tx.prepare_cached(
                "INSERT INTO submissions (account_id, problem, language, file_name, source, sha256, time_ms, contest_ms, late)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            )
            .and_then(|mut st| {
                st.execute(params![account, pid, language, file_name, source, sha, now.0, now.0 - start.0, late])
            })
            .what("cannot store the submission")?;
            let id = tx.last_insert_rowid();
            queue::enqueue(&tx, id, Reason::New)?;
            events::log(
                &tx,
                Kind::Submissions,
                &id.to_string(),
                Op::Create,
                &json!({
                    "id": id.to_string(),
                    "language_id": language,
                    "problem_id": pid,
                    "team_id": login,
                    "time": now.rfc3339(),
                    "contest_time": contest_time(now.0 - start.0),
                    "files": [{"href": format!("submissions/{id}/files"), "mime": "application/zip"}],
                }),
            )?;
            tx.commit().what("cannot store the submission")?;
            Ok(id)
        })
        .await?;
    app.wake.ring();
    app.hub.tell(Notice::Submission { id, account });
    Ok(Redirect::to(&format!("/submissions/{id}")))
}

/// The language: the one chosen, else the file's extension's, among the
/// contest's languages.
fn language_of(app: &App, file_name: &str, chosen: &str) -> Result<String, Refusal> {
    let allowed = app.allowed_languages();
    let names = || {
        allowed
            .iter()
            .map(|l| format!("{} (.{})", l.name, l.extensions.join(", .")))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !chosen.is_empty() {
        return allowed
            .iter()
            .find(|l| l.id == chosen)
            .map(|l| l.id.clone())
            .ok_or_else(|| {
                Refusal::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    format!("`{chosen}` is not a language of this contest: {}", names()),
                )
            });
    }
    let ext = std::path::Path::new(file_name)
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    allowed
        .iter()
        .find(|l| !ext.is_empty() && l.extensions.contains(&ext))
        .map(|l| l.id.clone())
        .ok_or_else(|| {
            Refusal::new(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                format!(
                    "`{file_name}`: no language of this contest has the extension `.{ext}`; it takes {}",
                    names()
                ),
            )
        })
}
