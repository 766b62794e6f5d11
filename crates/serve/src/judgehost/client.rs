//! The host's side of the protocol (`serve::hosts::wire`) over HTTP: every
//! request carries the host's token and grundy version; a refusal comes
//! back as the server's sentence.

use std::time::Duration;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::serve::hosts::package::{TOTAL_CAP, sha256};
use crate::serve::hosts::wire::{
    Ack, Finish, Hello, Job, LeaseRef, Refuse, Run, VERSION, VERSION_HEADER,
};

/// Why a request failed.
#[derive(Debug, thiserror::Error)]
pub enum Failed {
    /// The server refused this host (a revoked token, another version):
    /// judging here must stop.
    #[error("the server refused this judge host: {0}")]
    Refused(String),
    /// The network or the server failed; trying again later may work.
    #[error("{0}")]
    Again(String),
}

/// The server, as this host reaches it.
pub struct Server {
    base: String,
    token: String,
    agent: ureq::Agent,
}

/// What a JSON answer may weigh.
const ANSWER_CAP: u64 = 64 * 1024 * 1024;

impl Server {
    pub fn new(base: &str, token: &str) -> Server {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Server {
            base: base.trim_end_matches('/').to_string(),
            token: token.to_string(),
            agent,
        }
    }

    fn answer(
        &self,
        res: Result<ureq::http::Response<ureq::Body>, ureq::Error>,
        what: &str,
        cap: u64,
    ) -> Result<(u16, Vec<u8>), Failed> {
        let mut res = res.map_err(|e| Failed::Again(format!("{what}: {} : {e}", self.base)))?;
        let status = res.status().as_u16();
        let body = res
            .body_mut()
            .with_config()
            .limit(cap)
            .read_to_vec()
            .map_err(|e| Failed::Again(format!("{what}: {e}")))?;
        match status {
            401 | 403 | 409 => Err(Failed::Refused(text(&body))),
            s if s >= 400 => Err(Failed::Again(format!(
                "{what}: the server answered {s}: {}",
                text(&body)
            ))),
            s => Ok((s, body)),
        }
    }

    fn get(&self, path: &str, cap: u64) -> Result<(u16, Vec<u8>), Failed> {
        let res = self
            .agent
            .get(&format!("{}{path}", self.base))
            .header("authorization", &format!("Bearer {}", self.token))
            .header(VERSION_HEADER, VERSION)
            .call();
        self.answer(res, path, cap)
    }

    fn post<T: Serialize, A: DeserializeOwned>(
        &self,
        path: &str,
        body: &T,
    ) -> Result<Option<A>, Failed> {
        let bytes = serde_json::to_vec(body).map_err(|e| Failed::Again(e.to_string()))?;
        let res = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("authorization", &format!("Bearer {}", self.token))
            .header(VERSION_HEADER, VERSION)
            .header("content-type", "application/json")
            .send(&bytes[..]);
        let (status, body) = self.answer(res, path, ANSWER_CAP)?;
        if status == 204 {
            return Ok(None);
        }
        serde_json::from_slice(&body).map(Some).map_err(|e| {
            Failed::Again(format!("{path}: an answer that is not the protocol's: {e}"))
        })
    }

    pub fn hello(&self) -> Result<Hello, Failed> {
        let (_, body) = self.get("/judgehost/hello", ANSWER_CAP)?;
        serde_json::from_slice(&body)
            .map_err(|e| Failed::Again(format!("/judgehost/hello: not a grundy server: {e}")))
    }

    /// A job, or `None` when there is nothing to judge.
    pub fn lease(&self) -> Result<Option<Job>, Failed> {
        self.post("/judgehost/lease", &serde_json::json!({}))
    }

    /// The package `sha`, its bytes checked against the hash.
    pub fn package(&self, sha: &str) -> Result<Vec<u8>, Failed> {
        let (_, body) = self.get(&format!("/judgehost/packages/{sha}"), TOTAL_CAP + (1 << 20))?;
        if sha256(&body) != sha {
            return Err(Failed::Again(format!(
                "the package {sha} came with other bytes (SHA-256 {}): not kept",
                sha256(&body)
            )));
        }
        Ok(body)
    }

    fn ack<T: Serialize>(&self, path: &str, body: &T) -> Result<Ack, Failed> {
        self.post(path, body)?
            .ok_or_else(|| Failed::Again(format!("{path}: an empty answer")))
    }

    pub fn renew(&self, lease: &LeaseRef) -> Result<Ack, Failed> {
        self.ack("/judgehost/renew", lease)
    }

    pub fn run(&self, run: &Run) -> Result<Ack, Failed> {
        self.ack("/judgehost/run", run)
    }

    pub fn finish(&self, finish: &Finish) -> Result<Ack, Failed> {
        self.ack("/judgehost/finish", finish)
    }

    /// Gives the lease back for now: the job is queued again.
    pub fn release(&self, lease: &LeaseRef) -> Result<Ack, Failed> {
        self.ack("/judgehost/release", lease)
    }

    pub fn refuse(&self, refuse: &Refuse) -> Result<Ack, Failed> {
        self.ack("/judgehost/refuse", refuse)
    }
}

/// A server's plain-text answer, bounded, for a message.
fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(&body[..body.len().min(2000)])
        .trim()
        .to_string()
}
