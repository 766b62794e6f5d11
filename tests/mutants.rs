//! `grundy mutants`: the catalog's tests kill every non-equivalent mutant of
//! its busiest references, a problem with a group removed loses mutation
//! score, and `--harden` writes the tests that win it back.

mod common;

use std::path::{Path, PathBuf};

use common::{stderr, stdout};

fn repo(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// `grundy mutants ARGS --json` on `problems`: one object per problem.
fn mutants(problems: &Path, args: &[&str]) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut all = vec!["mutants", "--json"];
    all.extend_from_slice(args);
    let out = common::grundy_in(problems, &all);
    let objects = stdout(&out)
        .lines()
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| {
                panic!("not JSON ({e}): {l}\n{}", stderr(&out));
            })
        })
        .collect::<Vec<serde_json::Value>>();
    // Every caller reads the first report: a command that wrote none says
    // why on stderr, which is what a failure must show.
    assert!(
        !objects.is_empty(),
        "`grundy {}` wrote no report (exit {:?}); stderr:\n{}",
        all.join(" "),
        out.status.code(),
        stderr(&out)
    );
    (out.status.code(), objects)
}

fn count(o: &serde_json::Value, what: &str) -> u64 {
    o["counts"][what]
        .as_u64()
        .unwrap_or_else(|| panic!("no count {what} in {o}"))
}

/// A copy of catalog problem `id` (spec, statement, reference; no
/// submissions, so the reference is the one program mutated) in a
/// temporary project, with the groups `drop` removed from its spec.
fn weakened_copy(id: &str, drop: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    let problem = dir.path().join("problems").join(id);
    std::fs::create_dir_all(&problem).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("reference")).expect("mkdir");
    for file in ["problem.yaml", "statement.md"] {
        std::fs::copy(repo(&format!("problems/{id}/{file}")), problem.join(file)).expect("copy");
    }
    let reference = format!("reference/{id}.rs");
    std::fs::copy(repo(&reference), dir.path().join(&reference)).expect("copy reference");
    // Cut each group's lines (and the comment lines just above it) out of
    // the spec text.
    let spec = problem.join("problem.yaml");
    let mut text = std::fs::read_to_string(&spec).expect("spec");
    for group in drop {
        text = without_group(&text, id, group);
    }
    std::fs::write(&spec, text).expect("write spec");
    dir
}

/// `text` (a spec) without the group `drop` and the comments just above it.
fn without_group(text: &str, id: &str, drop: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .position(|l| l.trim() == format!("- name: {drop}"))
        .unwrap_or_else(|| panic!("{id} has no group {drop}"));
    let mut first = start;
    while first > 0 && lines[first - 1].trim_start().starts_with('#') {
        first -= 1;
    }
    let end = lines[start + 1..]
        .iter()
        .position(|l| {
            let t = l.trim_start();
            t.starts_with("- name:") || t.starts_with('#') || !l.starts_with(' ')
        })
        .map_or(lines.len(), |k| start + 1 + k);
    let kept: Vec<&str> = lines[..first]
        .iter()
        .chain(&lines[end..])
        .copied()
        .collect();
    kept.join("\n") + "\n"
}

/// A classic mistake: a misère Nim solution
/// that plays the single-stone endgame unless at least *two* piles hold
/// more than one stone. Before `--harden` the 48 tests of `misere-nim`
/// accepted it.
const TWO_BIG_PILES: &str = "problems/misere-nim/submissions/wrong_answer/two_big_piles.c";

