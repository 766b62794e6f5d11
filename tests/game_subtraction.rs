//! A setter's subtraction game (take 1, 3 or 4 stones from one heap), made
//! from `grundy new` by replacing its game with a `game:` section, through
//! every command a catalog game has: `verify` checks the description's own
//! answers against its oracle (not skipped), `stress` shrinks a failure to
//! the smallest failing input, the exported input validator checks the
//! format (and `verifyproblem` accepts the package), and `mutants` takes a
//! Python reference and measures the derived tests with it.

mod common;

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use common::{Project, problemtools, stderr, stdout};

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}):\n{}\n{}", stdout(out), stderr(out)))
}

/// The skeleton's spec with its game replaced: one heap a case, the rules
/// in five lines, no reference, no generator, no validator.
const SPEC: &str = "id: sub
title: Subtraction Game
limits:
  time: 1s
  memory: 256MiB
game:
  heap: [1, 1000000000]
  moves:
    - take: [1, 3, 4]
  question: {winner: [First, Second]}
  cases: [1, 100]
samples:
  - input: |
      3
      1
      2
      7
    output: |
      First
      Second
      Second
";

/// The skeleton's statement with the rules and the sample of this game.
const STATEMENT: &str = "# Subtraction Game

There is a pile of $n$ stones. Two players move in turn, the first player
first; a move takes $1$, $3$ or $4$ stones from the pile. Whoever takes the
last stone wins. Who wins when both play as well as they can?

## Input

The first line holds $T$ ($1 \\le T \\le 100$), the number of games. Each of
the next $T$ lines holds one game: the size $n$ of the pile
($1 \\le n \\le 10^9$).

## Output

For each game, one line: `First` if the first player wins, else `Second`.

## Sample

```
3
1
2
7
```

```
First
Second
Second
```
";

/// A program right up to a heap of 22 (its table's end), and answering
/// `First` beyond: wrong from 23 on, where the first losing heap past the
/// table is (the losing heaps are 0 and 2 modulo 7).
const SHORT_TABLE: &str = "import sys
N = 22
G = [0] * (N + 1)
for a in range(1, N + 1):
    seen = {G[a - k] for k in (1, 3, 4) if k <= a}
    while G[a] in seen:
        G[a] += 1
data = sys.stdin.read().split()
for w in data[1:1 + int(data[0])]:
    n = int(w)
    print('Second' if n <= N and G[n] == 0 else 'First')
";

/// A right reference, in Python: the losing heaps are 0 and 2 modulo 7.
const REFERENCE_PY: &str = "import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for i in range(1, t + 1):
        n = int(data[i])
        out.append('Second' if n % 7 in (0, 2) else 'First')
    print('\\n'.join(out))


main()
";

/// Runs the exported validator on `input`; its exit code (42 valid, 43
/// invalid, as the package format says).
fn validate(validator: &Path, input: &str) -> Option<i32> {
    let mut child = Command::new("python3")
        .arg(validator)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run python3");
    let mut stdin = child.stdin.take().expect("stdin");
    // A validator may stop reading at the first bad token.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait().expect("wait").code()
}

