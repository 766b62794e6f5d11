//! Refusals: a status and a sentence saying what was refused and why,
//! shown as a page and kept in the log of refused requests.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use maud::{DOCTYPE, html};

use crate::serve::db::DbError;

/// A refused request.
#[derive(Debug, Clone)]
pub struct Refusal {
    pub status: StatusCode,
    pub message: String,
}

/// The sentence of a refusal, for the log (a response extension).
#[derive(Debug, Clone)]
pub struct Refused(pub String);

impl Refusal {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }

    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn forbidden(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::FORBIDDEN, message)
    }

    pub fn not_found(message: impl Into<String>) -> Refusal {
        Refusal::new(StatusCode::NOT_FOUND, message)
    }
}

impl From<DbError> for Refusal {
    fn from(e: DbError) -> Refusal {
        Refusal::new(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let title = self.status.canonical_reason().unwrap_or("Refused");
        // A server error shows the page a short sentence; the log keeps it whole.
        let shown = if self.status.is_server_error() {
            "The server failed on this request; it is in the organiser's log.".to_string()
        } else {
            self.message.clone()
        };
        let page = html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    title { (title) }
                    link rel="stylesheet" href="/static/app.css";
                }
                body {
                    main {
                        h1 { (self.status.as_u16()) " " (title) }
                        p class="refusal" { (shown) }
                        p { a href="/" { "Back to the start page" } }
                    }
                }
            }
        };
        let mut res = (self.status, page).into_response();
        res.extensions_mut().insert(Refused(self.message));
        res
    }
}

pub async fn not_found() -> Refusal {
    Refusal::not_found("no such page")
}