/// `grundy judge ID TWO_BIG_PILES --all` on `problems`: its result object.
fn judge_two_big_piles(problems: &Path, id: &str) -> serde_json::Value {
    let program = repo(TWO_BIG_PILES);
    let program = program.to_string_lossy();
    let out = common::grundy_in(problems, &["judge", id, &program, "--json", "--all"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {}\n{}", stdout(&out), stderr(&out)));
    v["results"][0].clone()
}

/// The names of the groups holding a test the result failed.
fn failed_groups(result: &serde_json::Value) -> Vec<String> {
    let mut groups: Vec<String> = result["tests"]
        .as_array()
        .unwrap_or_else(|| panic!("no tests in {result}"))
        .iter()
        .filter(|t| t["verdict"] != "AC")
        .map(|t| t["group"].as_str().unwrap_or("?").to_string())
        .collect();
    groups.dedup();
    groups
}

/// The catalog's `misere-nim` rejects the "two piles above one" program,
/// and a test that does is one `--harden` wrote (a group named for the
/// mutant it kills), not one added by hand for that program.
#[test]
fn the_two_piles_above_one_mistake_is_rejected_by_a_hardened_test() {
    let result = judge_two_big_piles(&repo("problems"), "misere-nim");
    assert_eq!(result["verdict"], "WA", "{result}");
    let groups = failed_groups(&result);
    assert!(
        groups.iter().any(|g| g.starts_with("anti-mutant-")),
        "{groups:?}: {result}"
    );
}

#[test]
fn a_weakened_problem_loses_score_and_harden_wins_it_back() {
    let id = "misere-nim";
    // The group `--harden` added for the reference's `big > 0` taken as
    // `big > 1` (the "two piles above one" idea): without it (and without
    // the range and format groups, whose odd inputs may catch it too) that
    // mutant survives.
    let project = weakened_copy(id, &["anti-mutant-26-literal-plus-1", "range", "format"]);
    let problems = project.path().join("problems");
    let spec = problems.join(id).join("problem.yaml");
    let before = std::fs::read_to_string(&spec).expect("spec");
    // Without that group the "two piles above one" program passes.
    let accepted = judge_two_big_piles(&problems, id);
    assert_eq!(accepted["verdict"], "AC", "{accepted}");
    let (code, weak) = mutants(&problems, &[id, "--jobs", "2"]);
    assert_eq!(code, Some(1), "{weak:?}");
    let survived = count(&weak[0], "survived");
    assert!(survived >= 1, "{}", weak[0]);
    assert!(weak[0]["score"].as_f64().unwrap_or(100.0) < 100.0);
    // Every survivor comes with an input on which it is wrong.
    for m in weak[0]["mutants"].as_array().expect("mutants") {
        if m["outcome"] == "survived" {
            assert_ne!(m["expected"], m["actual"], "{m}");
            assert!(m["input"].as_str().is_some_and(|i| !i.is_empty()), "{m}");
        }
    }

    let (code, hardened) = mutants(&problems, &[id, "--jobs", "2", "--harden"]);
    assert_eq!(code, Some(0), "{hardened:?}");
    assert_eq!(hardened[0]["hardened"]["score"], 100.0, "{}", hardened[0]);
    let after = std::fs::read_to_string(&spec).expect("spec");
    // The spec only grew: everything that was there is still there, in order.
    assert!(after.starts_with(before.trim_end()), "{after}");
    let added = after.matches("- name: anti-mutant-").count() as u64;
    assert!(
        (1..=survived).contains(&added),
        "{added} groups for {survived}: {after}"
    );

    // The test `--harden` wrote by itself rejects that program again.
    let rejected = judge_two_big_piles(&problems, id);
    assert_eq!(rejected["verdict"], "WA", "{rejected}");
    let groups = failed_groups(&rejected);
    assert!(
        !groups.is_empty() && groups.iter().all(|g| g.starts_with("anti-mutant-")),
        "{groups:?}: {rejected}"
    );

    // The next run, on the spec as written, kills them all.
    let (code, again) = mutants(&problems, &[id, "--jobs", "2"]);
    assert_eq!(code, Some(0), "{again:?}");
    assert_eq!(count(&again[0], "survived"), 0);
    assert_eq!(again[0]["score"], 100.0);
}

/// Seconds each busy problem may start mutants for in CI. On a 2-core
/// machine under a load of 12 to 15, `--jobs 2` judged 87 of wythoff-play's
/// 124 mutants, 39 of misere-nim-play's 113 and 27 of nim-play's 61 in
/// that time (the equivalent players, ~900 games each, cost most), spread
/// over each reference, and the three runs took 140 s; nothing asserted
/// depends on how many were judged in time.
const CI_BUDGET: &str = "40";

/// The catalog problems ordered by how many mutants their accepted
/// programs have (the reference and every accepted submission), most
/// first: the same generator the command uses, without judging.
fn catalog_by_mutants() -> Vec<(String, usize)> {
    let mut all = Vec::new();
    let entries = std::fs::read_dir(repo("problems")).expect("problems/");
    for entry in entries {
        let dir = entry.expect("problems/ entry").path();
        if !dir.join("problem.yaml").is_file() {
            continue;
        }
        let problem = grundy::problem::load(&dir.join("problem.yaml"))
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        let widths = grundy::mutants::programs::widths(&problem);
        let mut count = 0;
        for program in grundy::mutants::programs::of(&problem) {
            let source = std::fs::read_to_string(&program.path)
                .unwrap_or_else(|e| panic!("{}: {e}", program.path.display()));
            count += grundy::mutants::mutants(program.language, &source, &widths)
                .unwrap_or_else(|e| panic!("{}: {e}", program.path.display()))
                .len();
        }
        all.push((problem.id.0.clone(), count));
    }
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    all
}

/// CI's mutation check: the three catalog problems whose programs have
/// the most mutants (the played ones today), each bounded by its own time
/// budget (mutants not started by then are "not run"); every mutant judged
/// must be killed, equivalent, unviable or a sample timeout.
#[test]
fn the_busiest_references_have_no_surviving_mutant() {
    let ranked = catalog_by_mutants();
    assert!(ranked.len() >= 3, "{ranked:?}");
    for (id, generated) in &ranked[..3] {
        let (_, out) = mutants(
            &repo("problems"),
            &[id, "--jobs", "2", "--time-budget", CI_BUDGET],
        );
        let o = &out[0];
        assert_eq!(o["problem"], id.as_str(), "{o}");
        assert_eq!(count(o, "mutants"), *generated as u64, "{o}");
        assert_eq!(count(o, "survived"), 0, "{o}");
        assert_eq!(count(o, "error"), 0, "{o}");
        assert!(count(o, "killed") >= 1, "{o}");
    }
}

/// A correct Rust solution of the toy problem of `common`.
const TOY_RS: &str = r#"use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let v: Vec<u64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();
    let mut x = 0;
    for a in &v[1..] {
        x ^= a;
    }
    let answer = if x != 0 { "Alice" } else { "Bob" };
    println!("{answer}");
}
"#;

/// A user's package whose reference is C and whose accepted submission is
/// Rust: both are mutated, the report counts each program and the union,
/// and the toy's tests reject the flipped condition of each.
#[test]
fn a_package_of_ones_own_mutates_every_accepted_program() {
    let p = common::Project::toy("");
    let package = p.path("problems/toy");
    let dir = package.to_string_lossy().into_owned();
    p.write("problems/toy/submissions/accepted/xor.rs", TOY_RS);
    let (_, out) = mutants(&p.path("problems"), &[&dir, "--jobs", "2"]);
    let o = &out[0];
    assert!(
        o["reference"]
            .as_str()
            .is_some_and(|r| r.ends_with("reference/toy.c")),
        "{o}"
    );
    let programs = o["programs"].as_array().expect("programs");
    let languages: Vec<&str> = programs
        .iter()
        .map(|p| p["language"].as_str().unwrap_or("?"))
        .collect();
    assert_eq!(languages, ["c", "rust"], "{o}");
    let per_program: u64 = programs
        .iter()
        .map(|p| p["counts"]["mutants"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(per_program, count(o, "mutants"), "{o}");
    assert!(
        programs
            .iter()
            .all(|p| p["counts"]["mutants"].as_u64() >= Some(5)),
        "{o}"
    );
    // The toy's tests reject the flipped comparison `x == 0` in Rust and
    // the negated `x ? … : …` in C.
    let find = |language: &str, kind: &str| {
        o["mutants"]
            .as_array()
            .and_then(|a| {
                a.iter()
                    .find(|m| m["language"] == language && m["kind"] == kind)
            })
            .unwrap_or_else(|| panic!("no {kind} mutant of the {language} program: {o}"))
            .clone()
    };
    assert_eq!(find("rust", "ne-to-eq")["outcome"], "killed");
    assert_eq!(find("c", "negate-condition")["outcome"], "killed");
    // The C reference's `int` narrowed to `short` is a representation mutant.
    assert_eq!(find("c", "narrow-int-to-short")["class"], "representation");

    // Only the programs asked for.
    let rs = p.path("problems/toy/submissions/accepted/xor.rs");
    let rs = rs.to_string_lossy().into_owned();
    let (_, out) = mutants(
        &p.path("problems"),
        &[&dir, "--jobs", "2", "--program", &rs, "--kind", "ne-to-eq"],
    );
    assert_eq!(
        out[0]["programs"].as_array().map(Vec::len),
        Some(1),
        "{}",
        out[0]
    );
    assert_eq!(count(&out[0], "mutants"), 1, "{}", out[0]);
}

/// `verify --mutants` adds the mutation score to verify's table.
#[test]
fn verify_shows_the_mutation_score() {
    // nim without its submissions: the reference's mutants only, so that
    // the test stays short.
    let project = weakened_copy("nim", &[]);
    let out = common::grundy_in(
        &project.path().join("problems"),
        &["verify", "nim", "--mutants", "--jobs", "2"],
    );
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}\n{}", stderr(&out));
    let mut lines = text.lines();
    let header = lines.next().unwrap_or("");
    assert!(header.contains("mutants"), "{text}");
    let row = lines.next().unwrap_or("");
    assert!(row.starts_with("nim ") && row.contains("100.0%"), "{text}");
}

/// A small correct Nim player (few mutants, so the tests stay short). From
/// a won position it always faces a non-zero nim-sum, so `v ^ s <= v`
/// picks the same pile as `v ^ s < v`: that mutant is equivalent.
const NIM_PLAYER_RS: &str = r#"use std::io::{self, BufRead, Write};
fn main() {
    let stdin = io::stdin();
    let mut words = stdin
        .lock()
        .lines()
        .map_while(Result::ok)
        .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
        .map(|w| w.parse::<u64>().unwrap_or(0));
    let mut out = io::stdout();
    let games = words.next().unwrap_or(0);
    for _ in 0..games {
        let n = words.next().unwrap_or(0) as usize;
        let mut a: Vec<u64> = (0..n).map(|_| words.next().unwrap_or(0)).collect();
        let mut mine = a.iter().fold(0, |s, &v| s ^ v) != 0;
        writeln!(out, "{}", if mine { "first" } else { "second" }).ok();
        out.flush().ok();
        while a.iter().any(|&v| v > 0) {
            if mine {
                let s = a.iter().fold(0, |s, &v| s ^ v);
                let i = a.iter().position(|&v| v ^ s < v).unwrap_or(0);
                a[i] ^= s;
                writeln!(out, "{} {}", i + 1, a[i]).ok();
                out.flush().ok();
            } else {
                let i = words.next().unwrap_or(0) as usize;
                let x = words.next().unwrap_or(0);
                if i == 0 {
                    return;
                }
                a[i - 1] = x;
            }
            mine = !mine;
        }
    }
}
"#;

/// A project holding a copy of `nim-play` with the given groups and the
/// small player above as its reference.
fn played_copy(groups: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temporary folder");
    let problem = dir.path().join("problems/nim-play");
    std::fs::create_dir_all(&problem).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("reference")).expect("mkdir");
    std::fs::copy(
        repo("problems/nim-play/statement.md"),
        problem.join("statement.md"),
    )
    .expect("copy statement");
    let spec = format!(
        "id: nim-play\ntitle: Play Nim\nseed: 5\nlimits:\n  time: 2s\n  memory: 256MiB\ninteractor: nim-play\ngroups:\n{groups}"
    );
    std::fs::write(problem.join("problem.yaml"), spec).expect("write spec");
    std::fs::write(dir.path().join("reference/nim-play.rs"), NIM_PLAYER_RS).expect("reference");
    dir
}

/// Played problems: a copy of `nim-play` whose only games are single piles
/// (the player takes them all) lets wrong players through; the search finds
/// a game each survivor loses, and `--harden` adds that game as a test
/// that kills it.
#[test]
fn a_weakened_played_problem_has_survivors_that_harden_kills() {
    let project = played_copy(
        "  - name: trivial\n    points: 100\n    tests:\n      - input: \"2\\n1 5\\n1 3\\n\"\n",
    );
    let problems = project.path().join("problems");
    let spec = problems.join("nim-play/problem.yaml");
    let before = std::fs::read_to_string(&spec).expect("spec");
    let (code, out) = mutants(&problems, &["nim-play", "--jobs", "2", "--harden"]);
    let o = &out[0];
    assert_eq!(o["played"], true, "{o}");
    let survived = count(o, "survived");
    assert!(survived >= 1, "{o}");
    assert!(o["score"].as_f64().unwrap_or(100.0) < 100.0, "{o}");
    for m in o["mutants"].as_array().expect("mutants") {
        if m["outcome"] == "survived" {
            // One game, a position the tests do not hold, that it loses.
            let input = m["input"].as_str().unwrap_or("");
            assert!(
                input.starts_with("1\n") && input.lines().count() == 2,
                "{m}"
            );
            assert!(!before.contains(input.lines().nth(1).unwrap_or("?")), "{m}");
            assert!(
                m["message"].as_str().is_some_and(|s| s.contains("loses")),
                "{m}"
            );
        }
    }
    assert_eq!(code, Some(0), "{out:?}");
    assert_eq!(o["hardened"]["score"], 100.0, "{o}");
    assert_eq!(count(&o["hardened"], "survived"), 0, "{o}");
    let after = std::fs::read_to_string(&spec).expect("spec");
    assert!(after.starts_with(before.trim_end()), "{after}");
    let added = after.matches("- name: anti-mutant-").count() as u64;
    assert!(
        (1..=survived).contains(&added),
        "{added} for {survived}: {after}"
    );
    // Each new test is one played game.
    let value: serde_yaml::Value = serde_yaml::from_str(&after).expect("YAML");
    let groups = value["groups"].as_sequence().expect("groups");
    for g in &groups[1..] {
        let input = g["tests"][0]["input"].as_str().unwrap_or("");
        assert!(input.starts_with("1\n"), "{input:?}");
    }
}

/// A mutant of a player that wins every game is equivalent, and the
/// evidence is the games it won, not answers compared.
#[test]
fn an_equivalent_player_mutant_is_shown_by_the_games_it_won() {
    let project = played_copy(
        "  - name: games\n    points: 100\n    tests:\n      - input: \"3\\n3 1 2 3\\n2 5 1\\n1 4\\n\"\n      - generator: nim-play-games\n        params: {games: 40, n: [1, 4], max: 7, losing: 0.5}\n",
    );
    let problems = project.path().join("problems");
    let out = common::grundy_in(&problems, &["mutants", "nim-play", "--jobs", "2"]);
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.ends_with("replace < with <= in v ^ s < v"))
        .unwrap_or_else(|| {
            panic!(
                "the `<=` mutant is not reported equivalent:\n{text}\n{}",
                stderr(&out)
            )
        });
    assert!(lines[at].trim_start().starts_with("equivalent "), "{text}");
    // Every multiset of 1 to 4 piles of 1 to 7 stones, then positions
    // across the whole range, then random games.
    let evidence = lines.get(at + 1).copied().unwrap_or("").trim();
    let counts: Option<(u64, u64)> = evidence
        .strip_prefix("won all 329 games from small positions, ")
        .and_then(|r| r.strip_suffix(" random ones"))
        .and_then(|r| {
            let (range, random) = r.split_once(" from positions across the whole range ")?;
            let random = random.rsplit(" and ").next()?;
            Some((range.parse().ok()?, random.parse().ok()?))
        });
    let (range, random) = counts.unwrap_or_else(|| panic!("evidence: {evidence:?}\n{text}"));
    assert!(range >= 50, "{text}");
    assert!(random >= 100, "{text}");
    assert!(!text.contains("0 small positions"), "{text}");
}

