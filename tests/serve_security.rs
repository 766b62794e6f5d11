//! `grundy serve` against a hostile client: each attack is refused with
//! the right status, and logged; what a team types shows as text on every
//! page; hostile programs sent through the server get the verdicts
//! `grundy judge` gives them.

mod common;
mod serve_support;

#[path = "hostile/harness.rs"]
mod harness;

use common::{Project, TOY_C};
use serve_support::*;

const PEOPLE: &str = "login,name,role\nana,Ana,team\nben,Ben,team\njudy,Judy,jury\n";

/// The refused requests the server logged: (status, path).
fn logged(server: &Server) -> Vec<(i64, String)> {
    let c = server.sql();
    let mut st = c
        .prepare("SELECT status, path FROM audit ORDER BY id")
        .expect("audit");
    st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .expect("audit")
        .map(|r| r.expect("row"))
        .collect()
}

fn was_logged(server: &Server, status: i64, path: &str) -> bool {
    logged(server)
        .iter()
        .any(|(s, p)| *s == status && p == path)
}

/// Another team's submission, its source and its status are refused (403);
/// the jury's pages are refused to a team (403) and send the public to
/// the login page; a jury action without a session is 401.
#[test]
fn other_teams_results_and_jury_pages_are_refused() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let id = Client::submitted_id(&ana.submit("toy", "secret.c", TOY_C.as_bytes()));
    ana.verdict(id);
    for path in [
        format!("/submissions/{id}"),
        format!("/submissions/{id}/source"),
        format!("/submissions/{id}/status"),
    ] {
        let a = ben.get(&path);
        assert_eq!(a.status, 403, "{path}: {}", a.body);
        assert!(
            !a.body.contains("xor") && !a.body.contains("scanf"),
            "{path} leaks the source"
        );
        assert!(was_logged(&server, 403, &path), "{path} not logged");
    }
    assert_eq!(ana.get(&format!("/submissions/{id}/source")).status, 200);
    for path in [
        "/jury",
        "/jury/grades.csv",
        "/jury/report.json",
        &format!("/jury/submissions/{id}"),
        "/jury/log",
    ] {
        assert_eq!(ben.get(path).status, 403, "{path}");
        assert!(was_logged(&server, 403, path), "{path} not logged");
        let public = server.client().get(path);
        assert_eq!(public.status, 303, "{path}");
        assert!(
            public
                .location
                .as_deref()
                .unwrap_or("")
                .starts_with("/login"),
            "{path}"
        );
    }
    let mut public = server.client();
    assert_eq!(
        public.post("/jury/rejudge", &[("submission", "1")]).status,
        401
    );
    assert!(was_logged(&server, 401, "/jury/rejudge"));
    // A team's own pages are the team's: the jury is sent to its own.
    let mut judy = signed(&server, &pw, "judy");
    assert_eq!(judy.get("/team").status, 403);
}

/// Every form refuses a post without its token, or with another's.
#[test]
fn forms_without_their_csrf_token_are_refused() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let bens = ben.csrf("/team");
    for token in ["", "0000", bens.as_str()] {
        let a = ana.post("/clarifications", &[("csrf", token), ("text", "hello")]);
        assert_eq!(a.status, 403, "token {token:?}: {}", a.body);
        let a = ana.submit_with(
            token,
            &[("problem", "toy")],
            Some(("a.c", TOY_C.as_bytes())),
        );
        assert_eq!(a.status, 403, "token {token:?}: {}", a.body);
        assert!(a.body.contains("token"), "{}", a.body);
        let a = ana.post("/logout", &[("csrf", token)]);
        assert_eq!(a.status, 403);
    }
    assert!(was_logged(&server, 403, "/submit"));
    let count: i64 = server
        .sql()
        .query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))
        .expect("count");
    assert_eq!(count, 0, "nothing was taken");
    // A login posted without the login form's cookie is refused too.
    let mut fresh = server.client();
    let a = fresh.post(
        "/login",
        &[("csrf", "x"), ("login", "ana"), ("password", &pw["ana"])],
    );
    assert_eq!(a.status, 403);
}

