//! The statement of an exported package reads as the original does, typeset
//! by the format's own tools: problemtools' `problem2html` (math handed to
//! MathJax as TeX) and `problem2pdf` (LuaLaTeX), and the HTML looked at in
//! headless Chromium with MathJax running, as a contestant sees it on a
//! judge's site. The statement is the one `grundy new` writes: math in
//! `$…$` with `\le`, a sample and a paragraph explaining it.
//!
//! problemtools, Ghostscript (which problem2pdf runs), pdftotext and
//! Debian's MathJax are installed by `.ci/setup.sh --tests`; a test that
//! misses one skips with a message, except under CI=true, where it fails.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::browser::{browse, chromium};
use common::{problemtools, stderr, stdout};

/// The math of the statement, in order, as TeX.
const MATH: [&str; 10] = [
    "n",
    "1",
    "2",
    "3",
    "T",
    "1 \\le T \\le 100",
    "T",
    "n",
    "1 \\le n \\le 10^9",
    "4",
];

/// The paragraph explaining the sample (its end: PDF text extraction
/// spells the `fi` ligature of "first" oddly).
const EXPLANATION: &str = "whatever the first player takes, the second takes the rest.";
const EXPLANATION_END: &str = "the second takes the rest.";

/// `grundy new takethree`, exported: the problems folder and the package.
fn exported(tmp: &Path) -> (PathBuf, PathBuf) {
    let problems = tmp.join("problems");
    std::fs::create_dir_all(&problems).expect("mkdir");
    let made = common::grundy_in(&problems, &["new", "takethree"]);
    assert_eq!(made.status.code(), Some(0), "{}", stderr(&made));
    let pkg = tmp.join("takethree");
    let out = common::grundy_in(
        &problems,
        &["export", "takethree", "--to", &pkg.to_string_lossy()],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    (problems, pkg)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&")
}

/// The texts between `open` and `close`, in order.
fn between(text: &str, open: &str, close: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(a) = rest.find(open) {
        let from = &rest[a + open.len()..];
        let Some(b) = from.find(close) else { break };
        out.push(from[..b].to_string());
        rest = &from[b + close.len()..];
    }
    out
}

/// problem2html's page of the package, with tidy's layout.
fn problem2html(pkg: &Path, dest: &Path) -> String {
    let out = Command::new("problem2html")
        .arg("-q")
        .arg("-d")
        .arg(dest)
        .arg(pkg)
        .output()
        .expect("run problem2html");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    std::fs::read_to_string(dest.join("index.html")).expect("index.html")
}

#[test]
fn the_original_statement_holds_the_math_compared_against() {
    // What the other tests compare with: the math of grundy's own page of
    // the statement, in order.
    let tmp = tempfile::tempdir().expect("tmp");
    let (problems, _) = exported(tmp.path());
    let page = common::grundy_in(&problems, &["statement", "takethree"]);
    assert_eq!(page.status.code(), Some(0), "{}", stderr(&page));
    let math: Vec<String> = between(&stdout(&page), "<span class=\"math\">\\(", "\\)</span>")
        .iter()
        .map(|m| one_line(&unescape(m)))
        .collect();
    assert_eq!(math, MATH);
    assert!(one_line(&stdout(&page)).contains(EXPLANATION));
}

#[test]
fn problem2html_hands_the_math_to_mathjax_as_tex() {
    if !problemtools::have("problem2html") {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let (_, pkg) = exported(tmp.path());
    let tex = std::fs::read_to_string(pkg.join("problem_statement/problem.en.tex")).expect("tex");
    assert!(
        tex.contains("($1 \\le T \\le 100$)")
            && !tex.contains("\\$")
            && !tex.contains("textbackslash"),
        "{tex}"
    );
    let html = problem2html(&pkg, &tmp.path().join("html"));
    let body = &html[html.find("<body>").expect("body")..];
    // MathJax reads only what is marked for it; every dollar sign is math.
    let math = between(body, "\"tex2jax_process\">$", "$</span>");
    let math: Vec<String> = math.iter().map(|m| one_line(&unescape(m))).collect();
    assert_eq!(math, MATH, "{body}");
    let outside: String = body
        .split("\"tex2jax_process\">")
        .enumerate()
        .map(|(k, part)| {
            if k == 0 {
                part
            } else {
                part.split_once("</span>").map_or(part, |(_, after)| after)
            }
        })
        .collect();
    assert!(!outside.contains('$'), "a literal dollar sign:\n{body}");
    assert!(
        !body.contains("\\$") && !body.contains("textbackslash"),
        "{body}"
    );
    // The explanation, after the statement, before the sample's table.
    let flat = one_line(body);
    let said = flat.find(EXPLANATION).unwrap_or_else(|| panic!("{body}"));
    let table = flat
        .find("Sample Input 1")
        .unwrap_or_else(|| panic!("{body}"));
    assert!(said < table, "{body}");
}

#[test]
fn problem2pdf_typesets_the_math() {
    if !problemtools::have("problem2pdf") || !have_pdftotext() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let (_, pkg) = exported(tmp.path());
    let pdf = tmp.path().join("takethree.pdf");
    let out = Command::new("problem2pdf")
        .arg("-q")
        .arg("-o")
        .arg(&pdf)
        .arg(&pkg)
        .output()
        .expect("run problem2pdf");
    assert!(out.status.success(), "{}{}", stdout(&out), stderr(&out));
    let out = Command::new("pdftotext")
        .arg(&pdf)
        .arg("-")
        .output()
        .expect("run pdftotext");
    assert!(out.status.success(), "{}", stderr(&out));
    let text = one_line(&stdout(&out));
    for shown in [
        "(1 ≤ T ≤ 100)",
        "(1 ≤ n ≤ 10",
        "With 4 stones,",
        EXPLANATION_END,
        "Sample Input 1",
    ] {
        assert!(text.contains(shown), "`{shown}` missing:\n{text}");
    }
    assert!(
        !text.contains('$') && !text.contains("\\le"),
        "TeX shown as text:\n{text}"
    );
}

fn have_pdftotext() -> bool {
    let found = Command::new("pdftotext")
        .arg("-v")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "pdftotext is missing: `bash .ci/setup.sh --tests` installs poppler-utils"
        );
        eprintln!("skipped: pdftotext is not installed (`bash .ci/setup.sh --tests` installs it)");
    }
    found
}

