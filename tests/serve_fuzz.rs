//! Fuzzing `grundy serve` over HTTP as a hostile team, jury member, judge
//! host or passer-by would send: every route, with odd ids, paths and
//! queries; forms with and without their token; broken multipart uploads;
//! judge-host messages whose values have the wrong type or range; odd
//! methods, content types, cookies and credentials.
//!
//! Every request must get an answer with a status below 500: a 500 is the
//! server failing on input it should have refused, and no answer at all is
//! a handler that panicked or hung. After the campaign the server is still
//! up, stops cleanly and starts again on what the fuzz managed to store,
//! every page still loads for every viewer, and a team's submission is
//! judged as before.
//!
//! Traffic goes only to the server on its loopback port, one request at a
//! time, bounded in count (`GRUNDY_FUZZ_CASES` multiplies it) and in time
//! (each answer within `GRUNDY_FUZZ_TIMEOUT` seconds). `GRUNDY_FUZZ_SEED`
//! picks the seed; by default it is fixed, so a run is reproducible.

mod common;
mod serve_support;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use base64::Engine as _;
use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestRunner};
use serde_json::{Value, json};

use common::TOY_C;
use serve_support::*;

const PEOPLE: &str = "login,name,role\nana,Ana,team\nben,Ben,team\njudy,Judy,jury\n";

/// The contest's id in the Contest API: its file is `contest.yaml`.
const CID: &str = "contest";

/// Requests sent by default (times `GRUNDY_FUZZ_CASES`).
const REQUESTS: u32 = 2_000;

const DEFAULT_SEED: u64 = 0x7365_7276_6520;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|s| s.parse().ok())
}

/// How long one answer may take before it counts as a hang: generous, for
/// a loaded machine (a request normally takes milliseconds).
fn watchdog() -> Duration {
    Duration::from_secs(env_number("GRUNDY_FUZZ_TIMEOUT").unwrap_or(120))
}

// ---------------------------------------------------------------------------
// What a case is.

/// Who sends the request.
#[derive(Debug, Clone, Copy)]
enum Who {
    Nobody,
    Team,
    Jury,
    /// A judge host with its token.
    Host,
    /// A judge host of another version.
    OtherHost,
    /// The Contest API with a team's or the jury's login, or a wrong one.
    ApiTeam,
    ApiJury,
    ApiWrong,
    /// A session cookie nobody was given.
    Forged,
}

/// The form's CSRF token: the session's own, another, or none.
#[derive(Debug, Clone, Copy)]
enum Token {
    Right,
    Wrong,
    Missing,
}

/// A judge-host message, filled with the newest lease the fuzz was given.
#[derive(Debug, Clone, Copy)]
enum HostDoc {
    Lease,
    Renew,
    Run,
    Finish,
    Release,
    Refuse,
}

/// One change to a JSON document: the node at `at` (in document order)
/// becomes `to`, or loses its key when `to` is `None`.
#[derive(Debug, Clone)]
struct JsonEdit {
    at: Index,
    to: Option<Value>,
}

#[derive(Debug, Clone)]
struct Part {
    name: String,
    file_name: Option<String>,
    data: Vec<u8>,
}

#[derive(Debug, Clone)]
enum Body {
    Empty,
    Form(Vec<(String, String)>),
    Multipart {
        parts: Vec<Part>,
        /// The boundary the header names is the one the body uses.
        same_boundary: bool,
        /// The body ends with the closing boundary.
        closed: bool,
    },
    Host(HostDoc, Vec<JsonEdit>),
    Raw {
        content_type: String,
        bytes: Vec<u8>,
    },
}

#[derive(Debug, Clone)]
struct Case {
    method: &'static str,
    /// A route with `{}` holes, filled in order by `segments`.
    route: &'static str,
    segments: Vec<String>,
    query: Vec<(String, String)>,
    who: Who,
    token: Token,
    body: Body,
}

