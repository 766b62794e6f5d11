//! The real `grundy serve` on a loopback port with a database of its own,
//! and a small HTTP client that keeps cookies and fills forms as a browser
//! would: what the serve tests drive.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::common::Project;

pub mod host;
#[allow(unused_imports)] // Not every serve test starts a host.
pub use host::{Host, register};

/// How long a server may take to start (it prepares its problems first)
/// or a judging to finish: generous, for a loaded machine.
pub const DEADLINE: Duration = Duration::from_secs(300);

/// A running server.
pub struct Server {
    pub child: Child,
    pub url: String,
    /// What it printed before its URL.
    pub said: Vec<String>,
    pub admin_password: Option<String>,
    pub db: PathBuf,
    pub contest: PathBuf,
    pub problems: PathBuf,
    pub lines: mpsc::Receiver<String>,
    jobs: usize,
}

/// The test cache shared with the other integration tests.
pub fn cache() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-test-cache")
}

impl Server {
    /// Writes `contest_yaml` as `contest.yaml` in the project and serves it.
    pub fn start(p: &Project, contest_yaml: &str, jobs: usize) -> Server {
        let contest = p.write("contest.yaml", contest_yaml);
        Server::start_file(
            &p.path("problems"),
            &contest,
            &p.path("contest.sqlite"),
            jobs,
        )
    }

    pub fn start_file(problems: &Path, contest: &Path, db: &Path, jobs: usize) -> Server {
        Server::start_with(problems, contest, db, jobs, &cache(), &|_| {})
    }

    /// [`Server::start_file`] with a cache of its own and a last word on
    /// the command (a cage around the server).
    pub fn start_with(
        problems: &Path,
        contest: &Path,
        db: &Path,
        jobs: usize,
        cache: &Path,
        prepare: &dyn Fn(&mut Command),
    ) -> Server {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
        prepare(&mut cmd);
        cmd.args(["serve"])
            .arg(contest)
            .args(["--port", "0", "--jobs", &jobs.to_string(), "--db"])
            .arg(db)
            .arg("--problems")
            .arg(problems)
            .arg("--cache")
            .arg(cache);
        Server::launch(cmd, problems, contest, db, jobs)
    }

