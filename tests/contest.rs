//! `grundy contest`: submissions from a CSV log or from file times, judged
//! for real, ranked ICPC- and IOI-style.

mod batch_support;

use std::path::Path;

use batch_support::*;

/// Files under `dir/subs/` and a log of who sent what when.
fn contest_files(dir: &Path) {
    for (name, t) in [
        ("ana-xor-1.c", "ce.c"),
        ("ana-xor-2.c", "wa.c"),
        ("ana-xor-3.c", "xor_ok.c"),
        ("ana-sum-1.py", "sum_ok.py"),
        ("ben-xor-1.py", "xor_ok.py"),
        ("ben-sum-1.c", "tle.c"),
        ("ben-sum-2.c", "sum_ok.c"),
        ("cy-sum-1.c", "sum_ok.c"),
        ("dee-xor-1.c", "xor_half.c"),
        ("eve-xor-1.c", "xor_ok.c"),
        ("late-sum.c", "sum_ok.c"),
    ] {
        write(&dir.join("subs").join(name), &template(t));
    }
    write(
        &dir.join("log.csv"),
        "time,contestant,problem,file\n\
         0:10,ana,xor,subs/ana-xor-1.c\n\
         0:12,ana,xor,subs/ana-xor-2.c\n\
         0:30,ana,xor,subs/ana-xor-3.c\n\
         20,ana,sum,subs/ana-sum-1.py\n\
         0:05,ben,xor,subs/ben-xor-1.py\n\
         0:40,ben,sum,subs/ben-sum-1.c\n\
         1:00,ben,sum,subs/ben-sum-2.c\n\
         0:15:30,cy,sum,subs/cy-sum-1.c\n\
         0:50,dee,xor,subs/dee-xor-1.c\n\
         0:20,eve,xor,subs/eve-xor-1.c\n\
         6:00,cy,xor,subs/late-sum.c\n",
    );
}

fn contest_yaml(scoring: &str) -> String {
    format!(
        "title: Nim Cup <2025>\nscoring: {scoring}\nduration: 5h\nproblems: [xor, {{id: sum, label: B}}]\n\
         contestants: [ana, ben, {{id: cy, name: Cy Young}}, dee]\nlog: log.csv\n"
    )
}

fn standings(out: &Path) -> serde_json::Value {
    serde_json::from_slice(&std::fs::read(out.join("scoreboard.json")).expect("scoreboard.json"))
        .expect("JSON")
}

