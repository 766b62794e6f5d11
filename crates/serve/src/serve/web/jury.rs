//! The jury's pages: every submission and the queue, a submission's
//! source and judgings with grundy's per-test report and diff, rejudging
//! (one submission, or every submission of a problem), the downloads in
//! `grade`'s and `contest`'s formats, and the log of refused requests.

use axum::Form;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Redirect, Response};
use maud::{Markup, html};
use serde::Deserialize;

use super::error::Refusal;
use super::identity::{JuryUser, Viewer, check_csrf};
use super::layout::{at, page};
use super::team::{csp_with_nonce, status_badge, submissions_table, with_nonce};
use super::{App, Shared};
use crate::batch::model::{ClassReport, Graded};
use crate::serve::clock::{Millis, hms};
use crate::serve::db::{Context as _, Db};
use crate::serve::queue::{self, Reason};
use crate::serve::scoreboard::{self, View};
use crate::serve::store;
use crate::serve::{PAUSED, THAWED};

pub async fn home(
    State(app): State<Shared>,
    viewer: Viewer,
    JuryUser(me): JuryUser,
) -> Result<Markup, Refusal> {
    let (subs, (queued, running), paused, hosts) = app
        .db
        .read(|c| {
            Ok((
                store::submissions(c, None, 500)?,
                queue::depth(c)?,
                Db::setting(c, PAUSED)?.is_some(),
                store::judge_hosts(c)?,
            ))
        })
        .await?;
    let body = html! {
        h1 { "Submissions" }
        p id="queue" data-queued=(queued) data-running=(running) {
            (queued) " queued, " (running) " being judged."
            @if paused { " " strong { "Judging is paused." } }
        }
        form method="post" action="/jury/queue" class="inline" id="pause" {
            input type="hidden" name="csrf" value=(me.csrf);
            @if paused {
                input type="hidden" name="action" value="resume";
                button type="submit" { "Resume judging" }
            } @else {
                input type="hidden" name="action" value="pause";
                button type="submit" { "Pause judging" }
            }
        }
        form method="post" action="/jury/rejudge" class="inline" {
            input type="hidden" name="csrf" value=(me.csrf);
            "Rejudge every submission of "
            select name="problem" {
                @for p in &app.problems { option value=(p.id.as_str()) { (p.label) " " (p.title) } }
            }
            " " button type="submit" { "Rejudge the problem" }
        }
        p {
            "Downloads: "
            a href="/jury/grades.csv" { "grades.csv" } ", "
            a href="/jury/report.json" { "report.json" } ", "
            a href="/jury/scoreboard.json" { "scoreboard.json" }
        }
        (hosts_table(&app, &hosts))
        (submissions_table(&app, &subs, true))
    };
    Ok(page(&app, &viewer, "Jury", body))
}

