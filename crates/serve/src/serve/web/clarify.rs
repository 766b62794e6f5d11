//! Clarifications: a team asks (about a problem or in general), the jury
//! answers the team or everyone. Texts are shown as typed, escaped.

use axum::Form;
use axum::extract::State;
use axum::response::Redirect;
use maud::{Markup, html};
use rusqlite::params;
use serde::Deserialize;
use serde_json::json;

use super::error::Refusal;
use super::identity::{JuryUser, TeamUser, Viewer, check_csrf};
use super::layout::{at, page};
use super::{App, Shared};
use crate::serve::clock::{Millis, contest_time};
use crate::serve::db::Context as _;
use crate::serve::events::{self, Kind, Notice, Op};
use crate::serve::store::{self, Clarification};

/// The longest question or answer taken.
const MOST_CHARS: usize = 4000;

fn list(app: &App, items: &[Clarification], jury: bool, csrf: &str) -> Markup {
    html! {
        @if items.is_empty() { p class="muted" { "None yet." } }
        @for k in items {
            div class=(if k.from.is_none() { "clar jury" } else { "clar" }) id=(format!("clar-{}", k.id)) {
                p class="muted" {
                    "#" (k.id) " at " (at(app, k.time_ms)) ", "
                    @match (&k.from, &k.to, k.to_all) {
                        (Some(from), _, _) => { "from " strong { (from) } }
                        (None, _, true) => { "from the jury to everyone" }
                        (None, Some(to), _) => { "from the jury to " strong { (to) } }
                        (None, None, _) => { "from the jury" }
                    }
                    @if let Some(p) = &k.problem { ", about " (p) }
                    @if let Some(r) = k.reply_to { ", answering #" (r) }
                }
                pre class="clar-text" { (k.text) }
                @if jury && k.from.is_some() && !k.answered {
                    (answer_form(app, csrf, Some(k)))
                }
            }
        }
    }
}

fn answer_form(app: &App, csrf: &str, to: Option<&Clarification>) -> Markup {
    html! {
        form method="post" action="/jury/clarifications" class="answer" {
            input type="hidden" name="csrf" value=(csrf);
            @if let Some(k) = to {
                input type="hidden" name="reply_to" value=(k.id);
                input type="hidden" name="to" value=(k.from.clone().unwrap_or_default());
                @if let Some(p) = &k.problem { input type="hidden" name="problem" value=(p); }
                label { input type="checkbox" name="to_all" value="1"; " send the answer to everyone" }
            } @else {
                input type="hidden" name="to_all" value="1";
                label { "About "
                    select name="problem" {
                        option value="" { "the contest" }
                        @for p in &app.problems { option value=(p.id.as_str()) { (p.label) " " (p.title) } }
                    }
                }
            }
            textarea name="text" rows="3" required {}
            button type="submit" { @if to.is_some() { "Answer" } @else { "Send to everyone" } }
        }
    }
}

pub async fn team_page(
    State(app): State<Shared>,
    viewer: Viewer,
    TeamUser(me): TeamUser,
) -> Result<Markup, Refusal> {
    let id = me.account.id;
    let items = app
        .db
        .read_short(|c| store::clarifications(c, Some(id)))
        .await?;
    let body = html! {
        h1 { "Clarifications" }
        form method="post" action="/clarifications" id="ask" {
            input type="hidden" name="csrf" value=(me.csrf);
            label { "About "
                select name="problem" {
                    option value="" { "the contest" }
                    @for p in &app.problems { option value=(p.id.as_str()) { (p.label) " " (p.title) } }
                }
            }
            textarea name="text" rows="4" required placeholder="your question to the jury" {}
            button type="submit" { "Ask the jury" }
        }
        (list(&app, &items, false, &me.csrf))
    };
    Ok(page(&app, &viewer, "Clarifications", body))
}

#[derive(Deserialize)]
pub struct Ask {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    text: String,
}

fn checked_text(text: &str) -> Result<String, Refusal> {
    let t = text.trim();
    if t.is_empty() {
        return Err(Refusal::bad("the text is empty"));
    }
    if t.chars().count() > MOST_CHARS {
        return Err(Refusal::new(
            axum::http::StatusCode::PAYLOAD_TOO_LARGE,
            format!("at most {MOST_CHARS} characters, please"),
        ));
    }
    Ok(t.to_string())
}

fn checked_problem(app: &App, p: &str) -> Result<Option<String>, Refusal> {
    if p.is_empty() {
        return Ok(None);
    }
    app.problem(p)
        .map(|p| Some(p.id.to_string()))
        .ok_or_else(|| Refusal::bad(format!("there is no problem `{p}` in this contest")))
}

