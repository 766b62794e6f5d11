//! The replay of a lost game, as a student sees it: a class of played-game
//! submissions is graded for real, and `report.html` is rendered by headless
//! Chromium (Debian's package, installed by `.ci/setup.sh --tests`). A scenario script
//! appended to a copy of the page presses the replay's buttons and keys and
//! records what is drawn after each press, which must match the positions
//! this test computes itself from `report.json`'s transcript. A screenshot
//! of the Nim replay is decoded and its bars are measured in pixels.
//!
//! The feedback file of the same class quotes the lost game (no browser
//! needed for that part).
//!
//! A missing Chromium fails the test when CI=true; elsewhere
//! GRUNDY_SKIP_BROWSER=1 skips the browser part with a message.

mod common;

use std::path::{Path, PathBuf};

use serde_json::Value;

use common::browser::{browse, chromium};

/// A Nim player: `CHOICE` says whether it moves first; its first `SMART`
/// moves are winning ones when it has one, every later move takes one stone
/// from the first pile that has any.
const NIM_PLAYER: &str = r#"#include <stdio.h>
int main(void) {
    int T;
    if (scanf("%d", &T) != 1) return 1;
    for (int g = 0; g < T; g++) {
        int n, mine = 0;
        long long a[105], x = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) { if (scanf("%lld", &a[i]) != 1) return 1; x ^= a[i]; }
        int me = CHOICE;
        printf("%s\n", me ? "first" : "second");
        fflush(stdout);
        for (;;) {
            long long left = 0;
            for (int i = 0; i < n; i++) left += a[i];
            if (left == 0) break;
            if (me) {
                int p = -1;
                x = 0;
                for (int i = 0; i < n; i++) x ^= a[i];
                if (mine < SMART)
                    for (int i = 0; i < n && p < 0; i++) if ((a[i] ^ x) < a[i]) { p = i; a[i] ^= x; }
                if (p < 0) { for (int i = 0; i < n && p < 0; i++) if (a[i] > 0) p = i; a[p] -= 1; }
                mine++;
                printf("%d %lld\n", p + 1, a[p]);
                fflush(stdout);
            } else {
                int i; long long v;
                if (scanf("%d", &i) != 1 || i < 0) return 0;
                if (scanf("%lld", &v) != 1) return 0;
                a[i - 1] = v;
            }
            me = !me;
        }
    }
    return 0;
}
"#;

/// A Wythoff player that always moves first and takes one stone from the
/// larger heap.
const WYTHOFF_PLAYER: &str = r#"#include <stdio.h>
int main(void) {
    int T;
    if (scanf("%d", &T) != 1) return 1;
    while (T--) {
        long long a, b;
        if (scanf("%lld %lld", &a, &b) != 2) return 1;
        int me = 1;
        printf("first\n");
        fflush(stdout);
        while (a + b > 0) {
            if (me) {
                if (a > b) a--; else b--;
                printf("%lld %lld\n", a, b);
                fflush(stdout);
            } else {
                if (scanf("%lld", &a) != 1 || a < 0) return 0;
                if (scanf("%lld", &b) != 1) return 0;
            }
            me = !me;
        }
    }
    return 0;
}
"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn spec(id: &str, interactor: &str, input: &str) -> String {
    format!(
        "id: {id}\ntitle: Played {id}\nsource: tests\nlimits:\n  time: 2s\ninteractor: {interactor}\n\
         groups:\n  - name: games\n    points: 100\n    tests:\n      - input: {input:?}\n"
    )
}

fn nim_player(choice: &str, smart: u32) -> String {
    NIM_PLAYER
        .replace("CHOICE", choice)
        .replace("SMART", &smart.to_string())
}

