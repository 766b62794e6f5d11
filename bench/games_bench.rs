//! Figures for the games described in YAML (`game:`), per problem: the
//! time to read the description and derive one heap's values with their
//! proven period, to derive the oracle's small cases, to generate every
//! test with its answer; and the time to answer one input of 10^5 heaps of
//! up to 10^18 tokens in-process, beside the accepted programs' run time
//! on the same input (wall, one run each, as `bench/games.sh` prints).
//!
//!   cargo run --release --example games_bench -- [PROBLEM...]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use grundy::generate::Rng;

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

/// A position of 10^5 heaps of up to 10^18 tokens, in this problem's
/// input format (parameters at their largest).
fn big_input(game: &grundy::catalog::described::GameSpec) -> Option<String> {
    use grundy::catalog::described::Position;
    let Position::Heaps { count, size } = game.position else {
        return None;
    };
    if count.max < 100_000 || size.max < 1_000_000_000_000_000_000 {
        return None;
    }
    let mut rng = Rng::new(2024);
    let heaps: Vec<u64> = (0..100_000)
        .map(|_| rng.range(size.max / 2, size.max))
        .collect();
    let params: Vec<u64> = game.parameters.iter().map(|(_, b)| b.max.min(20)).collect();
    let case = game.write_case(&params, &heaps);
    Some(game.input_format().render(&[case]))
}

/// Wall time of `argv` on `input`, and its output.
fn run(argv: &[&str], input: &Path) -> Option<(Duration, String)> {
    let file = std::fs::File::open(input).ok()?;
    let started = Instant::now();
    let out = Command::new(argv[0])
        .args(&argv[1..])
        .stdin(file)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    Some((
        started.elapsed(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let set = grundy::problem::ProblemSet::new(root.join("problems"));
    let mut ids: Vec<String> = std::env::args().skip(1).collect();
    if ids.is_empty() {
        ids = [
            "subtraction-game",
            "kayles",
            "dawsons-kayles",
            "moore-nim",
            "kayles-play",
        ]
        .map(String::from)
        .to_vec();
    }
    let work = tempfile::tempdir().expect("tmp");
    println!(
        "{:<18} {:>9} {:>9} {:>9} {:>7} {:>9} | {:>12} {:>10} {:>10} {:>10}",
        "problem",
        "values ms",
        "oracle ms",
        "tests ms",
        "tests",
        "period",
        "10^5 heaps:",
        "grundy ms",
        "C++ ms",
        "Python ms"
    );
    for id in &ids {
        let started = Instant::now();
        let problem = match set.find(id) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("{id}: {e}");
                continue;
            }
        };
        let Some(game) = problem.game.clone() else {
            eprintln!("{id}: not a described game");
            continue;
        };
        let analysis = game.first_analysis();
        let values_time = started.elapsed();
        let period = analysis
            .as_ref()
            .and_then(|a| a.heap_values().and_then(|h| h.period()))
            .map_or("none".to_string(), |p| format!("{}@{}", p.length, p.from));
        let started = Instant::now();
        let oracle = game.oracle_cases();
        let oracle_time = started.elapsed();
        let started = Instant::now();
        let none = |_: &Path,
                    _: Option<u64>,
                    _: &[String]|
         -> Result<(Vec<u8>, Option<Vec<u8>>), String> {
            Err("no programs".into())
        };
        let tests =
            grundy::generate::materialise(&problem.recipe(), None, &problem.families(), &none)
                .expect("tests");
        if !game.played() {
            for t in &tests {
                let text = String::from_utf8_lossy(&t.input);
                game.answer(&text).expect("every test answered");
            }
        }
        let tests_time = started.elapsed();
        let _ = oracle.len();
        let (mut ours, mut cpp, mut py) = ("-".to_string(), "-".to_string(), "-".to_string());
        if let Some(input) = big_input(&game) {
            let path = work.path().join(format!("{id}.in"));
            std::fs::write(&path, &input).expect("write");
            let started = Instant::now();
            let want = game.answer(&input).expect("answered");
            ours = ms(started.elapsed());
            let accepted = problem.dir.join("submissions/accepted");
            let exe = work.path().join(format!("{id}-cpp"));
            let built = Command::new("g++")
                .args(["-O2", "-o"])
                .arg(&exe)
                .arg(accepted.join("solution.cpp"))
                .status()
                .is_ok_and(|s| s.success());
            if built && let Some((t, out)) = run(&[&exe.to_string_lossy()], &path) {
                assert_eq!(out.trim(), want.trim(), "{id}: the C++ program disagrees");
                cpp = ms(t);
            }
            let script = accepted.join("solution.py");
            if let Some((t, out)) = run(&["python3", &script.to_string_lossy()], &path) {
                assert_eq!(
                    out.trim(),
                    want.trim(),
                    "{id}: the Python program disagrees"
                );
                py = ms(t);
            }
        }
        println!(
            "{:<18} {:>9} {:>9} {:>9} {:>7} {:>9} | {:>12} {:>10} {:>10} {:>10}",
            id,
            ms(values_time),
            ms(oracle_time),
            ms(tests_time),
            tests.len(),
            period,
            "",
            ours,
            cpp,
            py
        );
    }
}
