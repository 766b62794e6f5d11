//! The server's side of the judge hosts' protocol (`wire`): `hello`,
//! `lease`, `packages/{sha}`, `renew`, `run`, `finish`, `release`,
//! `refuse`, each
//! behind the host's token and version. Answers are JSON or plain text
//! (a host prints a refusal as it is).

use axum::Router;
use axum::body::Body;
use axum::extract::{DefaultBodyLimit, FromRequest, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine as _;
use rusqlite::OptionalExtension as _;

use super::wire::{Ack, Finish, Hello, Job, LeaseRef, Refuse, Run, VERSION, VERSION_HEADER};
use crate::judge::SubmissionResult;
use crate::problem::ProblemId;
use crate::serve::clock::Millis;
use crate::serve::db::{Context as _, Db, DbError};
use crate::serve::events::Notice;
use crate::serve::queue::{self, Lease};
use crate::serve::web::{Refused, Shared};

/// What a result may weigh (every test's result, with the checker's words).
const RESULT_LIMIT: usize = 16 * 1024 * 1024;

pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/judgehost/hello", get(hello))
        .route("/judgehost/lease", post(lease))
        .route("/judgehost/packages/{sha}", get(package))
        .route("/judgehost/renew", post(renew))
        .route(
            "/judgehost/run",
            post(run).layer(DefaultBodyLimit::max(RESULT_LIMIT)),
        )
        .route(
            "/judgehost/finish",
            post(finish).layer(DefaultBodyLimit::max(RESULT_LIMIT)),
        )
        .route("/judgehost/release", post(release))
        .route("/judgehost/refuse", post(refuse))
}

/// A refused host request: a status and a sentence, as plain text.
pub struct HostError(StatusCode, String);

impl From<DbError> for HostError {
    fn from(e: DbError) -> Self {
        HostError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string())
    }
}

impl IntoResponse for HostError {
    fn into_response(self) -> Response {
        let mut res = (self.0, self.1.clone()).into_response();
        res.extensions_mut().insert(Refused(self.1));
        res
    }
}

type Answer<T> = Result<T, HostError>;

/// The host asking: its token known and not revoked, its version ours.
async fn host_of(app: &Shared, headers: &HeaderMap) -> Answer<String> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty() && t.len() <= 256)
        .ok_or_else(|| {
            HostError(
                StatusCode::UNAUTHORIZED,
                "a judge host sends its token (Authorization: Bearer TOKEN)".into(),
            )
        })?
        .to_string();
    let theirs = headers
        .get(VERSION_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("unknown");
    if theirs != VERSION {
        return Err(HostError(
            StatusCode::CONFLICT,
            format!(
                "this server runs grundy {VERSION} and the judge host grundy {}: \
                 judge with the server's version, so that both judge alike",
                theirs.chars().take(40).collect::<String>()
            ),
        ));
    }
    let name = app.db.write(move |c| super::identify(c, &token)).await?;
    name.ok_or_else(|| {
        HostError(
            StatusCode::UNAUTHORIZED,
            "this judge host's token is unknown or was revoked: ask the organiser for a new one \
             (grundy serve judgehost CONTEST NAME)"
                .into(),
        )
    })
}

fn json<T: serde::Serialize>(v: &T) -> Response {
    axum::Json(v).into_response()
}

/// Reads a JSON body (bounded by the route's limit).
fn parse<T: serde::de::DeserializeOwned>(body: &[u8]) -> Answer<T> {
    serde_json::from_slice(body).map_err(|e| {
        HostError(
            StatusCode::BAD_REQUEST,
            format!("a judge host's request that is not the protocol's JSON: {e}"),
        )
    })
}

/// A host starting: its hello. It may have been mended since it refused
/// a problem (a compiler installed, its sandbox fixed), and mending a host
/// means starting it again: it is given every problem again.
async fn hello(State(app): State<Shared>, headers: HeaderMap) -> Answer<Response> {
    let host = host_of(&app, &headers).await?;
    let name = host.clone();
    app.db
        .write(move |c| super::forget_refusals(c, &name))
        .await?;
    Ok(json(&Hello {
        host,
        server_version: VERSION.to_string(),
        lease_ms: queue::LEASE_MS,
    }))
}

