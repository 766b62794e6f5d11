//! The frame of every page: the contest's title, the clock, the links the
//! viewer may follow, and the one script (live updates, the clock).

use maud::{DOCTYPE, Markup, html};

use super::App;
use super::identity::Viewer;
use crate::serve::clock::{Millis, Phase, hms};

/// A whole page.
pub fn page(app: &App, viewer: &Viewer, title: &str, body: Markup) -> Markup {
    let clock = &app.clock;
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " — " (app.config.title) }
                link rel="stylesheet" href="/static/app.css";
                script src="/static/app.js" defer {}
                noscript { meta http-equiv="refresh" content="30"; }
            }
            body {
                header {
                    span class="contest" { (app.config.title) }
                    span id="clock" data-start=(clock.start.0)
                        data-end=[clock.end.map(|e| e.0)]
                        data-now=(Millis::now().0) { (clock_text(app)) }
                    nav { (links(app, viewer)) }
                }
                div id="notice" hidden {}
                main { (body) }
            }
        }
    }
}

/// The clock as the server sees it (the script keeps it ticking).
pub fn clock_text(app: &App) -> String {
    let now = Millis::now();
    let c = &app.clock;
    match c.phase(now) {
        Phase::Before => format!("starts in {}", hms(c.start.0 - now.0)),
        Phase::Running => match c.end {
            Some(e) => format!("{} left", hms(e.0 - now.0)),
            None => format!("{} since the start", hms(now.0 - c.start.0)),
        },
        Phase::Over => "the contest is over".into(),
    }
}

fn links(app: &App, viewer: &Viewer) -> Markup {
    html! {
        @match &viewer.session {
            Some(s) => {
                @if s.account.role.is_jury() {
                    a href="/jury" { "Submissions" }
                    a href="/jury/clarifications" { "Clarifications" }
                    a href="/jury/scoreboard" { "Scoreboard" }
                    a href="/jury/log" { "Log" }
                } @else {
                    a href="/team" { "Problems and submissions" }
                    a href="/clarifications" { "Clarifications" }
                    @if app.config.public_scoreboard {
                        a href="/scoreboard" { "Scoreboard" }
                    }
                }
                span class="who" { (s.account.name) " (" (s.account.login) ")" }
                form method="post" action="/logout" class="inline" {
                    input type="hidden" name="csrf" value=(s.csrf);
                    button type="submit" { "Sign out" }
                }
            }
            None => {
                @if app.config.public_scoreboard {
                    a href="/scoreboard" { "Scoreboard" }
                }
                a href="/login" { "Sign in" }
            }
        }
    }
}

/// `1:02:03` since the start.
pub fn at(app: &App, time_ms: i64) -> String {
    hms(time_ms - app.clock.start.0)
}