/// Every route of the server, with holes for ids, and a few paths no
/// route has.
const ROUTES: &[&str] = &[
    "/",
    "/login",
    "/logout",
    "/team",
    "/problems/{}",
    "/submit",
    "/submissions/{}",
    "/submissions/{}/status",
    "/submissions/{}/source",
    "/clarifications",
    "/scoreboard",
    "/scoreboard/table",
    "/events",
    "/static/app.js",
    "/static/{}",
    "/jury",
    "/jury/submissions/{}",
    "/jury/submissions/{}/report",
    "/jury/rejudge",
    "/jury/queue",
    "/jury/clarifications",
    "/jury/scoreboard",
    "/jury/scoreboard/table",
    "/jury/freeze",
    "/jury/grades.csv",
    "/jury/report.json",
    "/jury/scoreboard.json",
    "/jury/log",
    "/jury/archive.zip",
    "/api",
    "/api/contests",
    "/api/contests/{}",
    "/api/contests/{}/access",
    "/api/contests/{}/state",
    "/api/contests/{}/scoreboard",
    "/api/contests/{}/event-feed",
    "/api/contests/{}/{}",
    "/api/contests/{}/{}/{}",
    "/api/contests/{}/submissions/{}/files",
    "/judgehost/hello",
    "/judgehost/lease",
    "/judgehost/packages/{}",
    "/judgehost/renew",
    "/judgehost/run",
    "/judgehost/finish",
    "/judgehost/release",
    "/judgehost/refuse",
    "/{}",
    "/submissions/{}/../../jury",
    "//jury",
];

/// Form and query names the server reads, and a few it does not.
const NAMES: &[&str] = &[
    "csrf",
    "login",
    "password",
    "next",
    "problem",
    "language",
    "team",
    "source",
    "file",
    "text",
    "reply_to",
    "to",
    "to_all",
    "submission",
    "action",
    "since_token",
    "stream",
    "strict",
    "id",
    "ids[]",
    "",
    "csrf[]",
];

/// Values with a meaning somewhere, and values that are wrong everywhere.
fn odd_text() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "1",
            "2",
            "3",
            "0",
            "-1",
            "toy",
            "contest",
            "ana",
            "judy",
            "c",
            "cpp",
            "py",
            "AC",
            "WA",
            "pause",
            "resume",
            "freeze",
            "thaw",
            "true",
            "false",
            "yes",
            "null",
            "1.5",
            "1e3",
            "0x10",
            " 1",
            "1 ",
            "+1",
            "9223372036854775807",
            "9223372036854775808",
            "-9223372036854775808",
            "18446744073709551616",
            "/jury",
            "//evil.example/",
            "https://evil.example/",
            "/\\evil",
            "..",
            "../..",
            "%",
            "%zz",
            "%00",
            "ü",
            "∅",
            "<script>alert(1)</script>",
            "'; DROP TABLE submissions; --",
            "teams",
            "problems",
            "submissions",
            "judgements",
            "runs",
            "clarifications",
            "languages",
            "organizations",
            "awards",
            "accounts",
            "judgement-types",
            "groups",
            "state",
        ])
        .prop_map(str::to_string),
        "[a-z0-9_.-]{0,12}",
        ".{0,40}",
        (1usize..20_000).prop_map(|n| "9".repeat(n)),
        (1usize..5_000).prop_map(|n| "a/".repeat(n)),
        Just("\u{0}".to_string()),
    ]
}

fn token() -> impl Strategy<Value = Token> {
    prop_oneof![
        6 => Just(Token::Right),
        1 => Just(Token::Wrong),
        1 => Just(Token::Missing),
    ]
}

fn who() -> impl Strategy<Value = Who> {
    prop::sample::select(vec![
        Who::Nobody,
        Who::Team,
        Who::Team,
        Who::Jury,
        Who::Jury,
        Who::Host,
        Who::Host,
        Who::OtherHost,
        Who::ApiTeam,
        Who::ApiJury,
        Who::ApiWrong,
        Who::Forged,
    ])
}