/// The submission's team, problem, language, file name, bytes and time.
type Submission = (i64, String, String, String, Vec<u8>, i64);

fn submission(c: &rusqlite::Connection, id: i64) -> crate::serve::db::DbResult<Option<Submission>> {
    c.query_row(
        "SELECT account_id, problem, language, file_name, source, time_ms FROM submissions WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
    )
    .optional()
    .what("cannot read a submission")
}

async fn lease(State(app): State<Shared>, headers: HeaderMap) -> Answer<Response> {
    let host = host_of(&app, &headers).await?;
    let start = app.clock.start;
    let taken = app
        .db
        .write(move |c| {
            if Db::setting(c, crate::serve::PAUSED)?.is_some() {
                return Ok(None);
            }
            let Some(lease) = queue::claim(c, &host, start, Millis::now())? else {
                return Ok(None);
            };
            Ok(submission(c, lease.submission)?.map(|s| (lease, s)))
        })
        .await?;
    let Some((lease, (account, problem, language, file_name, source, _))) = taken else {
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    app.hub.tell(Notice::Submission {
        id: lease.submission,
        account,
    });
    let Some(package) = app.packages.get(&ProblemId(problem.clone())) else {
        // Served no more: judged as an internal error, as the workers do.
        let mut r = SubmissionResult::new(&file_name, &ProblemId(problem.clone()), &language);
        let why = format!("problem `{problem}` is not served any more");
        r.internal_error = Some(why.clone());
        r.compile.log = why;
        store(&app, lease, r, None).await?;
        return Ok(StatusCode::NO_CONTENT.into_response());
    };
    Ok(json(&Job {
        lease: LeaseRef {
            job: lease.job,
            lease: lease.token,
        },
        submission: lease.submission,
        problem,
        package: package.sha256.clone(),
        language,
        file_name,
        source: base64::engine::general_purpose::STANDARD.encode(source),
        lease_ms: queue::LEASE_MS,
        first_failure_ends: app.config.scoring == crate::batch::contest::score::Scoring::Icpc,
    }))
}

async fn package(
    State(app): State<Shared>,
    headers: HeaderMap,
    Path(sha): Path<String>,
) -> Answer<Response> {
    host_of(&app, &headers).await?;
    let Some(p) = app.packages.values().find(|p| p.sha256 == sha) else {
        return Err(HostError(
            StatusCode::NOT_FOUND,
            "no problem served has this package (the problem changed: lease again)".into(),
        ));
    };
    let mut res = Response::new(Body::from(p.bytes.as_ref().clone()));
    res.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/zip"),
    );
    Ok(res)
}

/// A host's request about a lease it was given: the lease it names.
trait Leased: serde::de::DeserializeOwned + Send {
    fn lease(&self) -> &LeaseRef;
}

impl Leased for LeaseRef {
    fn lease(&self) -> &LeaseRef {
        self
    }
}

impl Leased for Run {
    fn lease(&self) -> &LeaseRef {
        &self.lease
    }
}

impl Leased for Finish {
    fn lease(&self) -> &LeaseRef {
        &self.lease
    }
}

impl Leased for Refuse {
    fn lease(&self) -> &LeaseRef {
        &self.lease
    }
}

/// A host's request about a lease it still holds, and that lease (an
/// extractor). Before the handler runs, the host is checked (its token
/// and version) and the request read; a request whose lease was lost is
/// answered [`LOST`].
struct Held<T>(T, Lease);

impl<T: Leased> FromRequest<Shared> for Held<T> {
    type Rejection = Response;

