//! A team's (or student's) pages: the problems and the submit form, their
//! submissions with verdicts that appear as they come, a submission's
//! feedback at the contest's level, the statements. A team reads only its
//! own submissions; another's is refused (403) and logged.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::{Markup, PreEscaped, html};
use serde_json::json;

use super::error::Refusal;
use super::identity::{Signed, TeamUser, Viewer};
use super::layout::{at, page};
use super::{App, Shared};
use crate::batch::contest::score::Scoring;
use crate::batch::model::{ClassReport, FeedbackLevel, Graded, score_text};
use crate::serve::auth::Session;
use crate::serve::clock::{Millis, Phase};
use crate::serve::store::{self, Status, SubmissionRow};

pub async fn home(
    State(app): State<Shared>,
    viewer: Viewer,
    TeamUser(me): TeamUser,
) -> Result<Markup, Refusal> {
    let id = me.account.id;
    let subs = app
        .db
        .read_short(|c| store::submissions(c, Some(id), 1000))
        .await?;
    let phase = app.clock.phase(Millis::now());
    let body = html! {
        h1 { (me.account.name) }
        @if phase == Phase::Before {
            p { "The problems are shown when the contest starts, at " (app.clock.start.rfc3339()) "." }
        } @else {
            (problems(&app, &subs))
            (submit_form(&app, &me))
        }
        h2 { "Your submissions" }
        (submissions_table(&app, &subs, false))
    };
    Ok(page(&app, &viewer, "Problems and submissions", body))
}

fn problems(app: &App, subs: &[SubmissionRow]) -> Markup {
    let homework = app.config.homework.is_some();
    html! {
        h2 { "Problems" }
        table id="problems" {
            thead { tr {
                th { "" } th { "problem" } th { "limits" }
                @if homework { th { "deadline" } }
                th { "you" }
            } }
            tbody {
                @for p in &app.problems {
                    @let mine: Vec<&SubmissionRow> = subs.iter().filter(|s| s.problem == p.id.as_str()).collect();
                    tr data-problem=(p.id.as_str()) {
                        td { (p.label) }
                        td { a href=(format!("/problems/{}", p.id)) { (p.title) } }
                        td { (p.limits) }
                        @if homework {
                            td { (deadline_text(app, p.id.as_str())) }
                        }
                        td { (standing(app, &mine)) }
                    }
                }
            }
        }
    }
}

fn deadline_text(app: &App, problem: &str) -> String {
    match super::submit::deadline(app, problem) {
        Some(d) => d.rfc3339(),
        None => "none".into(),
    }
}

/// How the team stands on a problem: solved / tries, or the best score.
fn standing(app: &App, mine: &[&SubmissionRow]) -> String {
    if mine.is_empty() {
        return String::new();
    }
    match app.config.scoring {
        Scoring::Icpc => {
            if mine
                .iter()
                .any(|s| s.status.verdict() == Some(crate::verdict::Verdict::AC))
            {
                "solved".into()
            } else {
                format!("{} tries", mine.len())
            }
        }
        Scoring::Ioi => {
            let best = mine
                .iter()
                .filter_map(|s| match s.status {
                    Status::Judged { score, .. } => Some(score),
                    _ => None,
                })
                .fold(None, |b: Option<f64>, s| Some(b.map_or(s, |b| b.max(s))));
            best.map_or_else(|| "judging".into(), |b| format!("best {}", score_text(b)))
        }
    }
}

fn submit_form(app: &App, me: &Session) -> Markup {
    let langs = app.allowed_languages();
    html! {
        h2 { "Submit" }
        form method="post" action="/submit" enctype="multipart/form-data" id="submit" {
            input type="hidden" name="csrf" value=(me.csrf);
            label { "Problem "
                select name="problem" {
                    @for p in &app.problems {
                        option value=(p.id.as_str()) { (p.label) " — " (p.title) }
                    }
                }
            }
            label { "File " input type="file" name="file"; }
            details {
                summary { "…or paste the source" }
                label { "Language "
                    select name="language" {
                        option value="" { "from the file name" }
                        @for l in &langs {
                            option value=(l.id) { (l.name) }
                        }
                    }
                }
                textarea name="source" rows="12" placeholder="paste your program here" {}
            }
            p class="muted" {
                "Languages: "
                @for (i, l) in langs.iter().enumerate() {
                    @if i > 0 { ", " }
                    (l.name) " (." (l.extensions.join(", .")) ")"
                }
                ". At most " (app.config.upload_limit) "."
                @for p in app.problems.iter().filter(|p| !p.runs_otherwise.is_empty()) {
                    " Problem " (p.label) " runs " (p.runs_otherwise.join(", ")) "."
                }
            }
            button type="submit" { "Submit" }
        }
    }
}

