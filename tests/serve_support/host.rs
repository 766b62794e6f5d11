//! A real `grundy judgehost` for the serve tests: its token, and the
//! process with what it says.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{DEADLINE, Server, cache};

/// `grundy serve judgehost` for `name`: the token file.
pub fn register(server: &Server, name: &str) -> PathBuf {
    let file = server.db.with_file_name(format!("{name}.token"));
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["serve", "judgehost"])
        .arg(&server.contest)
        .arg(name)
        .arg("--db")
        .arg(&server.db)
        .arg("--token-file")
        .arg(&file)
        .output()
        .expect("run grundy serve judgehost");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    file
}

/// A running `grundy judgehost`.
pub struct Host {
    pub child: Child,
    pub lines: mpsc::Receiver<String>,
}

impl Host {
    /// Starts a host; `wrap` runs it under another program (faketime).
    pub fn start(server: &Server, token: &Path, wrap: &[&str]) -> Host {
        Host::start_at(&server.url, token, wrap, &cache())
    }

    /// Starts a host talking to `url`, with the cache `cache`.
    pub fn start_at(url: &str, token: &Path, wrap: &[&str], cache: &Path) -> Host {
        let bin = env!("CARGO_BIN_EXE_grundy");
        let mut cmd = match wrap.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(bin);
                c
            }
            None => Command::new(bin),
        };
        cmd.args(["judgehost", "--server", url, "--jobs", "1", "--token"])
            .arg(token)
            .arg("--cache")
            .arg(cache)
            .env("NO_COLOR", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start grundy judgehost");
        let (tx, rx) = mpsc::channel();
        let err = child.stderr.take().expect("stderr");
        std::thread::spawn(move || {
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Host { child, lines: rx }
    }

    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Waits for the host to exit by itself: its code and what it said.
    pub fn exit(&mut self) -> (Option<i32>, String) {
        let deadline = Instant::now() + DEADLINE;
        loop {
            if let Some(s) = self.child.try_wait().expect("wait") {
                let said: Vec<String> = self.lines.try_iter().collect();
                return (s.code(), said.join("\n"));
            }
            assert!(Instant::now() < deadline, "the host did not stop");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Host {
    fn drop(&mut self) {
        self.kill();
    }
}