    /// [`Server::start`] with more arguments for `grundy serve` (such as
    /// `--no-local-judging`).
    pub fn start_args(p: &Project, contest_yaml: &str, jobs: usize, extra: &[&str]) -> Server {
        let contest = p.write("contest.yaml", contest_yaml);
        let (problems, db) = (p.path("problems"), p.path("contest.sqlite"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
        cmd.args(["serve"])
            .arg(&contest)
            .args(["--port", "0", "--jobs", &jobs.to_string(), "--db"])
            .arg(&db)
            .arg("--problems")
            .arg(&problems)
            .arg("--cache")
            .arg(cache())
            .args(extra);
        Server::launch(cmd, &problems, &contest, &db, jobs)
    }

    /// `grundy serve --demo` with its files in `dir`, on the catalog's
    /// problems and the tests' cache.
    pub fn demo(dir: &Path) -> Server {
        let problems = Path::new(env!("CARGO_MANIFEST_DIR")).join("problems");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_grundy"));
        cmd.args(["serve", "--demo", "--demo-dir"])
            .arg(dir)
            .args(["--port", "0", "--jobs", "1", "--problems"])
            .arg(&problems)
            .arg("--cache")
            .arg(cache());
        Server::launch(
            cmd,
            &problems,
            &dir.join("contest.yaml"),
            &dir.join("contest.sqlite"),
            1,
        )
    }

    /// Runs a `grundy serve` command and waits until it prints its URL.
    fn launch(mut cmd: Command, problems: &Path, contest: &Path, db: &Path, jobs: usize) -> Server {
        let mut child = cmd
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start grundy serve");
        let (tx, rx) = mpsc::channel();
        for stream in [
            Box::new(child.stdout.take().expect("stdout")) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().expect("stderr")),
        ] {
            let tx = tx.clone();
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        let deadline = Instant::now() + DEADLINE;
        let mut seen = Vec::new();
        let mut admin_password = None;
        let url = loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(pw) = line
                        .strip_prefix("organiser account: login admin, password ")
                        .and_then(|r| r.split_whitespace().next())
                    {
                        admin_password = Some(pw.to_string());
                    }
                    if let Some(u) = line.strip_prefix("grundy serve: ") {
                        break u.trim_end_matches('/').to_string();
                    }
                    seen.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    let status = child.wait().ok();
                    panic!(
                        "grundy serve did not start ({status:?}); it said:\n{}",
                        seen.join("\n")
                    );
                }
            }
        };
        Server {
            child,
            url,
            said: seen,
            admin_password,
            db: db.to_path_buf(),
            contest: contest.to_path_buf(),
            problems: problems.to_path_buf(),
            lines: rx,
            jobs,
        }
    }

    /// `kill -9`, as a crash would.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the server with SIGTERM and waits for it; its exit code.
    pub fn stop(&mut self) -> Option<i32> {
        let pid = self.child.id() as i32;
        // SAFETY: a plain kill(2) on our own child.
        unsafe { libc::kill(pid, libc::SIGTERM) };
        self.child.wait().ok().and_then(|s| s.code())
    }

    /// The same contest and database served again.
    pub fn restart(&mut self) -> Server {
        self.kill();
        Server::start_file(&self.problems, &self.contest, &self.db, self.jobs)
    }

    pub fn client(&self) -> Client {
        Client::new(&self.url)
    }

    /// A client signed in as the organiser.
    pub fn admin(&self) -> Client {
        let mut c = self.client();
        let pw = self
            .admin_password
            .clone()
            .expect("the admin password was printed");
        assert_eq!(c.login("admin", &pw), 303, "admin signs in");
        c
    }

    /// Opens the database read-only (as another process would).
    pub fn sql(&self) -> rusqlite::Connection {
        rusqlite::Connection::open_with_flags(&self.db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open the database")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A client signed in as `who`, with the password `accounts` gave.
pub fn signed(server: &Server, pw: &BTreeMap<String, String>, who: &str) -> Client {
    let mut c = server.client();
    assert_eq!(c.login(who, &pw[who]), 303, "{who} signs in");
    c
}

/// A contest on loopback: `p`'s problems served under `contest` (written
/// as `p`'s contest.yaml) with a SQLite file of its own in `p`'s temporary
/// folder, one judging at a time, `args` more for `grundy serve`, and the
/// accounts of the CSV `people`: the server and each login's password.
pub fn serve_contest(
    p: &Project,
    contest: &str,
    people: &str,
    args: &[&str],
) -> (Server, BTreeMap<String, String>) {
    let server = Server::start_args(p, contest, 1, args);
    let pw = accounts(p, people);
    (server, pw)
}

/// [`serve_contest`] of the toy problem under [`contest_yaml`]`(extra)`;
/// the project holds the files (keep it until the end).
pub fn toy_contest(extra: &str, people: &str) -> (Project, Server, BTreeMap<String, String>) {
    let p = Project::toy("");
    let (server, pw) = serve_contest(&p, &contest_yaml(extra), people, &[]);
    (p, server, pw)
}

/// `grundy serve accounts` for a CSV's people: login → password.
pub fn accounts(p: &Project, csv: &str) -> BTreeMap<String, String> {
    let file = p.write("people.csv", csv);
    accounts_in(&p.path("contest.yaml"), &file, &p.path("contest.sqlite"))
}

/// [`accounts`] for any contest file, CSV and database.
pub fn accounts_in(contest: &Path, csv: &Path, db: &Path) -> BTreeMap<String, String> {
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "accounts"])
        .arg(contest)
        .arg("--csv")
        .arg(csv)
        .arg("--db")
        .arg(db)
        .output()
        .expect("run grundy serve accounts");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "accounts failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text.lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f.first()?.to_string(), f.last()?.to_string()))
        })
        .collect()
}

/// An HTTP answer.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub location: Option<String>,
    pub content_type: String,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// A browser-like client: keeps cookies, follows nothing by itself.
pub struct Client {
    pub base: String,
    agent: ureq::Agent,
    pub cookies: BTreeMap<String, String>,
}

