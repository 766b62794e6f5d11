//! `grundy serve` driven over HTTP as teams, the jury and the public
//! would: the real binary on a loopback port, a database of its own, real
//! compilers and runs.

mod common;
mod serve_support;

use common::{Project, TOY_C};
use serve_support::*;

const PEOPLE: &str = "login,name,role\nana,Ana,team\nben,Ben,team\ncy,Cy,team\njudy,Judy,jury\n";
/// A class's people: two students and their teacher.
const CLASS: &str = "login,name,role\nana,Ana,student\nben,Ben,student\nt,Teacher,teacher\n";

/// A team's verdicts and scores are those `grundy judge` gives the same
/// files, and its own page lists them.
#[test]
fn submissions_get_the_verdicts_grundy_judge_gives() {
    let (p, server, pw) = toy_contest("scoring: ioi\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    // A source far over a form's size, well under the upload limit.
    let big = format!("{TOY_C}/* {} */\n", "x".repeat(100 * 1024));
    let files = [
        ("ok.c", TOY_C),
        ("wa.c", TOY_WA_C),
        ("ce.c", TOY_CE_C),
        ("ok.py", TOY_PY),
        ("half.py", HALF_PY),
        ("big.c", big.as_str()),
    ];
    let ids: Vec<i64> = files
        .iter()
        .map(|(name, text)| Client::submitted_id(&ana.submit("toy", name, text.as_bytes())))
        .collect();
    for ((name, text), id) in files.iter().zip(ids) {
        let (verdict, score) = ana.verdict(id);
        let judged = p.judge_source(name, text, &[]);
        assert_eq!(
            verdict,
            judged["verdict"].as_str().expect("verdict"),
            "{name}"
        );
        assert_eq!(score, judged["score"].as_f64().expect("score"), "{name}");
    }
    let page = ana.get("/team");
    assert_eq!(page.status, 200);
    for name in ["ok.c", "wa.c", "half.py"] {
        assert!(page.body.contains(name), "{name} listed: {}", page.body);
    }
    let half = ana.get("/submissions/5");
    assert!(
        half.body.contains("WA") && half.body.contains("40"),
        "{}",
        half.body
    );
    // `feedback: verdict` (the default): the verdict and score, never a
    // test's input.
    assert!(half.body.contains("40/100"), "{}", half.body);
    for hidden in ["First failing test", "input:", "passed "] {
        assert!(!half.body.contains(hidden), "{hidden}: {}", half.body);
    }
}

/// Pasted source is judged in the language chosen with it, as `grundy
/// judge` judges the same text; pasted source without a language, or with
/// a file too, is refused.
#[test]
fn a_pasted_source_is_judged_in_the_language_chosen() {
    let (p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let csrf = ana.csrf("/team");
    let a = ana.submit_with(
        &csrf,
        &[
            ("problem", "toy"),
            ("language", "python"),
            ("source", HALF_PY),
        ],
        None,
    );
    let id = Client::submitted_id(&a);
    let judged = p.judge_source("half.py", HALF_PY, &[]);
    assert_eq!(
        ana.verdict(id).0,
        judged["verdict"].as_str().expect("verdict")
    );
    let page = ana.get(&format!("/submissions/{id}"));
    assert!(page.body.contains("(python)"), "{}", page.body);
    let source = ana.get(&format!("/submissions/{id}/source"));
    assert!(source.body.contains("n==2 and a[0]==7"), "{}", source.body);
    let a = ana.submit_with(&csrf, &[("problem", "toy"), ("source", HALF_PY)], None);
    assert_eq!(a.status, 415, "{}", a.body);
    assert!(a.body.contains("language"), "{}", a.body);
    let a = ana.submit_with(
        &csrf,
        &[
            ("problem", "toy"),
            ("language", "python"),
            ("source", HALF_PY),
        ],
        Some(("ok.c", TOY_C.as_bytes())),
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(a.body.contains("not both"), "{}", a.body);
}

/// Passes the samples and the small group, fails the large one: 40 points.
const HALF_PY: &str = "n=int(input())\na=list(map(int,input().split()))\nx=0\nfor v in a:\n    x^=v\nif n==2 and a[0]==7:\n    x=0\nprint('Alice' if x else 'Bob')\n";

/// The verdict reaches the team's open page by server-sent events, without
/// asking: the stream names the submission, whose status is then judged.
#[test]
fn the_verdict_arrives_over_the_event_stream() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let events = ana.events();
    assert_eq!(next_event(&events, "hello"), "{}");
    let id = Client::submitted_id(&ana.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    loop {
        let data = next_event(&events, "submission");
        let v: serde_json::Value = serde_json::from_str(&data).expect("event data");
        assert_eq!(v["id"], id);
        let s = ana.status(id);
        if s["done"] == true {
            assert_eq!(s["verdict"], "WA");
            break;
        }
    }
    // A browser without scripts (so without the stream) reloads the pages
    // it shows, and a reloaded team page has the verdict in the row.
    for page in ["/team", "/scoreboard"] {
        let body = ana.get(page).body;
        assert!(
            body.contains(r#"<noscript><meta http-equiv="refresh" content="30"></noscript>"#),
            "{page} does not refresh without scripts: {body}"
        );
    }
    let team = ana.get("/team").body;
    assert!(
        team.contains(&format!(r#"data-submission="{id}" data-verdict="WA""#)),
        "{team}"
    );
    // The scoreboard listeners hear of it too.
    let mut public = server.client();
    let board = public.get("/scoreboard/table");
    assert!(
        board.body.contains("data-contestant=\"ana\""),
        "{}",
        board.body
    );
}

fn cell<'a>(html: &'a str, team: &str) -> &'a str {
    let row = html
        .find(&format!("data-contestant=\"{team}\""))
        .unwrap_or_else(|| panic!("no row for {team}: {html}"));
    let rest = &html[row..];
    let cell = rest.find("data-problem=\"toy\"").expect("toy cell");
    let start = rest[..cell].rfind("<td").expect("cell start");
    let end = rest[cell..].find("</td>").expect("cell end") + cell;
    &rest[start..end]
}

/// ICPC before the freeze: everyone sees every result, penalty included.
#[test]
fn icpc_scoreboard_before_the_freeze_shows_every_result() {
    let (_p, server, pw) = toy_contest("start: now-10m\nduration: 5h\nfreeze: 1h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let wa = Client::submitted_id(&ana.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    let ok = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(wa).0, "WA");
    assert_eq!(ana.verdict(ok).0, "AC");
    let mut public = server.client();
    let board = public.get("/scoreboard");
    assert_eq!(board.status, 200);
    assert!(!board.body.contains("id=\"frozen\""), "not frozen yet");
    let c = cell(&board.body, "ana");
    assert!(c.contains("solved first") && c.contains("+1"), "{c}");
    // 10 minutes in, one rejected try: 10 + 20.
    assert!(board.body.contains("<td>30</td>"), "{}", board.body);
    assert!(cell(&board.body, "ben").contains("untried"));
}

/// The scoreboard's table is kept between requests and drawn again when a
/// verdict changes the board: after each verdict the public page, its live
/// table and the jury's show the new result, never the one before.
#[test]
fn the_scoreboard_shown_follows_every_verdict() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut judy = signed(&server, &pw, "judy");
    let mut public = server.client();
    let mut look = |expect: &[&str]| {
        // Twice each: the second is the table kept from the first.
        for _ in 0..2 {
            for (jury, path) in [
                (false, "/scoreboard/table"),
                (false, "/scoreboard"),
                (true, "/jury/scoreboard/table"),
                (true, "/jury/scoreboard"),
            ] {
                let page = if jury {
                    judy.get(path)
                } else {
                    public.get(path)
                };
                assert_eq!(page.status, 200, "{path}: {}", page.body);
                let c = cell(&page.body, "ana");
                for e in expect {
                    assert!(c.contains(e), "{path} shows {c}, not {e}");
                }
            }
        }
    };
    look(&["untried"]);
    let wa = Client::submitted_id(&ana.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    assert_eq!(ana.verdict(wa).0, "WA");
    look(&["failed", "-1"]);
    let ok = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(ok).0, "AC");
    look(&["solved", "+1"]);
}

/// ICPC during the freeze: the public and the teams see later results as
/// pending, the jury sees them; unfreezing shows them to everyone.
#[test]
fn icpc_scoreboard_during_the_freeze_hides_later_results_until_unfrozen() {
    let (_p, server, pw) = toy_contest("start: now-4h30m\nduration: 5h\nfreeze: 1h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let ok = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(ok).0, "AC");
    let mut public = server.client();
    let board = public.get("/scoreboard");
    assert!(board.body.contains("id=\"frozen\""), "{}", board.body);
    let c = cell(&board.body, "ana");
    assert!(c.contains("pending") && c.contains("?1"), "{c}");
    let team_view = ana.get("/scoreboard/table");
    assert!(
        cell(&team_view.body, "ana").contains("pending"),
        "teams see the frozen board"
    );
    let mut judy = signed(&server, &pw, "judy");
    let truth = judy.get("/jury/scoreboard");
    assert!(
        cell(&truth.body, "ana").contains("solved"),
        "{}",
        truth.body
    );
    // A team cannot unfreeze; the jury can.
    let csrf = ana.csrf("/team");
    assert_eq!(
        ana.post("/jury/freeze", &[("csrf", &csrf), ("action", "unfreeze")])
            .status,
        403
    );
    let csrf = judy.csrf("/jury/scoreboard");
    let r = judy.post("/jury/freeze", &[("csrf", &csrf), ("action", "unfreeze")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let board = public.get("/scoreboard");
    assert!(!board.body.contains("id=\"frozen\""));
    assert!(
        cell(&board.body, "ana").contains("solved"),
        "{}",
        board.body
    );
}

/// IOI: each team's best score per problem, ranked by the sum; during the
/// freeze later scores are pending for the public.
#[test]
fn ioi_scoreboard_sums_best_scores_and_freezes() {
    let (_p, server, pw) = toy_contest(
        "scoring: ioi\nstart: now-4h30m\nduration: 5h\nfreeze: 1h\n",
        PEOPLE,
    );
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let a = Client::submitted_id(&ana.submit("toy", "half.py", HALF_PY.as_bytes()));
    let b = Client::submitted_id(&ben.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(a), ("WA".to_string(), 40.0));
    assert_eq!(ben.verdict(b), ("AC".to_string(), 100.0));
    let mut judy = signed(&server, &pw, "judy");
    let truth = judy.get("/jury/scoreboard/table").body;
    assert!(
        cell(&truth, "ana").contains("40") && cell(&truth, "ana").contains("partial"),
        "{truth}"
    );
    assert!(cell(&truth, "ben").contains("full"), "{truth}");
    let rank = |html: &str, team: &str| -> String {
        let at = html
            .find(&format!("data-contestant=\"{team}\" data-rank=\""))
            .expect("row");
        html[at..]
            .split("data-rank=\"")
            .nth(1)
            .expect("rank")
            .split('"')
            .next()
            .expect("rank")
            .to_string()
    };
    assert_eq!(rank(&truth, "ben"), "1");
    assert_eq!(rank(&truth, "ana"), "2");
    let public = server.client().get("/scoreboard/table").body;
    assert!(cell(&public, "ana").contains("pending"), "{public}");
    let json = judy.get("/jury/scoreboard.json");
    let v: serde_json::Value = serde_json::from_str(&json.body).expect("scoreboard.json");
    assert_eq!(v["scoring"], "ioi");
    assert_eq!(v["rows"][0]["contestant"], "ben");
}

/// The jury rejudges a submission: a second judging is made and becomes
/// the one that counts; one judging only is valid.
#[test]
fn a_rejudge_makes_a_new_judging_that_counts() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(id).0, "AC");
    let mut judy = signed(&server, &pw, "judy");
    let page = judy.get(&format!("/jury/submissions/{id}"));
    let csrf = csrf_of(&page.body).expect("token");
    let r = judy.post(
        "/jury/rejudge",
        &[("csrf", &csrf), ("submission", &id.to_string())],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let deadline = std::time::Instant::now() + DEADLINE;
    loop {
        let (finished, valid): (i64, i64) = server
            .sql()
            .query_row(
                "SELECT COUNT(*), SUM(valid) FROM judgings WHERE submission_id = ?1 AND finished_ms IS NOT NULL",
                [id],
                |r| Ok((r.get(0)?, r.get::<_, Option<i64>>(1)?.unwrap_or(0))),
            )
            .expect("count");
        if finished == 2 {
            assert_eq!(valid, 1);
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the rejudge did not finish"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let newest: i64 = server
        .sql()
        .query_row(
            "SELECT MAX(id) FROM judgings WHERE submission_id = ?1",
            [id],
            |r| r.get(0),
        )
        .expect("newest");
    let valid: i64 = server
        .sql()
        .query_row(
            "SELECT id FROM judgings WHERE submission_id = ?1 AND valid = 1",
            [id],
            |r| r.get(0),
        )
        .expect("valid");
    assert_eq!(valid, newest, "the rejudge counts");
    let report = judy.get(&format!("/jury/submissions/{id}/report"));
    assert_eq!(report.status, 200);
    assert!(
        report.body.contains("Tests: 4 of 4 passed"),
        "{}",
        report.body
    );
    // A team cannot rejudge.
    let csrf = ana.csrf("/team");
    assert_eq!(
        ana.post(
            "/jury/rejudge",
            &[("csrf", &csrf), ("submission", &id.to_string())]
        )
        .status,
        403
    );
}

/// The number of finished and of valid judgings of a submission.
fn judgings(server: &Server, id: i64) -> (i64, i64) {
    server
        .sql()
        .query_row(
            "SELECT COUNT(*), COALESCE(SUM(valid), 0) FROM judgings WHERE submission_id = ?1 AND finished_ms IS NOT NULL",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("count")
}

/// Rejudging a problem judges every submission of it once more; each then
/// has two finished judgings, one of which counts.
#[test]
fn rejudging_a_problem_judges_each_of_its_submissions_again() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let ids = [
        Client::submitted_id(&ana.submit("toy", "wa.c", TOY_WA_C.as_bytes())),
        Client::submitted_id(&ben.submit("toy", "ok.c", TOY_C.as_bytes())),
    ];
    assert_eq!(ana.verdict(ids[0]).0, "WA");
    assert_eq!(ben.verdict(ids[1]).0, "AC");
    let mut judy = signed(&server, &pw, "judy");
    let csrf = judy.csrf("/jury");
    let r = judy.post("/jury/rejudge", &[("csrf", &csrf), ("problem", "toy")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let deadline = std::time::Instant::now() + DEADLINE;
    for id in ids {
        loop {
            let (finished, valid) = judgings(&server, id);
            if finished == 2 {
                assert_eq!(valid, 1, "submission {id}");
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "submission {id} was not judged again"
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    }
    assert_eq!(ana.verdict(ids[0]).0, "WA");
    assert_eq!(ben.verdict(ids[1]).0, "AC");
    // Neither a problem nor a submission: nothing to rejudge.
    let r = judy.post("/jury/rejudge", &[("csrf", &csrf), ("problem", "nosuch")]);
    assert_eq!(r.status, 400, "{}", r.body);
}

/// `grundy serve accounts` prints one-time passwords and writes a sheet
/// of slips; a new password for a login ends the sessions of the old one.
#[test]
fn accounts_get_slips_and_a_new_password_ends_old_sessions() {
    let (p, server, pw) = toy_contest("", PEOPLE);
    let sheet = std::fs::read_to_string(p.path("contest-passwords.html")).expect("the sheet");
    for (login, password) in &pw {
        assert!(
            sheet.contains(login.as_str()) && sheet.contains(password.as_str()),
            "{login} is on the sheet"
        );
    }
    let hashes: Vec<String> = {
        let c = server.sql();
        let mut st = c
            .prepare("SELECT password_hash FROM accounts WHERE login != 'admin'")
            .expect("accounts");
        st.query_map([], |r| r.get(0))
            .expect("rows")
            .map(|r| r.expect("row"))
            .collect()
    };
    assert_eq!(hashes.len(), pw.len());
    for h in &hashes {
        assert!(h.starts_with("$argon2id$"), "stored as argon2id: {h}");
        assert!(pw.values().all(|p| !h.contains(p.as_str())));
    }
    let mut ana = signed(&server, &pw, "ana");
    assert_eq!(ana.get("/team").status, 200);
    let again = accounts(&p, "login\nana\n");
    assert_ne!(again["ana"], pw["ana"]);
    assert_eq!(ana.get("/team").status, 303, "the old session is over");
    assert_eq!(server.client().login("ana", &pw["ana"]), 401);
    assert_eq!(server.client().login("ana", &again["ana"]), 303);
}

/// A team asks, the jury answers that team; an announcement reaches all.
#[test]
fn clarifications_go_from_a_team_to_the_jury_and_back() {
    let (_p, server, pw) = toy_contest("", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let mut judy = signed(&server, &pw, "judy");
    let csrf = ana.csrf("/clarifications");
    let r = ana.post(
        "/clarifications",
        &[
            ("csrf", &csrf),
            ("problem", "toy"),
            ("text", "Is 0 a pile size?"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let page = judy.get("/jury/clarifications");
    assert!(page.body.contains("Is 0 a pile size?"));
    let question: i64 = server
        .sql()
        .query_row("SELECT id FROM clarifications", [], |r| r.get(0))
        .expect("stored");
    let csrf = csrf_of(&page.body).expect("token");
    let r = judy.post(
        "/jury/clarifications",
        &[
            ("csrf", &csrf),
            ("reply_to", &question.to_string()),
            ("to", "ana"),
            ("problem", "toy"),
            ("text", "No: every pile holds at least one stone."),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    assert!(
        ana.get("/clarifications")
            .body
            .contains("at least one stone")
    );
    assert!(
        !ben.get("/clarifications")
            .body
            .contains("at least one stone")
    );
    assert!(
        !ben.get("/clarifications")
            .body
            .contains("Is 0 a pile size?")
    );
    let r = judy.post(
        "/jury/clarifications",
        &[
            ("csrf", &csrf),
            ("to_all", "1"),
            ("text", "The contest ends at noon."),
        ],
    );
    assert_eq!(r.status, 303);
    assert!(ben.get("/clarifications").body.contains("ends at noon"));
    // An answer to a question or a team that does not exist is refused
    // with the reason, and nothing is stored.
    let stored = |server: &Server| -> i64 {
        server
            .sql()
            .query_row("SELECT COUNT(*) FROM clarifications", [], |r| r.get(0))
            .expect("count")
    };
    let before = stored(&server);
    for (field, value, says) in [
        ("reply_to", "-9223372036854775808", "no clarification"),
        ("reply_to", "99999", "no clarification 99999"),
        ("to", "nobody", "no account `nobody`"),
    ] {
        let r = judy.post(
            "/jury/clarifications",
            &[("csrf", &csrf), (field, value), ("text", "An answer.")],
        );
        assert_eq!(r.status, 400, "{field}={value}: {}", r.body);
        assert!(r.body.contains(says), "{field}={value}: {}", r.body);
    }
    assert_eq!(stored(&server), before);
}

/// A class: past a refusing deadline a submission is refused (403); with a
/// late penalty it is taken, marked late, and its score reduced in the
/// gradebook, which is `grade`'s CSV.
#[test]
fn homework_deadlines_refuse_or_reduce_late_work() {
    let p = Project::toy("");
    p.write(
        "problems/toy2/problem.yaml",
        &common::TOY_SPEC.replace("id: toy", "id: toy2"),
    );
    p.write("problems/toy2/statement.md", "# Toy 2\n");
    p.write("reference/toy2.c", TOY_C);
    let (server, pw) = serve_contest(
        &p,
        "title: Class\nproblems: [{id: toy, deadline: now-1m}, {id: toy2, deadline: now+1h}]\n\
         students: [ana, ben]\nhomework: {count: best, late: refuse}\n",
        CLASS,
        &[],
    );
    let mut ana = signed(&server, &pw, "ana");
    let late = ana.submit("toy", "ok.c", TOY_C.as_bytes());
    assert_eq!(late.status, 403);
    assert!(late.body.contains("deadline"), "{}", late.body);
    let ok = Client::submitted_id(&ana.submit("toy2", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(ok).0, "AC");
    drop(server);

    let q = Project::toy("");
    let (server, pw) = serve_contest(
        &q,
        "title: Class\nproblems: [{id: toy, deadline: now-1m}]\nstudents: [ana, ben]\n\
         homework: {count: best, late: 50%}\n",
        CLASS,
        &[],
    );
    let mut ana = signed(&server, &pw, "ana");
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(id).0, "AC");
    assert!(ana.get("/team").body.contains("late"));
    let mut teacher = signed(&server, &pw, "t");
    let csv = teacher.get("/jury/grades.csv");
    assert_eq!(csv.status, 200);
    assert_eq!(csv.body, "student,toy,total\nana,50,50\nben,,0\n");
    let report = teacher.get("/jury/report.json");
    let v: serde_json::Value = serde_json::from_str(&report.body).expect("report.json");
    assert_eq!(v["results"][0]["student"], "ana");
    assert_eq!(v["results"][0]["score"], 50.0);
    // No public scoreboard in a class.
    assert_eq!(server.client().get("/scoreboard").status, 403);
}

/// A class may count each student's last submission rather than the best,
/// and accept late work in full: the gradebook follows.
#[test]
fn a_class_can_count_the_last_submission_and_take_late_work_in_full() {
    let p = Project::toy("");
    let (server, pw) = serve_contest(
        &p,
        "title: Class\nproblems: [{id: toy, deadline: now-1m}]\nstudents: [ana, ben]\n\
         homework: {count: last, late: accept}\n",
        CLASS,
        &[],
    );
    let mut ana = signed(&server, &pw, "ana");
    let best = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(best), ("AC".to_string(), 100.0));
    let last = Client::submitted_id(&ana.submit("toy", "half.py", HALF_PY.as_bytes()));
    assert_eq!(ana.verdict(last), ("WA".to_string(), 40.0));
    assert!(ana.get("/team").body.contains("late"));
    let mut teacher = signed(&server, &pw, "t");
    let csv = teacher.get("/jury/grades.csv");
    assert_eq!(csv.body, "student,toy,total\nana,40,40\nben,,0\n");
}

/// `grundy serve --demo` starts a contest on catalog problems and prints
/// its URL and every account's password; a demo team plays the interactive
/// problem, loses, and is shown the game it lost (`feedback: first-fail`).
#[test]
fn the_demo_serves_catalog_problems_to_its_accounts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let server = Server::demo(dir.path());
    let password = |who: &str| -> String {
        server
            .said
            .iter()
            .find_map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                (f.get(1) == Some(&who) && f.get(2) == Some(&"password")).then(|| f[3].to_string())
            })
            .unwrap_or_else(|| panic!("no password for {who}: {:?}", server.said))
    };
    let mut jury = server.client();
    assert_eq!(jury.login("jury", &password("jury")), 303);
    assert_eq!(server.client().login("admin", &password("admin")), 303);
    let mut team = server.client();
    assert_eq!(team.login("team1", &password("team1")), 303);
    let home = team.get("/team");
    for title in ["nim", "misere-nim", "nim-play"] {
        assert!(
            home.body.contains(&format!("/problems/{title}")),
            "{title}: {}",
            home.body
        );
    }
    let statement = team.get("/problems/nim-play");
    assert_eq!(statement.status, 200);
    assert!(statement.body.contains("Interaction"), "{}", statement.body);
    let id = Client::submitted_id(&team.submit("nim-play", "lose.py", LOSER_PY.as_bytes()));
    assert_eq!(team.verdict(id).0, "WA");
    let page = team.get(&format!("/submissions/{id}"));
    for shown in ["First failing test", "the game you lost", "id=\"replay\""] {
        assert!(page.body.contains(shown), "{shown}: {}", page.body);
    }
    let board = server.client().get("/scoreboard");
    assert!(board.body.contains("The Grundy Numbers"), "{}", board.body);
}

/// Plays every game of nim-play by taking one stone from the first pile
/// that has any: legal, and soon lost.
const LOSER_PY: &str = r#"import sys
def words():
    for line in sys.stdin:
        yield from line.split()
w = words()
t = int(next(w))
for _ in range(t):
    n = int(next(w))
    if n < 0:
        sys.exit(0)
    a = [int(next(w)) for _ in range(n)]
    print('first', flush=True)
    while True:
        i = next(k for k in range(n) if a[k] > 0)
        a[i] -= 1
        print(i + 1, a[i], flush=True)
        if sum(a) == 0:
            break
        j = int(next(w))
        if j < 0:
            sys.exit(0)
        a[j - 1] = int(next(w))
        if sum(a) == 0:
            break
"#;

/// A broken contest file stops `serve` with exit 2, naming the file, the
/// line and the column.
#[test]
fn a_broken_contest_file_is_exit_2_with_its_place() {
    let p = Project::toy("");
    let file = p.write("contest.yaml", "problems: [toy]\nduration: 5 hours\n");
    let out = p.grundy(&["serve", &file.to_string_lossy(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(
        err.contains("contest.yaml:2:11") && err.contains("5 hours"),
        "{err}"
    );
    let file = p.write("contest.yaml", "problems: [toy, nosuch]\n");
    let out = p.grundy(&["serve", &file.to_string_lossy(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        common::stderr(&out).contains("nosuch"),
        "{}",
        common::stderr(&out)
    );
}

/// A problem may be a folder beside the contest file: a grundy spec of
/// one's own or an ICPC package; the id it is given must be its own.
#[test]
fn problems_may_be_own_specs_and_icpc_packages_beside_the_contest_file() {
    let p = Project::toy("");
    p.write(
        "cup/own/toy2/problem.yaml",
        &common::TOY_SPEC.replace("id: toy", "id: toy2"),
    );
    p.write("cup/reference/toy2.c", TOY_C);
    inc_package(&p, "cup/packages/inc");
    let (server, mut ana) = cup(
        &p,
        "problems: [toy, {path: own/toy2}, {id: inc, path: packages/inc, label: I}]\nteams: [ana]\n",
    );
    let home = ana.get("/team");
    assert!(home.body.contains("Increment"), "{}", home.body);
    // Python 3 runs as a package's tools run it on the package alone; the
    // list names the interpreter of grundy's own problems.
    let python = package_python();
    assert!(
        home.body.contains(&format!("Problem I runs {python}."))
            && home
                .body
                .contains(r#"<option value="python">Python 3</option>"#),
        "{}",
        home.body
    );
    for (problem, name, text) in [
        ("toy2", "ok.c", TOY_C),
        ("inc", "inc.c", common::INC_C),
        ("inc", "wa.c", TOY_WA_C),
    ] {
        let id = Client::submitted_id(&ana.submit(problem, name, text.as_bytes()));
        let want = if name == "wa.c" { "WA" } else { "AC" };
        assert_eq!(ana.verdict(id).0, want, "{problem} {name}");
    }
    drop(server);
    let wrong = p.write(
        "cup/wrong.yaml",
        "problems: [{id: plus-one, path: packages/inc}]\nteams: [ana]\n",
    );
    let out = p.grundy(&["serve", &wrong.to_string_lossy(), "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = common::stderr(&out);
    assert!(
        err.contains("wrong.yaml") && err.contains("id: inc"),
        "{err}"
    );
}

/// An ICPC package at `at` (in `p`): Increment, two secret tests.
fn inc_package(p: &Project, at: &str) {
    p.write(
        &format!("{at}/problem.yaml"),
        "problem_format_version: 2025-09\nname: Increment\nuuid: 1c2d\nlimits: {time_limit: 2}\n",
    );
    for (name, text) in [
        ("1.in", "1\n"),
        ("1.ans", "2\n"),
        ("2.in", "41\n"),
        ("2.ans", "42\n"),
    ] {
        p.write(&format!("{at}/data/secret/{name}"), text);
    }
}

/// `cup/contest.yaml` holding `yaml`, served from `cup/contest.sqlite`,
/// with ana signed in.
fn cup(p: &Project, yaml: &str) -> (Server, Client) {
    let contest = p.write("cup/contest.yaml", yaml);
    let db = p.path("cup/contest.sqlite");
    let server = Server::start_file(&p.path("problems"), &contest, &db, 1);
    let pw = accounts_in(&contest, &p.write("people.csv", "login\nana\n"), &db);
    let ana = signed(&server, &pw, "ana");
    (server, ana)
}

/// The name of Python 3 as a package runs it here.
fn package_python() -> &'static str {
    let pypy = std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|d| d.join("pypy3").is_file());
    assert!(
        pypy || std::env::var("CI").as_deref() != Ok("true"),
        "CI=true but no pypy3 on PATH: `bash .ci/setup.sh` installs it (Debian's pypy3)"
    );
    if pypy {
        "Python 3 (PyPy)"
    } else {
        "Python 3 (CPython: no pypy3 here)"
    }
}

/// A contest of packages alone lists Python 3 under the interpreter that
/// runs it, on the page and in the Contest API, with no note per problem.
#[test]
fn a_contest_of_packages_names_the_python_that_runs_them() {
    let p = Project::toy("");
    inc_package(&p, "cup/inc");
    let (_server, mut ana) = cup(
        &p,
        "problems: [{id: inc, path: inc, label: I}]\nteams: [ana]\n",
    );
    let home = ana.get("/team");
    let python = package_python();
    assert!(
        home.body
            .contains(&format!(r#"<option value="python">{python}</option>"#))
            && !home.body.contains("Problem I runs"),
        "{}",
        home.body
    );
    let api = ana.get("/api/contests/contest/languages");
    assert_eq!(api.status, 200, "{}", api.body);
    let langs: serde_json::Value = serde_json::from_str(&api.body).expect("JSON");
    let names: Vec<_> = langs
        .as_array()
        .expect("a list")
        .iter()
        .filter(|l| l["id"] == "python")
        .map(|l| l["name"].clone())
        .collect();
    assert_eq!(names, [python]);
}

/// A server restarted keeps its contest: the start resolved from `now` is
/// the same, and so are the submissions.
#[test]
fn a_restart_keeps_the_clock_and_the_submissions() {
    let (_p, mut server, pw) = toy_contest("start: now-1h\nduration: 5h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(id).0, "AC");
    let start = |s: &Server| -> String {
        s.sql()
            .query_row(
                "SELECT value FROM settings WHERE key = 'time:start'",
                [],
                |r| r.get(0),
            )
            .expect("start")
    };
    let before = start(&server);
    assert_eq!(server.stop(), Some(0), "SIGTERM stops it cleanly");
    let server = server.restart();
    assert_eq!(start(&server), before);
    let mut ana = signed(&server, &pw, "ana");
    assert_eq!(ana.verdict(id).0, "AC");
}

/// Under ICPC scoring a submission is judged up to its first failing test
/// (its verdict is that test's; what follows cannot change it), where IOI
/// scoring judges every group for its points: the same wrong program gets
/// the same verdict from both, with no run after its first failure in the
/// ICPC contest and runs of later groups in the IOI one.
#[test]
fn icpc_judging_stops_at_the_first_failing_test() {
    let mut runs = Vec::new();
    for scoring in ["icpc", "ioi"] {
        let p = Project::toy("");
        let server = Server::start(&p, &contest_yaml(&format!("scoring: {scoring}\n")), 1);
        let pw = accounts(&p, PEOPLE);
        let mut ana = signed(&server, &pw, "ana");
        let id = Client::submitted_id(&ana.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
        assert_eq!(ana.verdict(id).0, "WA", "{scoring}");
        let verdicts: Vec<String> = server
            .sql()
            .prepare(
                "SELECT r.verdict FROM runs r JOIN judgings j ON j.id = r.judging_id
                 WHERE j.submission_id = ?1 AND j.valid = 1 ORDER BY r.ordinal",
            )
            .expect("a query")
            .query_map([id], |r| r.get(0))
            .expect("the runs")
            .collect::<Result<_, _>>()
            .expect("the runs");
        let first = verdicts
            .iter()
            .position(|v| v != "AC")
            .unwrap_or_else(|| panic!("{scoring}: a failing run in {verdicts:?}"));
        runs.push((first, verdicts.len()));
    }
    let ((icpc_first, icpc_runs), (ioi_first, ioi_runs)) = (runs[0], runs[1]);
    assert_eq!(icpc_first, ioi_first, "the same first failure");
    assert_eq!(
        icpc_runs,
        icpc_first + 1,
        "ICPC: nothing after the first failure"
    );
    assert!(
        ioi_runs > ioi_first + 1,
        "IOI: later groups are judged ({ioi_runs} runs)"
    );
}