/// Mutants are judged through the judge's one pool and slot scheduler, as
/// `judge` and `grade` are: every test run of the measure (the programs'
/// check, each mutant's tests and its search) takes a slot of the slots it
/// is given, so `--jobs` bounds the runs using a CPU whoever starts them.
#[test]
fn every_run_of_a_measure_takes_a_slot_of_the_judges_scheduler() {
    use grundy::judge::{Context, Slots};
    use std::sync::Arc;
    let p = common::Project::toy("");
    let problem =
        grundy::problem::load(&p.path("problems/toy/problem.yaml")).expect("the toy spec");
    let cache = grundy::cache::Cache::open(p.path("cache")).expect("a cache");
    let ctx = Context::new(
        cache,
        grundy::language::Languages::default(),
        grundy::sandbox::Runner::new(grundy::sandbox::Mode::Auto),
    )
    .expect("a context");
    let slots = Arc::new(Slots::new(2));
    let options = grundy::mutants::Options {
        jobs: 2,
        slots: Some(slots.clone()),
        kinds: vec!["negate-condition".into()],
        ..grundy::mutants::Options::default()
    };
    let measured = grundy::mutants::run(&problem, &ctx, &options, &|_| {}).expect("measured");
    let c = measured.counts();
    assert!(c.killed >= 1, "{c:?}");
    let judged = c.killed + c.survived + c.equivalent + c.timeout;
    // The reference's own check runs the toy's four tests; each judged
    // mutant runs at least one more.
    assert!(
        slots.runs_started() >= 4 + judged,
        "{} runs through the slots for {judged} mutants judged: {c:?}",
        slots.runs_started()
    );
}

