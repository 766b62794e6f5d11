//! Judge hosts: `grundy judgehost` processes on loopback judging for a
//! `grundy serve` that judges nothing itself (`--no-local-judging`), with
//! their own tokens. A host killed with SIGKILL mid-judging loses its
//! lease and the submission is judged by the other; a revoked host is
//! refused at once and its judging goes elsewhere; a host whose clock is
//! days off judges as well (leases are timed by the server's clock); a
//! result posted twice is stored once; a host of another version, or
//! without a token, is refused with the reason; a package download that
//! fails once is tried again, not taken as the host refusing the problem.

mod common;
mod serve_support;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use common::{Project, TOY_C};
use serve_support::*;

/// Right on the toy's sample (`2` piles `1 1`: Bob), a time-out on every
/// other test: a judging that has posted a run and then runs for the whole
/// time limit, so that a host is caught in the middle of it. Spinning on
/// every test, the first runs posted were time-outs that ended the
/// judging at once: a host could finish before being revoked, and a
/// judging was seldom seen with a run posted and still unfinished.
const SAMPLE_THEN_SPIN_C: &str = "#include <stdio.h>\nint main(void){int n=0,a=0,b=0;\
if(scanf(\"%d %d %d\",&n,&a,&b)==3&&n==2&&a==1&&b==1){puts(\"Bob\");return 0;}\
volatile unsigned long i=0;for(;;)i++;}\n";

/// The toy problem with a time limit long enough to catch a host in the
/// middle of a judging, served for [`PEOPLE`] with no judging of the
/// server's own: only judge hosts judge.
fn hosts_only() -> (Project, Server, std::collections::BTreeMap<String, String>) {
    let p = Project::toy("limits:\n  time: 3s\n");
    let (server, pw) = serve_contest(&p, &contest_yaml(""), PEOPLE, &["--no-local-judging"]);
    (p, server, pw)
}

