//! Interactive problems through the CLI: real players, compiled and run in
//! the sandbox, play against the built-in game interactors.
//!
//! Every run of grundy here has a generous watchdog: a hang fails the test
//! instead of stalling the suite. No assertion depends on how fast the
//! machine is.

mod common;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::Project;

/// Long enough for a loaded machine compiling several players; a run that
/// takes longer is a hang.
const WATCHDOG: Duration = Duration::from_secs(240);

/// Runs grundy with a watchdog; panics (after killing it) if it hangs.
fn grundy(problems: &Path, args: &[&str]) -> (i32, String, String) {
    let cache = Path::new(env!("CARGO_TARGET_TMPDIR")).join("grundy-test-cache");
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .arg("--problems")
        .arg(problems)
        .arg("--cache")
        .arg(&cache)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start grundy");
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for grundy") {
            break status;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            let _ = child.wait();
            panic!("grundy {args:?} hung for {WATCHDOG:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    (status.code().unwrap_or(-1), stdout, stderr)
}

/// A project with one interactive problem `id` played by `interactor`, on
/// the given inline test inputs (one group each).
fn project(id: &str, interactor: &str, inputs: &[&str]) -> Project {
    let p = Project::empty();
    let mut spec = format!(
        "id: {id}\ntitle: Played\nsource: tests\nlimits:\n  time: 2s\ninteractor: {interactor}\ngroups:\n"
    );
    for (i, input) in inputs.iter().enumerate() {
        spec.push_str(&format!(
            "  - name: g{i}\n    points: 10\n    tests:\n      - input: {input:?}\n"
        ));
    }
    p.write(&format!("problems/{id}/problem.yaml"), &spec);
    p
}

fn judge(p: &Project, id: &str, name: &str, source: &str) -> serde_json::Value {
    let file = p.write(&format!("subs/{name}"), source);
    let f = file.to_string_lossy().into_owned();
    let (code, stdout, stderr) = grundy(&p.path("problems"), &["judge", id, &f, "--json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}), exit {code}:\n{stdout}\n{stderr}"));
    let r = v["results"][0].clone();
    let ac = r["verdict"] == "AC";
    assert_eq!(code, if ac { 0 } else { 1 }, "{stderr}");
    r
}

fn test_verdicts(r: &serde_json::Value) -> Vec<String> {
    common::verdicts(r)
}

/// A Nim player in C with hooks: `CHOICE` (1 = first), `BEFORE_GAME`,
/// `MOVE_PILE`/`MOVE_LEFT` (its move), `FLUSH`.
const NIM_TEMPLATE: &str = r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int T;
    if (scanf("%d", &T) != 1) return 1;
    for (int g = 0; g < T; g++) {
        BEFORE_GAME
        int n;
        long long a[105], x = 0;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) { scanf("%lld", &a[i]); x ^= a[i]; }
        int me = CHOICE;
        printf("%s\n", me ? "first" : "second");
        FLUSH
        for (;;) {
            long long left = 0;
            for (int i = 0; i < n; i++) left += a[i];
            if (left == 0) break;
            if (me) {
                x = 0;
                for (int i = 0; i < n; i++) x ^= a[i];
                int p = -1;
                for (int i = 0; i < n && p < 0; i++) if ((a[i] ^ x) < a[i]) p = i;
                if (p < 0) { for (int i = 0; i < n && p < 0; i++) if (a[i] > 0) p = i; a[p] -= 1; }
                else a[p] ^= x;
                printf("%d %lld\n", MOVE_PILE, MOVE_LEFT);
                FLUSH
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

fn nim_player(hooks: &[(&str, &str)]) -> String {
    let mut s = NIM_TEMPLATE.to_string();
    let defaults = [
        ("CHOICE", "x != 0"),
        ("BEFORE_GAME", ""),
        ("MOVE_PILE", "p + 1"),
        ("MOVE_LEFT", "a[p]"),
        ("FLUSH", "fflush(stdout);"),
    ];
    for (key, default) in defaults {
        let value = hooks
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(default, |(_, v)| v);
        s = s.replace(key, value);
    }
    s
}

/// Four games: two won by moving first, two by moving second.
const NIM_GAMES: &str = "4\n3 1 2 4\n3 1 2 3\n1 1000000000\n4 5 5 7 7\n";

#[test]
fn a_correct_player_is_accepted_in_every_game() {
    let p = project(
        "np",
        "nim-play",
        &[
            NIM_GAMES,
            "1\n100 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100\n",
        ],
    );
    let r = judge(&p, "np", "ok.c", &nim_player(&[]));
    assert_eq!(r["verdict"], "AC", "{r:#}");
    assert_eq!(test_verdicts(&r), ["AC", "AC"]);
    assert!(r["tests"][0].get("game").is_none(), "{r:#}");
}

#[test]
fn a_wrong_choice_is_wrong_answer_with_the_game_that_shows_it() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    for (name, choice, game) in [("first.c", "1", 2), ("second.c", "0", 1)] {
        let r = judge(&p, "np", name, &nim_player(&[("CHOICE", choice)]));
        assert_eq!(r["verdict"], "WA", "{r:#}");
        let t = &r["tests"][0];
        let msg = t["message"].as_str().unwrap_or("");
        assert!(msg.starts_with(&format!("game {game} of 4")), "{msg}");
        // The transcript: start position, the choice, every move.
        let g = &t["game"];
        assert_eq!(g["game"], game, "{g:#}");
        let want_choice = if choice == "1" { "first" } else { "second" };
        assert_eq!(g["choice"], want_choice);
        assert_ne!(g["right_choice"], want_choice);
        let moves = g["moves"].as_array().cloned().unwrap_or_default();
        assert!(!moves.is_empty(), "{g:#}");
        assert!(
            moves
                .iter()
                .all(|m| m["by"] == "judge" || m["by"] == "submission")
        );
        // The judge wins every game it is given: it made the last move.
        assert_eq!(moves.last().map(|m| m["by"].clone()), Some("judge".into()));
        let diff = t["diff"].as_str().unwrap_or("");
        assert!(diff.contains("start:") && diff.contains("judge"), "{diff}");
    }
}

#[test]
fn an_illegal_move_is_wrong_answer() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    let r = judge(
        &p,
        "np",
        "illegal.c",
        &nim_player(&[("MOVE_LEFT", "a[p] + 1000000000LL")]),
    );
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let msg = r["tests"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("illegal move"), "{msg}");
}

#[test]
fn a_player_that_never_flushes_is_stopped_as_idle() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    let r = judge(&p, "np", "noflush.c", &nim_player(&[("FLUSH", "")]));
    assert_eq!(r["verdict"], "TLE", "{r:#}");
    let msg = r["tests"][0]["message"].as_str().unwrap_or("");
    assert!(msg.starts_with("idle"), "{msg}");
}