impl Client {
    pub fn new(base: &str) -> Client {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .max_redirects(0)
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(120)))
            .build()
            .into();
        Client {
            base: base.to_string(),
            agent,
            cookies: BTreeMap::new(),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep(&mut self, res: ureq::http::Response<ureq::Body>) -> Answer {
        let status = res.status().as_u16();
        let mut headers = Vec::new();
        for (k, v) in res.headers() {
            headers.push((k.to_string(), v.to_str().unwrap_or_default().to_string()));
        }
        for (k, v) in &headers {
            if k.eq_ignore_ascii_case("set-cookie") {
                let pair = v.split(';').next().unwrap_or_default();
                if let Some((name, value)) = pair.split_once('=') {
                    if value.is_empty() || v.contains("Max-Age=0") {
                        self.cookies.remove(name);
                    } else {
                        self.cookies.insert(name.to_string(), value.to_string());
                    }
                }
            }
        }
        let location = res
            .headers()
            .get("location")
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        let content_type = res
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_string();
        let mut body = String::new();
        let _ = res.into_body().into_reader().read_to_string(&mut body);
        Answer {
            status,
            location,
            content_type,
            headers,
            body,
        }
    }

    pub fn get(&mut self, path: &str) -> Answer {
        let res = self
            .agent
            .get(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .call()
            .expect("GET");
        self.keep(res)
    }

    /// POSTs a form (urlencoded).
    pub fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Answer {
        let res = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .send_form(fields.iter().copied())
            .expect("POST");
        self.keep(res)
    }

    /// POSTs raw bytes with a content type.
    pub fn post_raw(&mut self, path: &str, content_type: &str, body: &[u8]) -> Answer {
        let res = self
            .agent
            .post(&format!("{}{path}", self.base))
            .header("Cookie", &self.cookie_header())
            .header("Content-Type", content_type)
            .send(body)
            .expect("POST");
        self.keep(res)
    }

    /// Signs in through the login form; the status of the POST.
    pub fn login(&mut self, login: &str, password: &str) -> u16 {
        let form = self.get("/login");
        let csrf = csrf_of(&form.body).expect("the login form has a token");
        self.post(
            "/login",
            &[("csrf", &csrf), ("login", login), ("password", password)],
        )
        .status
    }

    /// The CSRF token of the session, read from a page with a form.
    pub fn csrf(&mut self, page: &str) -> String {
        let a = self.get(page);
        csrf_of(&a.body).unwrap_or_else(|| panic!("no form token on {page}: {}", a.body))
    }

    /// Submits `bytes` as file `name` for `problem` through the form.
    pub fn submit(&mut self, problem: &str, name: &str, bytes: &[u8]) -> Answer {
        let csrf = self.csrf("/team");
        self.submit_with(&csrf, &[("problem", problem)], Some((name, bytes)))
    }

    /// A multipart POST to /submit with these text fields and file.
    pub fn submit_with(
        &mut self,
        csrf: &str,
        fields: &[(&str, &str)],
        file: Option<(&str, &[u8])>,
    ) -> Answer {
        let boundary = "----grundy-test-boundary-7d41";
        let mut body = Vec::new();
        let mut all = vec![("csrf", csrf)];
        all.extend_from_slice(fields);
        for (k, v) in all {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n"
                )
                .as_bytes(),
            );
        }
        if let Some((name, bytes)) = file {
            body.extend_from_slice(
                format!(
                    "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
                )
                .as_bytes(),
            );
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
        self.post_raw(
            "/submit",
            &format!("multipart/form-data; boundary={boundary}"),
            &body,
        )
    }

    /// The id of the submission a submit answer sent us to.
    pub fn submitted_id(a: &Answer) -> i64 {
        assert_eq!(a.status, 303, "submission refused: {}", a.body);
        a.location
            .as_deref()
            .and_then(|l| l.strip_prefix("/submissions/"))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no submission in {:?}", a.location))
    }

    /// The status JSON of a submission.
    pub fn status(&mut self, id: i64) -> serde_json::Value {
        let a = self.get(&format!("/submissions/{id}/status"));
        assert_eq!(a.status, 200, "{}", a.body);
        serde_json::from_str(&a.body).expect("status JSON")
    }

    /// Waits until submission `id` is judged; its verdict and score.
    /// Polls the status, with a deadline (no fixed sleep decides anything).
    pub fn verdict(&mut self, id: i64) -> (String, f64) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            let s = self.status(id);
            if s["done"] == true {
                return (
                    s["verdict"].as_str().unwrap_or_default().to_string(),
                    s["score"].as_f64().unwrap_or(-1.0),
                );
            }
            assert!(
                Instant::now() < deadline,
                "submission {id} not judged in time: {s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Opens the event stream; lines arrive on the returned channel.
    pub fn events(&self) -> mpsc::Receiver<String> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(DEADLINE))
            .build()
            .into();
        let res = agent
            .get(&format!("{}/events", self.base))
            .header("Cookie", &self.cookie_header())
            .call()
            .expect("GET /events");
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

/// Waits on an event stream for `event: NAME` followed by its data line;
/// returns the data.
pub fn next_event(rx: &mpsc::Receiver<String>, name: &str) -> String {
    let deadline = Instant::now() + DEADLINE;
    let mut current = String::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let line = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no `{name}` event in time"));
        if let Some(e) = line.strip_prefix("event:") {
            current = e.trim().to_string();
        } else if let Some(d) = line.strip_prefix("data:")
            && current == name
        {
            return d.trim().to_string();
        }
    }
}

/// The value of the first hidden `csrf` field of a page.
pub fn csrf_of(html: &str) -> Option<String> {
    let at = html.find("name=\"csrf\" value=\"")? + "name=\"csrf\" value=\"".len();
    Some(html[at..].split('"').next()?.to_string())
}

/// The toy problem's contest, `extra` appended.
pub fn contest_yaml(extra: &str) -> String {
    format!("title: Toy Cup\nproblems: [toy]\nteams: [ana, ben, {{id: cy, name: Cy}}]\n{extra}")
}

/// A wrong answer for the toy problem (always Alice).
pub const TOY_WA_C: &str = "#include <stdio.h>\nint main(void){puts(\"Alice\");return 0;}\n";
/// A compile error.
pub const TOY_CE_C: &str = "int main(void) { return oops; }\n";
/// A Python program that passes the first group only (small piles).
pub const TOY_PY: &str = "n=int(input())\nx=0\nfor a in map(int,input().split()):\n    x^=a\nprint('Alice' if x else 'Bob')\n";
