//! The HTML report and the scoreboard, as a person sees them: rendered by
//! headless Chromium (Debian's package, installed by `.ci/setup.sh --tests`). A probe
//! script appended to a copy of each page reads what was rendered (the
//! order of rows, each cell's text and computed colour) into the DOM that
//! `--dump-dom` prints; a screenshot must not be blank.
//!
//! Where Chromium cannot be installed, set GRUNDY_SKIP_BROWSER=1 to skip
//! these tests with a message; otherwise (and always under CI=true) a
//! missing browser is a failure. The launcher is tests/common/browser.rs.

mod batch_support;
mod common;

use std::path::Path;

use batch_support::*;
use common::browser::{browse, chromium, probe};

const PROBE: &str = r#"<script>
(function () {
  const seen = [];
  for (const tr of document.querySelectorAll('PROBE_ROWS')) {
    const cells = [];
    for (const td of tr.querySelectorAll('td')) {
      const r = td.getBoundingClientRect();
      cells.push({
        cls: td.className,
        text: td.innerText.replace(/\s+/g, ' ').trim(),
        bg: getComputedStyle(td).backgroundColor,
        shown: r.width > 0 && r.height > 0
      });
    }
    seen.push({key: tr.dataset.student || tr.dataset.contestant, cells: cells});
  }
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(seen);
  document.body.appendChild(pre);
})();
</script>"#;

/// Renders a copy of `page` with the probe and returns what it saw.
fn rendered(browser: &Path, page: &Path, rows: &str) -> Vec<serde_json::Value> {
    let html = std::fs::read_to_string(page).expect("page");
    let probe = PROBE.replace("PROBE_ROWS", rows);
    let copy = page.with_file_name("probe.html");
    std::fs::write(&copy, html.replace("</body>", &format!("{probe}\n</body>")))
        .expect("write probe");
    let dom = browse(browser, &copy, &["--dump-dom"]);
    let start = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("no probe output in:\n{dom}"))
        + 16;
    let end = start + dom[start..].find("</pre>").expect("probe end");
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    serde_json::from_str::<Vec<serde_json::Value>>(&json).expect("probe JSON")
}

/// A screenshot is not blank: it is much larger than one of an empty page.
fn assert_not_blank(browser: &Path, page: &Path) {
    let dir = page.parent().expect("folder");
    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").expect("blank");
    let shot = |p: &Path, name: &str| {
        let png = dir.join(name);
        browse(
            browser,
            p,
            &[
                &format!("--screenshot={}", png.display()),
                "--window-size=1000,700",
            ],
        );
        std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0)
    };
    let empty = shot(&blank, "blank.png");
    let full = shot(page, "page.png");
    assert!(
        empty > 0 && full > 4 * empty,
        "screenshot looks blank: {full} bytes against {empty} for an empty page"
    );
}

fn cell(row: &serde_json::Value, i: usize) -> &serde_json::Value {
    &row["cells"][i]
}