/// A session cookie planted before login is never adopted: the login makes
/// a new one, and the planted one signs nobody in.
#[test]
fn a_planted_session_cookie_is_not_adopted() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let planted = "ab".repeat(32);
    let mut victim = server.client();
    victim
        .cookies
        .insert("grundy_session".into(), planted.clone());
    assert_eq!(
        victim.get("/team").status,
        303,
        "the planted cookie is nobody"
    );
    assert_eq!(victim.login("ana", &pw["ana"]), 303);
    let issued = victim
        .cookies
        .get("grundy_session")
        .cloned()
        .expect("a session");
    assert_ne!(issued, planted);
    assert_eq!(victim.get("/team").status, 200);
    let mut attacker = server.client();
    attacker.cookies.insert("grundy_session".into(), planted);
    let a = attacker.get("/team");
    assert_eq!(a.status, 303, "the attacker is not signed in");
    // Signing out ends the session for good.
    let csrf = victim.csrf("/team");
    assert_eq!(victim.post("/logout", &[("csrf", &csrf)]).status, 303);
    let mut replay = server.client();
    replay.cookies.insert("grundy_session".into(), issued);
    assert_eq!(replay.get("/team").status, 303);
}

/// Markup in a team's name, a question and a file name is shown as text
/// on the scoreboard, the jury's pages and the team's own.
#[test]
fn markup_typed_by_teams_is_escaped_everywhere() {
    let p = Project::toy("");
    let (server, pw) = serve_contest(
        &p,
        &contest_yaml(""),
        "login,name,role\nevil,\"<script>alert('name')</script>\",team\njudy,Judy,jury\n",
        &[],
    );
    let mut evil = signed(&server, &pw, "evil");
    let file = "<svg onload=alert(1)>.c";
    let id = Client::submitted_id(&evil.submit("toy", file, TOY_C.as_bytes()));
    evil.verdict(id);
    let csrf = evil.csrf("/clarifications");
    let question = "<img src=x onerror=alert('q')>";
    assert_eq!(
        evil.post("/clarifications", &[("csrf", &csrf), ("text", question)])
            .status,
        303
    );
    let mut judy = signed(&server, &pw, "judy");
    let mut public = server.client();
    let pages = [
        public.get("/scoreboard").body,
        judy.get("/jury").body,
        judy.get("/jury/scoreboard").body,
        judy.get(&format!("/jury/submissions/{id}")).body,
        judy.get(&format!("/jury/submissions/{id}/report")).body,
        judy.get("/jury/clarifications").body,
        evil.get("/team").body,
        evil.get(&format!("/submissions/{id}")).body,
        evil.get("/clarifications").body,
    ];
    for (i, page) in pages.iter().enumerate() {
        for raw in ["<script>alert('name')", "<svg onload", "<img src=x"] {
            assert!(
                !page.contains(raw),
                "page {i} holds {raw:?} unescaped:\n{page}"
            );
        }
    }
    assert!(pages[0].contains("&lt;script&gt;alert("), "{}", pages[0]);
    assert!(
        pages[1].contains("&lt;svg onload=alert(1)&gt;.c"),
        "{}",
        pages[1]
    );
    assert!(pages[5].contains("&lt;img src=x onerror="), "{}", pages[5]);
}

/// What is sent, the fields and file, the status and a word of the answer.
type Case<'a> = (
    &'a str,
    Vec<(&'a str, &'a str)>,
    Option<(&'a str, &'a [u8])>,
    u16,
    &'a str,
);