/// Debian's MathJax 2.7 (libjs-mathjax), the version problem2html's pages
/// load from a CDN: the test machine has no network to fetch it from.
const MATHJAX: &str = "/usr/share/javascript/mathjax/MathJax.js";

/// Runs once MathJax has typeset the page: what a reader sees.
const PROBE: &str = r#"<script>
MathJax.Hub.Queue(function () {
  const math = Array.from(document.querySelectorAll('.MathJax'));
  const seen = {
    tex: Array.from(document.querySelectorAll('script[type^="math/tex"]'))
      .map(s => s.textContent.replace(/\s+/g, ' ').trim()),
    shown: math.filter(m => m.getBoundingClientRect().width > 0).length,
    fonts: Array.from(new Set(math.flatMap(m => Array.from(m.querySelectorAll('span'))
      .map(s => getComputedStyle(s).fontFamily.split(',')[0].replace(/"/g, ''))
      .filter(f => f.startsWith('MathJax'))))),
    errors: document.querySelectorAll('.MathJax_Error, merror').length,
    text: document.querySelector('.problembody').innerText
  };
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(seen);
  document.body.appendChild(pre);
});
</script>"#;

/// The exported statement in Chromium, MathJax running: every formula is
/// typeset from the statement's TeX, none fails, no TeX or dollar sign is
/// left in the text a reader sees, the explanation is there; and a
/// screenshot of it (kept in the test's target folder) is not blank.
#[test]
fn the_exported_statement_as_a_reader_sees_it() {
    if !problemtools::have("problem2html") {
        return;
    }
    let Some(browser) = chromium() else { return };
    if !Path::new(MATHJAX).is_file() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{MATHJAX} is missing: `bash .ci/setup.sh --tests` installs libjs-mathjax"
        );
        eprintln!(
            "skipped: {MATHJAX} is missing (`bash .ci/setup.sh --tests` installs libjs-mathjax)"
        );
        return;
    }
    let tmp = tempfile::tempdir().expect("tmp");
    let (_, pkg) = exported(tmp.path());
    let dest = tmp.path().join("html");
    let html = problem2html(&pkg, &dest);
    let cdn = "https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.5/MathJax.js";
    assert!(
        html.contains(cdn),
        "problem2html's page loads MathJax otherwise:\n{html}"
    );
    let page = html.replace(cdn, &format!("file://{MATHJAX}"));
    let shown = dest.join("statement.html");
    std::fs::write(&shown, &page).expect("write");
    let probed = dest.join("probe.html");
    std::fs::write(
        &probed,
        page.replace("</body>", &format!("{PROBE}\n</body>")),
    )
    .expect("write");
    // Virtual time: the page's scripts run to their end, however slow the
    // machine, before the DOM is read.
    let dom = browse(
        &browser,
        &probed,
        &["--virtual-time-budget=60000", "--dump-dom"],
    );
    let json = between(&dom, "<pre id=\"probe\">", "</pre>");
    let json = json
        .first()
        .unwrap_or_else(|| panic!("MathJax did not finish typesetting:\n{dom}"));
    let seen: serde_json::Value = serde_json::from_str(&unescape(json)).expect("probe JSON");
    let tex: Vec<&str> = seen["tex"]
        .as_array()
        .expect("tex")
        .iter()
        .filter_map(|t| t.as_str())
        .collect();
    assert_eq!(tex, MATH, "{seen:#}");
    assert_eq!(seen["shown"], MATH.len(), "{seen:#}");
    assert_eq!(seen["errors"], 0, "{seen:#}");
    let fonts = seen["fonts"].as_array().expect("fonts");
    assert!(
        !fonts.is_empty(),
        "math not set in MathJax's fonts: {seen:#}"
    );
    let text = seen["text"].as_str().expect("text");
    assert!(text.contains('≤'), "{text}");
    assert!(
        !text.contains('$') && !text.contains("\\le") && !text.contains("textbackslash"),
        "TeX shown as text:\n{text}"
    );
    assert!(one_line(text).contains(EXPLANATION), "{text}");

    // The screenshot, for a person to look at; it must show something.
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&shots).expect("mkdir");
    let png = shots.join("exported-statement.png");
    let blank = dest.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").expect("blank");
    let blank_png = dest.join("blank.png");
    for (page, out) in [(&shown, &png), (&blank, &blank_png)] {
        let _ = std::fs::remove_file(out);
        browse(
            &browser,
            page,
            &[
                "--virtual-time-budget=60000",
                &format!("--screenshot={}", out.display()),
                "--window-size=900,800",
            ],
        );
    }
    let size = |p: &Path| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0);
    assert!(
        size(&png) > 4 * size(&blank_png).max(1),
        "the screenshot {} looks blank",
        png.display()
    );
    eprintln!("screenshot: {}", png.display());
}