/// Grades a class of played-game submissions at the `first-fail` feedback
/// level; returns the output folder (inside `dir`).
fn grade(dir: &Path, class: &[(&str, &str, &str, String)]) -> PathBuf {
    for (id, interactor, input) in [
        ("np", "nim-play", "1\n4 3 5 6 9\n"),
        ("longnim", "nim-play", "1\n2 30 30\n"),
        ("wp", "wythoff-play", "1\n5 8\n"),
    ] {
        write(
            &dir.join(format!("problems/{id}/problem.yaml")),
            &spec(id, interactor, input),
        );
        write(
            &dir.join(format!("problems/{id}/statement.md")),
            &format!("# {id}\n"),
        );
    }
    for (student, id, ext, source) in class {
        write(&dir.join(format!("class/{student}/{id}.{ext}")), source);
    }
    let out_dir = dir.join("out");
    let out = common::grundy_in(
        &dir.join("problems"),
        &[
            "grade",
            &dir.join("class").to_string_lossy(),
            "--jobs",
            "1",
            "--feedback",
            "first-fail",
            "--out",
            &out_dir.to_string_lossy(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    out_dir
}

/// The failing game of `student`'s submission to `problem` in report.json.
fn transcript(out_dir: &Path, student: &str, problem: &str) -> Value {
    let report: Value =
        serde_json::from_slice(&std::fs::read(out_dir.join("report.json")).expect("report.json"))
            .expect("JSON");
    report["results"]
        .as_array()
        .and_then(|r| {
            r.iter()
                .find(|x| x["student"] == student && x["problem"] == problem)
        })
        .map(|r| r["tests"][0]["game"].clone())
        .unwrap_or_else(|| panic!("no result of {student} for {problem}: {report:#}"))
}

/// Every position of a transcript, from the start, as heap sizes.
fn positions(game: &Value) -> Vec<Vec<u64>> {
    let start: Vec<u64> = game["start"]
        .as_array()
        .expect("start")
        .iter()
        .map(|v| v.as_u64().expect("heap"))
        .collect();
    let wythoff = game["rules"] == "wythoff-play";
    let mut out = vec![start.clone()];
    let mut cur = start;
    for m in game["moves"].as_array().expect("moves") {
        let nums: Vec<u64> = m["move"]
            .as_str()
            .expect("move")
            .split_whitespace()
            .map(|t| t.parse().expect("number"))
            .collect();
        if wythoff {
            cur = nums;
        } else {
            cur[(nums[0] - 1) as usize] = nums[1];
        }
        out.push(cur.clone());
    }
    out
}

/// Presses the buttons and keys of every replay and records what is drawn.
const SCENARIO: &str = r#"<script>
(function () {
  function state(r) {
    var bars = r.querySelectorAll('rect.pile');
    var t = r.querySelector('circle.token');
    var li = r.querySelector('ol.replay-moves li.current');
    return {
      step: Number(r.getAttribute('data-step')),
      stones: Array.prototype.map.call(bars, function (b) { return Number(b.getAttribute('data-stones')); }),
      heights: Array.prototype.map.call(bars, function (b) { return Number(b.getAttribute('height')); }),
      token: t ? [Number(t.getAttribute('data-a')), Number(t.getAttribute('data-b')),
                  Number(t.getAttribute('cx')), Number(t.getAttribute('cy'))] : null,
      mistake: r.querySelector('svg.board').getAttribute('class').indexOf('at-mistake') >= 0,
      caption: r.querySelector('.caption').textContent,
      current: li ? Number(li.getAttribute('data-step')) : 0
    };
  }
  function key(k) { document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true})); }
  var out = {};
  var roots = document.querySelectorAll('.replay');
  for (var i = 0; i < roots.length; i++) {
    var r = roots[i];
    function press(c) { r.querySelector('button.' + c).click(); }
    var seen = [state(r)];
    press('next'); seen.push(state(r));
    press('next'); seen.push(state(r));
    press('prev'); seen.push(state(r));
    key('ArrowRight'); seen.push(state(r));
    key('ArrowLeft'); seen.push(state(r));
    press('last'); seen.push(state(r));
    press('next'); seen.push(state(r));
    press('mistake'); seen.push(state(r));
    key('Home'); seen.push(state(r));
    out[r.getAttribute('data-rules')] = seen;
  }
  var pre = document.createElement('pre');
  pre.id = 'scenario';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>"#;

/// Keeps only the Nim replay on the page, two moves in, for a screenshot.
const SHOT: &str = r#"<script>
(function () {
  var r = document.querySelector('.replay[data-rules="nim-play"]');
  document.body.replaceChildren(r);
  r.querySelector('button.next').click();
  r.querySelector('button.next').click();
})();
</script>"#;

fn with_script(page: &Path, name: &str, script: &str) -> PathBuf {
    let html = std::fs::read_to_string(page).expect("page");
    let copy = page.with_file_name(name);
    std::fs::write(
        &copy,
        html.replace("</body>", &format!("{script}\n</body>")),
    )
    .expect("write copy");
    copy
}

#[test]
fn the_lost_game_replays_in_a_browser() {
    let t = tempfile::tempdir().expect("tempdir");
    let out_dir = grade(
        t.path(),
        &[
            ("ann", "np", "c", nim_player("x != 0", 1)),
            ("ann", "wp", "c", WYTHOFF_PLAYER.to_string()),
        ],
    );
    let nim = transcript(&out_dir, "ann", "np");
    let wythoff = transcript(&out_dir, "ann", "wp");
    // The judge knows where each went wrong: the Nim player's first move won
    // (right side, right move), a later one of its moves lost; the Wythoff
    // player's first move, from 5 8 to 5 7, already lost.
    let nim_wrong = nim["lost_after"].as_u64().unwrap_or(0) as usize;
    assert!(nim_wrong >= 3, "{nim:#}");
    assert_eq!(nim["moves"][nim_wrong - 1]["by"], "submission", "{nim:#}");
    assert_eq!(wythoff["lost_after"], 1, "{wythoff:#}");
    let nim_pos = positions(&nim);
    let wythoff_pos = positions(&wythoff);
    assert!(nim_pos.len() > 3 && wythoff_pos.len() > 3);

    let page = out_dir.join("report.html");
    let html = std::fs::read_to_string(&page).expect("report.html");
    // Self-contained: the only address in the page is SVG's namespace name.
    assert_eq!(
        html.matches("http").count(),
        html.matches("http://www.w3.org/2000/svg").count(),
        "the page refers to something outside itself"
    );
    // Without script, the moves are there as a list, the mistake marked.
    assert!(html.contains("class=\"you wrong\""), "no marked move");

    let Some(browser) = chromium() else { return };
    let dom = browse(
        &browser,
        &with_script(&page, "scenario.html", SCENARIO),
        &["--dump-dom"],
    );
    let start = dom
        .find("<pre id=\"scenario\">")
        .unwrap_or_else(|| panic!("the scenario did not run:\n{dom}"))
        + "<pre id=\"scenario\">".len();
    let end = start + dom[start..].find("</pre>").expect("end of scenario");
    let json = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let seen: Value = serde_json::from_str(&json).expect("scenario JSON");

    // Steps after: start, next, next, prev, →, ←, end, next (stays), the
    // mistake, Home.
    let last = nim_pos.len() - 1;
    let steps = [0, 1, 2, 1, 2, 1, last, last, nim_wrong, 0];
    let nim_seen = seen["nim-play"].as_array().expect("nim replay");
    assert_eq!(nim_seen.len(), steps.len());
    for (s, want) in nim_seen.iter().zip(steps) {
        assert_eq!(s["step"], want, "{s:#}");
        let stones: Vec<u64> = s["stones"]
            .as_array()
            .expect("bars")
            .iter()
            .map(|v| v.as_u64().unwrap_or(u64::MAX))
            .collect();
        assert_eq!(stones, nim_pos[want], "bars at step {want}");
        // Heights follow the stones (linear scale: the tallest start pile
        // fills 192 px), and an empty pile has no bar.
        let max = nim_pos[0].iter().copied().max().unwrap_or(1) as f64;
        for (h, v) in s["heights"]
            .as_array()
            .expect("heights")
            .iter()
            .zip(&stones)
        {
            let h = h.as_f64().unwrap_or(-1.0);
            let want_h = if *v == 0 {
                0.0
            } else {
                (*v as f64 / max * 192.0).max(2.0)
            };
            assert!((h - want_h).abs() < 0.2, "height {h} for {v} stones");
        }
        assert_eq!(s["current"], want, "the list marks the current move");
        assert_eq!(s["mistake"], want == nim_wrong, "{s:#}");
    }
    let at_mistake = &nim_seen[8];
    let caption = at_mistake["caption"].as_str().unwrap_or("");
    assert!(
        caption.contains(&format!("Move {nim_wrong}, you:")) && caption.contains("was lost"),
        "{caption}"
    );

    let w_last = wythoff_pos.len() - 1;
    let w_steps = [0, 1, 2, 1, 2, 1, w_last, w_last, 1, 0];
    let w_seen = seen["wythoff-play"].as_array().expect("wythoff replay");
    assert_eq!(w_seen.len(), w_steps.len());
    for (s, want) in w_seen.iter().zip(w_steps) {
        assert_eq!(s["step"], want, "{s:#}");
        let token = s["token"].as_array().expect("token");
        let (a, b) = (token[0].as_u64(), token[1].as_u64());
        assert_eq!(
            (a, b),
            (Some(wythoff_pos[want][0]), Some(wythoff_pos[want][1])),
            "the point at step {want}"
        );
        // 5 8 on a 300 px board with 30 px margins: x = 30 + a/8·240.
        let (cx, cy) = (
            token[2].as_f64().unwrap_or(-1.0),
            token[3].as_f64().unwrap_or(-1.0),
        );
        let x = 30.0 + wythoff_pos[want][0] as f64 / 8.0 * 240.0;
        let y = 270.0 - wythoff_pos[want][1] as f64 / 8.0 * 240.0;
        assert!((cx - x).abs() < 0.2 && (cy - y).abs() < 0.2, "{s:#}");
        assert_eq!(s["mistake"], want == 1, "{s:#}");
    }
    // The judge took the last stones: the point ends at the origin.
    assert_eq!(wythoff_pos[w_last], [0, 0]);

    // The screenshot: the Nim replay two moves in, its bars measured.
    let png = out_dir.join("replay.png");
    browse(
        &browser,
        &with_script(&page, "shot.html", SHOT),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=900,700",
        ],
    );
    let bars = bar_columns(&png);
    let want: Vec<u64> = nim_pos[2].iter().copied().filter(|&v| v > 0).collect();
    assert_eq!(
        bars.len(),
        want.len(),
        "one bar per non-empty pile: {bars:?} for {:?}",
        nim_pos[2]
    );
    let max = nim_pos[0].iter().copied().max().unwrap_or(1) as f64;
    for (px, v) in bars.iter().zip(&want) {
        let h = (*v as f64 / max * 192.0).max(2.0);
        assert!(
            (*px as f64 - h).abs() <= 2.0,
            "a bar of {px} px for {v} stones (expected about {h:.0}): {bars:?}"
        );
    }
}

/// The bars of a screenshot: runs of adjacent columns holding pixels of a
/// pile's colour (blue, or orange for the pile just moved), each with its
/// height in pixels (the most such pixels in one of its columns).
fn bar_columns(png_path: &Path) -> Vec<usize> {
    let file = std::fs::File::open(png_path).expect("screenshot");
    let mut decoder = png::Decoder::new(std::io::BufReader::new(file));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::STRIP_16);
    let mut reader = decoder.read_info().expect("PNG header");
    let mut buf = vec![0; reader.output_buffer_size().expect("PNG size")];
    let info = reader.next_frame(&mut buf).expect("PNG frame");
    let channels = info.color_type.samples();
    let (w, h) = (info.width as usize, info.height as usize);
    let near = |p: &[u8], c: [u8; 3]| (0..3).all(|i| p[i].abs_diff(c[i]) <= 10);
    let mut heights = vec![0usize; w];
    for y in 0..h {
        for (x, count) in heights.iter_mut().enumerate() {
            let i = (y * w + x) * channels;
            let p = &buf[i..i + 3];
            if near(p, [0x1e, 0x88, 0xe5]) || near(p, [0xfb, 0x8c, 0x00]) {
                *count += 1;
            }
        }
    }
    let mut bars = Vec::new();
    let mut run: Option<usize> = None;
    for &c in heights.iter().chain(std::iter::once(&0)) {
        match (c > 0, run) {
            (true, Some(m)) => run = Some(m.max(c)),
            (true, None) => run = Some(c),
            (false, Some(m)) => {
                bars.push(m);
                run = None;
            }
            (false, None) => {}
        }
    }
    bars
}

