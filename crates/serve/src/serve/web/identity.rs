//! Who is asking: the session of the request's cookie (or nobody), and the
//! extractors handlers use to say who may come in. Someone signed out who
//! opens a page is sent to the login page; a team opening a jury page is
//! refused (403), as is any form posted without its CSRF token.

use std::net::SocketAddr;

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};

use super::Shared;
use super::error::Refusal;
use crate::serve::accounts::Role;
use crate::serve::auth::{self, Session};

/// The asker: their session, if any, and their address.
#[derive(Debug, Clone)]
pub struct Viewer {
    pub session: Option<Session>,
    pub address: String,
}

impl Viewer {
    pub fn role(&self) -> Option<Role> {
        self.session.as_ref().map(|s| s.account.role)
    }

    pub fn is_jury(&self) -> bool {
        self.role().is_some_and(Role::is_jury)
    }
}

/// The session token of a request's cookie.
pub fn token_of(req: &Request) -> Option<String> {
    req.headers()
        .get(header::COOKIE)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| auth::cookie(h, auth::SESSION_COOKIE))
        .map(str::to_string)
}

pub async fn identify(app: &Shared, token: Option<String>, peer: SocketAddr) -> Viewer {
    let session = match token {
        Some(t) => app
            .db
            .read_short(|c| auth::find(c, &t))
            .await
            .ok()
            .flatten(),
        None => None,
    };
    Viewer {
        session,
        address: peer.ip().to_string(),
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Viewer {
    type Rejection = Refusal;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Viewer, Refusal> {
        parts
            .extensions
            .get::<Viewer>()
            .cloned()
            .ok_or_else(|| Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, "no viewer"))
    }
}

/// Someone signed out: a page read goes to the login page, anything else
/// is refused as unauthorised.
fn sign_in_first(parts: &Parts) -> Response {
    if parts.method == Method::GET {
        let next = parts.uri.path();
        Redirect::to(&format!("/login?next={}", urlencode(next))).into_response()
    } else {
        Refusal::new(StatusCode::UNAUTHORIZED, "sign in first").into_response()
    }
}

fn urlencode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn session_of(parts: &mut Parts) -> Result<Session, Response> {
    let viewer = parts.extensions.get::<Viewer>().cloned();
    match viewer.and_then(|v| v.session) {
        Some(s) => Ok(s),
        None => Err(sign_in_first(parts)),
    }
}

/// Anyone signed in.
pub struct Signed(pub Session);

impl<S: Send + Sync> FromRequestParts<S> for Signed {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Signed, Response> {
        session_of(parts).await.map(Signed)
    }
}

/// A team (or student).
pub struct TeamUser(pub Session);

impl<S: Send + Sync> FromRequestParts<S> for TeamUser {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<TeamUser, Response> {
        let s = session_of(parts).await?;
        if s.account.role != Role::Team {
            return Err(Refusal::forbidden(
                "this page is for teams; the jury's pages are under /jury",
            )
            .into_response());
        }
        Ok(TeamUser(s))
    }
}

/// The jury or the organiser.
pub struct JuryUser(pub Session);

impl<S: Send + Sync> FromRequestParts<S> for JuryUser {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<JuryUser, Response> {
        let s = session_of(parts).await?;
        if !s.account.role.is_jury() {
            return Err(Refusal::forbidden("this page is for the jury").into_response());
        }
        Ok(JuryUser(s))
    }
}

/// Refuses a form whose CSRF token is missing or not the session's.
pub fn check_csrf(session: &Session, given: &str) -> Result<(), Refusal> {
    if auth::same(&session.csrf, given) {
        Ok(())
    } else {
        Err(Refusal::forbidden(
            "the form's token is missing or out of date: reload the page and send it again",
        ))
    }
}
