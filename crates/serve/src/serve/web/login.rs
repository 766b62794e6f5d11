//! Signing in and out. The login form is protected by a token of its own
//! (a cookie and a hidden field that must match); a successful login
//! always makes a new session, so a cookie planted before it is useless.
//! Failed logins are throttled per account and per address.

use axum::Form;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use maud::html;
use serde::Deserialize;

use super::Shared;
use super::error::Refusal;
use super::identity::{Signed, Viewer, check_csrf};
use super::layout::page;
use crate::serve::accounts::{self, Role};
use crate::serve::auth::{self, LOGIN_COOKIE, SESSION_COOKIE, SESSION_HOURS, set_cookie};
use crate::serve::clock::Millis;

/// `/`: where each viewer starts.
pub async fn home(State(app): State<Shared>, viewer: Viewer) -> Redirect {
    match viewer.role() {
        Some(r) if r.is_jury() => Redirect::to("/jury"),
        Some(_) => Redirect::to("/team"),
        None if app.config.public_scoreboard => Redirect::to("/scoreboard"),
        None => Redirect::to("/login"),
    }
}

#[derive(Deserialize)]
pub struct Next {
    next: Option<String>,
}

/// A path on this site only (never `//host` or a scheme).
fn local(next: Option<&str>) -> Option<String> {
    next.filter(|n| n.starts_with('/') && !n.starts_with("//") && !n.contains('\\'))
        .map(str::to_string)
}

pub async fn form(State(app): State<Shared>, viewer: Viewer, Query(q): Query<Next>) -> Response {
    let token = auth::token();
    let body = html! {
        h1 { "Sign in" }
        form method="post" action="/login" id="login" {
            input type="hidden" name="csrf" value=(token);
            @if let Some(n) = local(q.next.as_deref()) {
                input type="hidden" name="next" value=(n);
            }
            label { "Login " input name="login" autocomplete="username" required autofocus; }
            label { "Password " input name="password" type="password" autocomplete="current-password" required; }
            button type="submit" { "Sign in" }
        }
        p class="muted" { "Your login and password are on the slip the organisers gave you." }
    };
    (
        [(header::SET_COOKIE, set_cookie(LOGIN_COOKIE, &token, 3600))],
        page(&app, &viewer, "Sign in", body),
    )
        .into_response()
}

#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    login: String,
    #[serde(default)]
    password: String,
    next: Option<String>,
}

/// Stands for whatever was typed as a login that cannot be one (never a
/// valid login: it holds a space).
const NOT_A_LOGIN: &str = "(not a login)";

pub async fn submit(
    State(app): State<Shared>,
    viewer: Viewer,
    headers: HeaderMap,
    Form(mut f): Form<LoginForm>,
) -> Result<Response, Refusal> {
    let cookie = headers
        .get(header::COOKIE)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| auth::cookie(h, LOGIN_COOKIE))
        .unwrap_or_default();
    if cookie.is_empty() || !auth::same(cookie, &f.csrf) {
        return Err(Refusal::forbidden(
            "the login form's token is missing or out of date: open the login page again",
        ));
    }
    // What is typed as a login is kept (in the throttle, the log) only
    // when it could be one: a name a megabyte long is nobody.
    if accounts::check_login(&f.login).is_err() {
        f.login = NOT_A_LOGIN.into();
    }
    let now = Millis::now();
    if let Err(wait) = app.throttle.check(&f.login, &viewer.address, now) {
        let mut r =
            Refusal::new(StatusCode::TOO_MANY_REQUESTS, wait.sentence(&f.login)).into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(wait.seconds));
        return Ok(r);
    }
    let login = f.login.clone();
    let found = app.db.read_short(|c| accounts::by_login(c, &login)).await?;
    let password = f.password.clone();
    // A login without a password is checked against a decoy all the same
    // (see `check_password`), so that timing does not tell which exist.
    let account = match found {
        Some((a, Some(hash))) => accounts::check_password(Some(hash), password)
            .await
            .then_some(a),
        _ => {
            accounts::check_password(None, password).await;
            None
        }
    };
    let Some(account) = account else {
        app.throttle.failed(&f.login, &viewer.address, now);
        return Err(Refusal::new(
            StatusCode::UNAUTHORIZED,
            format!("wrong login or password for `{}`", f.login),
        ));
    };
    app.throttle.succeeded(&f.login);
    let id = account.id;
    let token = app.db.write(move |c| auth::start(c, id)).await?;
    let to = local(f.next.as_deref()).unwrap_or_else(|| {
        if account.role == Role::Team {
            "/team".into()
        } else {
            "/jury".into()
        }
    });
    let mut res = Redirect::to(&to).into_response();
    let h = res.headers_mut();
    h.append(
        header::SET_COOKIE,
        set_cookie(SESSION_COOKIE, &token, SESSION_HOURS * 3600)
            .parse()
            .map_err(|_| Refusal::bad("bad cookie"))?,
    );
    h.append(
        header::SET_COOKIE,
        set_cookie(LOGIN_COOKIE, "", 0)
            .parse()
            .map_err(|_| Refusal::bad("bad cookie"))?,
    );
    Ok(res)
}

#[derive(Deserialize)]
pub struct Csrf {
    #[serde(default)]
    csrf: String,
}

pub async fn logout(
    State(app): State<Shared>,
    Signed(session): Signed,
    headers: HeaderMap,
    Form(f): Form<Csrf>,
) -> Result<Response, Refusal> {
    check_csrf(&session, &f.csrf)?;
    if let Some(t) = headers
        .get(header::COOKIE)
        .and_then(|h| h.to_str().ok())
        .and_then(|h| auth::cookie(h, SESSION_COOKIE))
        .map(str::to_string)
    {
        app.db.write(move |c| auth::end(c, &t)).await?;
    }
    Ok((
        [(header::SET_COOKIE, set_cookie(SESSION_COOKIE, "", 0))],
        Redirect::to("/login"),
    )
        .into_response())
}