#[test]
fn the_feedback_quotes_the_lost_game() {
    let t = tempfile::tempdir().expect("tempdir");
    // Wrong side from the start (30 30 is lost for the mover), then one
    // stone at a time: a game of 60 moves, quoted by its last ones.
    let out_dir = grade(t.path(), &[("bea", "longnim", "c", nim_player("1", 0))]);
    let game = transcript(&out_dir, "bea", "longnim");
    let moves = game["moves"].as_array().expect("moves");
    assert!(moves.len() > 20, "{game:#}");
    let text = std::fs::read_to_string(out_dir.join("feedback/bea.txt")).expect("feedback/bea.txt");
    let quoted = text
        .split("the game you lost:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no game quoted:\n{text}"));
    let lines: Vec<&str> = quoted.lines().map(str::trim).collect();
    assert_eq!(lines[0], "game 1 of 1, start position: 30 30", "{text}");
    assert_eq!(
        lines[1],
        "you chose first, but the winning choice was second: the game was lost from the start",
        "{text}"
    );
    assert_eq!(
        lines[2],
        format!(
            "… {} earlier moves left out (all {} are in report.json)",
            moves.len() - 20,
            moves.len()
        ),
        "{text}"
    );
    // The last 20 moves, numbered, each as it was played.
    for (k, line) in lines[3..23].iter().enumerate() {
        let i = moves.len() - 20 + k;
        let who = if moves[i]["by"] == "judge" {
            "judge"
        } else {
            "you"
        };
        let mv = moves[i]["move"].as_str().unwrap_or("?");
        let want = format!("{}. {who}", i + 1);
        assert!(
            line.starts_with(&want) && line.ends_with(mv),
            "{line:?} is not move {} ({who} {mv}):\n{text}",
            i + 1
        );
    }
    assert_eq!(lines[23], game["result"].as_str().unwrap_or("?"), "{text}");
    // The report's replay of the same game opens on its start position.
    let html = std::fs::read_to_string(out_dir.join("report.html")).expect("report.html");
    assert!(
        html.contains("<h4>Replay: game 1 of 1, from 30 30</h4>"),
        "no replay in report.html"
    );
}

