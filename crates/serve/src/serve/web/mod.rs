//! The web side: routes, the state every handler shares, and the
//! middleware every request goes through (who is asking, security headers,
//! the log of refused requests).
//!
//! Pages are rendered with maud, which escapes every value put in a page
//! unless told otherwise: a team's name, a file name or a question shows
//! as text wherever it appears.

mod assets;
mod board;
mod clarify;
mod error;
mod identity;
mod jury;
mod layout;
mod login;
mod sse;
mod submit;
mod tables;
mod team;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get, post};

pub use error::{Refusal, Refused};
pub use identity::Viewer;
pub use tables::Tables;

use super::clock::{Clock, Millis};
use super::config::Config;
use super::credentials::Remembered;
use super::db::Db;
use super::events::Hub;
use super::throttle::Throttle;
use super::workers::Wake;
use crate::batch::model::ProblemInfo;
use crate::language::Languages;
use crate::problem::ProblemId;

/// A problem as the pages show it.
pub struct ProblemView {
    pub id: ProblemId,
    pub label: String,
    pub title: String,
    /// `1 s, 256 MiB`.
    pub limits: String,
    /// The statement page (`grundy statement`), when the problem has one.
    pub statement: Option<String>,
    pub info: ProblemInfo,
    /// The problem's time limit and number of tests (the Contest API's problem).
    pub time_limit: std::time::Duration,
    pub tests: usize,
    /// The languages this problem runs otherwise than the contest's table
    /// says, by the name it runs them under (a package's Python 3 with
    /// PyPy among grundy's own problems): told to teams beside the list.
    pub runs_otherwise: Vec<String>,
}

/// What every handler shares.
pub struct App {
    pub db: Db,
    pub hub: Hub,
    pub config: Config,
    pub clock: Clock,
    pub problems: Vec<ProblemView>,
    /// The language table; `config.languages` says which may be used.
    pub languages: Languages,
    pub throttle: Throttle,
    /// Passwords of the Contest API's requests, checked once.
    pub credentials: Remembered,
    pub wake: Arc<Wake>,
    /// Per problem, its deadline resolved (a class).
    pub deadlines: Vec<(String, Millis)>,
    /// Per problem, its package as judge hosts fetch it.
    pub packages: std::collections::BTreeMap<ProblemId, super::hosts::package::Package>,
    /// The scoreboards computed last.
    pub boards: super::scoreboard::Boards,
    /// Their tables as rendered last.
    pub tables: Tables,
}

impl App {
    pub fn problem(&self, id: &str) -> Option<&ProblemView> {
        self.problems.iter().find(|p| p.id == id)
    }

    /// The languages teams may use: (id, name, extensions).
    pub fn allowed_languages(&self) -> Vec<&crate::language::Language> {
        self.languages
            .table
            .iter()
            .filter(|l| l.id != "exe")
            .filter(|l| {
                self.config
                    .languages
                    .as_ref()
                    .is_none_or(|ids| ids.contains(&l.id))
            })
            .collect()
    }
}

pub type Shared = Arc<App>;

/// Every route of the server; `more`: routes of other parts of the server
/// (the Contest API), behind the same checks as the pages.
pub fn router(app: Shared, more: Router<Shared>) -> Router {
    // The multipart body may hold the source plus the form's other
    // fields; the source itself is checked against the limit exactly.
    let upload = (app.config.upload_limit.0 + submit::FORM_ALLOWANCE) as usize;
    Router::new()
        .route("/", get(login::home))
        .route("/login", get(login::form).post(login::submit))
        .route("/logout", post(login::logout))
        .route("/team", get(team::home))
        .route("/problems/{id}", get(team::statement))
        .route(
            "/submit",
            post(submit::submit).layer(DefaultBodyLimit::max(upload)),
        )
        .route("/submissions/{id}", get(team::submission))
        .route("/submissions/{id}/status", get(team::status))
        .route("/submissions/{id}/source", get(team::source))
        .route(
            "/clarifications",
            get(clarify::team_page).post(clarify::ask),
        )
        .route("/scoreboard", get(board::public_page))
        .route("/scoreboard/table", get(board::public_table))
        .route("/events", get(sse::events))
        .route("/static/app.js", get(assets::script))
        .route("/static/app.css", get(assets::style))
        .route("/jury", get(jury::home))
        .route("/jury/submissions/{id}", get(jury::submission))
        .route("/jury/submissions/{id}/report", get(jury::report))
        .route("/jury/rejudge", post(jury::rejudge))
        .route("/jury/queue", post(jury::pause))
        .route(
            "/jury/clarifications",
            get(clarify::jury_page).post(clarify::answer),
        )
        .route("/jury/scoreboard", get(board::jury_page))
        .route("/jury/scoreboard/table", get(board::jury_table))
        .route("/jury/freeze", post(board::freeze))
        .route("/jury/grades.csv", get(jury::grades_csv))
        .route("/jury/report.json", get(jury::report_json))
        .route("/jury/scoreboard.json", get(jury::scoreboard_json))
        .route("/jury/log", get(jury::log))
        .merge(more)
        .fallback(error::not_found)
        .layer(DefaultBodyLimit::max(FORM_LIMIT))
        .layer(middleware::from_fn_with_state(Arc::clone(&app), around))
        .with_state(app)
}

/// At most [`LOGGED_CHARS`] characters of `s`, for the log.
fn clip(s: &str) -> String {
    match s.char_indices().nth(LOGGED_CHARS) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// How much of a refused request's path and reason the log keeps.
const LOGGED_CHARS: usize = 300;

/// What a form other than a submission may weigh (a question, a login).
const FORM_LIMIT: usize = 64 * 1024;

/// Every request: who asks (the session of its cookie), the security
/// headers on the answer, and a line in the log when it was refused.
async fn around(
    State(app): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut req: Request,
    next: Next,
) -> Response {
    let token = identity::token_of(&req);
    let viewer = identity::identify(&app, token, peer).await;
    let (method, path) = (req.method().to_string(), req.uri().path().to_string());
    req.extensions_mut().insert(viewer.clone());
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    if !h.contains_key(header::CONTENT_SECURITY_POLICY) {
        h.insert(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; form-action 'self'; base-uri 'none'",
            ),
        );
    }
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    let status = res.status();
    if status.is_client_error() || status.is_server_error() {
        let what = res.extensions().get::<error::Refused>().map_or_else(
            || status.canonical_reason().unwrap_or("refused").to_string(),
            |r| r.0.clone(),
        );
        // Bounded: a refusal's text may quote what the client sent.
        let (what, path) = (clip(&what), clip(&path));
        let account = viewer.session.as_ref().map(|s| s.account.login.clone());
        let address = viewer.address.clone();
        let code = i64::from(status.as_u16());
        let _ = app
            .db
            .write(move |c| {
                use super::db::Context as _;
                c.execute(
                    "INSERT INTO audit (time_ms, address, account, method, path, status, what)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                    rusqlite::params![Millis::now().0, address, account, method, path, code, what],
                )
                .what("cannot log a refused request")?;
                Ok(())
            })
            .await;
    }
    res
}
