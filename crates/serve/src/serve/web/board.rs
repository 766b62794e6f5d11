//! The scoreboard pages: the public one (for teams and a projector),
//! frozen in the last part of the contest, and the jury's, which always
//! shows every result and holds the freeze switch. Both update live: the
//! table is a fragment fetched again when a result comes in.

use axum::Form;
use axum::body::Bytes;
use axum::extract::State;
use axum::response::{Html, Redirect};
use maud::{Markup, html};
use serde::Deserialize;
use serde_json::json;

use super::error::Refusal;
use super::identity::{JuryUser, Viewer, check_csrf};
use super::layout::page;
use super::tables::Table;
use super::{App, Shared};
use crate::batch::contest::score::Scoring;
use crate::batch::model::score_text;
use crate::serve::clock::Millis;
use crate::serve::db::Db;
use crate::serve::events::{self, Kind, Notice, Op};
use crate::serve::scoreboard::{Board, View};
use crate::serve::{FINALIZED, THAWED};
use std::sync::Arc;

/// The scoreboard for `view`, its table rendered, and whether the
/// organiser has unfrozen it.
async fn board(app: &Shared, view: View) -> Result<(Arc<Board>, Table, bool), Refusal> {
    // Most pages find it computed and drawn: asked here, on the async
    // thread (a few numbers read by index), without a thread switch.
    let kept = app
        .db
        .read_short(|c| {
            let thawed = Db::setting(c, THAWED)?.is_some();
            let b = app.boards.kept_for(c, &app.clock, view, thawed)?;
            Ok(b.and_then(|b| app.tables.kept(&b).map(|t| (b, t, thawed))))
        })
        .await?;
    if let Some(kept) = kept {
        return Ok(kept);
    }
    let app2 = Shared::clone(app);
    Ok(app
        .db
        .read(move |c| {
            let thawed = Db::setting(c, THAWED)?.is_some();
            let b = app2
                .boards
                .get(c, &app2.config, &app2.clock, view, thawed)?;
            // Here, off the threads that serve the requests: a rendering
            // that others wait for holds no request back.
            let t = app2.tables.get(&b, table);
            Ok((b, t, thawed))
        })
        .await?)
}

/// The table alone (what live pages fetch again).
pub fn table(b: &Board) -> Markup {
    let s = &b.standings;
    html! {
        @if b.frozen {
            p class="frozen" id="frozen" { "The scoreboard is frozen: results of later submissions are shown as pending (?) until the contest's end." }
        }
        table class="scoreboard" id="scoreboard" {
            thead { tr {
                th { "rank" } th { "team" }
                @match s.scoring {
                    Scoring::Icpc => { th { "solved" } th { "penalty" } }
                    Scoring::Ioi => { th { "total" } }
                }
                @for p in &s.problems { th title=(p.id.as_str()) { (p.label) small { (p.id.as_str()) } } }
            } }
            tbody {
                @for r in &s.rows {
                    tr class="row" data-contestant=(r.contestant) data-rank=(r.rank) {
                        td { (r.rank) }
                        td class="name" { (r.name) }
                        @match s.scoring {
                            Scoring::Icpc => { td class="solved-count" { (r.solved) } td { (r.penalty) } }
                            Scoring::Ioi => { td class="total" { (score_text(r.total)) } }
                        }
                        @for (c, p) in r.cells.iter().zip(&s.problems) {
                            @let pending = b.pending.get(&(r.contestant.clone(), p.id.clone())).copied().unwrap_or(0);
                            (cell(s.scoring, c, pending, p.id.as_str()))
                        }
                    }
                }
            }
        }
    }
}

fn cell(
    scoring: Scoring,
    c: &crate::batch::contest::score::Cell,
    pending: usize,
    problem: &str,
) -> Markup {
    let (class, text, minute) = match scoring {
        Scoring::Icpc => match c.solved_minute {
            Some(m) => (
                if c.first { "solved first" } else { "solved" },
                if c.rejected == 0 {
                    "+".to_string()
                } else {
                    format!("+{}", c.rejected)
                },
                Some(format!("{m} min")),
            ),
            None if pending > 0 => (
                "pending",
                if c.rejected > 0 {
                    format!("-{} ?{pending}", c.rejected)
                } else {
                    format!("?{pending}")
                },
                None,
            ),
            None if c.submissions > 0 => (
                "failed",
                if c.rejected > 0 {
                    format!("-{}", c.rejected)
                } else {
                    "0".into()
                },
                None,
            ),
            None => ("untried", String::new(), None),
        },
        Scoring::Ioi => match c.best {
            Some(b) if pending > 0 => ("pending", format!("{} ?{pending}", score_text(b)), None),
            None if pending > 0 => ("pending", format!("?{pending}"), None),
            Some(b) if b >= 100.0 => ("full", score_text(b), None),
            Some(b) if b > 0.0 => ("partial", score_text(b), None),
            Some(b) => ("zero", score_text(b), None),
            None => ("untried", String::new(), None),
        },
    };
    html! {
        td class=(class) data-problem=(problem) data-pending=(pending) {
            (text)
            @if c.first { span title="first to solve" { " ★" } }
            @if let Some(m) = minute { small { (m) } }
        }
    }
}