/// Junk a JSON node may become.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        Just(json!(u64::MAX)),
        Just(json!(1e308)),
        Just(json!(-1e308)),
        Just(json!(-0.5)),
        Just(json!(f64::MIN_POSITIVE)),
        prop::sample::select(vec![
            "AC", "WA", "TLE", "MLE", "RTE", "CE", "IE", "OLE", "PE", "JE", "", "NaN", "inf",
        ])
        .prop_map(Value::from),
        odd_text().prop_map(Value::from),
        (1usize..200_000).prop_map(|n| Value::from("x".repeat(n))),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-z_]{1,10}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn part() -> impl Strategy<Value = Part> {
    (
        prop_oneof![
            prop::sample::select(NAMES.to_vec()).prop_map(str::to_string),
            odd_text()
        ],
        prop::option::of(prop_oneof![
            prop::sample::select(vec![
                "toy.c",
                "toy.py",
                "a.java",
                "../../etc/passwd",
                "",
                ".c",
                "x.txt",
                "ü.c",
                "CON",
                "a\"b.c",
            ])
            .prop_map(str::to_string),
            odd_text(),
        ]),
        prop_oneof![
            Just(TOY_C.as_bytes().to_vec()),
            odd_text().prop_map(String::into_bytes),
            prop::collection::vec(any::<u8>(), 0..300),
            (0usize..300_000).prop_map(|n| vec![b'x'; n]),
        ],
    )
        .prop_map(|(name, file_name, data)| Part {
            name,
            file_name,
            data,
        })
}

fn body() -> impl Strategy<Value = Body> {
    let fields = prop::collection::vec(
        (
            prop::sample::select(NAMES.to_vec()).prop_map(str::to_string),
            odd_text(),
        ),
        0..5,
    );
    let edits = prop::collection::vec(
        (any::<Index>(), prop::option::weighted(0.85, json_value()))
            .prop_map(|(at, to)| JsonEdit { at, to }),
        0..3,
    );
    let doc = prop::sample::select(vec![
        HostDoc::Lease,
        HostDoc::Lease,
        HostDoc::Renew,
        HostDoc::Run,
        HostDoc::Finish,
        HostDoc::Finish,
        HostDoc::Release,
        HostDoc::Refuse,
    ]);
    prop_oneof![
        1 => Just(Body::Empty),
        3 => fields.prop_map(Body::Form),
        2 => (
            prop::collection::vec(part(), 0..4),
            prop::bool::weighted(0.9),
            prop::bool::weighted(0.9)
        )
            .prop_map(|(parts, same_boundary, closed)| Body::Multipart {
                parts,
                same_boundary,
                closed
            }),
        3 => (doc, edits).prop_map(|(d, e)| Body::Host(d, e)),
        1 => (
            prop::sample::select(vec![
                "application/json",
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                "multipart/form-data; boundary=",
                "multipart/form-data; boundary=\"\"",
                "text/plain",
                "application/json; charset=utf-16",
                "x/y; a=b; a=c",
            ]),
            prop::collection::vec(any::<u8>(), 0..2_000)
        )
            .prop_map(|(ct, bytes)| Body::Raw {
                content_type: ct.to_string(),
                bytes
            }),
    ]
}

fn segments() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        prop_oneof![3 => Just("1".to_string()), 1 => Just(CID.to_string()), 6 => odd_text()],
        3,
    )
}

fn query() -> impl Strategy<Value = Vec<(String, String)>> {
    prop::collection::vec(
        (
            prop::sample::select(NAMES.to_vec()).prop_map(str::to_string),
            odd_text(),
        ),
        0..3,
    )
}

/// Any method on any route, from anyone, with any body.
fn any_case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(vec![
            "GET", "GET", "GET", "POST", "POST", "POST", "HEAD", "PUT", "DELETE", "OPTIONS",
            "PATCH",
        ]),
        prop::sample::select(ROUTES.to_vec()),
        segments(),
        query(),
        who(),
        token(),
        body(),
    )
        .prop_map(|(method, route, segments, query, who, token, body)| Case {
            method,
            route,
            segments,
            query,
            who,
            token,
            body,
        })
}

