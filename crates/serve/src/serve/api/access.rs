//! Who asks the Contest API, and what they may see.
//!
//! A client signs in with HTTP basic authentication (an account's login
//! and password, as the pages take them) or brings the session cookie of
//! the pages; without either it is the public, when the contest's
//! scoreboard is public. The jury and the organiser are the API's
//! `admin`: they see everything. A team sees its own results always and
//! the others' as the public does: while the scoreboard is frozen, the
//! judgements and runs of submissions made after the freeze are withheld
//! until the organiser unfreezes it. Problems are shown from the start.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use base64::Engine as _;

use super::ApiError;
use crate::serve::THAWED;
use crate::serve::accounts::{self, Role};
use crate::serve::clock::{Clock, Millis};
use crate::serve::db::{Db, DbResult};
use crate::serve::web::{Shared, Viewer};

/// The client's role, as the Contest API names them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Access {
    Public,
    Team { account: i64, login: String },
    Admin,
}

impl Access {
    pub fn is_admin(&self) -> bool {
        *self == Access::Admin
    }

    /// Whether this client is the team of account `account`.
    pub fn is_team(&self, account: i64) -> bool {
        matches!(self, Access::Team { account: a, .. } if *a == account)
    }
}

/// What a client sees at one moment: its role and the freeze as it
/// applies to it.
#[derive(Debug, Clone)]
pub struct Lens {
    pub access: Access,
    /// Results of submissions made from this instant on are withheld
    /// (others' results while the scoreboard is frozen).
    pub withheld_from: Option<Millis>,
    /// The contest has started (problems are shown).
    pub started: bool,
}

impl Lens {
    /// The lens of `access` now; `thawed`: the organiser unfroze.
    pub fn at(access: Access, clock: &Clock, thawed: bool, now: Millis) -> Lens {
        let frozen = !thawed && clock.freeze.is_some_and(|f| now >= f);
        Lens {
            withheld_from: if frozen && !access.is_admin() {
                clock.freeze
            } else {
                None
            },
            started: access.is_admin() || now >= clock.start,
            access,
        }
    }

    /// Reads the freeze switch from the database.
    pub fn read(c: &rusqlite::Connection, access: Access, clock: &Clock) -> DbResult<Lens> {
        let thawed = Db::setting(c, THAWED)?.is_some();
        Ok(Lens::at(access, clock, thawed, Millis::now()))
    }

    /// Whether the result of a submission by `account` made at `time_ms` shows.
    pub fn shows_result(&self, account: i64, time_ms: i64) -> bool {
        self.access.is_admin()
            || self.access.is_team(account)
            || self.withheld_from.is_none_or(|f| time_ms < f.0)
    }

    /// Whether a clarification shows: the jury sees all, a team those it
    /// sent or received and those to everyone, the public those to everyone.
    pub fn shows_clarification(&self, from: Option<i64>, to: Option<i64>, to_all: bool) -> bool {
        match &self.access {
            Access::Admin => true,
            Access::Team { account, .. } => {
                to_all || from == Some(*account) || to == Some(*account)
            }
            Access::Public => to_all && from.is_none(),
        }
    }
}

/// The asking client, found from the request (an extractor).
pub struct Who(pub Access);

impl FromRequestParts<Shared> for Who {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &Shared) -> Result<Who, ApiError> {
        let viewer = parts.extensions.get::<Viewer>().cloned();
        let address = viewer
            .as_ref()
            .map_or_else(String::new, |v| v.address.clone());
        if let Some(h) = parts.headers.get(header::AUTHORIZATION) {
            let text = h.to_str().unwrap_or_default();
            return basic(app, text, &address).await.map(Who);
        }
        if let Some(session) = viewer.and_then(|v| v.session) {
            return Ok(Who(of_account(
                session.account.id,
                &session.account.login,
                session.account.role,
            )));
        }
        if app.config.public_scoreboard {
            Ok(Who(Access::Public))
        } else {
            Err(ApiError::unauthorised(
                "this contest's data is not public: sign in with HTTP basic authentication",
            ))
        }
    }
}