    async fn from_request(req: Request, app: &Shared) -> Result<Held<T>, Response> {
        let headers = req.headers().clone();
        // Bounded by the route's limit.
        let body = axum::body::Bytes::from_request(req, app)
            .await
            .map_err(IntoResponse::into_response)?;
        let host = host_of(app, &headers)
            .await
            .map_err(IntoResponse::into_response)?;
        let request: T = parse(&body).map_err(IntoResponse::into_response)?;
        let (job, secret) = (request.lease().job, request.lease().lease.clone());
        let lease = app
            .db
            .read(move |c| super::lease_of(c, &host, job, &secret))
            .await
            .map_err(|e| HostError::from(e).into_response())?;
        match lease {
            Some(lease) => Ok(Held(request, lease)),
            None => Err(json(&LOST)),
        }
    }
}

const LOST: Ack = Ack {
    held: false,
    stored: false,
};

async fn renew(State(app): State<Shared>, Held(_, lease): Held<LeaseRef>) -> Answer<Response> {
    let ok = app
        .db
        .write(move |c| queue::renew(c, &lease, Millis::now()))
        .await?;
    Ok(json(&Ack {
        held: ok,
        stored: false,
    }))
}

async fn run(State(app): State<Shared>, Held(r, lease): Held<Run>) -> Answer<Response> {
    let start = app.clock.start;
    let submission_id = lease.submission;
    let (ok, account) = app
        .db
        .write(move |c| {
            let ok = queue::record_run(c, &lease, r.ordinal, &r.result, start)?;
            let account = submission(c, lease.submission)?.map(|s| s.0);
            Ok((ok, account))
        })
        .await?;
    if let Some(account) = account {
        app.hub.tell(Notice::Submission {
            id: submission_id,
            account,
        });
    }
    Ok(json(&Ack {
        held: ok,
        stored: false,
    }))
}

async fn finish(State(app): State<Shared>, Held(f, lease): Held<Finish>) -> Answer<Response> {
    let stored = store(&app, lease, f.result, f.first_fail_input).await?;
    Ok(json(&Ack {
        held: false,
        stored,
    }))
}

/// Stores a final result under `lease` and tells the pages; whether it
/// was stored (not when stored before, or the lease was lost).
async fn store(
    app: &Shared,
    lease: Lease,
    mut result: SubmissionResult,
    first_fail: Option<String>,
) -> Answer<bool> {
    let start = app.clock.start;
    let done = app
        .db
        .write(move |c| {
            let Some((account, _, _, file_name, _, time_ms)) = submission(c, lease.submission)?
            else {
                return Ok(None);
            };
            // Reports name the file as the team sent it.
            result.submission = file_name;
            let stored = queue::finish(c, &lease, &result, first_fail.as_deref(), start)?;
            let thawed = Db::setting(c, crate::serve::THAWED)?.is_some();
            Ok(stored.then_some((lease.submission, account, Millis(time_ms), thawed)))
        })
        .await?;
    let Some((id, account, submitted, thawed)) = done else {
        return Ok(false);
    };
    app.hub.tell(Notice::Submission { id, account });
    app.hub.tell(Notice::Scoreboard {
        jury_only: app.clock.after_freeze(submitted) && !thawed,
    });
    Ok(true)
}

/// The host gives the lease back for now (it could not fetch the
/// package): the job is queued again, and this host may take it later.
async fn release(State(app): State<Shared>, Held(_, lease): Held<LeaseRef>) -> Answer<Response> {
    app.db.write(move |c| super::give_back(c, &lease)).await?;
    app.wake.ring();
    Ok(json(&LOST))
}

async fn refuse(State(app): State<Shared>, Held(r, lease): Held<Refuse>) -> Answer<Response> {
    let reason: String = r.reason.chars().take(2000).collect();
    app.db
        .write(move |c| {
            let problem = submission(c, lease.submission)?
                .map(|s| s.1)
                .unwrap_or_default();
            super::refuse(c, &lease, &problem, &reason)
        })
        .await?;
    app.wake.ring();
    Ok(json(&LOST))
}