/// A form posted by a team or the jury where forms go, mostly with its
/// token: what gets past the doors into the handlers.
fn form_case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(vec![
            "/login",
            "/submit",
            "/submit",
            "/clarifications",
            "/jury/rejudge",
            "/jury/queue",
            "/jury/clarifications",
            "/jury/freeze",
        ]),
        prop::sample::select(vec![Who::Team, Who::Jury]),
        token(),
        body(),
    )
        .prop_map(|(route, who, token, body)| Case {
            method: "POST",
            route,
            segments: Vec::new(),
            query: Vec::new(),
            who,
            token,
            body,
        })
}

/// A judge host's message where such messages go, mostly about the
/// newest lease: what reaches the queue and the stored results.
fn host_case() -> impl Strategy<Value = Case> {
    let edits = prop::collection::vec(
        (any::<Index>(), prop::option::weighted(0.85, json_value()))
            .prop_map(|(at, to)| JsonEdit { at, to }),
        0..3,
    );
    (
        prop::sample::select(vec![
            ("/judgehost/lease", HostDoc::Lease),
            ("/judgehost/lease", HostDoc::Lease),
            ("/judgehost/renew", HostDoc::Renew),
            ("/judgehost/run", HostDoc::Run),
            ("/judgehost/run", HostDoc::Run),
            ("/judgehost/finish", HostDoc::Finish),
            ("/judgehost/finish", HostDoc::Finish),
            ("/judgehost/finish", HostDoc::Finish),
            ("/judgehost/release", HostDoc::Release),
            ("/judgehost/refuse", HostDoc::Refuse),
        ]),
        prop_oneof![8 => Just(Who::Host), 1 => Just(Who::OtherHost), 1 => Just(Who::Team)],
        edits,
    )
        .prop_map(|((route, doc), who, edits)| Case {
            method: "POST",
            route,
            segments: Vec::new(),
            query: Vec::new(),
            who,
            token: Token::Missing,
            body: Body::Host(doc, edits),
        })
}

fn case() -> impl Strategy<Value = Case> {
    prop_oneof![4 => any_case(), 2 => form_case(), 2 => host_case()]
}

// ---------------------------------------------------------------------------
// Turning a case into bytes on the wire.

/// What the fuzz knows of the server: sessions, tokens, and the newest
/// lease a judge-host message may name.
struct Known {
    host_port: String,
    team_cookie: String,
    team_csrf: String,
    jury_cookie: String,
    jury_csrf: String,
    host_token: String,
    passwords: BTreeMap<String, String>,
    /// (job, lease) of the newest lease the fuzz was given.
    lease: Option<(Value, Value)>,
}

/// Percent-encodes every byte outside the unreserved set.
fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn cookie_of(c: &Client) -> String {
    c.cookies
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn basic(login: &str, password: &str) -> String {
    format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{login}:{password}"))
    )
}

impl Known {
    fn path(&self, c: &Case) -> String {
        let mut path = String::new();
        let mut segments = c.segments.iter();
        let mut pieces = c.route.split("{}").peekable();
        while let Some(piece) = pieces.next() {
            path.push_str(piece);
            if pieces.peek().is_some() {
                path.push_str(&encode(segments.next().map_or("", String::as_str)));
            }
        }
        if !c.query.is_empty() {
            let q: Vec<String> = c
                .query
                .iter()
                .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                .collect();
            path.push('?');
            path.push_str(&q.join("&"));
        }
        path
    }

    /// The form token for `c`: the sender's own, another session's, or none.
    fn csrf(&self, c: &Case, route: &str) -> Option<String> {
        let own = match c.who {
            Who::Jury => &self.jury_csrf,
            _ => &self.team_csrf,
        };
        match c.token {
            // Signing out would end the sessions the fuzz sends as.
            Token::Right if route != "/logout" => Some(own.clone()),
            Token::Right | Token::Wrong => Some("A".repeat(own.len().max(1))),
            Token::Missing => None,
        }
    }