/// Oversized, empty, malformed and misdirected submissions are refused
/// with their own status and sentence, and logged; nothing is stored.
#[test]
fn bad_uploads_are_refused_with_the_right_status() {
    let (_p, server, pw) = toy_contest("upload_limit: 1KiB\nlanguages: [c, python]\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let csrf = ana.csrf("/team");
    let big = vec![b'/'; 2048];
    let cases: Vec<Case> = vec![
        (
            "over the limit",
            vec![("problem", "toy")],
            Some(("a.c", &big)),
            413,
            "at most",
        ),
        (
            "empty",
            vec![("problem", "toy")],
            Some(("a.c", b"")),
            400,
            "is empty",
        ),
        (
            "unknown language",
            vec![("problem", "toy")],
            Some(("a.cob", b"x")),
            415,
            ".cob",
        ),
        (
            "a language not allowed",
            vec![("problem", "toy")],
            Some(("a.java", b"class A{}")),
            415,
            "java",
        ),
        (
            "no such problem",
            vec![("problem", "nosuch")],
            Some(("a.c", TOY_C.as_bytes())),
            400,
            "nosuch",
        ),
        (
            "for another team",
            vec![("problem", "toy"), ("team", "ben")],
            Some(("a.c", TOY_C.as_bytes())),
            403,
            "cannot submit for",
        ),
    ];
    for (what, fields, file, status, says) in cases {
        let a = ana.submit_with(&csrf, &fields, file);
        assert_eq!(a.status, status, "{what}: {}", a.body);
        assert!(a.body.contains(says), "{what}: {}", a.body);
        assert!(
            was_logged(&server, i64::from(status), "/submit"),
            "{what} not logged"
        );
    }
    // A body announced far over the limit is refused before it is read.
    let (status, text) = announce_huge(&server, &ana);
    assert_eq!(status, 413, "{text}");
    assert!(text.contains("larger"), "{text}");
    let a = ana.post_raw(
        "/submit",
        "multipart/form-data; boundary=zz",
        b"--zz\r\nnot a part\r\n",
    );
    assert_eq!(a.status, 400, "malformed: {}", a.body);
    let a = ana.post_raw("/submit", "text/plain", b"hello");
    assert_eq!(a.status, 400, "not a form: {}", a.body);
    let count: i64 = server
        .sql()
        .query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))
        .expect("count");
    assert_eq!(count, 0);
}