#[test]
fn the_grade_report_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let t = tempfile::tempdir().expect("tempdir");
    let class = t.path().join("class");
    write(&class.join("ann/xor.c"), &template("xor_ok.c"));
    write(&class.join("ann/sum.c"), &template("sum_ok.c"));
    write(&class.join("bob/xor.c"), &template("xor_half.c"));
    write(&class.join("bob/sum.c"), &template("ce.c"));
    write(&class.join("cat/xor.c"), &template("tle.c"));
    let out_dir = t.path().join("out");
    let out = run(&[
        "grade",
        &class.to_string_lossy(),
        "--out",
        &out_dir.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let page = out_dir.join("report.html");
    let rows = rendered(&browser, &page, "#grades tbody tr");
    let keys: Vec<&str> = rows.iter().filter_map(|r| r["key"].as_str()).collect();
    assert_eq!(keys, ["ann", "bob", "cat"], "students in order");
    // Columns: sum, xor, total.
    assert_eq!(cell(&rows[0], 0)["text"], "AC 100");
    assert_eq!(cell(&rows[1], 0)["text"], "CE 0");
    assert_eq!(cell(&rows[1], 1)["text"], "WA 50");
    assert_eq!(cell(&rows[2], 0)["text"], "—");
    assert_eq!(cell(&rows[2], 1)["text"], "TLE 0");
    assert_eq!(cell(&rows[1], 2)["text"], "50");
    let bg = |r: usize, c: usize| cell(&rows[r], c)["bg"].as_str().unwrap_or("").to_string();
    assert_eq!(bg(0, 0), "rgb(200, 230, 201)", "AC is green");
    assert_eq!(bg(1, 1), "rgb(255, 205, 210)", "WA is red");
    assert_eq!(bg(2, 1), "rgb(255, 245, 157)", "TLE is yellow");
    assert_eq!(bg(1, 0), "rgb(215, 204, 200)", "CE is brown-grey");
    assert!(rows.iter().all(|r| {
        r["cells"]
            .as_array()
            .is_some_and(|c| c.iter().all(|c| c["shown"] == true))
    }));
    // The compile log is shown as text, not run as markup.
    let logs = rendered(&browser, &page, "section.submission");
    assert!(!logs.is_empty());
    let dom = browse(&browser, &page, &["--dump-dom"]);
    assert!(
        dom.contains("&lt;/pre&gt;&lt;script&gt;alert"),
        "the compile log's markup is text"
    );
    assert!(
        !dom.contains("<script>alert"),
        "no script from a submission in the page"
    );
    assert_not_blank(&browser, &page);
}

#[test]
fn the_scoreboard_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let t = tempfile::tempdir().expect("tempdir");
    for (name, tpl) in [
        ("a1.c", "wa.c"),
        ("a2.c", "xor_ok.c"),
        ("b1.c", "xor_ok.c"),
        ("b2.c", "sum_ok.c"),
        ("c1.c", "wa.c"),
    ] {
        write(&t.path().join("subs").join(name), &template(tpl));
    }
    write(
        &t.path().join("log.csv"),
        "time,contestant,problem,file\n0:30,ann,xor,subs/a1.c\n0:40,ann,xor,subs/a2.c\n0:10,bob,xor,subs/b1.c\n0:20,bob,sum,subs/b2.c\n0:50,cat,sum,subs/c1.c\n",
    );
    write(
        &t.path().join("contest.yaml"),
        "title: Browser Cup\nproblems: [xor, sum]\nlog: log.csv\n",
    );
    let out_dir = t.path().join("out");
    let out = run_contest(t.path(), &out_dir, &[]);
    // Some tries were rejected: 1, with the scoreboard written.
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let page = out_dir.join("scoreboard.html");
    let rows = rendered(&browser, &page, "#scoreboard tbody tr");
    let keys: Vec<&str> = rows.iter().filter_map(|r| r["key"].as_str()).collect();
    assert_eq!(keys, ["bob", "ann", "cat"], "ranking order");
    // rank, name, solved, penalty, then A and B.
    let texts: Vec<Vec<&str>> = rows
        .iter()
        .map(|r| {
            r["cells"]
                .as_array()
                .expect("cells")
                .iter()
                .filter_map(|c| c["text"].as_str())
                .collect()
        })
        .collect();
    // bob solved both problems first: each cell carries the first-solve mark.
    assert_eq!(texts[0], ["1", "bob", "2", "30", "+★ 10 min", "+★ 20 min"]);
    assert_eq!(texts[1], ["2", "ann", "1", "60", "+1 40 min", ""]);
    assert_eq!(texts[2], ["3", "cat", "0", "0", "", "-1"]);
    let bg = |r: usize, c: usize| cell(&rows[r], c)["bg"].as_str().unwrap_or("").to_string();
    assert_eq!(bg(0, 4), "rgb(46, 125, 50)", "first to solve: dark green");
    assert_eq!(bg(1, 4), "rgb(129, 199, 132)", "solved: green");
    assert_eq!(bg(2, 5), "rgb(239, 154, 154)", "tried, not solved: red");
    assert_not_blank(&browser, &page);
}

/// `judge --html` for one file is a report on that submission: its name,
/// problem and verdict in the title and the heading, its failing test, and
/// nothing of a class (no grades table, no "students", no histogram).
#[test]
fn a_single_submission_page_in_a_browser() {
    let Some(browser) = chromium() else { return };
    let t = tempfile::tempdir().expect("tempdir");
    let sub = t.path().join("bob.c");
    write(&sub, &template("xor_half.c"));
    let page = t.path().join("judged.html");
    let out = run(&[
        "judge",
        "xor",
        &sub.to_string_lossy(),
        "--html",
        &page.to_string_lossy(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let seen = probe(
        &browser,
        &page,
        r#"{
          title: document.title,
          h1: document.querySelector('h1') ? document.querySelector('h1').innerText.trim() : null,
          text: document.body.innerText,
          grades: document.querySelectorAll('#grades, #class, svg.histogram, table.wrong-ideas').length,
          sections: Array.from(document.querySelectorAll('section.submission')).map(s => {
            const r = s.getBoundingClientRect();
            return { heading: s.querySelector('h3').innerText.replace(/\s+/g, ' ').trim(),
                     fail: s.querySelector('.first-fail h4') ? s.querySelector('.first-fail h4').innerText.replace(/\s+/g, ' ').trim() : null,
                     shown: r.width > 0 && r.height > 0 };
          })
        }"#,
    );
    let title = seen["title"].as_str().unwrap_or("");
    assert!(
        title.contains("bob.c") && title.contains("xor") && title.contains("WA 50/100"),
        "{seen:#}"
    );
    assert_eq!(seen["h1"].as_str(), Some(title), "{seen:#}");
    assert_eq!(seen["grades"], 0, "no class figures: {seen:#}");
    let body = seen["text"].as_str().unwrap_or("");
    for class_word in ["Grades", "students", "1 student", "histogram", "The class"] {
        assert!(
            !body.contains(class_word),
            "{class_word:?} on the page:\n{body}"
        );
    }
    let sections = seen["sections"].as_array().expect("sections");
    assert_eq!(sections.len(), 1, "{seen:#}");
    assert_eq!(sections[0]["shown"], true, "{seen:#}");
    assert!(
        sections[0]["fail"]
            .as_str()
            .is_some_and(|f| f.contains("WA")),
        "the failing test is shown: {seen:#}"
    );
    common::browser::assert_not_blank(&browser, &page, "judged.png");
}
