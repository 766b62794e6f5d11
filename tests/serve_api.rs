//! The ICPC Contest API of `grundy serve`, read as the field's tools read
//! it: HTTP basic authentication, every endpoint's JSON checked against
//! the schemas in tests/fixtures/contest-api/schemas.json, and the event
//! feed replayed from nothing into the same objects and scoreboard the
//! endpoints give.

mod common;
mod serve_support;

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use serde_json::{Value, json};

use common::{Project, TOY_C};
use serve_support::*;

const PEOPLE: &str = "login,name,role\nana,Ana,team\nben,Ben,team\ncy,Cy,team\njudy,Judy,jury\n";

/// The contest's id: its file is `contest.yaml`.
const CID: &str = "contest";

fn schemas() -> Value {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures/contest-api/schemas.json"),
    )
    .expect("the schemas");
    serde_json::from_str(&text).expect("the schemas are JSON")
}

/// Checks `v` against the schema `name`; panics with every error.
fn check(name: &str, v: &Value) {
    let mut root = schemas();
    root["$ref"] = json!(format!("#/$defs/{name}"));
    let validator = jsonschema::validator_for(&root).expect("the schemas compile");
    let errors: Vec<String> = validator
        .iter_errors(v)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{name}: {errors:?}\n{v:#}");
}

/// The schemas refuse what the specification does: a missing property, a
/// property it does not name, a time in another format.
#[test]
fn the_schemas_refuse_objects_the_specification_refuses() {
    let ok = json!({"id": "1", "judgement_id": "2", "ordinal": 1, "judgement_type_id": "AC",
        "time": "2026-01-01T10:00:00.000Z", "contest_time": "0:10:00.000", "run_time": 0.5});
    check("run", &ok);
    let root = |name: &str| {
        let mut r = schemas();
        r["$ref"] = json!(format!("#/$defs/{name}"));
        jsonschema::validator_for(&r).expect("the schemas compile")
    };
    let run = root("run");
    for bad in [
        {
            let mut b = ok.clone();
            b.as_object_mut().expect("object").remove("judgement_id");
            b
        },
        {
            let mut b = ok.clone();
            b["extra"] = json!(1);
            b
        },
        {
            let mut b = ok.clone();
            b["time"] = json!("10:00");
            b
        },
        {
            let mut b = ok.clone();
            b["judgement_type_id"] = json!("XYZ");
            b
        },
    ] {
        assert!(!run.is_valid(&bad), "{bad}");
    }
    let row = root("scoreboard-row");
    assert!(
        !row.is_valid(
            &json!({"rank": 1, "team_id": "a", "score": {"num_solved": 1, "total_time": 3},
        "problems": [{"problem_id": "p", "num_judged": 1, "num_pending": 0, "solved": true}]})
        ),
        "a solved problem has a time"
    );
}

/// A client of the API: basic authentication or none.
struct Api {
    base: String,
    auth: Option<String>,
    agent: ureq::Agent,
}

impl Api {
    fn new(server: &Server, who: Option<(&str, &str)>) -> Api {
        Api {
            base: server.url.trim_end_matches('/').to_string(),
            auth: who.map(|(l, p)| {
                format!(
                    "Basic {}",
                    base64::engine::general_purpose::STANDARD.encode(format!("{l}:{p}"))
                )
            }),
            agent: ureq::Agent::config_builder()
                .http_status_as_error(false)
                .timeout_global(Some(DEADLINE))
                .build()
                .into(),
        }
    }

    fn raw(&self, path: &str) -> (u16, Vec<(String, String)>, Vec<u8>) {
        let mut req = self.agent.get(&format!("{}{path}", self.base));
        if let Some(a) = &self.auth {
            req = req.header("Authorization", a);
        }
        let res = req.call().expect("GET");
        let status = res.status().as_u16();
        let headers = res
            .headers()
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_str().unwrap_or_default().to_string()))
            .collect();
        let mut body = Vec::new();
        std::io::Read::read_to_end(&mut res.into_body().into_reader(), &mut body).expect("body");
        (status, headers, body)
    }

    fn get(&self, path: &str) -> (u16, Value) {
        let (status, _, body) = self.raw(path);
        let v = serde_json::from_slice(&body).unwrap_or_else(|e| {
            panic!("{path}: not JSON ({e}): {}", String::from_utf8_lossy(&body))
        });
        (status, v)
    }

    fn ok(&self, path: &str) -> Value {
        let (status, v) = self.get(path);
        assert_eq!(status, 200, "{path}: {v}");
        v
    }

    /// The whole feed as it stands (`stream=false`), one event a line.
    fn feed(&self, query: &str) -> Vec<Value> {
        let (status, headers, body) = self.raw(&format!(
            "/api/contests/{CID}/event-feed?stream=false{query}"
        ));
        assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
        assert!(
            headers
                .iter()
                .any(|(k, v)| k.eq_ignore_ascii_case("content-type")
                    && v.starts_with("application/x-ndjson")),
            "{headers:?}"
        );
        String::from_utf8(body)
            .expect("UTF-8")
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
            .collect()
    }

    /// The streamed feed: its lines arrive on the channel.
    fn stream(&self) -> mpsc::Receiver<String> {
        let mut req = self
            .agent
            .get(&format!("{}/api/contests/{CID}/event-feed", self.base));
        if let Some(a) = &self.auth {
            req = req.header("Authorization", a);
        }
        let res = req.call().expect("GET event-feed");
        assert_eq!(res.status().as_u16(), 200);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let reader = BufReader::new(res.into_body().into_reader());
            for line in reader.lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        rx
    }
}