#[test]
fn a_subtraction_game_from_grundy_new_verifies_stresses_exports_and_mutates() {
    let p = Project::empty();
    let out = p.grundy(&["new", "sub"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    // The setter's edit: the game replaces the skeleton's rules, its
    // reference, generator and validator, and its accepted program (all
    // for another game); its wrong program (odd heaps win) stays.
    let dir = p.path("problems/sub");
    for f in [
        "reference.rs",
        "generator.py",
        "validator.py",
        "submissions/accepted/solution.c",
    ] {
        std::fs::remove_file(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    }
    p.write("problems/sub/problem.yaml", SPEC);
    p.write("problems/sub/statement.md", STATEMENT);

    // verify: the oracle runs (searching small heaps) and agrees with the
    // proven answers; the wrong program is caught.
    let out = p.grundy(&["verify", "sub", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}\n{}", stderr(&out));
    let t = &v["problems"][0];
    assert_eq!(t["oracle"]["status"], "ok", "{t:#}");
    let detail = t["oracle"]["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("answers proven for heaps of any size"),
        "{detail}"
    );
    assert_eq!(t["input"]["status"], "ok", "{t:#}");

    // The values grundy proves: period 7, losing heaps 0 and 2 modulo 7.
    let out = p.grundy(&["game", "sub", "--values", "40", "--json"]);
    let g = json(&out);
    assert_eq!(g["period"]["length"], 7, "{g}");
    assert_eq!(g["period"]["proven"], true, "{g}");
    let values: Vec<u64> = g["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|x| x.as_u64().expect("a value"))
        .collect();
    // The smallest heap the short table gets wrong, from those values.
    let smallest = (23..40)
        .find(|&n| values[n] == 0)
        .expect("a losing heap past the table");
    assert_eq!(smallest, 23);

    // stress: the failure found on a random input shrinks to one case of
    // that heap.
    let wrong = p.write("subs/short_table.py", SHORT_TABLE);
    let out = p.grundy(&[
        "stress",
        "sub",
        &wrong.to_string_lossy(),
        "--json",
        "--time",
        "30",
        "--seed",
        "5",
    ]);
    let s = json(&out);
    assert_eq!(s["found"], true, "{s:#}\n{}", stderr(&out));
    let shrunk: Vec<u64> = s["input"]
        .as_str()
        .expect("input")
        .split_whitespace()
        .map(|t| t.parse().expect("a number"))
        .collect();
    assert_eq!(shrunk, vec![1, smallest as u64], "{s:#}");
    assert_eq!(s["expected"].as_str().map(str::trim), Some("Second"), "{s}");

    // export: the input validator is the game's format, not one that
    // accepts anything.
    let pkg = p.path("subpkg");
    let out = p.grundy(&["export", "sub", "--to", &pkg.to_string_lossy()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let validator = pkg.join("input_validators/validate/validate.py");
    assert!(
        validator.is_file(),
        "no validator at {}",
        validator.display()
    );
    for good in ["3\n1\n2\n7\n", "2\n1000000000\n1\n", "1\n5"] {
        assert_eq!(validate(&validator, good), Some(42), "valid: {good:?}");
    }
    let too_many = format!("101\n{}", "1\n".repeat(101));
    for bad in [
        "",
        "0\n",
        "1\n0\n",
        "1\n1000000001\n",
        "2\n5\n",
        "1\n5 6\n",
        "1\nfive\n",
        "1\n-3\n",
        too_many.as_str(),
    ] {
        assert_eq!(validate(&validator, bad), Some(43), "invalid: {bad:?}");
    }
    if problemtools::have("verifyproblem") {
        let config = problemtools::config(p.path("").as_path());
        let out = Command::new("verifyproblem")
            .arg(&pkg)
            .env("XDG_CONFIG_HOME", &config)
            .output()
            .expect("run verifyproblem");
        let text = format!("{}{}", stdout(&out), stderr(&out));
        assert!(
            out.status.success() && text.contains("subpkg tested: 0 errors"),
            "{text}"
        );
    }

    // A reference in Python: verify checks it against the oracle and the
    // proven answers, and mutants measures the derived tests with it.
    p.write("problems/sub/reference.py", REFERENCE_PY);
    p.write(
        "problems/sub/problem.yaml",
        &format!("{SPEC}reference: reference.py\n"),
    );
    let out = p.grundy(&["verify", "sub", "--json"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(0), "{v:#}\n{}", stderr(&out));
    assert_eq!(v["problems"][0]["reference"]["status"], "ok", "{v:#}");
    let out = p.grundy(&["mutants", "sub", "--json", "--jobs", "2"]);
    let m = json(&out);
    assert_eq!(out.status.code(), Some(0), "{m:#}\n{}", stderr(&out));
    assert!(
        m["reference"]
            .as_str()
            .is_some_and(|r| r.ends_with("reference.py")),
        "{m}"
    );
    let mutants = m["mutants"].as_array().expect("mutants");
    assert!(mutants.len() >= 5, "{m:#}");
    // The period, one off either way, is caught.
    for kind in ["literal-plus-1", "literal-minus-1"] {
        let found = mutants.iter().find(|x| {
            x["kind"] == kind
                && x["description"]
                    .as_str()
                    .is_some_and(|d| d.ends_with("in n % 7"))
        });
        let found = found.unwrap_or_else(|| panic!("no {kind} mutant of the period: {m:#}"));
        assert_eq!(found["outcome"], "killed", "{found}");
    }
    let survived: Vec<_> = mutants
        .iter()
        .filter(|x| x["outcome"] == "survived")
        .collect();
    assert!(survived.is_empty(), "{survived:#?}");
    assert_eq!(m["score"], 100.0, "{m}");
}