#[test]
fn a_crash_mid_run_is_runtime_error() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    let r = judge(
        &p,
        "np",
        "crash.c",
        &nim_player(&[("BEFORE_GAME", "if (g == 2) abort();")]),
    );
    assert_eq!(r["verdict"], "RE", "{r:#}");
    let t = &r["tests"][0];
    assert!(t["signal"].as_i64().is_some(), "{t:#}");
    assert_eq!(t["game"]["game"], 3, "{t:#}");
}

/// After its winning last move, a player's input is closed, as an
/// interactor that exits closes it: one that keeps reading (a loop until
/// `scanf` fails, common in code written for such judges) gets its end of
/// input and exits, and is accepted; one that blocks without reading is
/// stopped, told that every game was won and only its exit was missing.
#[test]
fn after_the_last_game_the_input_ends_and_a_player_that_does_not_exit_is_told_so() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    for (name, after, verdict) in [
        (
            "reads.c",
            "{ int i; while (scanf(\"%d\", &i) == 1) {} return 0; }",
            "AC",
        ),
        ("blocks.c", "for (;;) pause();", "TLE"),
    ] {
        let player = nim_player(&[]);
        let end = player
            .rfind("    return 0;\n}")
            .expect("the player's last line");
        let source = format!(
            "#include <unistd.h>\n{}    {after}\n{}",
            &player[..end],
            &player[end..]
        );
        let r = judge(&p, "np", name, &source);
        assert_eq!(r["verdict"], verdict, "{name}: {r:#}");
        if verdict == "TLE" {
            let t = &r["tests"][0];
            let msg = t["message"].as_str().unwrap_or("");
            assert!(
                msg.starts_with("all games were won; the program did not exit"),
                "{name}: {msg}"
            );
            // Every game was played and won: only the exit was missing.
            assert_eq!(t["game"]["game"], 4, "{name}: {t:#}");
        }
    }
}

/// A line that decides the game (here the first token, neither `first`
/// nor `second`) followed at once by a crash is `WA`, not `RE`: docs/reference.md
/// says "whatever the submission does next", and the judge may see the
/// crash before it reads the line (crates/judge/src/judge/interactive.rs reproduces
/// both orders).
#[test]
fn a_crash_right_after_a_wrong_line_is_wrong_answer() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    let source = "#include <stdio.h>\n#include <stdlib.h>\n\
                  int main(void) { printf(\"garbage\\n\"); fflush(stdout); abort(); }\n";
    let r = judge(&p, "np", "garbage_then_crash.c", source);
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let msg = r["tests"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("`first` or `second`"), "{msg}");
}