/// The collections a contest's feed replays into, and their schemas.
const COLLECTIONS: &[(&str, &str)] = &[
    ("judgement-types", "judgement-type"),
    ("languages", "language"),
    ("problems", "problem"),
    ("groups", "group"),
    ("teams", "team"),
    ("submissions", "submission"),
    ("judgements", "judgement"),
    ("runs", "run"),
    ("clarifications", "clarification"),
    ("awards", "award"),
];

/// The feed replayed: per type, per id, the last data (singletons under "").
fn replay(events: &[Value]) -> BTreeMap<String, BTreeMap<String, Value>> {
    let mut out: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
    for e in events {
        check("event", e);
        let kind = e["type"].as_str().expect("type").to_string();
        let id = e["id"].as_str().unwrap_or_default().to_string();
        let objects = out.entry(kind).or_default();
        if e["data"].is_null() {
            objects.remove(&id);
        } else {
            objects.insert(id, e["data"].clone());
        }
    }
    out
}

/// Seconds of a contest time `h:mm:ss.sss`.
fn secs(t: &str) -> i64 {
    let parts: Vec<f64> = t
        .split(':')
        .map(|p| p.parse::<f64>().expect("a number"))
        .collect();
    (parts[0] * 3600.0 + parts[1] * 60.0 + parts[2]).floor() as i64
}

