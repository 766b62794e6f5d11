//! `grundy serve`'s database under stress: the server killed with
//! `kill -9` while 50 submissions are being judged (after a restart each
//! has exactly one finished judging, those cut short are marked abandoned,
//! and the database is intact); a write held open while pages are read.

mod common;
mod serve_support;

use std::time::{Duration, Instant};

use common::{Project, TOY_C};
use serve_support::*;

/// A correct toy solution that first spins for a while, so that judgings
/// are under way when the server is killed; `n` makes each file distinct.
fn slow(n: usize) -> String {
    format!(
        "#include <stdio.h>\n#include <time.h>\n/* {n} */\nint main(void) {{\n  clock_t t = clock();\n  while (clock() - t < CLOCKS_PER_SEC / 50) {{}}\n  int k, a, x = 0;\n  if (scanf(\"%d\", &k) != 1) return 1;\n  while (k-- > 0 && scanf(\"%d\", &a) == 1) x ^= a;\n  puts(x ? \"Alice\" : \"Bob\");\n  return 0;\n}}\n"
    )
}

fn count(server: &Server, sql: &str) -> i64 {
    server.sql().query_row(sql, [], |r| r.get(0)).expect(sql)
}

#[test]
fn a_killed_server_judges_each_submission_exactly_once_after_restart() {
    let p = Project::toy("");
    let mut server = Server::start(&p, &contest_yaml(""), 2);
    let pw = accounts(&p, "login,name,role\nana,Ana,team\n");
    let mut ana = server.client();
    assert_eq!(ana.login("ana", &pw["ana"]), 303);
    let csrf = ana.csrf("/team");
    let mut ids = Vec::new();
    for n in 0..50 {
        let a = ana.submit_with(
            &csrf,
            &[("problem", "toy")],
            Some(("slow.c", slow(n).as_bytes())),
        );
        ids.push(Client::submitted_id(&a));
    }
    // Kill it once some judgings are finished and others under way.
    let deadline = Instant::now() + DEADLINE;
    loop {
        let finished = count(
            &server,
            "SELECT COUNT(*) FROM judgings WHERE finished_ms IS NOT NULL",
        );
        let running = count(
            &server,
            "SELECT COUNT(*) FROM judgings WHERE finished_ms IS NULL AND aborted = 0",
        );
        if finished >= 1 && running >= 1 {
            break;
        }
        assert!(Instant::now() < deadline, "no judging under way in time");
        std::thread::sleep(Duration::from_millis(20));
    }
    server.kill();
    let cut = count(
        &server,
        "SELECT COUNT(*) FROM judgings WHERE finished_ms IS NULL AND aborted = 0",
    );
    assert!(cut >= 1, "the kill came while judging");
    let server = server.restart();
    let mut ana = server.client();
    assert_eq!(ana.login("ana", &pw["ana"]), 303);
    for id in &ids {
        assert_eq!(ana.verdict(*id).0, "AC", "submission {id}");
    }
    let c = server.sql();
    let mut st = c
        .prepare(
            "SELECT s.id, (SELECT COUNT(*) FROM judgings j WHERE j.submission_id = s.id AND j.finished_ms IS NOT NULL),
                    (SELECT COUNT(*) FROM judgings j WHERE j.submission_id = s.id AND j.valid = 1)
             FROM submissions s ORDER BY s.id",
        )
        .expect("query");
    let rows: Vec<(i64, i64, i64)> = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("rows")
        .map(|r| r.expect("row"))
        .collect();
    assert_eq!(rows.len(), 50);
    for (id, finished, valid) in rows {
        assert_eq!((finished, valid), (1, 1), "submission {id}");
    }
    let aborted = count(&server, "SELECT COUNT(*) FROM judgings WHERE aborted = 1");
    assert!(
        aborted >= cut,
        "the judgings cut short are marked abandoned"
    );
    let open = count(&server, "SELECT COUNT(*) FROM jobs WHERE state != 'done'");
    assert_eq!(open, 0);
    let check: String = c
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .expect("integrity_check");
    assert_eq!(check, "ok");
}

/// A write held open (a slow one, or another program's on the contest's
/// file) holds no page up: the pages read the database while it is held,
/// and see what was committed before it.
#[test]
fn pages_are_read_while_a_write_is_held_open() {
    let p = Project::toy("");
    let server = Server::start(&p, &contest_yaml(""), 1);
    let pw = accounts(&p, "login,name,role\nana,Ana,team\n");
    let mut ana = server.client();
    assert_eq!(ana.login("ana", &pw["ana"]), 303);
    let id = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(id).0, "AC");
    let mut public = server.client();
    // Warm: the scoreboard computed and drawn before the write is held
    // (a page that computes it goes the other way; both are asked below).
    assert_eq!(public.get("/scoreboard/table").status, 200);

    let writer = rusqlite::Connection::open(p.path("contest.sqlite")).expect("open the database");
    writer
        .execute_batch("BEGIN IMMEDIATE; INSERT INTO settings (key, value) VALUES ('held', '1');")
        .expect("hold a write open");
    // Each page with what it shows of the submission judged before.
    for (path, shows) in [
        ("/team".to_string(), "AC"),
        (format!("/submissions/{id}"), "AC"),
        (format!("/submissions/{id}/status"), "\"done\":true"),
        (format!("/submissions/{id}/source"), "Alice"),
        ("/clarifications".to_string(), "Clarifications"),
    ] {
        let page = ana.get(&path);
        assert_eq!(
            page.status, 200,
            "{path} while a write is held: {}",
            page.body
        );
        assert!(
            page.body.contains(shows),
            "{path} shows {shows}: {}",
            page.body
        );
    }
    for path in ["/scoreboard/table", "/scoreboard"] {
        let page = public.get(path);
        assert_eq!(
            page.status, 200,
            "{path} while a write is held: {}",
            page.body
        );
        assert!(page.body.contains("solved"), "{path}: {}", page.body);
    }
    // Once it ends, the server writes again (a new session is a write).
    writer.execute_batch("ROLLBACK").expect("end the write");
    let mut again = server.client();
    assert_eq!(again.login("ana", &pw["ana"]), 303);
}