/// The submissions table; `jury` adds the team column and jury links.
pub fn submissions_table(app: &App, subs: &[SubmissionRow], jury: bool) -> Markup {
    html! {
        table id="submissions" {
            thead { tr {
                th { "#" } th { "time" }
                @if jury { th { "team" } }
                th { "problem" } th { "language" } th { "file" } th { "result" }
                @if app.config.scoring == Scoring::Ioi { th { "score" } }
            } }
            tbody {
                @for s in subs {
                    @let href = if jury { format!("/jury/submissions/{}", s.id) } else { format!("/submissions/{}", s.id) };
                    tr data-submission=(s.id) data-verdict=(s.status.verdict().map_or("", |v| v.code())) {
                        td { a href=(href) { (s.id) } }
                        td { (at(app, s.time_ms)) @if s.late { " " span class="late" { "late" } } }
                        @if jury { td { (s.team) " (" (s.login) ")" } }
                        td { (label_of(app, &s.problem)) }
                        td { (s.language) }
                        td { code { (s.file_name) } }
                        td { (status_badge(&s.status)) @if s.rejudging { " " span class="muted" { "rejudging" } } }
                        @if app.config.scoring == Scoring::Ioi {
                            td class="score" { @if let Status::Judged { score, .. } = s.status { (score_text(score)) } }
                        }
                    }
                }
            }
        }
    }
}

pub fn status_badge(s: &Status) -> Markup {
    let v = s.verdict();
    let class = match v {
        Some(v) => format!("status badge v-{}", v.code()),
        None => "status badge v-none".into(),
    };
    html! { span class=(class) title=[v.map(|v| v.meaning())] { (s.label()) } }
}

fn label_of(app: &App, problem: &str) -> String {
    app.problem(problem).map_or_else(
        || problem.to_string(),
        |p| format!("{} {}", p.label, p.title),
    )
}

/// A submission the viewer may read: their own, or any for the jury.
pub async fn readable(app: &App, session: &Session, id: i64) -> Result<SubmissionRow, Refusal> {
    let row = app
        .db
        .read_short(|c| store::submission(c, id))
        .await?
        .ok_or_else(|| Refusal::not_found(format!("no submission {id}")))?;
    if row.account != session.account.id && !session.account.role.is_jury() {
        return Err(Refusal::forbidden(format!(
            "submission {id} is another team's"
        )));
    }
    Ok(row)
}

pub async fn status(
    State(app): State<Shared>,
    Signed(me): Signed,
    Path(id): Path<i64>,
) -> Result<Response, Refusal> {
    let row = readable(&app, &me, id).await?;
    let (verdict, score) = match row.status {
        Status::Judged { verdict, score } => (Some(verdict.code()), Some(score)),
        _ => (None, None),
    };
    Ok(Json(json!({
        "id": row.id,
        "label": row.status.label(),
        "verdict": verdict,
        "score": score,
        "score_text": score.map(score_text),
        "done": verdict.is_some(),
    }))
    .into_response())
}