#[test]
fn an_early_exit_with_status_zero_is_wrong_answer() {
    let p = project("np", "nim-play", &[NIM_GAMES]);
    let r = judge(
        &p,
        "np",
        "early.c",
        &nim_player(&[("BEFORE_GAME", "if (g == 2) return 0;")]),
    );
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let t = &r["tests"][0];
    assert_eq!(t["exit_code"], 0);
    let msg = t["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("game 3 of 4") && msg.contains("output ended"),
        "{msg}"
    );
}

/// The judge writes to a player that has closed its input: the write fails
/// (EPIPE) and the judge carries on to a verdict. It must not die of
/// SIGPIPE. The player closes stdin before its first move, so the judge's
/// reply to that move always finds the pipe without a reader.
#[test]
fn a_player_that_closes_its_input_does_not_kill_the_judge() {
    let p = project("np", "nim-play", &["1\n3 2 3 5\n"]);
    let r = judge(
        &p,
        "np",
        "closes.c",
        &nim_player(&[("CHOICE", "(fclose(stdin), x != 0)")]),
    );
    assert_eq!(r["verdict"], "WA", "{r:#}");
    let msg = r["tests"][0]["message"].as_str().unwrap_or("");
    assert!(msg.contains("game 1 of 1"), "{msg}");
}

#[test]
fn players_that_never_read_do_not_hang_the_judge() {
    // One that answers every game without reading a byte: with single
    // stones, `first` and `1 0` win, so it is right without listening.
    let games = format!("100\n{}", "1 1\n".repeat(100));
    let blind = "#include <stdio.h>\nint main(void){for(int i=0;i<100;i++){printf(\"first\\n1 0\\n\");}return 0;}\n";
    let p = project("np", "nim-play", &[&games]);
    let r = judge(&p, "np", "blind.c", blind);
    assert_eq!(r["verdict"], "AC", "{r:#}");
    // One that floods its output with blanks and never reads: stopped by a
    // limit, not left to hang.
    let flood = "#include <stdio.h>\nint main(void){printf(\"first\\n\");for(;;)fputs(\"                \",stdout);}\n";
    let r = judge(&p, "np", "flood.c", flood);
    let v = r["verdict"].as_str().unwrap_or("");
    assert!(["OLE", "TLE"].contains(&v), "{r:#}");
    // And one that writes garbage forever: wrong at its first token.
    let garbage = "#include <stdio.h>\nint main(void){for(;;)fputs(\"garbage \",stdout);}\n";
    let r = judge(&p, "np", "garbage.c", garbage);
    assert_eq!(r["verdict"], "WA", "{r:#}");
}

#[test]
fn misere_and_wythoff_players_are_judged_by_their_rules() {
    let misere = r#"import sys
def main():
    data = sys.stdin
    t = int(data.readline())
    for _ in range(t):
        a = list(map(int, data.readline().split()))[1:]
        def wins(p):
            if all(x <= 1 for x in p):
                return sum(p) % 2 == 0
            x = 0
            for v in p:
                x ^= v
            return x != 0
        def move(p):
            big = [i for i, v in enumerate(p) if v > 1]
            ones = sum(1 for v in p if v == 1)
            if not big:
                i = p.index(1)
                return i, 0
            if len(big) == 1:
                return big[0], (0 if ones % 2 == 1 else 1)
            x = 0
            for v in p:
                x ^= v
            for i, v in enumerate(p):
                if v ^ x < v:
                    return i, v ^ x
            i = next(i for i, v in enumerate(p) if v > 0)
            return i, p[i] - 1
        me = wins(a)
        print("first" if me else "second", flush=True)
        while sum(a) > 0:
            if me:
                i, x = move(a)
                a[i] = x
                print(i + 1, x, flush=True)
            else:
                parts = data.readline().split()
                if not parts or parts[0] == "-1":
                    return
                a[int(parts[0]) - 1] = int(parts[1])
            me = not me
main()
"#;
    let p = project(
        "mp",
        "misere-nim-play",
        &["5\n1 1\n2 1 1\n4 6 6 1 1\n3 1 1 5\n3 4 4 1\n"],
    );
    let r = judge(&p, "mp", "misere.py", misere);
    assert_eq!(r["verdict"], "AC", "{r:#}");
    // The normal rule is wrong in misère Nim.
    let r = judge(&p, "mp", "normal.c", &nim_player(&[]));
    assert_eq!(r["verdict"], "WA", "{r:#}");

    let wythoff = r#"#include <stdio.h>
typedef unsigned long long u64;
typedef unsigned __int128 u128;
static u64 isqrt(u128 n) { u128 x = (u128)__builtin_sqrtl((long double)n);
  while (x * x > n) x--; while ((x + 1) * (x + 1) <= n) x++; return (u64)x; }
static u64 lo(u64 k) { u128 K = k; return (u64)((K + isqrt(5 * K * K)) / 2); }
static int cold(u64 a, u64 b) { if (a > b) { u64 t = a; a = b; b = t; } return lo(b - a) == a; }
static u64 first_k(u64 a, int upper) { u64 l = 0, h = a; while (l < h) { u64 m = l + (h - l) / 2;
  u64 v = lo(m) + (upper ? m : 0); if (v >= a) h = m; else l = m + 1; } return l; }
static u64 partner(u64 a) { u64 k = first_k(a, 0); if (lo(k) == a) return a + k;
  u64 j = first_k(a, 1); return lo(j); }
int main(void) {
  int t; if (scanf("%d", &t) != 1) return 1;
  while (t--) {
    u64 x, y; scanf("%llu %llu", &x, &y);
    int me = !cold(x, y);
    printf("%s\n", me ? "first" : "second"); fflush(stdout);
    while (x + y > 0) {
      if (me) {
        int sw = x > y; u64 a = sw ? y : x, b = sw ? x : y, na, nb;
        u64 ca = lo(b - a);
        if (ca < a) { na = ca; nb = ca + (b - a); } else { na = a; nb = partner(a); }
        if (sw) { x = nb; y = na; } else { x = na; y = nb; }
        printf("%llu %llu\n", x, y); fflush(stdout);
      } else {
        long long u; unsigned long long v;
        if (scanf("%lld", &u) != 1 || u < 0) return 0;
        if (scanf("%llu", &v) != 1) return 0;
        x = (u64)u; y = v;
      }
      me = !me;
    }
  }
  return 0;
}
"#;
    let p = project(
        "wp",
        "wythoff-play",
        &["6\n3 5\n5 3\n0 7\n10 4\n1000000000000000000 1\n999999999999999999 999999999999999998\n"],
    );
    let r = judge(&p, "wp", "wythoff.c", wythoff);
    assert_eq!(r["verdict"], "AC", "{r:#}");
}