/// Sends the head of a request announcing a 4 MiB submission, no more;
/// the status and text of the answer.
fn announce_huge(server: &Server, c: &Client) -> (u16, String) {
    use std::io::{Read, Write};
    let addr = server.url.trim_start_matches("http://");
    let mut s = std::net::TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("timeout");
    let cookies: Vec<String> = c.cookies.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let head = format!(
        "POST /submit HTTP/1.1\r\nHost: {addr}\r\nCookie: {}\r\nContent-Type: multipart/form-data; boundary=zz\r\nContent-Length: {}\r\nConnection: close\r\n\r\n--zz\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.c\"\r\n\r\n",
        cookies.join("; "),
        4 << 20
    );
    s.write_all(head.as_bytes()).expect("send the head");
    let mut answer = Vec::new();
    let _ = s.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// Submissions before the start and after the end are refused; so are the
/// statements before the start.
#[test]
fn submissions_outside_the_contest_are_refused() {
    let (_p, server, pw) = toy_contest("start: now+1h\nduration: 2h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let csrf = ana.csrf("/team");
    let a = ana.submit_with(
        &csrf,
        &[("problem", "toy")],
        Some(("a.c", TOY_C.as_bytes())),
    );
    assert_eq!(a.status, 403);
    assert!(a.body.contains("not started"), "{}", a.body);
    assert_eq!(ana.get("/problems/toy").status, 403);
    drop(server);
    let (_q, server, pw) = toy_contest("start: now-3h\nduration: 2h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let csrf = ana.csrf("/team");
    let a = ana.submit_with(
        &csrf,
        &[("problem", "toy")],
        Some(("a.c", TOY_C.as_bytes())),
    );
    assert_eq!(a.status, 403);
    assert!(a.body.contains("over"), "{}", a.body);
}

/// Guessing passwords: after a few failures the account is refused for a
/// while (429 with Retry-After), even with the right password; each
/// refusal is logged.
#[test]
fn brute_force_logins_are_throttled() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut guesser = server.client();
    for i in 0..5 {
        assert_eq!(guesser.login("ana", &format!("guess{i}")), 401);
    }
    let form = guesser.get("/login");
    let csrf = csrf_of(&form.body).expect("token");
    let a = guesser.post(
        "/login",
        &[("csrf", &csrf), ("login", "ana"), ("password", &pw["ana"])],
    );
    assert_eq!(a.status, 429, "{}", a.body);
    assert!(a.body.contains("for `ana`"), "{}", a.body);
    assert!(
        a.header("retry-after")
            .is_some_and(|s| s.parse::<u64>().is_ok_and(|n| n > 0))
    );
    let statuses: Vec<i64> = logged(&server)
        .into_iter()
        .filter(|(_, p)| p == "/login")
        .map(|(s, _)| s)
        .collect();
    assert_eq!(statuses, [401, 401, 401, 401, 401, 429]);
    // Another account from the same address is still let in.
    assert_eq!(server.client().login("ben", &pw["ben"]), 303);
}

/// Guessing many accounts from one address: after 30 failures the address
/// is refused for a while, even for an account with its right password. A
/// login name that cannot be one is not kept (nor logged) as typed, and a
/// login form over a form's size is refused before it is read.
#[test]
fn guessing_many_accounts_from_one_address_is_throttled() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut guesser = server.client();
    let long = "x".repeat(40_000);
    assert_eq!(guesser.login(&long, "guess"), 401);
    for i in 1..30 {
        assert_eq!(guesser.login(&format!("nobody{i}"), "guess"), 401);
    }
    let a = {
        let mut ana = server.client();
        let form = ana.get("/login");
        let csrf = csrf_of(&form.body).expect("token");
        ana.post(
            "/login",
            &[("csrf", &csrf), ("login", "ana"), ("password", &pw["ana"])],
        )
    };
    assert_eq!(a.status, 429, "{}", a.body);
    assert!(a.header("retry-after").is_some());
    // Ana failed nothing: she is told it is the address, not her account.
    assert!(
        a.body.contains("from your network address") && !a.body.contains("for `ana`"),
        "{}",
        a.body
    );
    let huge = "y".repeat(100_000);
    assert_eq!(guesser.login(&huge, "guess"), 413);
    let longest: i64 = server
        .sql()
        .query_row(
            "SELECT MAX(LENGTH(what) + LENGTH(path)) FROM audit",
            [],
            |r| r.get(0),
        )
        .expect("audit");
    assert!(
        longest < 1000,
        "the log keeps {longest} characters of one refusal"
    );
    let kept = logged(&server)
        .iter()
        .filter(|(_, p)| p == "/login")
        .count();
    assert_eq!(kept, 32, "each refused login is logged");
}

/// Hostile programs sent through the server get the verdicts `grundy
/// judge` gives the same files, with the server caged as the hostile
/// tests cage the judge.
#[test]
fn hostile_programs_through_the_server_get_judge_verdicts() {
    let _serial = harness::SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let hp = harness::Project::new(harness::As::Me);
    hp.problem(
        "p",
        "token\n",
        "limits:\n  time: 1s\n  memory: 64MiB\n  output: 8MiB",
    );
    let contest = hp.write("contest.yaml", "problems: [p]\nteams: [ana]\n");
    let csv = hp.write("people.csv", "login\nana\n");
    let db = hp.path("contest.sqlite");
    let pw = accounts_in(&contest, &csv, &db);
    let cage = harness::Cage::new(harness::As::Me).expect("cage");
    let server = Server::start_with(
        &hp.path("problems"),
        &contest,
        &db,
        1,
        &hp.path("cache"),
        &|cmd| cage.apply(cmd),
    );
    let mut ana = signed(&server, &pw, "ana");
    let deterministic = ["reference.c", "mem_steps.c", "stderr_flood.c"];
    for name in deterministic.iter().chain(&["fork_bomb.c"]) {
        let source = harness::source(name);
        let id = Client::submitted_id(&ana.submit("p", name, source.as_bytes()));
        let (verdict, _) = ana.verdict(id);
        if deterministic.contains(name) {
            let sub = hp.submission(name);
            let (r, _, judge_cage) = hp.judge_caged("p", &sub, &[]);
            drop(judge_cage);
            assert_eq!(verdict, harness::verdict(&r), "{name}");
        } else {
            assert!(
                ["TLE", "RE", "MLE"].contains(&verdict.as_str()),
                "{name}: {verdict}"
            );
        }
    }
    drop(server);
    drop(cage);
}