/// A submission with the feedback the contest allows.
pub async fn submission(
    State(app): State<Shared>,
    viewer: Viewer,
    Signed(me): Signed,
    Path(id): Path<i64>,
) -> Result<Response, Refusal> {
    let row = readable(&app, &me, id).await?;
    let judging = app.db.read_short(|c| store::valid_judging(c, id)).await?;
    let nonce = crate::serve::auth::token();
    let level = app.config.feedback;
    let mut replay = None;
    let feedback = judging
        .as_ref()
        .and_then(|j| j.result.clone())
        .map(|result| {
            if level == FeedbackLevel::FirstFail
                && let Some(game) = result
                    .tests
                    .iter()
                    .find(|t| t.verdict != crate::verdict::Verdict::AC)
                    .and_then(|t| t.game.as_ref())
            {
                replay = Some(crate::report::replay_html("replay", game));
            }
            let info = app
                .problem(&row.problem)
                .map(|p| p.info.clone())
                .into_iter()
                .collect();
            let class = ClassReport {
                students: vec![row.login.clone()],
                problems: info,
                graded: vec![Graded {
                    student: row.login.clone(),
                    result,
                    first_fail_input: judging.as_ref().and_then(|j| j.first_fail_input.clone()),
                    smallest_failing_input: None,
                }],
                issues: Vec::new(),
                feedback: level,
                identical: Vec::new(), // one submission: nothing to compare
            };
            crate::report::feedback(&class, &row.login)
        });
    let body = html! {
        h1 { "Submission " (row.id) }
        table id="submission" data-submission=(row.id) data-verdict=(row.status.verdict().map_or("", |v| v.code())) {
            tr { th { "problem" } td { (label_of(&app, &row.problem)) } }
            tr { th { "file" } td { code { (row.file_name) } " (" (row.language) ") " a href=(format!("/submissions/{}/source", row.id)) { "source" } } }
            tr { th { "time" } td { (at(&app, row.time_ms)) @if row.late { " " span class="late" { "late" } } } }
            tr { th { "result" } td { (status_badge(&row.status)) } }
        }
        @if let Some(text) = &feedback {
            h2 { "Feedback" }
            pre class="feedback" { (text) }
        }
        @if let Some(r) = &replay {
            style { (PreEscaped(crate::report::REPLAY_CSS)) }
            (PreEscaped(r))
            (PreEscaped(with_nonce(crate::report::REPLAY_SCRIPT, &nonce)))
        }
    };
    let mut res = page(&app, &viewer, &format!("Submission {}", row.id), body).into_response();
    if replay.is_some() {
        res.headers_mut()
            .insert(header::CONTENT_SECURITY_POLICY, csp_with_nonce(&nonce));
    }
    Ok(res)
}

/// Marks grundy's own inline scripts (the replay's) with the page's nonce.
pub fn with_nonce(html: &str, nonce: &str) -> String {
    html.replace("<script>", &format!("<script nonce=\"{nonce}\">"))
}

pub fn csp_with_nonce(nonce: &str) -> header::HeaderValue {
    header::HeaderValue::from_str(&format!(
        "default-src 'self'; script-src 'self' 'nonce-{nonce}'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"
    ))
    .unwrap_or_else(|_| header::HeaderValue::from_static("default-src 'self'"))
}

pub async fn source(
    State(app): State<Shared>,
    viewer: Viewer,
    Signed(me): Signed,
    Path(id): Path<i64>,
) -> Result<Markup, Refusal> {
    let row = readable(&app, &me, id).await?;
    let bytes = app
        .db
        .read_short(|c| store::source(c, id))
        .await?
        .unwrap_or_default();
    let body = html! {
        h1 { "Source of submission " (row.id) ": " code { (row.file_name) } }
        pre class="source" { (String::from_utf8_lossy(&bytes)) }
    };
    Ok(page(&app, &viewer, "Source", body))
}

/// A problem's statement: for teams once the contest has started, for the
/// jury always.
pub async fn statement(
    State(app): State<Shared>,
    Signed(me): Signed,
    Path(id): Path<String>,
) -> Result<Response, Refusal> {
    let p = app
        .problem(&id)
        .ok_or_else(|| Refusal::not_found(format!("no problem `{id}` in this contest")))?;
    if !me.account.role.is_jury() && app.clock.phase(Millis::now()) == Phase::Before {
        return Err(Refusal::forbidden(
            "the problems are shown when the contest starts",
        ));
    }
    let Some(html) = &p.statement else {
        return Err(Refusal::not_found(format!(
            "problem `{id}` has no statement"
        )));
    };
    Ok((
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        html.clone(),
    )
        .into_response())
}