#[test]
fn an_unknown_interactor_is_a_spec_error_with_its_line() {
    let p = project("np", "go-play", &[NIM_GAMES]);
    let sub = p.write("subs/ok.c", &nim_player(&[]));
    let sub = sub.to_string_lossy().into_owned();
    let (code, _, stderr2) = grundy(&p.path("problems"), &["judge", "np", &sub, "--json"]);
    assert_eq!(code, 2, "{stderr2}");
    assert!(
        stderr2.contains("unknown interactor `go-play`"),
        "{stderr2}"
    );
    assert!(stderr2.contains("problem.yaml"), "{stderr2}");
}

/// A nim player whose ELF interpreter the kernel cannot load: it compiles,
/// and no run of it ever starts.
fn unloadable_player() -> String {
    format!(
        "{}__attribute__((section(\".interp\"), used)) static const char pad[5000] = \"x\";\n",
        nim_player(&[])
    )
}

/// Players the kernel refuses to execute (a 0-byte executable, a program
/// whose interpreter cannot be loaded) are `RE` on every game with the
/// reason, as on a plain problem: the submission's fault, not the judge's
/// (`IE`, exit 3), and judging goes on to the next test and the next
/// submission.
#[test]
fn a_player_that_cannot_start_is_runtime_error_on_every_test() {
    let p = project("np", "nim-play", &[NIM_GAMES, "1\n3 2 3 5\n"]);
    let empty = p.write("subs/empty", "");
    std::fs::set_permissions(&empty, std::os::unix::fs::PermissionsExt::from_mode(0o755))
        .expect("chmod");
    let unloadable = p.write("subs/interp.c", &unloadable_player());
    for (file, extra) in [
        (&empty, &["--lang", "exe"][..]),
        (&unloadable, &[][..]),
        (&empty, &["--lang", "exe", "--sandbox", "off"][..]),
    ] {
        let f = file.to_string_lossy().into_owned();
        let mut args = vec!["judge", "np", &f, "--json", "--all"];
        args.extend_from_slice(extra);
        let (code, stdout, stderr) = grundy(&p.path("problems"), &args);
        let v: serde_json::Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("not JSON ({e}), exit {code}:\n{stdout}\n{stderr}"));
        let r = &v["results"][0];
        assert_eq!(test_verdicts(r), ["RE", "RE"], "{args:?}: {r:#}\n{stderr}");
        for t in 0..2 {
            let message = r["tests"][t]["message"].as_str().unwrap_or_default();
            assert!(
                message.contains("the program could not be started"),
                "{args:?}: {message}"
            );
        }
        assert_eq!(code, 1, "{args:?}: {stderr}");
    }
    let r = judge(&p, "np", "ok.c", &nim_player(&[]));
    assert_eq!(test_verdicts(&r), ["AC", "AC"], "{r:#}");
}