/// The host holding submission `id`'s job once it has posted a test's
/// result (so it is in the middle of judging it).
fn holder_mid_judging(server: &Server, id: i64) -> String {
    let deadline = Instant::now() + DEADLINE;
    loop {
        let found: Option<String> = server
            .sql()
            .query_row(
                "SELECT g.host FROM judgings g JOIN jobs j ON j.id = g.job_id
                 WHERE g.submission_id = ?1 AND g.finished_ms IS NULL AND g.aborted = 0
                   AND j.state = 'running'
                   AND EXISTS (SELECT 1 FROM runs r WHERE r.judging_id = g.id)",
                [id],
                |r| r.get(0),
            )
            .ok();
        if let Some(h) = found {
            return h;
        }
        assert!(
            Instant::now() < deadline,
            "submission {id} was not being judged in time"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Each judging of submission `id`: (host, finished, aborted, valid).
fn judgings(server: &Server, id: i64) -> Vec<(String, bool, bool, bool)> {
    let c = server.sql();
    let mut st = c
        .prepare(
            "SELECT host, finished_ms IS NOT NULL, aborted, valid FROM judgings
             WHERE submission_id = ?1 ORDER BY id",
        )
        .expect("prepare");
    st.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .expect("query")
        .map(|r| r.expect("row"))
        .collect()
}

fn team(server: &Server, pw: &std::collections::BTreeMap<String, String>) -> Client {
    let mut c = server.client();
    assert_eq!(c.login("ana", &pw["ana"]), 303);
    c
}

const PEOPLE: &str = "login,name,role\nana,Ana,team\n";

#[test]
fn a_host_killed_mid_judging_loses_its_lease_and_the_other_host_judges_the_submission() {
    let (_p, server, pw) = hosts_only();
    let mut ana = team(&server, &pw);
    let (ta, tb) = (register(&server, "rack-a"), register(&server, "rack-b"));
    let mut a = Host::start(&server, &ta, &[]);
    let mut b = Host::start(&server, &tb, &[]);
    let slow = Client::submitted_id(&ana.submit(
        "toy",
        "sample_then_spin.c",
        SAMPLE_THEN_SPIN_C.as_bytes(),
    ));
    let holder = holder_mid_judging(&server, slow);
    // The holder dies as a crash would: no word to the server.
    let (dead, alive) = if holder == "rack-a" {
        (&mut a, "rack-b")
    } else {
        (&mut b, "rack-a")
    };
    dead.kill();
    // Meanwhile the other host judges what comes.
    let ok = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(ok).0, "AC");
    assert_eq!(
        judgings(&server, ok),
        vec![(alive.to_string(), true, false, true)]
    );
    // Once the dead host's lease expires, the live one takes the job.
    assert_eq!(ana.verdict(slow).0, "TLE");
    let j = judgings(&server, slow);
    assert_eq!(j.len(), 2, "{j:?}");
    assert_eq!(j[0], (holder.clone(), false, true, false), "{j:?}");
    assert_eq!(j[1], (alive.to_string(), true, false, true), "{j:?}");
    // The package was fetched by its hash, once, into the hosts' cache.
    let cached = cache().join("judgehost-packages");
    assert!(cached.is_dir(), "no package in {}", cached.display());
}

#[test]
fn a_revoked_host_is_refused_at_once_and_its_judging_goes_elsewhere() {
    let (_p, server, pw) = hosts_only();
    let mut ana = team(&server, &pw);
    let ta = register(&server, "rack-a");
    let mut a = Host::start(&server, &ta, &[]);
    let slow = Client::submitted_id(&ana.submit(
        "toy",
        "sample_then_spin.c",
        SAMPLE_THEN_SPIN_C.as_bytes(),
    ));
    assert_eq!(holder_mid_judging(&server, slow), "rack-a");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "judgehost"])
        .arg(&server.contest)
        .args(["rack-a", "--revoke", "--db"])
        .arg(&server.db)
        .output()
        .expect("revoke");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("1 of its judgings queued again"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The host hears it at its next request and stops, saying why.
    let (code, said) = a.exit();
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("revoked"), "{said}");
    // Its judging was abandoned and the job queued again: a new host,
    // with a clock three days ahead, judges it (no lease expiry needed).
    let tb = register(&server, "rack-b");
    let faketime = Command::new("faketime").arg("--version").output().is_ok();
    let msg = "faketime is not installed: run `bash .ci/setup.sh --tests`";
    assert!(
        faketime || std::env::var("CI").as_deref() != Ok("true"),
        "{msg}"
    );
    if !faketime {
        eprintln!("{msg}: the second host runs with the machine's clock");
    }
    let wrap: &[&str] = if faketime {
        &["faketime", "-f", "+3d"]
    } else {
        &[]
    };
    let _b = Host::start(&server, &tb, wrap);
    assert_eq!(ana.verdict(slow).0, "TLE");
    let j = judgings(&server, slow);
    assert_eq!(
        j,
        vec![
            ("rack-a".to_string(), false, true, false),
            ("rack-b".to_string(), true, false, true)
        ]
    );
}

/// One request of the judge hosts' protocol, by hand: its status and body.
fn host_call(
    server: &Server,
    path: &str,
    token: &str,
    version: &str,
    body: Option<&Value>,
) -> (u16, Vec<u8>) {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into();
    let url = format!("{}{path}", server.url);
    let auth = format!("Bearer {}", token.trim());
    let res = match body {
        Some(b) => agent
            .post(&url)
            .header("authorization", &auth)
            .header("x-grundy-version", version)
            .send(serde_json::to_vec(b).expect("json").as_slice()),
        None => agent
            .get(&url)
            .header("authorization", &auth)
            .header("x-grundy-version", version)
            .call(),
    }
    .expect("request");
    let status = res.status().as_u16();
    let mut bytes = Vec::new();
    res.into_body()
        .into_reader()
        .read_to_end(&mut bytes)
        .expect("body");
    (status, bytes)
}