#[test]
fn icpc_ranks_by_solved_then_penalty_and_compile_errors_are_free() {
    let t = tempfile::tempdir().expect("tempdir");
    contest_files(t.path());
    write(&t.path().join("contest.yaml"), &contest_yaml("icpc"));
    let out_dir = t.path().join("out");
    let out = run_contest(t.path(), &out_dir, &[]);
    let stdout = text(&out.stdout);
    // Rejected tries and a late submission: 1, as docs/reference.md says.
    assert_eq!(
        out.status.code(),
        Some(1),
        "stdout:\n{stdout}\nstderr:\n{}",
        text(&out.stderr)
    );
    let s = standings(&out_dir);
    let rows: Vec<(String, u64, u64, u64)> = s["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["contestant"].as_str().unwrap_or("").to_string(),
                r["rank"].as_u64().unwrap_or(0),
                r["solved"].as_u64().unwrap_or(0),
                r["penalty"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    // ana: xor at 30 + 20 for the WA (the CE is free), sum at 20 → 70.
    // ben: xor at 5, sum at 60 + 20 for the TLE → 85. cy: sum at 15.
    let expected = [
        ("ana", 1, 2, 70),
        ("ben", 2, 2, 85),
        ("cy", 3, 1, 15),
        ("dee", 4, 0, 0),
    ];
    let got: Vec<(&str, u64, u64, u64)> = rows
        .iter()
        .map(|(c, r, s, p)| (c.as_str(), *r, *s, *p))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(
        s["rows"][1]["cells"][0]["first"], true,
        "ben solved xor first"
    );
    // report.json: the full result of every counted submission, in
    // submission order, matching submissions.json.
    let read = |name: &str| -> serde_json::Value {
        serde_json::from_slice(&std::fs::read(out_dir.join(name)).expect(name)).expect("JSON")
    };
    let (report, subs) = (read("report.json"), read("submissions.json"));
    let results = report["results"].as_array().expect("results");
    let counted = subs["submissions"].as_array().expect("submissions");
    assert_eq!(results.len(), counted.len());
    for (r, c) in results.iter().zip(counted) {
        assert_eq!(r["student"], c["contestant"]);
        assert_eq!(r["problem"], c["problem"]);
        assert_eq!(r["time"], c["time"]);
        assert_eq!(r["verdict"], c["verdict"]);
        assert!(r["compile"].is_object(), "{r}");
    }
    let ben_tle = results
        .iter()
        .find(|r| r["student"] == "ben" && r["verdict"] == "TLE")
        .expect("ben's TLE");
    assert!(
        ben_tle["tests"]
            .as_array()
            .is_some_and(|t| t.iter().any(|t| t["verdict"] == "TLE")),
        "the tests are in the report: {ben_tle}"
    );
    assert_eq!(
        s["rows"][2]["cells"][1]["first"], true,
        "cy solved sum first"
    );
    // The terminal table, in rank order.
    let order: Vec<usize> = ["ana", "ben", "Cy Young", "dee"]
        .iter()
        .map(|n| {
            stdout
                .find(&format!("  {n}"))
                .unwrap_or_else(|| panic!("{n} missing:\n{stdout}"))
        })
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{stdout}");
    assert!(
        stdout.contains("+1 30"),
        "ana's xor: one counted rejection, solved at 30:\n{stdout}"
    );
    // eve is not a contestant, and the last submission came after the end.
    let subs: serde_json::Value = serde_json::from_slice(
        &std::fs::read(out_dir.join("submissions.json")).expect("submissions"),
    )
    .expect("JSON");
    let not_counted: Vec<&str> = subs["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter_map(|i| i["message"].as_str())
        .collect();
    assert!(
        not_counted
            .iter()
            .any(|m| m.contains("`eve` is not a contestant")),
        "{not_counted:?}"
    );
    assert!(
        not_counted.iter().any(|m| m.contains("after the end")),
        "{not_counted:?}"
    );
    assert_eq!(subs["submissions"].as_array().map(Vec::len), Some(9));
    let html = std::fs::read_to_string(out_dir.join("scoreboard.html")).expect("html");
    assert!(html.contains("Nim Cup &lt;2025&gt;"), "title escaped");
    // The first solve of each problem is marked, and a legend says so.
    let cells_with_mark: Vec<(&str, &str)> = html
        .split("<tr class=\"row\"")
        .skip(1)
        .flat_map(|row| {
            let who = row
                .split("data-contestant=\"")
                .nth(1)
                .and_then(|r| r.split('"').next())
                .unwrap_or("?");
            row.split("<td class=\"")
                .skip(1)
                .filter(|cell| cell.contains("first-mark"))
                .map(move |cell| (who, cell.split('"').next().unwrap_or("?")))
        })
        .collect();
    assert_eq!(
        cells_with_mark,
        [("ben", "solved first"), ("cy", "solved first")],
        "{html}"
    );
    let legend = html
        .split("<p class=\"legend\" id=\"legend\">")
        .nth(1)
        .and_then(|l| l.split("</p>").next())
        .unwrap_or_else(|| panic!("no legend:\n{html}"));
    assert!(
        legend.contains("<i class=\"solved first\">+\u{2605}</i>first to solve the problem"),
        "{legend}"
    );
    assert!(stdout.contains("* first to solve the problem"), "{stdout}");
    assert!(
        stdout
            .lines()
            .any(|l| l.contains("  ben") && l.contains("+ 5*")),
        "ben's first solve of xor marked:\n{stdout}"
    );

    // Running again with --resume judges nothing and ranks the same.
    let again = run_contest(t.path(), &out_dir, &["--resume"]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    assert_eq!(standings(&out_dir), s);
}

#[test]
fn ioi_sums_the_best_score_of_each_problem() {
    let t = tempfile::tempdir().expect("tempdir");
    contest_files(t.path());
    write(&t.path().join("contest.yaml"), &contest_yaml("ioi"));
    let out_dir = t.path().join("out");
    let out = run_contest(t.path(), &out_dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let s = standings(&out_dir);
    let got: Vec<(String, u64, f64)> = s["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| {
            (
                r["contestant"].as_str().unwrap_or("").to_string(),
                r["rank"].as_u64().unwrap_or(0),
                r["total"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    let expected = [
        ("ana".to_string(), 1, 200.0),
        ("ben".to_string(), 1, 200.0),
        ("cy".to_string(), 3, 100.0),
        ("dee".to_string(), 4, 50.0),
    ];
    assert_eq!(got, expected);
}

#[test]
fn times_from_the_files_in_a_folder() {
    let t = tempfile::tempdir().expect("tempdir");
    let start = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_740_823_200);
    let put = |rel: &str, tpl: &str, minutes: u64| {
        let p = t.path().join("subs").join(rel);
        write(&p, &template(tpl));
        let f = std::fs::File::options().write(true).open(&p).expect("open");
        f.set_modified(start + std::time::Duration::from_secs(minutes * 60))
            .expect("mtime");
    };
    put("ana/xor.c", "xor_ok.c", 42);
    put("ben/xor/first.c", "wa.c", 3);
    put("ben/xor/second.py", "xor_ok.py", 7);
    write(
        &t.path().join("contest.yaml"),
        "title: Files\nstart: 2025-03-01T10:00:00Z\nproblems: [xor]\nsubmissions: subs\n",
    );
    let out_dir = t.path().join("out");
    let out = run_contest(t.path(), &out_dir, &[]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let s = standings(&out_dir);
    assert_eq!(s["rows"][0]["contestant"], "ben");
    assert_eq!(s["rows"][0]["penalty"], 27, "7 minutes + 20 for the WA");
    assert_eq!(s["rows"][1]["contestant"], "ana");
    assert_eq!(s["rows"][1]["penalty"], 42);
    assert!(
        text(&out.stderr).contains("modification times") && text(&out.stderr).contains("duration"),
        "no warning about file times without a duration: {}",
        text(&out.stderr)
    );
    // With a duration the times are bounded: no warning.
    write(
        &t.path().join("contest.yaml"),
        "title: Files\nstart: 2025-03-01T10:00:00Z\nduration: 5h\nproblems: [xor]\nsubmissions: subs\n",
    );
    let timed = run_contest(t.path(), &t.path().join("o1"), &[]);
    assert_eq!(timed.status.code(), Some(1), "{}", text(&timed.stderr));
    assert!(!text(&timed.stderr).contains("modification times"));

    // Clock times need the start.
    write(
        &t.path().join("contest.yaml"),
        "problems: [xor]\nsubmissions: subs\n",
    );
    let bad = run_contest(t.path(), &t.path().join("o2"), &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr).contains("start:"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn a_contest_where_everything_is_accepted_exits_0() {
    let t = tempfile::tempdir().expect("tempdir");
    write(&t.path().join("subs/ana-xor.c"), &template("xor_ok.c"));
    write(&t.path().join("subs/ben-sum.py"), &template("sum_ok.py"));
    write(
        &t.path().join("log.csv"),
        "time,contestant,problem,file\n0:10,ana,xor,subs/ana-xor.c\n0:20,ben,sum,subs/ben-sum.py\n",
    );
    write(
        &t.path().join("contest.yaml"),
        "title: All good\nproblems: [xor, sum]\nlog: log.csv\n",
    );
    let out = run_contest(t.path(), &t.path().join("out"), &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let s = standings(&t.path().join("out"));
    assert_eq!(s["rows"].as_array().map(Vec::len), Some(2));
    // A contest speaks of contestants, and counts them right.
    let said = text(&out.stderr);
    assert!(
        said.contains("grundy: judging 2 submissions (")
            && said.contains(" of 2 contestants on 2 problems,"),
        "{said}"
    );
    assert!(!said.contains("student"), "{said}");
}
