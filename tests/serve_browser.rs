//! `grundy serve` in a real Chromium, driven over WebDriver (Debian's
//! chromium-driver, installed by .ci/setup.sh): a team signs in, submits a
//! file, sees its verdict appear without reloading, and sees the
//! scoreboard change when another team solves a problem. Screenshots are
//! checked for what they must show (the verdict's and the solved cell's
//! colours), not compared pixel by pixel. With GRUNDY_SCREENSHOTS=DIR the
//! screenshots are also written there (docs/serve/ takes them).

mod common;
mod serve_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::TOY_C;
use fantoccini::{Client as Browser, ClientBuilder, Locator};
use serve_support::*;

/// chromedriver, or `None` where it is missing and GRUNDY_SKIP_BROWSER is
/// set (never under CI=true).
fn chromedriver() -> Option<PathBuf> {
    for dir in std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()) {
        let p = dir.join("chromedriver");
        if p.is_file() {
            return Some(p);
        }
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    if !ci && std::env::var_os("GRUNDY_SKIP_BROWSER").is_some() {
        eprintln!("SKIPPED: chromedriver is not installed and GRUNDY_SKIP_BROWSER is set");
        return None;
    }
    panic!(
        "chromedriver is not installed: run `bash .ci/setup.sh` (it installs Debian's chromium-driver), \
         or set GRUNDY_SKIP_BROWSER=1 where it cannot be installed (not under CI=true)"
    );
}

/// A chromedriver of this test's own, ended when dropped.
struct Driver {
    child: Child,
    url: String,
}

impl Driver {
    fn start(path: &Path) -> Driver {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(path)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromedriver");
        let deadline = Instant::now() + Duration::from_secs(60);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "chromedriver did not listen");
            std::thread::sleep(Duration::from_millis(50));
        }
        Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The browser, driven from a synchronous test.
struct Page {
    rt: tokio::runtime::Runtime,
    b: Browser,
    base: String,
    shots: PathBuf,
}