    fn host_doc(&self, doc: HostDoc, edits: &[JsonEdit]) -> Value {
        let (job, lease) = self
            .lease
            .clone()
            .unwrap_or_else(|| (json!(1), json!("no-lease")));
        let test = serde_json::to_value(grundy::judge::TestResult::unjudged("1", "sample"))
            .expect("a test result");
        let mut result = serde_json::to_value(grundy::judge::SubmissionResult::new(
            "toy.c",
            &grundy::problem::ProblemId("toy".into()),
            "c",
        ))
        .expect("a result");
        result["verdict"] = json!("AC");
        result["score"] = json!(100.0);
        result["tests"] = json!([test.clone()]);
        let mut v = match doc {
            HostDoc::Lease => json!({}),
            HostDoc::Renew | HostDoc::Release => json!({"job": job, "lease": lease}),
            HostDoc::Run => json!({"job": job, "lease": lease, "ordinal": 0, "result": test}),
            HostDoc::Finish => {
                json!({"job": job, "lease": lease, "result": result, "first_fail_input": "1 2\n"})
            }
            HostDoc::Refuse => json!({"job": job, "lease": lease, "reason": "fuzz"}),
        };
        for e in edits {
            edit(&mut v, e);
        }
        v
    }

    fn request(&self, c: &Case) -> Vec<u8> {
        let path = self.path(c);
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n",
            c.method, path, self.host_port
        );
        let version = env!("CARGO_PKG_VERSION");
        let header = match c.who {
            Who::Nobody => String::new(),
            Who::Team => format!("Cookie: {}\r\n", self.team_cookie),
            Who::Jury => format!("Cookie: {}\r\n", self.jury_cookie),
            Who::Host => format!(
                "Authorization: Bearer {}\r\nX-Grundy-Version: {version}\r\n",
                self.host_token
            ),
            Who::OtherHost => format!(
                "Authorization: Bearer {}\r\nX-Grundy-Version: 0.0.1-other\r\n",
                self.host_token
            ),
            Who::ApiTeam => format!(
                "Authorization: {}\r\n",
                basic("ana", &self.passwords["ana"])
            ),
            Who::ApiJury => format!(
                "Authorization: {}\r\n",
                basic("judy", &self.passwords["judy"])
            ),
            Who::ApiWrong => format!("Authorization: {}\r\n", basic("ana", "not-her-password")),
            Who::Forged => {
                let names: Vec<&str> = self
                    .team_cookie
                    .split("; ")
                    .filter_map(|kv| kv.split('=').next())
                    .collect();
                let forged: Vec<String> = names.iter().map(|n| format!("{n}=AAAA")).collect();
                format!("Cookie: {}\r\n", forged.join("; "))
            }
        };
        head.push_str(&header);
        let route = c.route;
        let (content_type, body): (Option<String>, Vec<u8>) = match &c.body {
            Body::Empty => (None, Vec::new()),
            Body::Form(fields) => {
                let mut all: Vec<(String, String)> = Vec::new();
                if let Some(t) = self.csrf(c, route) {
                    all.push(("csrf".into(), t));
                }
                all.extend(fields.iter().cloned());
                let text: Vec<String> = all
                    .iter()
                    .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
                    .collect();
                (
                    Some("application/x-www-form-urlencoded".into()),
                    text.join("&").into_bytes(),
                )
            }
            Body::Multipart {
                parts,
                same_boundary,
                closed,
            } => {
                let boundary = "fuzz-boundary-51c2";
                let mut b = Vec::new();
                let mut all = Vec::new();
                if let Some(t) = self.csrf(c, route) {
                    all.push(Part {
                        name: "csrf".into(),
                        file_name: None,
                        data: t.into_bytes(),
                    });
                }
                all.extend(parts.iter().cloned());
                for p in &all {
                    let _ = write!(
                        b,
                        "--{boundary}\r\nContent-Disposition: form-data; name=\"{}\"",
                        p.name.replace(['"', '\r', '\n'], "_")
                    );
                    if let Some(f) = &p.file_name {
                        let _ = write!(b, "; filename=\"{}\"", f.replace(['"', '\r', '\n'], "_"));
                    }
                    b.extend_from_slice(b"\r\n\r\n");
                    b.extend_from_slice(&p.data);
                    b.extend_from_slice(b"\r\n");
                }
                if *closed {
                    let _ = write!(b, "--{boundary}--\r\n");
                }
                let named = if *same_boundary { boundary } else { "other" };
                (Some(format!("multipart/form-data; boundary={named}")), b)
            }
            Body::Host(doc, edits) => (
                Some("application/json".into()),
                serde_json::to_vec(&self.host_doc(*doc, edits)).expect("JSON"),
            ),
            Body::Raw {
                content_type,
                bytes,
            } => (Some(content_type.clone()), bytes.clone()),
        };
        if let Some(ct) = content_type {
            let _ = write!(head, "Content-Type: {ct}\r\n");
        }
        let _ = write!(head, "Content-Length: {}\r\n\r\n", body.len());
        let mut out = head.into_bytes();
        out.extend_from_slice(&body);
        out
    }
}