/// The ICPC scoreboard of replayed objects, computed here from the
/// specification's rules (penalty per rejected try before the first
/// solve; judgement types without penalty cost nothing): per team, its
/// rank, solved count, total time and per problem (judged, pending,
/// solved, minute).
fn icpc_board(r: &BTreeMap<String, BTreeMap<String, Value>>) -> Value {
    let penalty_time = r["contest"][""]["penalty_time"]
        .as_i64()
        .expect("penalty time");
    let types = &r["judgement-types"];
    let empty = BTreeMap::new();
    let judgements = r.get("judgements").unwrap_or(&empty);
    let submissions = r.get("submissions").unwrap_or(&empty);
    let mut problems: Vec<&Value> = r["problems"].values().collect();
    problems.sort_by_key(|p| p["ordinal"].as_i64());
    // The judgement that counts: the last finished one of the submission.
    let verdict_of = |sid: &str| -> Option<String> {
        judgements
            .values()
            .filter(|j| j["submission_id"] == sid && j["judgement_type_id"].is_string())
            .max_by_key(|j| j["id"].as_str().and_then(|i| i.parse::<i64>().ok()))
            .map(|j| j["judgement_type_id"].as_str().expect("type").to_string())
    };
    let mut rows = Vec::new();
    for team in r["teams"].keys() {
        let (mut solved, mut total, mut last) = (0, 0, 0);
        let mut cells = Vec::new();
        for p in &problems {
            let pid = p["id"].as_str().expect("id");
            let mut mine: Vec<&Value> = submissions
                .values()
                .filter(|s| s["team_id"] == team.as_str() && s["problem_id"] == pid)
                .collect();
            mine.sort_by_key(|s| {
                (
                    secs(s["contest_time"].as_str().expect("time")),
                    s["id"].as_str().and_then(|i| i.parse::<i64>().ok()),
                )
            });
            let (mut judged, mut pending, mut tries, mut minute) = (0, 0, 0, None);
            for s in mine {
                match verdict_of(s["id"].as_str().expect("id")) {
                    None => pending += 1,
                    Some(_) if minute.is_some() => {}
                    Some(v) => {
                        judged += 1;
                        let t = &types[&v];
                        if t["solved"] == true {
                            let sec = secs(s["contest_time"].as_str().expect("time"));
                            minute = Some(sec / 60);
                            last = last.max(sec);
                        } else if t["penalty"] == true {
                            tries += 1;
                        }
                    }
                }
            }
            if let Some(m) = minute {
                solved += 1;
                total += m + penalty_time * tries;
            }
            cells.push(json!({"problem_id": pid, "num_judged": judged, "num_pending": pending, "solved": minute.is_some(), "time": minute}));
        }
        rows.push((team.clone(), solved, total, last, cells));
    }
    let key = |r: &(String, i64, i64, i64, Vec<Value>)| (-r.1, r.2, r.3);
    let mut out = BTreeMap::new();
    for r in &rows {
        let rank = 1 + rows.iter().filter(|o| key(o) < key(r)).count();
        out.insert(
            r.0.clone(),
            json!({"rank": rank, "num_solved": r.1, "total_time": r.2, "problems": r.4}),
        );
    }
    json!(out)
}

/// The endpoint's scoreboard in the same terms as [`icpc_board`].
fn icpc_rows(board: &Value) -> Value {
    let mut out = BTreeMap::new();
    for row in board["rows"].as_array().expect("rows") {
        let problems: Vec<Value> = row["problems"]
            .as_array()
            .expect("problems")
            .iter()
            .map(|p| json!({"problem_id": p["problem_id"], "num_judged": p["num_judged"], "num_pending": p["num_pending"], "solved": p["solved"], "time": p["time"]}))
            .collect();
        out.insert(
            row["team_id"].as_str().expect("team").to_string(),
            json!({"rank": row["rank"], "num_solved": row["score"]["num_solved"], "total_time": row["score"]["total_time"], "problems": problems}),
        );
    }
    json!(out)
}

/// Every endpoint the client may read, checked against its schema; the
/// collections by id.
fn endpoints(api: &Api) -> BTreeMap<String, BTreeMap<String, Value>> {
    check("api-info", &api.ok("/api"));
    let contests = api.ok("/api/contests");
    check("contests", &contests);
    assert_eq!(contests[0]["id"], CID);
    let mut out = BTreeMap::new();
    let contest = api.ok(&format!("/api/contests/{CID}"));
    check("contest", &contest);
    out.insert(
        "contest".to_string(),
        BTreeMap::from([(String::new(), contest)]),
    );
    check("state", &api.ok(&format!("/api/contests/{CID}/state")));
    check("access", &api.ok(&format!("/api/contests/{CID}/access")));
    check(
        "scoreboard",
        &api.ok(&format!("/api/contests/{CID}/scoreboard")),
    );
    let v = api.ok(&format!("/api/contests/{CID}/organizations"));
    assert_eq!(v, json!([]), "organizations");
    for (kind, schema) in COLLECTIONS {
        let list = api.ok(&format!("/api/contests/{CID}/{kind}"));
        let mut by_id = BTreeMap::new();
        for o in list.as_array().expect("an array") {
            check(schema, o);
            let id = o["id"].as_str().expect("id").to_string();
            // Each object alone is the same object.
            let alone = api.ok(&format!("/api/contests/{CID}/{kind}/{id}"));
            assert_eq!(&alone, o, "{kind}/{id}");
            by_id.insert(id, o.clone());
        }
        out.insert(kind.to_string(), by_id);
    }
    out
}