/// The judge hosts, when there are any, above the submissions (which may
/// run to hundreds of rows): a host that gave a problem back is not given
/// it again until it starts again, so a problem every host refused stays
/// queued, and this table says why.
fn hosts_table(app: &App, hosts: &[store::HostRow]) -> Markup {
    html! {
        @if !hosts.is_empty() {
            h2 { "Judge hosts" }
            table id="hosts" {
                thead { tr { th { "host" } th { "last seen" } th { "cannot judge" } } }
                tbody {
                    @for h in hosts {
                        tr data-host=(h.name) {
                            td { (h.name) @if h.revoked { " (revoked)" } }
                            td { (h.seen.map_or_else(|| "never".to_string(), |t| at(app, t.0))) }
                            td {
                                @for (problem, reason) in &h.refused {
                                    div class="refused" data-problem=(problem) {
                                        strong { (problem) } ": " (reason)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

pub async fn submission(
    State(app): State<Shared>,
    viewer: Viewer,
    JuryUser(me): JuryUser,
    Path(id): Path<i64>,
) -> Result<Markup, Refusal> {
    let (row, source, judgings) = app
        .db
        .read(move |c| {
            Ok((
                store::submission(c, id)?,
                store::source(c, id)?,
                store::judgings(c, id)?,
            ))
        })
        .await?;
    let row = row.ok_or_else(|| Refusal::not_found(format!("no submission {id}")))?;
    let body = html! {
        h1 { "Submission " (row.id) }
        table id="submission" data-submission=(row.id) data-verdict=(row.status.verdict().map_or("", |v| v.code())) {
            tr { th { "team" } td { (row.team) " (" (row.login) ")" } }
            tr { th { "problem" } td { (row.problem) } }
            tr { th { "file" } td { code { (row.file_name) } " (" (row.language) ")" } }
            tr { th { "time" } td { (at(&app, row.time_ms)) @if row.late { " late" } } }
            tr { th { "result" } td { (status_badge(&row.status)) } }
        }
        form method="post" action="/jury/rejudge" {
            input type="hidden" name="csrf" value=(me.csrf);
            input type="hidden" name="submission" value=(row.id);
            button type="submit" { "Rejudge" }
        }
        h2 { "Judgings" }
        table id="judgings" {
            thead { tr { th { "#" } th { "judge" } th { "started" } th { "took" } th { "result" } th { "counts" } } }
            tbody {
                @for j in &judgings {
                    tr data-judging=(j.id) {
                        td { (j.id) }
                        td { (j.host) }
                        td { (at(&app, j.started_ms)) }
                        td { @if let Some(f) = j.finished_ms { (hms(f - j.started_ms)) } }
                        td {
                            @if let Some(r) = &j.result { (r.verdict.code()) " " (crate::batch::model::score_text(r.score)) }
                            @else if j.aborted { "abandoned (the judge stopped)" }
                            @else { "running" }
                        }
                        td { @if j.valid { "yes" } }
                    }
                }
            }
        }
        @if judgings.iter().any(|j| j.valid) {
            p { a href=(format!("/jury/submissions/{}/report", row.id)) { "The full report: every test, the first failure's diff, the compile log" } }
        }
        h2 { "Source" }
        pre class="source" { (String::from_utf8_lossy(&source.unwrap_or_default())) }
    };
    Ok(page(&app, &viewer, &format!("Submission {id}"), body))
}

/// grundy's HTML report (`judge --html`) of the judging that counts.
pub async fn report(
    State(app): State<Shared>,
    JuryUser(_): JuryUser,
    Path(id): Path<i64>,
) -> Result<Response, Refusal> {
    let (row, judging) = app
        .db
        .read(move |c| Ok((store::submission(c, id)?, store::valid_judging(c, id)?)))
        .await?;
    let row = row.ok_or_else(|| Refusal::not_found(format!("no submission {id}")))?;
    let Some(result) = judging.as_ref().and_then(|j| j.result.clone()) else {
        return Err(Refusal::not_found(format!(
            "submission {id} is not judged yet"
        )));
    };
    let problems = app
        .problem(&row.problem)
        .map(|p| p.info.clone())
        .into_iter()
        .collect();
    let class = ClassReport {
        students: vec![row.login.clone()],
        problems,
        graded: vec![Graded {
            student: row.login.clone(),
            result,
            first_fail_input: judging.and_then(|j| j.first_fail_input),
            smallest_failing_input: None,
        }],
        issues: Vec::new(),
        feedback: app.config.feedback,
        identical: Vec::new(), // one submission: nothing to compare
    };
    let nonce = crate::serve::auth::token();
    let page = with_nonce(&crate::report::html_report(&class), &nonce);
    let mut res = ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], page).into_response();
    res.headers_mut()
        .insert(header::CONTENT_SECURITY_POLICY, csp_with_nonce(&nonce));
    Ok(res)
}

#[derive(Deserialize)]
pub struct Rejudge {
    #[serde(default)]
    csrf: String,
    submission: Option<i64>,
    #[serde(default)]
    problem: String,
}

pub async fn rejudge(
    State(app): State<Shared>,
    JuryUser(me): JuryUser,
    Form(f): Form<Rejudge>,
) -> Result<Redirect, Refusal> {
    check_csrf(&me, &f.csrf)?;
    if f.submission.is_none() && app.problem(&f.problem).is_none() {
        return Err(Refusal::bad(
            "say which submission or which problem to rejudge",
        ));
    }
    let (one, problem) = (f.submission, f.problem.clone());
    let queued = app
        .db
        .write(move |c| {
            let tx = c.transaction().what("cannot start a transaction")?;
            let ids: Vec<i64> = {
                let mut st = tx
                    .prepare(
                        "SELECT id FROM submissions WHERE (?1 IS NOT NULL AND id = ?1) OR (?1 IS NULL AND problem = ?2)
                         ORDER BY id",
                    )
                    .what("cannot choose submissions")?;
                let rows = st
                    .query_map(rusqlite::params![one, problem], |r| r.get(0))
                    .what("cannot choose submissions")?;
                rows.collect::<rusqlite::Result<Vec<i64>>>()
                    .what("cannot choose submissions")?
            };
            let mut n = 0;
            for id in ids {
                // A submission already waiting or being judged is judged once more anyway.
                let open: i64 = tx
                    .query_row(
                        "SELECT COUNT(*) FROM jobs WHERE submission_id = ?1 AND state != 'done'",
                        [id],
                        |r| r.get(0),
                    )
                    .what("cannot read the queue")?;
                if open == 0 {
                    queue::enqueue(&tx, id, Reason::Rejudge)?;
                    n += 1;
                }
            }
            tx.commit().what("cannot queue the rejudging")?;
            Ok(n)
        })
        .await?;
    if queued > 0 {
        app.wake.ring();
    }
    Ok(Redirect::to(&match f.submission {
        Some(id) => format!("/jury/submissions/{id}"),
        None => "/jury".into(),
    }))
}

#[derive(Deserialize)]
pub struct Pause {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
}

/// Pauses or resumes judging (the submissions keep coming into the queue).
pub async fn pause(
    State(app): State<Shared>,
    JuryUser(me): JuryUser,
    Form(f): Form<Pause>,
) -> Result<Redirect, Refusal> {
    check_csrf(&me, &f.csrf)?;
    let pause = match f.action.as_str() {
        "pause" => true,
        "resume" => false,
        other => return Err(Refusal::bad(format!("unknown action `{other}`"))),
    };
    app.db
        .write(move |c| {
            if pause {
                Db::set_setting(c, PAUSED, &Millis::now().0.to_string())
            } else {
                Db::delete_setting(c, PAUSED)
            }
        })
        .await?;
    app.wake.ring();
    Ok(Redirect::to("/jury"))
}

async fn class(app: &Shared) -> Result<ClassReport, Refusal> {
    let app2 = Shared::clone(app);
    Ok(app
        .db
        .read(move |c| {
            let infos: Vec<_> = app2.problems.iter().map(|p| p.info.clone()).collect();
            scoreboard::class_report(c, &app2.config, &infos)
        })
        .await?)
}

fn download(name: &str, kind: &'static str, body: String) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind.to_string()),
            (
                header::CONTENT_DISPOSITION,
                format!("attachment; filename=\"{name}\""),
            ),
        ],
        body,
    )
        .into_response()
}

/// `grades.csv` in `grade`'s format.
pub async fn grades_csv(
    State(app): State<Shared>,
    JuryUser(_): JuryUser,
) -> Result<Response, Refusal> {
    let class = class(&app).await?;
    Ok(download(
        "grades.csv",
        "text/csv; charset=utf-8",
        crate::report::grades_csv(&class),
    ))
}

/// `report.json` in `grade`'s format.
pub async fn report_json(
    State(app): State<Shared>,
    JuryUser(_): JuryUser,
) -> Result<Response, Refusal> {
    let class = class(&app).await?;
    let json = crate::report::class_json(&class)
        .map_err(|e| Refusal::new(axum::http::StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(download("report.json", "application/json", json))
}

/// The scoreboard (every result) in `contest`'s `scoreboard.json` format.
pub async fn scoreboard_json(
    State(app): State<Shared>,
    JuryUser(_): JuryUser,
) -> Result<Response, Refusal> {
    let app2 = Shared::clone(&app);
    let b = app
        .db
        .read(move |c| {
            let thawed = Db::setting(c, THAWED)?.is_some();
            app2.boards
                .get(c, &app2.config, &app2.clock, View::Truth, thawed)
        })
        .await?;
    let text = serde_json::to_string_pretty(&super::board::standings_json(&b))
        .unwrap_or_else(|_| "null".into());
    Ok(download("scoreboard.json", "application/json", text))
}

/// The refused requests, newest first.
pub async fn log(
    State(app): State<Shared>,
    viewer: Viewer,
    JuryUser(_): JuryUser,
) -> Result<Markup, Refusal> {
    let rows = app.db.read(|c| store::audit(c, 500)).await?;
    let body = html! {
        h1 { "Refused requests" }
        table id="audit" {
            thead { tr { th { "when" } th { "address" } th { "account" } th { "request" } th { "status" } th { "why" } } }
            tbody {
                @for (t, addr, acct, method, path, status, what) in &rows {
                    tr data-status=(status) {
                        td { (Millis(*t).rfc3339()) }
                        td { (addr) } td { (acct) }
                        td { (method) " " code { (path) } }
                        td { (status) } td { (what) }
                    }
                }
            }
        }
    };
    Ok(page(&app, &viewer, "Log", body))
}
