//! What a judge host and the server say to each other, as JSON over HTTP
//! (`/judgehost/…`, the host's token as `Authorization: Bearer`). Both
//! sides are built from these types, so a host of another grundy version
//! is refused at `hello` before anything else is said.

use serde::{Deserialize, Serialize};

use crate::judge::{SubmissionResult, TestResult};

/// The header that carries the host's grundy version.
pub const VERSION_HEADER: &str = "x-grundy-version";

/// This grundy's version, as hosts and servers compare it.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The answer to `GET /judgehost/hello`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Hello {
    /// The host's name, as the organiser registered it.
    pub host: String,
    pub server_version: String,
    /// How long a lease lasts without renewal, by the server's clock.
    pub lease_ms: i64,
}

/// A submission leased to a host (`POST /judgehost/lease`; 204 when
/// there is nothing to judge).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Job {
    #[serde(flatten)]
    pub lease: LeaseRef,
    pub submission: i64,
    pub problem: String,
    /// The SHA-256 of the problem's package (`GET /judgehost/packages/{sha}`).
    pub package: String,
    pub language: String,
    pub file_name: String,
    /// The submitted bytes, in base64.
    pub source: String,
    pub lease_ms: i64,
    /// Stop at the first failing test (a contest of ICPC scoring), as the
    /// server's own judges do.
    #[serde(default)]
    pub first_failure_ends: bool,
}

/// Names a lease in every later request: the job and the lease's secret.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct LeaseRef {
    pub job: i64,
    pub lease: String,
}

/// `POST /judgehost/run`: one test's result as it comes.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    #[serde(flatten)]
    pub lease: LeaseRef,
    /// 1 for the first test judged.
    pub ordinal: usize,
    pub result: TestResult,
}

/// `POST /judgehost/finish`: the final result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finish {
    #[serde(flatten)]
    pub lease: LeaseRef,
    pub result: SubmissionResult,
    /// The input of the first test that failed, quoted, for the jury.
    pub first_fail_input: Option<String>,
}

/// `POST /judgehost/refuse`: the host cannot judge this problem (it
/// cannot build it, or its sandbox failed); the job goes back to the queue
/// and the problem is not given to this host again.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Refuse {
    #[serde(flatten)]
    pub lease: LeaseRef,
    pub reason: String,
}

/// `POST /judgehost/release` takes a [`LeaseRef`]: the host gives the
/// lease back for now (the package could not be fetched); the job goes back
/// to the queue and nothing is held against the host.
///
/// The answer to `renew`, `run`, `finish`, `release` and `refuse`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ack {
    /// Whether the host still holds the lease (false: stop, the job is
    /// someone else's now).
    pub held: bool,
    /// For `finish`: whether this post stored the result (false when it
    /// was stored already, or the lease was lost).
    pub stored: bool,
}