/// The protocol by hand: a token and the version are checked first; the
/// package comes by its hash; a result posted twice is stored once, and
/// one posted with another host's token is not stored.
#[test]
fn refusals_and_a_result_posted_twice_is_stored_once() {
    let (_p, server, pw) = hosts_only();
    let mut ana = team(&server, &pw);
    let token = std::fs::read_to_string(register(&server, "rack-a")).expect("token");
    let other = std::fs::read_to_string(register(&server, "rack-b")).expect("token");
    let version = env!("CARGO_PKG_VERSION");
    let call = |path: &str, token: &str, version: &str, body: Option<&Value>| {
        host_call(&server, path, token, version, body)
    };
    let (s, body) = call("/judgehost/hello", &token, "0.0.1-other", None);
    assert_eq!(s, 409);
    let said = String::from_utf8_lossy(&body);
    assert!(
        said.contains("0.0.1-other") && said.contains(version),
        "{said}"
    );
    let (s, _) = call("/judgehost/hello", "not-a-token", version, None);
    assert_eq!(s, 401);
    let (s, body) = call("/judgehost/hello", &token, version, None);
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("hello")["host"],
        "rack-a"
    );
    // Nothing to judge yet.
    assert_eq!(
        call("/judgehost/lease", &token, version, Some(&json!({}))).0,
        204
    );
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    let (s, body) = call("/judgehost/lease", &token, version, Some(&json!({})));
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&body));
    let job: Value = serde_json::from_slice(&body).expect("job");
    assert_eq!(job["submission"], id);
    let sha = job["package"].as_str().expect("package").to_string();
    let (s, zip) = call(&format!("/judgehost/packages/{sha}"), &token, version, None);
    assert_eq!(s, 200);
    use sha2::Digest as _;
    let got: String = sha2::Sha256::digest(&zip)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(got, sha);
    let mut result = serde_json::to_value(grundy::judge::SubmissionResult::new(
        "ok.c",
        &grundy::problem::ProblemId("toy".into()),
        "c",
    ))
    .expect("result");
    result["verdict"] = json!("WA");
    let finish = json!({
        "job": job["job"], "lease": job["lease"], "result": result, "first_fail_input": null
    });
    // Another host cannot post for this lease.
    let (s, body) = call("/judgehost/finish", &other, version, Some(&finish));
    assert_eq!(s, 200);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("ack"),
        json!({"held": false, "stored": false})
    );
    let (s, body) = call("/judgehost/finish", &token, version, Some(&finish));
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&body));
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("ack"),
        json!({"held": false, "stored": true})
    );
    let (s, body) = call("/judgehost/finish", &token, version, Some(&finish));
    assert_eq!(s, 200);
    assert_eq!(
        serde_json::from_slice::<Value>(&body).expect("ack"),
        json!({"held": false, "stored": false})
    );
    assert_eq!(
        judgings(&server, id),
        vec![("rack-a".to_string(), true, false, true)]
    );
    assert_eq!(ana.verdict(id).0, "WA");
}

/// A host that gives a problem back (it cannot build it) is not given that
/// problem again, and the jury sees why on `/jury`; once the host starts
/// again (its hello), mended, it is given the problem again.
#[test]
fn a_problem_given_back_returns_to_its_host_once_it_starts_again() {
    let (_p, server, pw) = hosts_only();
    let mut ana = team(&server, &pw);
    let token = std::fs::read_to_string(register(&server, "rack-a")).expect("token");
    let version = env!("CARGO_PKG_VERSION");
    let lease = || {
        let (s, body) = host_call(
            &server,
            "/judgehost/lease",
            &token,
            version,
            Some(&json!({})),
        );
        match s {
            200 => Some(serde_json::from_slice::<Value>(&body).expect("job")),
            204 => None,
            _ => panic!("lease: {s} {}", String::from_utf8_lossy(&body)),
        }
    };
    assert_eq!(
        host_call(&server, "/judgehost/hello", &token, version, None).0,
        200
    );
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    let job = lease().expect("the submission is leased");
    assert_eq!(job["submission"], id);
    let (s, body) = host_call(
        &server,
        "/judgehost/refuse",
        &token,
        version,
        Some(&json!({"job": job["job"], "lease": job["lease"], "reason": "no C compiler here"})),
    );
    assert_eq!(s, 200, "{}", String::from_utf8_lossy(&body));
    // Queued again, but not for this host.
    assert_eq!(
        lease(),
        None,
        "a problem it gave back was leased to it again"
    );
    let mut admin = server.admin();
    let page = admin.get("/jury");
    assert_eq!(page.status, 200);
    let hosts = &page.body[page.body.find("id=\"hosts\"").expect("a table of hosts")..];
    assert!(
        hosts.contains("rack-a")
            && hosts.contains("data-problem=\"toy\"")
            && hosts.contains("no C compiler here"),
        "{hosts}"
    );
    // Started again: the problem is its again.
    assert_eq!(
        host_call(&server, "/judgehost/hello", &token, version, None).0,
        200
    );
    let again = lease().expect("leased again after the host started again");
    assert_eq!(again["submission"], id);
    let page = admin.get("/jury");
    assert!(
        !page.body.contains("no C compiler here"),
        "the refusal is still shown"
    );
}