/// What the feed rebuilt is what the endpoints give (awards and state,
/// computed, are left aside).
fn same_objects(
    replayed: &BTreeMap<String, BTreeMap<String, Value>>,
    read: &BTreeMap<String, BTreeMap<String, Value>>,
) {
    for (kind, _) in COLLECTIONS.iter().filter(|(k, _)| *k != "awards") {
        let empty = BTreeMap::new();
        assert_eq!(
            replayed.get(*kind).unwrap_or(&empty),
            read.get(*kind).unwrap_or(&empty),
            "{kind}: the feed and the endpoint differ"
        );
    }
    assert_eq!(replayed["contest"], read["contest"]);
}

/// The jury's download in the Contest Archive format: each endpoint's
/// file follows its schema and is what the endpoint gives; the feed in it
/// replays into the same objects and scoreboard; every source is there.
fn archive_matches(admin: &Api, read: &BTreeMap<String, BTreeMap<String, Value>>, board: &Value) {
    let (status, _, body) = admin.raw("/jury/archive.zip");
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&body));
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(body)).expect("a zip archive");
    let mut files = BTreeMap::new();
    for i in 0..zip.len() {
        let mut f = zip.by_index(i).expect("a file");
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut f, &mut bytes).expect("bytes");
        let name = f
            .name()
            .expect("a name")
            .strip_prefix(&format!("{CID}/"))
            .expect("under the contest's folder")
            .to_string();
        files.insert(name, bytes);
    }
    let json = |name: &str| -> Value {
        serde_json::from_slice(
            files
                .get(name)
                .unwrap_or_else(|| panic!("{name} in the archive")),
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    check("api-info", &json("api.json"));
    check("contest", &json("contest.json"));
    check("state", &json("state.json"));
    check("scoreboard", &json("scoreboard.json"));
    assert_eq!(json("scoreboard.json")["rows"], board["rows"]);
    let mut from_files = BTreeMap::new();
    from_files.insert(
        "contest".to_string(),
        BTreeMap::from([(String::new(), json("contest.json"))]),
    );
    for (kind, schema) in COLLECTIONS {
        let mut by_id = BTreeMap::new();
        for o in json(&format!("{kind}.json")).as_array().expect("an array") {
            check(schema, o);
            by_id.insert(o["id"].as_str().expect("id").to_string(), o.clone());
        }
        assert_eq!(Some(&by_id), read.get(*kind), "{kind}.json");
        from_files.insert(kind.to_string(), by_id);
    }
    let feed: Vec<Value> = String::from_utf8(files["event-feed.ndjson"].clone())
        .expect("UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    let replayed = replay(&feed);
    same_objects(&replayed, &from_files);
    assert_eq!(icpc_board(&replayed), icpc_rows(board));
    for id in read["submissions"].keys() {
        let zipped = files
            .get(&format!("submissions/{id}/files.zip"))
            .unwrap_or_else(|| panic!("submission {id}'s files"));
        let z = zip::ZipArchive::new(std::io::Cursor::new(zipped.clone())).expect("a zip");
        assert_eq!(z.len(), 1);
    }
}

/// Every endpoint's JSON follows the specification's shapes, for the
/// jury, a team and the public; the feed replayed from nothing gives the
/// same objects and the same scoreboard as the endpoints.
#[test]
fn every_endpoint_follows_the_schemas_and_the_feed_rebuilds_the_scoreboard() {
    let (_p, server, pw) = toy_contest("start: now-10m\nduration: 5h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let mut cy = signed(&server, &pw, "cy");
    let a1 = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    let b1 = Client::submitted_id(&ben.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    let c1 = Client::submitted_id(&cy.submit("toy", "ce.c", TOY_CE_C.as_bytes()));
    assert_eq!(ana.verdict(a1).0, "AC");
    assert_eq!(ben.verdict(b1).0, "WA");
    assert_eq!(cy.verdict(c1).0, "CE");
    let b2 = Client::submitted_id(&ben.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ben.verdict(b2).0, "AC");
    let csrf = ana.csrf("/clarifications");
    let r = ana.post(
        "/clarifications",
        &[
            ("csrf", &csrf),
            ("problem", "toy"),
            ("text", "Is 0 a pile?"),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);
    let mut judy = signed(&server, &pw, "judy");
    let page = judy.get("/jury/clarifications");
    let csrf = csrf_of(&page.body).expect("token");
    let r = judy.post(
        "/jury/clarifications",
        &[
            ("csrf", &csrf),
            ("to_all", "1"),
            ("problem", "toy"),
            ("text", "Piles are never empty."),
        ],
    );
    assert_eq!(r.status, 303, "{}", r.body);

    let admin = Api::new(&server, Some(("judy", &pw["judy"])));
    let read = endpoints(&admin);
    assert_eq!(read["submissions"].len(), 4);
    assert_eq!(read["judgements"].len(), 4);
    assert!(!read["runs"].is_empty(), "each test's result is a run");
    assert_eq!(read["clarifications"].len(), 2);
    let feed = admin.feed("");
    let replayed = replay(&feed);
    same_objects(&replayed, &read);
    let board = admin.ok(&format!("/api/contests/{CID}/scoreboard"));
    assert_eq!(icpc_board(&replayed), icpc_rows(&board));
    // ben: solved at his second try, one penalty of 20 minutes.
    let rows = icpc_rows(&board);
    assert_eq!(rows["ben"]["num_solved"], 1);
    assert!(rows["ben"]["total_time"].as_i64().expect("time") >= 20);
    assert_eq!(rows["ben"]["problems"][0]["num_judged"], 2);
    assert_eq!(
        rows["cy"]["problems"][0]["num_judged"], 1,
        "a compile error is judged"
    );
    assert_eq!(rows["cy"]["num_solved"], 0);
    // First to solve: ana, and ben too when his AC came in the same
    // second of the contest (the scoreboard's resolution).
    let second = |id: i64| {
        secs(
            read["submissions"][&id.to_string()]["contest_time"]
                .as_str()
                .expect("contest_time"),
        )
    };
    let firsts = if second(b2) == second(a1) {
        json!(["ana", "ben"])
    } else {
        json!(["ana"])
    };
    let awards = admin.ok(&format!("/api/contests/{CID}/awards/first-to-solve-toy"));
    assert_eq!(awards["team_ids"], firsts);

    // Reconnecting after a token sends what came after it, no less.
    let tokens: Vec<&Value> = feed.iter().filter(|e| e["token"].is_string()).collect();
    let middle = tokens[tokens.len() / 2]["token"].as_str().expect("token");
    let later = admin.feed(&format!("&since_token={middle}"));
    let after: Vec<&Value> = feed
        .iter()
        .filter(|e| {
            e["token"].as_str().is_some_and(|t| {
                t.parse::<i64>().expect("a number") > middle.parse::<i64>().expect("a number")
            })
        })
        .collect();
    for e in &after {
        assert!(later.contains(e), "missing after the token: {e}");
    }
    assert!(!later.iter().any(|e| e["token"] == middle));

    // The contest archive holds the same endpoints and feed.
    archive_matches(&admin, &read, &board);

    // A team and the public read the same shapes, and their feeds rebuild
    // what they may read.
    for who in [Some(("ana", pw["ana"].as_str())), None] {
        let api = Api::new(&server, who);
        let read = endpoints(&api);
        let replayed = replay(&api.feed(""));
        same_objects(&replayed, &read);
        let board = api.ok(&format!("/api/contests/{CID}/scoreboard"));
        assert_eq!(icpc_board(&replayed), icpc_rows(&board), "{who:?}");
        let asked = read["clarifications"]
            .values()
            .any(|c| c["text"] == "Is 0 a pile?");
        assert_eq!(
            asked,
            who.is_some(),
            "a question is its team's and the jury's"
        );
        assert!(
            read["clarifications"]
                .values()
                .any(|c| c["text"] == "Piles are never empty.")
        );
    }
}

/// While the scoreboard is frozen the public and the other teams get no
/// judgement or run of a later submission, in the endpoints or the feed;
/// the team sees its own, the jury all; an open feed sends the held
/// results when the organiser unfreezes.
#[test]
fn frozen_results_are_withheld_until_the_organiser_unfreezes() {
    let (_p, server, pw) = toy_contest("start: now-4h30m\nduration: 5h\nfreeze: 1h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let a1 = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(a1).0, "AC");
    let public = Api::new(&server, None);
    let ben = Api::new(&server, Some(("ben", &pw["ben"])));
    let ana_api = Api::new(&server, Some(("ana", &pw["ana"])));
    let jury = Api::new(&server, Some(("judy", &pw["judy"])));
    let stream = public.stream();
    for api in [&public, &ben] {
        let judgements = api.ok(&format!("/api/contests/{CID}/judgements"));
        assert_eq!(judgements, json!([]));
        assert_eq!(api.ok(&format!("/api/contests/{CID}/runs")), json!([]));
        let feed = api.feed("");
        assert!(
            !feed
                .iter()
                .any(|e| e["type"] == "judgements" || e["type"] == "runs"),
            "{feed:?}"
        );
        let board = api.ok(&format!("/api/contests/{CID}/scoreboard"));
        check("scoreboard", &board);
        assert!(board["state"]["frozen"].is_string());
        let rows = icpc_rows(&board);
        assert_eq!(rows["ana"]["num_solved"], 0);
        assert_eq!(rows["ana"]["problems"][0]["num_pending"], 1);
        assert_eq!(icpc_board(&replay(&feed)), rows);
    }
    assert_eq!(
        ana_api
            .ok(&format!("/api/contests/{CID}/judgements"))
            .as_array()
            .map(Vec::len),
        Some(1)
    );
    let truth = icpc_rows(&jury.ok(&format!("/api/contests/{CID}/scoreboard")));
    assert_eq!(truth["ana"]["num_solved"], 1);

    let mut judy = signed(&server, &pw, "judy");
    let csrf = judy.csrf("/jury/scoreboard");
    let r = judy.post("/jury/freeze", &[("csrf", &csrf), ("action", "unfreeze")]);
    assert_eq!(r.status, 303, "{}", r.body);
    // The open feed now sends the held judgement, and a thawed state.
    let deadline = Instant::now() + DEADLINE;
    let (mut judged, mut thawed) = (false, false);
    while !(judged && thawed) {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = stream
            .recv_timeout(left.max(Duration::from_millis(1)))
            .expect("the feed sends the held results in time");
        if line.trim().is_empty() {
            continue;
        }
        let e: Value = serde_json::from_str(&line).expect("JSON");
        check("event", &e);
        judged |= e["type"] == "judgements" && e["data"]["judgement_type_id"] == "AC";
        thawed |= e["type"] == "state" && e["data"]["thawed"].is_string();
    }
    let rows = icpc_rows(&public.ok(&format!("/api/contests/{CID}/scoreboard")));
    assert_eq!(rows["ana"]["num_solved"], 1);
    assert_eq!(icpc_board(&replay(&public.feed(""))), rows);
}

/// The awards by id, as `api` reads them (each checked against the schema).
fn awards_of(api: &Api) -> BTreeMap<String, Value> {
    let list = api.ok(&format!("/api/contests/{CID}/awards"));
    list.as_array()
        .expect("an array")
        .iter()
        .map(|a| {
            check("award", a);
            (
                a["id"].as_str().expect("id").to_string(),
                a["team_ids"].clone(),
            )
        })
        .collect()
}

/// Medals by rank in the numbers the contest file gives, each group's
/// best team, and the groups themselves; the public does not see who won
/// while the scoreboard is frozen, and does once it is unfrozen.
#[test]
fn medals_and_group_winners_follow_the_ranks_and_wait_for_the_thaw() {
    let p = Project::toy("");
    let contest = "title: Toy Cup\nproblems: [toy]\n\
        teams: [{id: ana, group: north}, {id: ben, group: south}, {id: cy, group: north}]\n\
        medals: {gold: 1, silver: 1, bronze: 0}\n\
        start: now-10m\nduration: 5h\nfreeze: 5h\n";
    let (server, pw) = serve_contest(&p, contest, PEOPLE, &[]);
    let mut ana = signed(&server, &pw, "ana");
    let mut ben = signed(&server, &pw, "ben");
    let mut cy = signed(&server, &pw, "cy");
    // ana solves first; ben after a wrong try (20 more minutes); cy fails.
    let a1 = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ana.verdict(a1).0, "AC");
    let b1 = Client::submitted_id(&ben.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    assert_eq!(ben.verdict(b1).0, "WA");
    let b2 = Client::submitted_id(&ben.submit("toy", "ok.c", TOY_C.as_bytes()));
    assert_eq!(ben.verdict(b2).0, "AC");
    let c1 = Client::submitted_id(&cy.submit("toy", "wa.c", TOY_WA_C.as_bytes()));
    assert_eq!(cy.verdict(c1).0, "WA");

    let jury = Api::new(&server, Some(("judy", &pw["judy"])));
    let read = endpoints(&jury);
    assert_eq!(
        read["groups"].keys().collect::<Vec<_>>(),
        ["north", "south"],
        "{:?}",
        read["groups"]
    );
    assert_eq!(read["teams"]["cy"]["group_ids"], json!(["north"]));
    same_objects(&replay(&jury.feed("")), &read);
    let truth = awards_of(&jury);
    assert_eq!(truth["winner"], json!(["ana"]));
    assert_eq!(truth["gold-medal"], json!(["ana"]));
    assert_eq!(truth["silver-medal"], json!(["ben"]));
    assert_eq!(truth["bronze-medal"], json!([]));
    assert_eq!(truth["group-winner-north"], json!(["ana"]));
    assert_eq!(truth["group-winner-south"], json!(["ben"]));
    assert!(truth.contains_key("first-to-solve-toy"), "{truth:?}");

    // Frozen: the public and the teams are not told who won.
    let public = Api::new(&server, None);
    let team = Api::new(&server, Some(("cy", &pw["cy"])));
    for api in [&public, &team] {
        let seen = awards_of(api);
        for hidden in ["winner", "gold-medal", "silver-medal", "group-winner-north"] {
            assert!(
                !seen.contains_key(hidden),
                "{hidden} while frozen: {seen:?}"
            );
        }
        assert!(awards_of(api).contains_key("first-to-solve-toy"));
    }

    let mut judy = signed(&server, &pw, "judy");
    let csrf = judy.csrf("/jury/scoreboard");
    let r = judy.post("/jury/freeze", &[("csrf", &csrf), ("action", "unfreeze")]);
    assert_eq!(r.status, 303, "{}", r.body);
    assert_eq!(awards_of(&public), truth);
}

/// Who may read what: sources for the jury and their team only; a wrong
/// password, an unknown contest or token are refused with a status and
/// a JSON reason.
#[test]
fn sources_and_refusals_follow_the_access_rules() {
    let (_p, server, pw) = toy_contest("start: now-10m\nduration: 5h\n", PEOPLE);
    let mut ana = signed(&server, &pw, "ana");
    let a1 = Client::submitted_id(&ana.submit("toy", "ok.c", TOY_C.as_bytes()));
    let files = format!("/api/contests/{CID}/submissions/{a1}/files");
    for who in [("ana", pw["ana"].as_str()), ("judy", pw["judy"].as_str())] {
        let (status, headers, body) = Api::new(&server, Some(who)).raw(&files);
        assert_eq!(status, 200, "{who:?}");
        assert!(
            headers
                .iter()
                .any(|(k, v)| k.eq_ignore_ascii_case("content-type") && v == "application/zip")
        );
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(body)).expect("a zip archive");
        assert_eq!(zip.len(), 1);
        let mut f = zip.by_index(0).expect("its file");
        assert_eq!(f.name().expect("a name"), "ok.c");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut f, &mut text).expect("text");
        assert_eq!(text, TOY_C);
    }
    let (status, ..) = Api::new(&server, Some(("ben", &pw["ben"]))).raw(&files);
    assert_eq!(status, 403, "another team's source");
    let (status, ..) = Api::new(&server, None).raw(&files);
    assert_eq!(status, 403, "the public");
    for who in [Some(("ana", pw["ana"].as_str())), None] {
        let (status, ..) = Api::new(&server, who).raw("/jury/archive.zip");
        assert_eq!(status, 403, "the archive is the jury's: {who:?}");
    }
    // The cookie of the pages works as well as a password.
    let page = ana.get(&files);
    assert_eq!(page.status, 200);

    let (status, headers, body) = Api::new(&server, Some(("ana", "not her password")))
        .raw(&format!("/api/contests/{CID}/teams"));
    assert_eq!(status, 401);
    assert!(
        headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("www-authenticate"))
    );
    let v: Value = serde_json::from_slice(&body).expect("a JSON reason");
    assert!(
        v["message"].as_str().is_some_and(|m| m.contains("ana")),
        "{v}"
    );
    let public = Api::new(&server, None);
    let (status, v) = public.get("/api/contests/other/teams");
    assert_eq!(status, 404);
    assert!(
        v["message"].as_str().is_some_and(|m| m.contains(CID)),
        "{v}"
    );
    let (status, v) = public.get(&format!("/api/contests/{CID}/event-feed?since_token=99999"));
    assert_eq!(status, 400, "{v}");
    let (status, v) = public.get(&format!("/api/contests/{CID}/event-feed?since_token=abc"));
    assert_eq!(status, 400, "{v}");
    let (status, _) = public.get(&format!("/api/contests/{CID}/nothing"));
    assert_eq!(status, 404);
}

/// Before the start the problems are the jury's: the public's endpoint
/// and feed have none.
#[test]
fn problems_are_hidden_before_the_start() {
    let (_p, server, pw) = toy_contest("start: now+2h\nduration: 5h\n", PEOPLE);
    let public = Api::new(&server, None);
    assert_eq!(
        public.ok(&format!("/api/contests/{CID}/problems")),
        json!([])
    );
    assert!(!public.feed("").iter().any(|e| e["type"] == "problems"));
    let state = public.ok(&format!("/api/contests/{CID}/state"));
    assert!(state["started"].is_null(), "{state}");
    let jury = Api::new(&server, Some(("judy", &pw["judy"])));
    let problems = jury.ok(&format!("/api/contests/{CID}/problems"));
    check("problem", &problems[0]);
    assert_eq!(problems[0]["id"], "toy");
    assert!(
        problems[0]["test_data_count"]
            .as_i64()
            .is_some_and(|n| n > 0)
    );
}

/// Once the contest has ended, the jury finalizes the results; with the
/// scoreboard thawed the updates end: the state says so and an open event
/// feed ends after it.
#[test]
fn finalized_and_thawed_the_feed_ends() {
    let (_p, server, pw) = toy_contest("start: now-6h\nduration: 5h\nfreeze: 1h\n", PEOPLE);
    let public = Api::new(&server, None);
    let stream = public.stream();
    let mut judy = signed(&server, &pw, "judy");
    let csrf = judy.csrf("/jury/scoreboard");
    let r = judy.post("/jury/freeze", &[("csrf", &csrf), ("action", "finalize")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let state = public.ok(&format!("/api/contests/{CID}/state"));
    assert!(state["finalized"].is_string(), "{state}");
    assert!(state["end_of_updates"].is_null(), "frozen still: {state}");
    let r = judy.post("/jury/freeze", &[("csrf", &csrf), ("action", "unfreeze")]);
    assert_eq!(r.status, 303, "{}", r.body);
    let state = public.ok(&format!("/api/contests/{CID}/state"));
    assert!(state["end_of_updates"].is_string(), "{state}");
    // The open feed sends the last state and ends.
    let deadline = Instant::now() + DEADLINE;
    let mut last_state = Value::Null;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match stream.recv_timeout(left.max(Duration::from_millis(1))) {
            Ok(line) if line.trim().is_empty() => {}
            Ok(line) => {
                let e: Value = serde_json::from_str(&line).expect("JSON");
                check("event", &e);
                if e["type"] == "state" {
                    last_state = e["data"].clone();
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => panic!("the feed did not end"),
        }
    }
    assert!(last_state["end_of_updates"].is_string(), "{last_state}");
    assert!(last_state["finalized"].is_string(), "{last_state}");
}