/// Put first in the toy's correct C solution: its fifth run, whichever
/// program of its mutants makes it, sleeps past the wall-time limit: what
/// a run delayed by a busy machine looks like. Each run appends a byte to
/// `COUNTER` (the file's size is the run's number); no branch of its own,
/// so that `negate-condition` mutates only the toy's logic.
const SLOW_FIFTH_RUN: &str = r#"int main(void) {
    FILE *f = fopen("COUNTER", "a");
    fputc('.', f);
    long k = ftell(f);
    fclose(f);
    sleep(60 * (k == 5));
"#;

/// A mutant one of whose runs timed out while it waited (wall time, not
/// CPU time) is judged again, and the second judging counts: a busy
/// machine neither kills a mutant nor saves one. The accepted program's
/// four tests run first (its check), so the fifth run is the first of the
/// first mutant judged; each of the two mutants is killed by a wrong
/// answer or a crash. The program writes its counter outside any folder of
/// the judge's, so the sandbox is off (the program is the test's own).
#[test]
fn a_mutant_that_timed_out_waiting_is_judged_again() {
    let p = common::Project::toy("");
    let counter = p.path("runs");
    let slow = SLOW_FIFTH_RUN.replace("COUNTER", &counter.to_string_lossy());
    let source = format!(
        "#include <unistd.h>\n{}",
        common::TOY_C.replacen("int main(void) {\n", &slow, 1)
    );
    assert!(
        source.contains("sleep("),
        "TOY_C changed: the test's edit no longer applies"
    );
    p.write("problems/toy/submissions/accepted/slow_once.c", &source);
    let package = p.path("problems/toy");
    let dir = package.to_string_lossy().into_owned();
    let program = p.path("problems/toy/submissions/accepted/slow_once.c");
    let program = program.to_string_lossy().into_owned();
    let (_, out) = mutants(
        &p.path("problems"),
        &[
            &dir,
            "--jobs",
            "1",
            "--sandbox",
            "off",
            "--program",
            &program,
            "--kind",
            "negate-condition",
        ],
    );
    let o = &out[0];
    // The slow run happened (else this test shows nothing).
    let runs = std::fs::metadata(&counter).map(|m| m.len()).unwrap_or(0);
    assert!(runs > 5, "the program ran {runs} times: {o}");
    let mutants = o["mutants"].as_array().expect("mutants");
    assert_eq!(mutants.len(), 2, "{o}");
    for m in mutants {
        assert_eq!(m["outcome"], "killed", "{m}");
        assert_ne!(m["verdict"], "TLE", "{m}");
    }
}