/// A proxy in front of the server, as a load balancer would be: it answers
/// 503 to the first request for a package and passes every other request
/// on, one request per connection. Its URL, and how many package requests
/// it saw.
fn flaky_proxy(upstream: &str) -> (String, Arc<AtomicUsize>) {
    let upstream = upstream
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
    let url = format!("http://{}/", listener.local_addr().expect("address"));
    let packages = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&packages);
    std::thread::spawn(move || {
        for conn in listener.incoming().map_while(Result::ok) {
            let (up, seen) = (upstream.clone(), Arc::clone(&seen));
            std::thread::spawn(move || {
                let _ = pass_on(conn, &up, &seen);
            });
        }
    });
    (url, packages)
}

/// Reads one request from `client`, answers it (see [`flaky_proxy`]) and
/// closes the connection.
fn pass_on(mut client: TcpStream, upstream: &str, packages: &AtomicUsize) -> std::io::Result<()> {
    let mut reader = BufReader::new(client.try_clone()?);
    let (mut head, mut first, mut length) = (Vec::new(), String::new(), 0usize);
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if line == "\r\n" {
            break;
        }
        if first.is_empty() {
            first = line.clone();
        }
        let lower = line.to_ascii_lowercase();
        if let Some(v) = lower.strip_prefix("content-length:") {
            length = v.trim().parse().unwrap_or(0);
        }
        if !lower.starts_with("connection:") {
            head.extend_from_slice(line.as_bytes());
        }
    }
    let mut body = vec![0; length];
    reader.read_exact(&mut body)?;
    if first.starts_with("GET /judgehost/packages/") && packages.fetch_add(1, Ordering::SeqCst) == 0
    {
        return client.write_all(
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-length: 5\r\nconnection: close\r\n\r\nbusy\n",
        );
    }
    let mut up = TcpStream::connect(upstream)?;
    up.write_all(&head)?;
    up.write_all(b"connection: close\r\n\r\n")?;
    up.write_all(&body)?;
    let mut answer = Vec::new();
    up.read_to_end(&mut answer)?;
    // The host must not send another request on this connection.
    let end = answer
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(answer.len());
    let says_close = String::from_utf8_lossy(&answer[..end])
        .to_ascii_lowercase()
        .contains("connection: close");
    if !says_close {
        let line_end = answer.windows(2).position(|w| w == b"\r\n").unwrap_or(0);
        answer.splice(line_end..line_end, b"\r\nconnection: close".iter().copied());
    }
    client.write_all(&answer)
}

#[test]
fn a_package_download_that_fails_once_is_tried_again_and_not_held_against_the_host() {
    let (_p, server, pw) = hosts_only();
    let mut ana = team(&server, &pw);
    let token = register(&server, "rack-a");
    let (url, packages) = flaky_proxy(&server.url);
    // A cache of its own: the package must be fetched, not found there.
    let own_cache = server.db.with_file_name("host-cache");
    let host = Host::start_at(&url, &token, &[], &own_cache);
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    // The only host never says it cannot judge the problem; it judges it.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let c = server.sql();
        let mut st = c
            .prepare("SELECT host, problem, reason FROM judgehost_refusals")
            .expect("prepare");
        let refusals: Vec<(String, String, String)> = st
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .expect("query")
            .map(|r| r.expect("row"))
            .collect();
        assert!(
            refusals.is_empty(),
            "a failed download was taken as a refusal: {refusals:?}"
        );
        if ana.status(id)["done"] == json!(true) {
            break;
        }
        assert!(Instant::now() < deadline, "submission {id} was not judged");
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(ana.verdict(id).0, "AC");
    assert_eq!(packages.load(Ordering::SeqCst), 2, "one failed, one served");
    // The first judging was abandoned, the second judged it.
    assert_eq!(
        judgings(&server, id),
        vec![
            ("rack-a".to_string(), false, true, false),
            ("rack-a".to_string(), true, false, true)
        ]
    );
    // The host said why, and that it would try again.
    let mut said = Vec::new();
    while !said
        .iter()
        .any(|l: &String| l.contains("503") && l.contains("trying again"))
    {
        let left = deadline.saturating_duration_since(Instant::now());
        match host.lines.recv_timeout(left) {
            Ok(line) => said.push(line),
            Err(_) => panic!("the host did not say it would try again: {said:?}"),
        }
    }
}