fn of_account(id: i64, login: &str, role: Role) -> Access {
    if role.is_jury() {
        Access::Admin
    } else {
        Access::Team {
            account: id,
            login: login.to_string(),
        }
    }
}

/// HTTP basic authentication: throttled like the login form, each
/// login and password checked with argon2id once (`credentials`).
async fn basic(app: &Shared, header: &str, address: &str) -> Result<Access, ApiError> {
    let bad = || {
        ApiError::unauthorised("the Authorization header is not `Basic` with a login and password")
    };
    let encoded = header.strip_prefix("Basic ").ok_or_else(bad)?;
    let decoded = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|_| bad())?;
    let decoded = String::from_utf8(decoded).map_err(|_| bad())?;
    let (login, password) = decoded.split_once(':').ok_or_else(bad)?;
    let login = if accounts::check_login(login).is_ok() {
        login.to_string()
    } else {
        "(not a login)".to_string()
    };
    let now = Millis::now();
    if let Err(wait) = app.throttle.check(&login, address, now) {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            wait.sentence(&login),
        ));
    }
    let found = app.db.read_short(|c| accounts::by_login(c, &login)).await?;
    let password = password.to_string();
    let ok = match &found {
        Some((_, Some(hash))) if app.credentials.knows(&login, &password, hash) => true,
        _ => {
            let hash = found.as_ref().and_then(|(_, h)| h.clone());
            // No hash: checked against a decoy all the same, so that
            // timing does not tell which logins exist.
            let matched = accounts::check_password(hash, password.clone()).await;
            if matched && let Some((_, Some(h))) = &found {
                app.credentials.remember(&login, &password, h);
            }
            matched
        }
    };
    match found {
        Some((account, Some(_))) if ok => {
            app.throttle.succeeded(&login);
            Ok(of_account(account.id, &account.login, account.role))
        }
        _ => {
            app.throttle.failed(&login, address, now);
            Err(ApiError::unauthorised(format!(
                "wrong login or password for `{login}`"
            )))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock() -> Clock {
        Clock {
            start: Millis(1_000),
            end: Some(Millis(10_000)),
            freeze: Some(Millis(8_000)),
        }
    }

    #[test]
    fn frozen_results_are_withheld_from_the_public_and_other_teams_only() {
        let team = Access::Team {
            account: 7,
            login: "ana".into(),
        };
        let during = Millis(9_000);
        let public = Lens::at(Access::Public, &clock(), false, during);
        assert!(public.shows_result(7, 7_999));
        assert!(!public.shows_result(7, 8_000));
        let ana = Lens::at(team, &clock(), false, during);
        assert!(ana.shows_result(7, 8_500), "a team sees its own results");
        assert!(!ana.shows_result(8, 8_500));
        let admin = Lens::at(Access::Admin, &clock(), false, during);
        assert!(admin.shows_result(8, 8_500));
        let thawed = Lens::at(Access::Public, &clock(), true, during);
        assert!(thawed.shows_result(8, 8_500));
        let before = Lens::at(Access::Public, &clock(), false, Millis(7_000));
        assert!(before.shows_result(8, 6_000));
        assert!(!Lens::at(Access::Public, &clock(), false, Millis(500)).started);
    }

    #[test]
    fn the_public_reads_only_clarifications_to_everyone() {
        let public = Lens::at(Access::Public, &clock(), false, Millis(2_000));
        assert!(public.shows_clarification(None, None, true));
        assert!(!public.shows_clarification(Some(7), None, false));
        assert!(!public.shows_clarification(None, Some(7), false));
        let ana = Lens::at(
            Access::Team {
                account: 7,
                login: "ana".into(),
            },
            &clock(),
            false,
            Millis(2_000),
        );
        assert!(ana.shows_clarification(None, Some(7), false));
        assert!(ana.shows_clarification(Some(7), None, false));
        assert!(!ana.shows_clarification(Some(8), None, false));
        assert!(!ana.shows_clarification(None, Some(8), false));
    }
}