/// Applies one edit: the `at`-th node of `v` (document order, the root
/// first) is replaced, or removed from its object or array.
fn edit(v: &mut Value, e: &JsonEdit) {
    let mut paths: Vec<Vec<PathStep>> = Vec::new();
    collect(v, &mut Vec::new(), &mut paths);
    let path = e.at.get(&paths).clone();
    let Some((last, parent)) = path.split_last() else {
        if let Some(to) = &e.to {
            *v = to.clone();
        }
        return;
    };
    let mut node = &mut *v;
    for step in parent {
        node = match (step, node) {
            (PathStep::Key(k), Value::Object(m)) => m.get_mut(k).expect("a collected key"),
            (PathStep::Item(i), Value::Array(a)) => &mut a[*i],
            _ => return,
        };
    }
    match (last, node, &e.to) {
        (PathStep::Key(k), Value::Object(m), Some(to)) => {
            m.insert(k.clone(), to.clone());
        }
        (PathStep::Key(k), Value::Object(m), None) => {
            m.remove(k);
        }
        (PathStep::Item(i), Value::Array(a), Some(to)) => a[*i] = to.clone(),
        (PathStep::Item(i), Value::Array(a), None) => {
            a.remove(*i);
        }
        _ => {}
    }
}

#[derive(Debug, Clone)]
enum PathStep {
    Key(String),
    Item(usize),
}

fn collect(v: &Value, at: &mut Vec<PathStep>, out: &mut Vec<Vec<PathStep>>) {
    out.push(at.clone());
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                at.push(PathStep::Key(k.clone()));
                collect(child, at, out);
                at.pop();
            }
        }
        Value::Array(a) => {
            for (i, child) in a.iter().enumerate() {
                at.push(PathStep::Item(i));
                collect(child, at, out);
                at.pop();
            }
        }
        _ => {}
    }
}

// ---------------------------------------------------------------------------
// Sending.

/// A response: its status and, for statuses worth showing, its first bytes.
struct Got {
    status: u16,
    body: Vec<u8>,
}

/// Sends `request` on a connection of its own and reads the answer's head
/// (and the body of a failure, or all of it with `whole`). An event stream
/// never ends, so only what a check needs is read.
fn send(host_port: &str, request: &[u8], whole: bool) -> Result<Got, String> {
    let mut s = TcpStream::connect(host_port).map_err(|e| format!("cannot connect: {e}"))?;
    s.set_read_timeout(Some(watchdog()))
        .map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(watchdog()))
        .map_err(|e| e.to_string())?;
    // The server may answer (a refusal) before reading a large body, and
    // close: the body is written on another thread while this one reads,
    // so that the answer is read as it comes, not lost to the reset that
    // a close with unread data sends.
    let mut w = s.try_clone().map_err(|e| e.to_string())?;
    let request = request.to_vec();
    let writer = std::thread::spawn(move || w.write_all(&request).map_err(|e| e.to_string()));
    let mut got = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let head_end = loop {
        if let Some(at) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        match s.read(&mut buf) {
            Ok(0) => {
                let _ = s.shutdown(std::net::Shutdown::Both);
                let wrote = writer.join();
                return Err(format!(
                    "the connection closed without an answer (write: {wrote:?}; read {} bytes)",
                    got.len()
                ));
            }
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => {
                let _ = s.shutdown(std::net::Shutdown::Both);
                return Err(format!("no answer: {e} (write: {:?})", writer.join()));
            }
        }
    };
    let head = String::from_utf8_lossy(&got[..head_end]).into_owned();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {head:?}"))?;
    let mut body = got[head_end..].to_vec();
    if whole || status >= 500 {
        // A stream's keep-alives would renew the read timeout for ever:
        // the whole body must come within the watchdog.
        let deadline = std::time::Instant::now() + watchdog();
        let limit = if whole { 64 << 20 } else { 64 << 10 };
        while body.len() < limit {
            if whole && std::time::Instant::now() > deadline {
                let _ = s.shutdown(std::net::Shutdown::Both);
                return Err(format!(
                    "status {status}: the body did not end within {:?}",
                    watchdog()
                ));
            }
            match s.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => body.extend_from_slice(&buf[..n]),
            }
        }
    }
    // The writer ends: its data was taken, or it is cut off here.
    let _ = s.shutdown(std::net::Shutdown::Both);
    let _ = writer.join();
    Ok(Got { status, body })
}

