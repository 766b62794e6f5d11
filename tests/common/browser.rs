//! Headless Chromium for the tests that look at a page as a person sees
//! it (Debian's package, installed by `.ci/setup.sh --tests`): one launcher, so that
//! every such test finds the browser, isolates it and times it out alike.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The browser, or `None` (with a message) where it is missing and
/// GRUNDY_SKIP_BROWSER is set; a missing browser fails the test otherwise,
/// and always when CI=true.
pub fn chromium() -> Option<PathBuf> {
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !ci && std::env::var_os("GRUNDY_SKIP_BROWSER").is_some() {
        eprintln!("SKIPPED: chromium is not installed and GRUNDY_SKIP_BROWSER is set");
        return None;
    }
    panic!(
        "chromium is not installed: run `bash .ci/setup.sh --tests` (it installs Debian's chromium), \
         or set GRUNDY_SKIP_BROWSER=1 where it cannot be installed (not under CI=true)"
    );
}

/// How long one page may take: generous, for a loaded machine.
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs headless Chromium on a file with `args`, with a fresh profile and
/// nothing that talks to the network, one CSS pixel to a screen pixel (so
/// screenshots measure the same everywhere); returns stdout.
pub fn browse(browser: &Path, page: &Path, args: &[&str]) -> String {
    let profile = tempfile::tempdir().expect("profile");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let deadline = Instant::now() + DEADLINE;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish in {} s", DEADLINE.as_secs());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let out = child.wait_with_output().expect("chromium output");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// What a script saw of `page` once rendered: `expression` (JavaScript,
/// evaluated after the page's own scripts, with the layout done) as JSON.
/// The script is appended to a copy of the page (`probe.html` beside it),
/// and its answer read back from the DOM that `--dump-dom` prints.
pub fn probe(browser: &Path, page: &Path, expression: &str) -> serde_json::Value {
    let html = std::fs::read_to_string(page).expect("page");
    let script = format!(
        "<script>(function () {{ const pre = document.createElement('pre'); pre.id = 'probe'; \
         pre.textContent = JSON.stringify(({expression})); document.body.appendChild(pre); }})();</script>"
    );
    let copy = page.with_file_name("probe.html");
    let probed = match html.rfind("</body>") {
        Some(at) => format!("{}{script}\n{}", &html[..at], &html[at..]),
        None => format!("{html}{script}"),
    };
    std::fs::write(&copy, probed).expect("write probe");
    let dom = browse(browser, &copy, &["--dump-dom"]);
    let start = dom
        .find("<pre id=\"probe\">")
        .unwrap_or_else(|| panic!("no probe output in:\n{dom}"))
        + "<pre id=\"probe\">".len();
    let end = start + dom[start..].find("</pre>").expect("probe end");
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    serde_json::from_str(&json).unwrap_or_else(|e| panic!("probe JSON ({e}): {json}"))
}

/// A screenshot of `page` (saved beside it as `name`) is not blank: much
/// larger than one of an empty page.
pub fn assert_not_blank(browser: &Path, page: &Path, name: &str) {
    let dir = page.parent().expect("folder");
    let blank = dir.join("blank.html");
    std::fs::write(&blank, "<!DOCTYPE html><html><body></body></html>").expect("blank");
    let shot = |p: &Path, png: &str| {
        let png = dir.join(png);
        browse(
            browser,
            p,
            &[
                &format!("--screenshot={}", png.display()),
                "--window-size=1000,900",
            ],
        );
        std::fs::metadata(&png).map(|m| m.len()).unwrap_or(0)
    };
    let empty = shot(&blank, "blank.png");
    let full = shot(page, name);
    assert!(
        empty > 0 && full > 4 * empty,
        "screenshot {name} looks blank: {full} bytes against {empty} for an empty page"
    );
}