#[test]
fn judge_writes_the_replay_with_html() {
    let t = tempfile::tempdir().expect("tempdir");
    let dir = t.path();
    write(
        &dir.join("problems/wp/problem.yaml"),
        &spec("wp", "wythoff-play", "1\n5 8\n"),
    );
    let sub = dir.join("subs/wp.c");
    write(&sub, WYTHOFF_PLAYER);
    let page = dir.join("judged.html");
    let out = common::grundy_in(
        &dir.join("problems"),
        &[
            "judge",
            "wp",
            &sub.to_string_lossy(),
            "--html",
            &page.to_string_lossy(),
        ],
    );
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    let html = std::fs::read_to_string(&page).expect("the --html page");
    assert!(html.contains("data-rules=\"wythoff-play\""), "{html}");
    assert!(
        html.contains("<h4>Replay: game 1 of 1, from 5 8</h4>"),
        "{html}"
    );
    assert!(html.contains("class=\"you wrong\">you: 5 7 ←"), "{html}");
    assert_eq!(html.matches("<script>").count(), 1, "one script, once");
    // A folder that does not exist is a bad argument, found before judging.
    let bad = dir.join("no/such/dir/page.html");
    let out = common::grundy_in(
        &dir.join("problems"),
        &[
            "judge",
            "wp",
            &sub.to_string_lossy(),
            "--html",
            &bad.to_string_lossy(),
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", common::stderr(&out));
    assert!(
        common::stderr(&out).contains("--html"),
        "{}",
        common::stderr(&out)
    );
}