/// `127.0.0.1:PORT` of the server's URL: where requests are sent.
fn host_port_of(server: &Server) -> String {
    server
        .url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string()
}

/// At most `n` bytes of `b`, as text.
fn head_of(b: &[u8], n: usize) -> String {
    String::from_utf8_lossy(&b[..b.len().min(n)]).into_owned()
}

// ---------------------------------------------------------------------------
// The campaign.

#[test]
fn every_request_gets_an_answer_below_500_and_the_server_stays_whole() {
    // Until the end, submissions wait in the queue for the fuzz to lease
    // as a judge host would.
    let p = common::Project::toy("");
    let (mut server, pw) = serve_contest(&p, &contest_yaml(""), PEOPLE, &["--no-local-judging"]);
    let mut ana = signed(&server, &pw, "ana");
    let mut judy = signed(&server, &pw, "judy");
    let mut first = Vec::new();
    for k in 0..4 {
        let a = ana.submit("toy", &format!("toy{k}.c"), TOY_C.as_bytes());
        first.push(Client::submitted_id(&a));
    }
    let token_file = register(&server, "fuzz-rack");
    let host_token = std::fs::read_to_string(&token_file)
        .expect("token")
        .trim()
        .to_string();
    let host_port = host_port_of(&server);
    assert!(
        host_port.starts_with("127.0.0.1:") || host_port.starts_with("[::1]:"),
        "the fuzz talks to loopback only: {host_port}"
    );
    let known = RefCell::new(Known {
        host_port: host_port.clone(),
        team_cookie: cookie_of(&ana),
        team_csrf: ana.csrf("/team"),
        jury_cookie: cookie_of(&judy),
        jury_csrf: judy.csrf("/jury"),
        host_token,
        passwords: pw.clone(),
        lease: None,
    });

    let seed = env_number("GRUNDY_FUZZ_SEED").unwrap_or(DEFAULT_SEED);
    let factor = env_number("GRUNDY_FUZZ_CASES").unwrap_or(1).max(1) as u32;
    let config = Config {
        cases: REQUESTS.saturating_mul(factor),
        rng_seed: RngSeed::Fixed(seed),
        failure_persistence: None,
        max_shrink_iters: 64,
        max_shrink_time: 120_000,
        ..Config::default()
    };
    let statuses = RefCell::new(BTreeMap::<u16, usize>::new());
    let mut runner = TestRunner::new(config);
    let outcome = runner.run(&case(), |c| {
        let request = known.borrow().request(&c);
        let got = send(&host_port, &request, c.route == "/judgehost/lease").map_err(|e| {
            TestCaseError::fail(format!("{e}\nrequest: {}", head_of(&request, 600)))
        })?;
        *statuses.borrow_mut().entry(got.status).or_default() += 1;
        if got.status >= 500 {
            return Err(TestCaseError::fail(format!(
                "status {}: {}\nrequest: {}",
                got.status,
                head_of(&got.body, 600),
                head_of(&request, 600)
            )));
        }
        // A lease the host was given: later messages name it.
        if c.route == "/judgehost/lease"
            && got.status == 200
            && let Ok(job) = serde_json::from_slice::<Value>(&got.body)
        {
            known.borrow_mut().lease = Some((job["job"].clone(), job["lease"].clone()));
        }
        Ok(())
    });
    let said: Vec<String> = server.lines.try_iter().collect();
    if let Err(e) = outcome {
        panic!(
            "{e}\nseed {seed}: rerun with GRUNDY_FUZZ_SEED={seed} cargo test --release --test serve_fuzz\nthe server said:\n{}",
            said.join("\n")
        );
    }
    eprintln!("statuses: {:?}", statuses.borrow());
    assert!(
        server.child.try_wait().expect("wait").is_none(),
        "the server stopped:\n{}",
        said.join("\n")
    );
    // The fuzz reached deep, not only the doors: pages, refusals of
    // each kind, and leases.
    let seen = statuses.borrow();
    for status in [200, 400, 401, 403, 404] {
        assert!(seen.contains_key(&status), "no {status} in {seen:?}");
    }
    assert!(known.borrow().lease.is_some(), "no lease was ever given");

    assert!(
        !said.iter().any(|l| l.contains("panicked")),
        "the server panicked:\n{}",
        said.join("\n")
    );

    // Stopped and started again on what the fuzz stored (the login
    // throttle, kept in memory, starts afresh), with its own judges.
    assert_eq!(server.stop(), Some(0), "the server did not stop cleanly");
    let mut server = Server::start_file(&server.problems, &server.contest, &server.db, 1);
    ana.base = server.url.clone();
    judy.base = server.url.clone();
    let host_port = host_port_of(&server);

    // Every page still loads for the viewer it is for.
    let max_id: i64 = server
        .sql()
        .query_row("SELECT MAX(id) FROM submissions", [], |r| r.get(0))
        .expect("submissions");
    for path in [
        "/team",
        "/scoreboard",
        "/clarifications",
        "/scoreboard/table",
    ] {
        let a = ana.get(path);
        assert_eq!(a.status, 200, "{path} for a team: {}", a.body);
    }
    for id in &first {
        let a = ana.get(&format!("/submissions/{id}"));
        assert_eq!(a.status, 200, "submission {id} for its team: {}", a.body);
    }
    let mut jury_pages: Vec<String> = [
        "/jury",
        "/jury/scoreboard",
        "/jury/scoreboard/table",
        "/jury/clarifications",
        "/jury/grades.csv",
        "/jury/report.json",
        "/jury/scoreboard.json",
        "/jury/log",
        "/jury/archive.zip",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for id in 1..=max_id {
        jury_pages.push(format!("/jury/submissions/{id}"));
        jury_pages.push(format!("/jury/submissions/{id}/report"));
    }
    for path in &jury_pages {
        let a = judy.get(path);
        // A report exists once its submission is judged.
        let unjudged =
            path.ends_with("/report") && a.status == 404 && a.body.contains("not judged yet");
        assert!(
            a.status == 200 || unjudged,
            "{path} for the jury: {} {}",
            a.status,
            head_of(a.body.as_bytes(), 600)
        );
    }
    for collection in [
        "scoreboard",
        "state",
        "submissions",
        "judgements",
        "runs",
        "clarifications",
        "teams",
        "problems",
        "event-feed?stream=false",
    ] {
        let path = format!("/api/contests/{CID}/{collection}");
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {host_port}\r\nConnection: close\r\nAuthorization: {}\r\n\r\n",
            basic("judy", &pw["judy"])
        );
        let got = send(&host_port, request.as_bytes(), true).expect("an answer");
        assert_eq!(got.status, 200, "{path}: {}", head_of(&got.body, 600));
    }

    // Judging goes on: a new submission is judged as before (judging may
    // have been paused by the fuzz).
    let csrf = judy.csrf("/jury");
    judy.post("/jury/queue", &[("csrf", &csrf), ("action", "resume")]);
    let id = Client::submitted_id(&ana.submit("toy", "after.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(id).0, "AC", "after the fuzz");
    let said: Vec<String> = server.lines.try_iter().collect();
    assert!(
        !said.iter().any(|l| l.contains("panicked")),
        "the server panicked:\n{}",
        said.join("\n")
    );
    server.kill();
}
