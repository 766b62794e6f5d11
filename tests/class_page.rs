//! `report.html`'s class page and `report.json`'s `class` object: the score
//! histogram of each problem and, for each wrong-idea (`anti-*`) group, the
//! students who fell to it. A real class of C programs, really judged.

mod common;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// Twice the input; `anti-*` groups catch 32-bit overflow and a forgotten 0.
const SPEC: &str = "id: twice
title: Twice a pile
source: tests
limits: {time: 2s, memory: 64MiB, output: 1MiB}
checker: tokens
groups:
  - name: main
    points: 50
    tests:
      - {input: \"1\\n\", answer: \"2\\n\"}
      - {input: \"2\\n\", answer: \"4\\n\"}
  - name: anti-overflow
    points: 25
    tests:
      - {input: \"3000000000\\n\", answer: \"6000000000\\n\"}
  - name: anti-zero
    points: 25
    tests:
      - {input: \"0\\n\", answer: \"0\\n\"}
";

/// Twice the input, except a wrong number where `bad` holds.
fn program(bad: &str) -> String {
    format!(
        "#include <stdio.h>\nint main(void){{long long n;if(scanf(\"%lld\",&n)!=1)return 1;\
         if({bad})puts(\"7\");else printf(\"%lld\\n\",2*n);return 0;}}\n"
    )
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

#[test]
fn the_class_page_shows_the_histogram_and_the_wrong_ideas() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path();
    write(&dir.join("problems/twice/problem.yaml"), SPEC);
    write(&dir.join("problems/twice/statement.md"), "# Twice\n");
    let class = dir.join("class");
    write(&class.join("ann.c"), &program("0"));
    write(&class.join("ben.c"), &program("n>2000000000"));
    write(&class.join("cy.c"), &program("n==0||n>2000000000"));
    write(&class.join("dee.c"), &program("n==1"));
    write(&class.join("eve.c"), "int main(void){ return x; }\n");
    let out_dir = dir.join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("grade")
        .arg(&class)
        .args(["--problem", "twice", "--jobs", "1", "--out"])
        .arg(&out_dir)
        .arg("--problems")
        .arg(dir.join("problems"))
        .arg("--cache")
        .arg(dir.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");

    // report.json: ann 100, ben 75, cy 50, dee 50, eve 0 (CE).
    let report: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    let p = &report["class"]["problems"][0];
    assert_eq!(p["id"], "twice", "{report:#}");
    assert_eq!(p["judged"], 5);
    let counts: Vec<u64> = p["histogram"]
        .as_array()
        .expect("histogram")
        .iter()
        .map(|b| b["count"].as_u64().expect("count"))
        .collect();
    assert_eq!(counts, [1, 0, 0, 0, 0, 2, 0, 1, 0, 0, 1], "{p:#}");
    assert_eq!(p["histogram"][9]["from"], 90.0);
    assert_eq!(p["histogram"][9]["to"], 100.0);
    // The full scores have a bar of their own, labelled 100.
    assert_eq!(p["histogram"][10]["from"], 100.0);
    assert_eq!(p["histogram"][10]["to"], 100.0);
    let ideas: Vec<(String, u64, Vec<String>)> = p["wrong_ideas"]
        .as_array()
        .expect("wrong_ideas")
        .iter()
        .map(|w| {
            (
                w["group"].as_str().unwrap_or("?").to_string(),
                w["failed"].as_u64().unwrap_or(0),
                w["students"]
                    .as_array()
                    .map(|s| {
                        s.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
            )
        })
        .collect();
    assert_eq!(
        ideas,
        [
            ("anti-overflow".into(), 2, vec!["ben".into(), "cy".into()]),
            ("anti-zero".into(), 1, vec!["cy".into()]),
        ],
        "main is no wrong idea; eve's compile error falls to none: {p:#}"
    );
    assert_eq!(p["wrong_ideas"][0]["idea"], "overflow");

    // report.html: the same figures, drawn.
    let html = std::fs::read_to_string(out_dir.join("report.html")).expect("report.html");
    let page = html
        .split("<section id=\"class\">")
        .nth(1)
        .and_then(|s| s.split("</section>").next())
        .unwrap_or_else(|| panic!("no class page:\n{html}"));
    let svg = page
        .split("<svg class=\"histogram\"")
        .nth(1)
        .and_then(|s| s.split("</svg>").next())
        .unwrap_or_else(|| panic!("no histogram:\n{page}"));
    let bars: Vec<u64> = svg
        .split("<rect class=\"bar\"")
        .skip(1)
        .map(|r| {
            r.split("data-count=\"")
                .nth(1)
                .and_then(|c| c.split('"').next())
                .and_then(|c| c.parse().ok())
                .unwrap_or_else(|| panic!("bar without a count: {r}"))
        })
        .collect();
    assert_eq!(bars, counts, "{svg}");
    // The tallest bar fills the plot; an empty one has no height.
    assert!(
        svg.contains("data-count=\"2\" x=\"180\" y=\"16\" width=\"30\" height=\"120\""),
        "{svg}"
    );
    assert!(
        svg.contains("data-count=\"0\" x=\"44\" y=\"136\" width=\"30\" height=\"0\""),
        "{svg}"
    );
    assert!(
        svg.contains(">100</text>") && svg.contains("<title>100: 1 submission</title>"),
        "the last bar is labelled by what it holds: {svg}"
    );
    assert!(!page.contains("<script"), "no script");
    let row = |group: &str| -> &str {
        page.split(&format!("<tr data-group=\"{group}\""))
            .nth(1)
            .and_then(|r| r.split("</tr>").next())
            .unwrap_or_else(|| panic!("no row for {group}:\n{page}"))
    };
    let overflow = row("anti-overflow");
    assert!(overflow.contains("data-failed=\"2\""), "{overflow}");
    assert!(overflow.contains("2 of 5"), "{overflow}");
    assert!(
        overflow.contains("<a class=\"feedback\" href=\"feedback/ben.txt\">ben</a>")
            && overflow.contains("<a class=\"feedback\" href=\"feedback/cy.txt\">cy</a>"),
        "{overflow}"
    );
    assert!(!overflow.contains(">dee<"), "{overflow}");
    // Each link leads to a file the report wrote.
    assert!(out_dir.join("feedback/ben.txt").is_file());
    let zero = row("anti-zero");
    assert!(
        zero.contains("data-failed=\"1\"") && zero.contains(">cy</a>"),
        "{zero}"
    );
    assert!(!page.contains("data-group=\"main\""), "{page}");
}

/// Crashes (a failed assert), time-outs and memory hogs fail every group,
/// the `anti-*` ones included: they say nothing about the ideas those
/// groups catch, and are counted by verdict instead. A wrong answer in an
/// `anti-*` group still counts.
#[test]
fn crashes_time_outs_and_memory_hogs_are_no_wrong_idea() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path();
    write(&dir.join("problems/twice/problem.yaml"), SPEC);
    write(&dir.join("problems/twice/statement.md"), "# Twice\n");
    let class = dir.join("class");
    write(&class.join("ann.c"), &program("0"));
    write(&class.join("wes.c"), &program("n==0"));
    write(
        &class.join("rex.c"),
        "#include <assert.h>\n#include <stdio.h>\nint main(void){long long n;scanf(\"%lld\",&n);assert(n < 0);return 0;}\n",
    );
    write(
        &class.join("tim.c"),
        "int main(void){volatile unsigned long i=0;for(;;)i++;return 0;}\n",
    );
    write(
        &class.join("meg.c"),
        "#include <stdlib.h>\n#include <string.h>\nint main(void){for(;;){char *p=malloc(1<<24);if(!p)return 3;memset(p,1,1<<24);}}\n",
    );
    let out_dir = dir.join("out");
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .arg("grade")
        .arg(&class)
        .args(["--problem", "twice", "--jobs", "2", "--out"])
        .arg(&out_dir)
        .arg("--problems")
        .arg(dir.join("problems"))
        .arg("--cache")
        .arg(dir.join("cache"))
        .env("NO_COLOR", "1")
        .output()
        .expect("run grundy");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    let report: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    let verdicts: Vec<(String, String)> = report["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            (
                r["student"].as_str().unwrap_or("?").to_string(),
                r["verdict"].as_str().unwrap_or("?").to_string(),
            )
        })
        .collect();
    let expect = |s: &str, v: &str| (s.to_string(), v.to_string());
    assert_eq!(
        verdicts,
        [
            expect("ann", "AC"),
            expect("meg", "MLE"),
            expect("rex", "RE"),
            expect("tim", "TLE"),
            expect("wes", "WA"),
        ],
        "{stderr}"
    );
    let p = &report["class"]["problems"][0];
    let ideas: Vec<(String, Vec<String>)> = p["wrong_ideas"]
        .as_array()
        .expect("wrong_ideas")
        .iter()
        .map(|w| {
            (
                w["group"].as_str().unwrap_or("?").to_string(),
                names(&w["students"]),
            )
        })
        .collect();
    assert_eq!(
        ideas,
        [
            ("anti-overflow".to_string(), vec![]),
            ("anti-zero".to_string(), vec!["wes".to_string()]),
        ],
        "{p:#}"
    );
    let failures: Vec<(String, Vec<String>)> = p["failures"]
        .as_array()
        .expect("failures")
        .iter()
        .map(|f| {
            (
                f["verdict"].as_str().unwrap_or("?").to_string(),
                names(&f["students"]),
            )
        })
        .collect();
    assert_eq!(
        failures,
        [
            ("WA".to_string(), vec!["wes".to_string()]),
            ("TLE".to_string(), vec!["tim".to_string()]),
            ("MLE".to_string(), vec!["meg".to_string()]),
            ("RE".to_string(), vec!["rex".to_string()]),
        ],
        "{p:#}"
    );

    // The page: the wrong ideas' rows name no crash, the verdict rows do.
    let html = std::fs::read_to_string(out_dir.join("report.html")).expect("report.html");
    let page = html
        .split("<section id=\"class\">")
        .nth(1)
        .and_then(|s| s.split("</section>").next())
        .unwrap_or_else(|| panic!("no class page:\n{html}"));
    let ideas_table = page
        .split("<table class=\"wrong-ideas\">")
        .nth(1)
        .and_then(|s| s.split("</table>").next())
        .unwrap_or_else(|| panic!("no wrong ideas:\n{page}"));
    for crashed in ["rex", "tim", "meg"] {
        assert!(
            !ideas_table.contains(&format!(">{crashed}<")),
            "{crashed} under a wrong idea: {ideas_table}"
        );
    }
    assert!(ideas_table.contains(">wes</a>"), "{ideas_table}");
    for (verdict, who) in [("RE", "rex"), ("TLE", "tim"), ("MLE", "meg"), ("WA", "wes")] {
        let row = page
            .split(&format!("<tr data-verdict=\"{verdict}\""))
            .nth(1)
            .and_then(|r| r.split("</tr>").next())
            .unwrap_or_else(|| panic!("no {verdict} row:\n{page}"));
        assert!(
            row.contains(&format!("href=\"feedback/{who}.txt\">{who}</a>"))
                && row.contains("1 of 5"),
            "{row}"
        );
    }

    // As a teacher sees it, rendered by Chromium.
    let Some(browser) = common::browser::chromium() else {
        return;
    };
    let page = out_dir.join("report.html");
    let seen = common::browser::probe(
        &browser,
        &page,
        r#"(() => {
          const cells = tr => Array.from(tr.querySelectorAll('td')).map(td => td.innerText.replace(/\s+/g, ' ').trim());
          const rows = sel => Array.from(document.querySelectorAll(sel)).map(cells);
          const svg = document.querySelector('#class svg.histogram');
          const box = svg ? svg.getBoundingClientRect() : null;
          return {
            heading: Array.from(document.querySelectorAll('#class h3')).map(h => h.innerText.trim()),
            ideas: rows('#class table.wrong-ideas tbody tr'),
            failures: rows('#class table.failures tbody tr'),
            histogram: box ? [box.width, box.height] : null,
            bars: svg ? Array.from(svg.querySelectorAll('rect.bar')).map(r => Number(r.dataset.count)) : [],
            labels: svg ? Array.from(svg.querySelectorAll('text')).map(t => t.textContent.trim()) : []
          };
        })()"#,
    );
    assert_eq!(
        seen["heading"],
        serde_json::json!(["twice: scores of 5 submissions"]),
        "{seen:#}"
    );
    let rows = |key: &str| -> Vec<Vec<String>> {
        seen[key]
            .as_array()
            .unwrap_or_else(|| panic!("no {key}: {seen:#}"))
            .iter()
            .map(|r| {
                r.as_array()
                    .map(|c| {
                        c.iter()
                            .map(|x| x.as_str().unwrap_or("").to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect()
    };
    let ideas = rows("ideas");
    assert_eq!(ideas.len(), 2, "{seen:#}");
    for row in &ideas {
        for crashed in ["rex", "tim", "meg"] {
            assert!(
                !row[2].contains(crashed),
                "{crashed} under a wrong idea: {row:?}"
            );
        }
    }
    assert!(
        ideas[0][0].contains("anti-overflow") && ideas[0][1] == "0 of 5",
        "{ideas:?}"
    );
    assert!(
        ideas[1][0].contains("anti-zero")
            && ideas[1][1] == "1 of 5"
            && ideas[1][2].starts_with("wes"),
        "{ideas:?}"
    );
    let failures = rows("failures");
    let shown: Vec<(String, String)> = failures
        .iter()
        .map(|r| {
            (
                r[0].split_whitespace().next().unwrap_or("").to_string(),
                r[2].split_whitespace().next().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want = |v: &str, w: &str| (v.to_string(), w.to_string());
    assert_eq!(
        shown,
        [
            want("WA", "wes"),
            want("TLE", "tim"),
            want("MLE", "meg"),
            want("RE", "rex")
        ],
        "{seen:#}"
    );
    let size = seen["histogram"].as_array().expect("a histogram drawn");
    assert!(
        size.iter().all(|x| x.as_f64().is_some_and(|x| x > 50.0)),
        "{seen:#}"
    );
    assert_eq!(
        seen["bars"]
            .as_array()
            .map(|b| b.iter().filter_map(|x| x.as_u64()).sum::<u64>()),
        Some(5),
        "every submission in a bar: {seen:#}"
    );
    assert_eq!(
        seen["labels"]
            .as_array()
            .and_then(|l| l.last())
            .and_then(|l| l.as_str()),
        Some("100"),
        "{seen:#}"
    );
    common::browser::assert_not_blank(&browser, &page, "class.png");
}

fn names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|s| {
            s.iter()
                .filter_map(|x| x.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}