fn may_see_public(app: &App, viewer: &Viewer) -> Result<(), Refusal> {
    if app.config.public_scoreboard || viewer.is_jury() {
        Ok(())
    } else {
        Err(Refusal::forbidden("this class has no public scoreboard"))
    }
}

pub async fn public_page(State(app): State<Shared>, viewer: Viewer) -> Result<Markup, Refusal> {
    may_see_public(&app, &viewer)?;
    let (_, t, _) = board(&app, View::Public).await?;
    let body = html! {
        h1 { "Scoreboard" }
        div data-live="scoreboard" data-src="/scoreboard/table" { (t.markup()) }
    };
    Ok(page(&app, &viewer, "Scoreboard", body))
}

pub async fn public_table(
    State(app): State<Shared>,
    viewer: Viewer,
) -> Result<Html<Bytes>, Refusal> {
    may_see_public(&app, &viewer)?;
    Ok(board(&app, View::Public).await?.1.html())
}

pub async fn jury_page(
    State(app): State<Shared>,
    viewer: Viewer,
    JuryUser(me): JuryUser,
) -> Result<Markup, Refusal> {
    let (_, t, thawed) = board(&app, View::Truth).await?;
    let (public, _, _) = board(&app, View::Public).await?;
    let body = html! {
        h1 { "Scoreboard (every result)" }
        @match app.clock.freeze {
            None => p { "This contest has no freeze." },
            Some(f) => {
                p id="freeze-state" {
                    "Freeze at " (f.rfc3339()) ". "
                    @if thawed { "Unfrozen: the public sees every result." }
                    @else if public.frozen { "Frozen now: the public sees results up to the freeze." }
                    @else { "Not frozen yet." }
                }
                form method="post" action="/jury/freeze" {
                    input type="hidden" name="csrf" value=(me.csrf);
                    @if thawed {
                        input type="hidden" name="action" value="freeze";
                        button type="submit" { "Freeze again" }
                    } @else {
                        input type="hidden" name="action" value="unfreeze";
                        button type="submit" { "Unfreeze the public scoreboard" }
                    }
                }
            }
        }
        @if app.clock.end.is_some_and(|e| e <= Millis::now()) {
            form method="post" action="/jury/freeze" {
                input type="hidden" name="csrf" value=(me.csrf);
                input type="hidden" name="action" value="finalize";
                button type="submit" { "Finalize the results" }
            }
        }
        div data-live="scoreboard" data-src="/jury/scoreboard/table" { (t.markup()) }
        p { a href="/jury/scoreboard.json" { "scoreboard.json" } }
    };
    Ok(page(&app, &viewer, "Scoreboard", body))
}

pub async fn jury_table(
    State(app): State<Shared>,
    JuryUser(_): JuryUser,
) -> Result<Html<Bytes>, Refusal> {
    Ok(board(&app, View::Truth).await?.1.html())
}

#[derive(Deserialize)]
pub struct Freeze {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    action: String,
}

pub async fn freeze(
    State(app): State<Shared>,
    JuryUser(me): JuryUser,
    Form(f): Form<Freeze>,
) -> Result<Redirect, Refusal> {
    check_csrf(&me, &f.csrf)?;
    let action = match f.action.as_str() {
        "unfreeze" => Action::Thaw,
        "freeze" => Action::Freeze,
        "finalize" => Action::Finalize,
        other => return Err(Refusal::bad(format!("unknown action `{other}`"))),
    };
    let app2 = Shared::clone(&app);
    let refused = app
        .db
        .write(move |c| {
            let now = Millis::now();
            match action {
                Action::Thaw => Db::set_setting(c, THAWED, &now.0.to_string())?,
                Action::Freeze => Db::delete_setting(c, THAWED)?,
                Action::Finalize => {
                    if app2.clock.end.is_none_or(|e| e > now) {
                        return Ok(Some("the results are finalized once the contest has ended"));
                    }
                    let (queued, running) = crate::serve::queue::depth(c)?;
                    if queued + running > 0 {
                        return Ok(Some(
                            "submissions are still being judged: finalize once the queue is empty",
                        ));
                    }
                    if Db::setting(c, FINALIZED)?.is_none() {
                        Db::set_setting(c, FINALIZED, &now.0.to_string())?;
                    }
                }
            }
            let thawed = crate::serve::setting_time(c, THAWED)?;
            let finalized = crate::serve::setting_time(c, FINALIZED)?;
            events::log(
                c,
                Kind::State,
                "state",
                Op::Update,
                &crate::serve::state_json(&app2.clock, thawed, finalized, now),
            )?;
            Ok(None)
        })
        .await?;
    if let Some(why) = refused {
        return Err(Refusal::new(axum::http::StatusCode::CONFLICT, why));
    }
    app.hub.tell(Notice::State);
    app.hub.tell(Notice::Scoreboard { jury_only: false });
    Ok(Redirect::to("/jury/scoreboard"))
}

/// What the organiser does to the scoreboard's state.
#[derive(Clone, Copy)]
enum Action {
    Freeze,
    Thaw,
    /// No judging will change the results (the contest has ended and the
    /// queue is empty); with the scoreboard thawed, the updates end.
    Finalize,
}

/// For the JSON download.
pub fn standings_json(b: &Board) -> serde_json::Value {
    json!(b.standings)
}