impl Page {
    fn open(driver: &Driver, chromium: &Path, profile: &Path, base: &str, shots: &Path) -> Page {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({
                "binary": chromium,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    "--hide-scrollbars", "--force-device-scale-factor=1",
                    "--window-size=1100,760",
                    format!("--user-data-dir={}", profile.display()),
                ],
            }),
        );
        let b = rt
            .block_on(
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                    .capabilities(caps)
                    .connect(&driver.url),
            )
            .expect("a WebDriver session");
        Page {
            rt,
            b,
            base: base.to_string(),
            shots: shots.to_path_buf(),
        }
    }

    fn go(&self, path: &str) {
        self.rt
            .block_on(self.b.goto(&format!("{}{path}", self.base)))
            .expect("goto");
    }

    fn type_into(&self, css: &str, text: &str) {
        let e = self.rt.block_on(self.b.find(Locator::Css(css))).expect(css);
        self.rt.block_on(e.send_keys(text)).expect("type");
    }

    fn click(&self, css: &str) {
        let e = self.rt.block_on(self.b.find(Locator::Css(css))).expect(css);
        self.rt.block_on(e.click()).expect("click");
    }

    fn script(&self, js: &str) -> serde_json::Value {
        self.rt
            .block_on(self.b.execute(js, vec![]))
            .expect("script")
    }

    /// Waits until `js` (an expression) is true in the page.
    fn until(&self, js: &str, what: &str) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if self.script(&format!("return !!({js});")) == serde_json::Value::Bool(true) {
                return;
            }
            if Instant::now() >= deadline {
                let seen =
                    self.script("return location.pathname + '\\n' + document.body.innerText;");
                panic!(
                    "{what}: not seen in time; the page: {}",
                    seen.as_str().unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// A screenshot, kept under `name`.
    fn shot(&self, name: &str) -> PathBuf {
        let png = self.rt.block_on(self.b.screenshot()).expect("screenshot");
        let path = self.shots.join(name);
        std::fs::write(&path, &png).expect("write the screenshot");
        if let Some(dir) = std::env::var_os("GRUNDY_SCREENSHOTS") {
            std::fs::create_dir_all(&dir).expect("screenshot folder");
            std::fs::write(Path::new(&dir).join(name), &png).expect("copy the screenshot");
        }
        path
    }

    fn login(&self, who: &str, password: &str) {
        self.go("/login");
        self.type_into("#login input[name=login]", who);
        self.type_into("#login input[name=password]", password);
        self.click("#login button[type=submit]");
    }
}

/// How many pixels of a PNG are within 6 of `rgb` on each channel.
fn pixels_of(png: &Path, rgb: [u8; 3]) -> usize {
    let decoder = png::Decoder::new(std::io::BufReader::new(
        std::fs::File::open(png).expect("open png"),
    ));
    let mut reader = decoder.read_info().expect("png header");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("png frame");
    let step = info.color_type.samples();
    buf[..info.buffer_size()]
        .chunks(step)
        .filter(|p| p.len() >= 3 && (0..3).all(|i| p[i].abs_diff(rgb[i]) <= 6))
        .count()
}

const PEOPLE: &str = "login,name,role\nana,Ana's team,team\nben,Ben's team,team\njudy,Judy,jury\n";

fn jury_queue(c: &mut Client, action: &str) {
    let csrf = c.csrf("/jury");
    let a = c.post("/jury/queue", &[("csrf", &csrf), ("action", action)]);
    assert_eq!(a.status, 303, "{}", a.body);
}

#[test]
fn a_team_sees_its_verdict_and_the_scoreboard_change_without_reloading() {
    let Some(chromium) = common::browser::chromium() else {
        return;
    };
    let Some(driver_path) = chromedriver() else {
        return;
    };
    let (p, server, pw) = toy_contest(
        "start: now-10m\nduration: 5h\nfreeze: 1h\nfeedback: groups\n",
        PEOPLE,
    );
    let mut judy = server.client();
    assert_eq!(judy.login("judy", &pw["judy"]), 303);
    // Judging waits while the page loads, so that the verdict must come to
    // the open page.
    jury_queue(&mut judy, "pause");
    let driver = Driver::start(&driver_path);
    let profile = tempfile::tempdir().expect("profile");
    let shots = tempfile::tempdir().expect("screenshots");
    let page = Page::open(
        &driver,
        &chromium,
        profile.path(),
        &server.url,
        shots.path(),
    );

    page.login("ana", &pw["ana"]);
    page.until(
        "location.pathname === '/team'",
        "ana's page after signing in",
    );
    page.until(
        "document.querySelector('#problems tr[data-problem=toy]')",
        "the problem list",
    );
    // The contest clock: ten minutes into five hours, and ticking.
    let clock = page.script("return document.getElementById('clock').textContent;");
    let clock = clock.as_str().unwrap_or_default().to_string();
    assert!(
        clock.starts_with("4:") && clock.ends_with(" left"),
        "the clock says {clock:?}"
    );
    page.until(
        &format!("document.getElementById('clock').textContent !== {clock:?}"),
        "the clock ticking",
    );
    page.shot("team.png");

    let file = p.write("ana/solution.c", TOY_C);
    page.type_into("#submit input[name=file]", &file.to_string_lossy());
    page.click("#submit button[type=submit]");
    page.until(
        "location.pathname === '/submissions/1'",
        "the submission page",
    );
    page.until(
        "document.body.dataset.live === 'listening'",
        "the event stream",
    );
    let status = page.script("return document.querySelector('#submission .status').textContent;");
    assert_eq!(status, "queued");
    page.script("window.stayed = 42; return null;");
    jury_queue(&mut judy, "resume");
    page.until(
        "document.querySelector('#submission').dataset.verdict === 'AC'",
        "the verdict",
    );
    assert_eq!(
        page.script("return window.stayed;"),
        42,
        "the page was not reloaded"
    );
    let shot = page.shot("submission.png");
    assert!(
        pixels_of(&shot, [0xc8, 0xe6, 0xc9]) > 50,
        "the green AC badge is on the screenshot"
    );

    page.go("/scoreboard");
    page.until(
        "document.querySelector('tr[data-contestant=ben] td[data-problem=toy]')",
        "the scoreboard",
    );
    let ben = "document.querySelector('tr[data-contestant=ben] td[data-problem=toy]').className";
    assert_eq!(page.script(&format!("return {ben};")), "untried");
    page.until(
        "document.body.dataset.live === 'listening'",
        "the event stream",
    );
    page.script("window.stayed = 7; return null;");
    let mut ben_client = server.client();
    assert_eq!(ben_client.login("ben", &pw["ben"]), 303);
    let wrong = Client::submitted_id(&ben_client.submit("toy", "b.c", TOY_WA_C.as_bytes()));
    assert_eq!(ben_client.verdict(wrong).0, "WA");
    let id = Client::submitted_id(&ben_client.submit("toy", "b.c", TOY_C.as_bytes()));
    assert_eq!(ben_client.verdict(id).0, "AC");
    page.until(
        &format!("{ben}.indexOf('solved') >= 0"),
        "ben's solved cell",
    );
    assert_eq!(
        page.script("return window.stayed;"),
        7,
        "the page was not reloaded"
    );
    let shot = page.shot("scoreboard.png");
    // Solved (light green) or solved first (dark green).
    let green = pixels_of(&shot, [0x81, 0xc7, 0x84]) + pixels_of(&shot, [0x2e, 0x7d, 0x32]);
    assert!(green > 50, "a solved cell is on the screenshot");

    page.click("header form button[type=submit]");
    page.until("location.pathname === '/login'", "signed out");
    page.login("judy", &pw["judy"]);
    page.until(
        "document.querySelectorAll('#submissions tbody tr').length === 3",
        "the jury's list",
    );
    let shot = page.shot("jury.png");
    assert!(
        pixels_of(&shot, [0xff, 0xcd, 0xd2]) > 50,
        "the red WA badge is on the jury's list"
    );
    // Ben's wrong answer: the first failing test, its input and the diff.
    page.go(&format!("/jury/submissions/{wrong}/report"));
    page.until("document.querySelector('#sub-0 pre.diff')", "the diff");
    page.script(
        "var s = document.querySelector('#sub-0'); s.querySelector('details').open = true; s.scrollIntoView(); return null;",
    );
    let diff = page.script("return document.querySelector('#sub-0 pre.diff').textContent;");
    let diff = diff.as_str().unwrap_or_default();
    assert!(diff.contains("-Bob") && diff.contains("+Alice"), "{diff}");
    let shot = page.shot("report.png");
    assert!(
        pixels_of(&shot, [0xff, 0xcd, 0xd2]) > 50,
        "the WA badge of the failing test is on the screenshot"
    );
    let _ = page.rt.block_on(page.b.clone().close());
}