/// Stores a clarification and its event; returns its id.
#[allow(clippy::too_many_arguments)]
async fn store(
    app: &App,
    from: Option<i64>,
    to: Option<String>,
    to_all: bool,
    reply_to: Option<i64>,
    problem: Option<String>,
    text: String,
) -> Result<i64, Refusal> {
    let start = app.clock.start;
    let id = app
        .db
        .write(move |c| {
            let tx = c.transaction().what("cannot start a transaction")?;
            // What a form names must exist: an unknown question would break
            // the table's link to it, an unknown team would leave the
            // answer addressed to nobody.
            let to_id: Option<i64> = match &to {
                Some(login) => match crate::serve::accounts::by_login(&tx, login)? {
                    Some((a, _)) => Some(a.id),
                    None => return Ok(Err(format!("there is no account `{login}`"))),
                },
                None => None,
            };
            if let Some(r) = reply_to {
                let known: bool = tx
                    .query_row(
                        "SELECT EXISTS (SELECT 1 FROM clarifications WHERE id = ?1)",
                        [r],
                        |row| row.get(0),
                    )
                    .what("cannot read clarifications")?;
                if !known {
                    return Ok(Err(format!("there is no clarification {r} to answer")));
                }
            }
            let now = Millis::now();
            tx.execute(
                "INSERT INTO clarifications (from_account, to_account, to_all, reply_to, problem, text, time_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![from, to_id, to_all, reply_to, problem, text, now.0],
            )
            .what("cannot store a clarification")?;
            let id = tx.last_insert_rowid();
            if let Some(r) = reply_to {
                tx.execute("UPDATE clarifications SET answered = 1 WHERE id = ?1", [r])
                    .what("cannot mark a question answered")?;
            }
            let from_team = match from {
                Some(f) => crate::serve::accounts::by_id(&tx, f)?.map(|a| a.login),
                None => None,
            };
            events::log(
                &tx,
                Kind::Clarifications,
                &id.to_string(),
                Op::Create,
                &json!({
                    "id": id.to_string(),
                    "from_team_id": from_team,
                    "to_team_ids": if to_all { None } else { to.clone().map(|t| vec![t]) },
                    "reply_to_id": reply_to.map(|r| r.to_string()),
                    "problem_id": problem,
                    "text": text,
                    "time": now.rfc3339(),
                    "contest_time": contest_time(now.0 - start.0),
                }),
            )?;
            tx.commit().what("cannot store a clarification")?;
            Ok(Ok((id, to_id)))
        })
        .await?;
    let (id, to_id) = id.map_err(Refusal::bad)?;
    app.hub.tell(Notice::Clarification {
        to: if to_all { None } else { to_id },
        for_jury: from.is_some(),
    });
    Ok(id)
}

pub async fn ask(
    State(app): State<Shared>,
    TeamUser(me): TeamUser,
    Form(f): Form<Ask>,
) -> Result<Redirect, Refusal> {
    check_csrf(&me, &f.csrf)?;
    let text = checked_text(&f.text)?;
    let problem = checked_problem(&app, &f.problem)?;
    store(&app, Some(me.account.id), None, false, None, problem, text).await?;
    Ok(Redirect::to("/clarifications"))
}

pub async fn jury_page(
    State(app): State<Shared>,
    viewer: Viewer,
    JuryUser(me): JuryUser,
) -> Result<Markup, Refusal> {
    let items = app.db.read(|c| store::clarifications(c, None)).await?;
    let body = html! {
        h1 { "Clarifications" }
        h2 { "Tell everyone" }
        (answer_form(&app, &me.csrf, None))
        h2 { "Questions and answers" }
        (list(&app, &items, true, &me.csrf))
    };
    Ok(page(&app, &viewer, "Clarifications", body))
}

#[derive(Deserialize)]
pub struct Answer {
    #[serde(default)]
    csrf: String,
    reply_to: Option<i64>,
    #[serde(default)]
    to: String,
    #[serde(default)]
    to_all: String,
    #[serde(default)]
    problem: String,
    #[serde(default)]
    text: String,
}

pub async fn answer(
    State(app): State<Shared>,
    JuryUser(me): JuryUser,
    Form(f): Form<Answer>,
) -> Result<Redirect, Refusal> {
    check_csrf(&me, &f.csrf)?;
    let text = checked_text(&f.text)?;
    let problem = checked_problem(&app, &f.problem)?;
    let to_all = !f.to_all.is_empty() || f.to.is_empty();
    let to = (!f.to.is_empty()).then_some(f.to);
    store(&app, None, to, to_all, f.reply_to, problem, text).await?;
    Ok(Redirect::to("/jury/clarifications"))
}
