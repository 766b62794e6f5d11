//! A description read into its format, answers, oracle and generators.

use super::*;
use crate::generate::{Params, Rng};

fn game(yaml: &str) -> GameSpec {
    let raw: RawGame = serde_yaml::from_str(yaml).expect("YAML");
    GameSpec::try_from(raw).expect("a valid description")
}

fn params(yaml: &str) -> Params {
    serde_yaml::from_str(yaml).expect("params")
}

const SUBTRACTION: &str = "heaps: [1, 100000]
tokens: [1, 1000000000000000000]
moves: [{take: [1, 3, 4]}]
question: {winner: [First, Second]}";

const KAYLES_MOVE: &str = "heaps: [1, 10]
tokens: [1, 1000]
moves: [{octal: \"0.77\"}]
question: {move: lose}
cases: [1, 100]
list: same-line";

const BASH: &str = "heap: [1, 1000]
parameters: {m: [1, 1000]}
moves: [{take: {max: m}}]
question: {winner: [first, second]}
cases: [1, 100]";

#[test]
fn the_format_follows_the_description() {
    let g = game(BASH);
    let f = g.input_format();
    assert_eq!(f.check_text("2\n10 3\n8 3\n"), Ok(()));
    assert!(
        f.check_text("1\n10 0\n").is_err(),
        "m = 0 is outside 1..=1000"
    );
    assert_eq!(g.answer("2\n10 3\n8 3\n"), Ok("first\nsecond\n".into()));
    let k = game(KAYLES_MOVE);
    assert_eq!(k.input_format().check_text("1\n2 3 4\n"), Ok(()));
}

#[test]
fn answers_come_from_the_proven_period_for_huge_heaps() {
    let g = game(SUBTRACTION);
    // G(10^18) = G(10^18 mod 7) = G(6) = 2; two of them cancel.
    let big = 1_000_000_000_000_000_000u64;
    assert_eq!(g.answer(&format!("1\n{big}\n")), Ok("First\n".into()));
    assert_eq!(
        g.answer(&format!("2\n{big} {big}\n")),
        Ok("Second\n".into())
    );
    // 10^5 heaps at once.
    let heaps: Vec<String> = (0..100_000u64).map(|i| (big - i).to_string()).collect();
    let input = format!("100000\n{}\n", heaps.join(" "));
    let expected = (0..100_000u64).fold(0, |x, i| {
        x ^ [0, 1, 0, 1, 2, 3, 2][((big - i) % 7) as usize]
    });
    let want = if expected != 0 { "First\n" } else { "Second\n" };
    assert_eq!(g.answer(&input), Ok(want.to_string()));
    // Outside the format: named, not answered.
    assert!(matches!(
        g.answer("0\n"),
        Err(answer::Unanswered::Format(_))
    ));
}

#[test]
fn the_oracle_agrees_with_the_answers_on_every_small_position() {
    for yaml in [SUBTRACTION, BASH, KAYLES_MOVE] {
        let g = game(yaml);
        let cases = g.oracle_cases();
        assert!(!cases.is_empty(), "{yaml}");
        for c in &cases {
            let out = g.answer(&c.input).expect("answered");
            assert_eq!(g.accepts(c, &out), Ok(()), "{yaml}: {}", c.input);
        }
    }
}

#[test]
fn any_winning_move_is_accepted_and_others_are_named() {
    let g = game(KAYLES_MOVE);
    // Kayles: from a row of 4 the one winning move knocks down the two
    // middle pins (`1 1 1`); two rows of 3 are lost.
    let input = "2\n1 4\n2 3 3\n";
    assert_eq!(g.judge_moves(input, "1 1 1\nlose\n"), Ok(Ok(())));
    // A row of 7 and one of 1: any move to value 0 is right.
    let two = "1\n2 7 1\n";
    let moves = g
        .first_analysis()
        .expect("analysis")
        .winning_steps(&[7, 1])
        .expect("steps");
    assert!(moves.len() > 1, "{moves:?}");
    for s in &moves {
        let out = format!("{}\n", g.write_step(s));
        assert_eq!(g.judge_moves(two, &out), Ok(Ok(())), "{out}");
    }
    let wrong = |out: &str| match g.judge_moves(input, out) {
        Ok(Err(w)) => w.to_string(),
        other => panic!("{out}: {other:?}"),
    };
    assert!(
        wrong("lose\nlose\n").contains("is won"),
        "{}",
        wrong("lose\nlose\n")
    );
    assert!(wrong("1 3 0\nlose\n").contains("opponent wins"));
    assert!(wrong("1 0 0\nlose\n").contains("not a move of this game"));
    assert!(wrong("1 1 1\n1 1 0\n").contains("is lost"));
    assert!(wrong("1 1 1\n").contains("end of the output"));
    assert!(wrong("1 1 1\nlose\nextra\n").contains("after the last case"));
    // The answer file holds one winning move; it is judged the same way.
    let answer = g.answer(input).expect("answer");
    assert_eq!(g.judge_moves(input, &answer), Ok(Ok(())));
}

#[test]
fn counting_winning_moves_counts_each_heap_and_side() {
    let g = game("heaps: [1, 5]\ntokens: [1, 100]\nmoves: [{octal: \"0.77\"}]\nquestion: count");
    // One row of 4: knock 1 pin leaving (1, 2) or (2, 1), or 2 pins
    // leaving (1, 1): G values 1^2 = 3, 3, 0 → only (1, 1) wins.
    assert_eq!(g.answer("1\n4\n"), Ok("1\n".into()));
    // A row of 1 and of 2: G = 1 ^ 2 = 3; winning: take the row of 2
    // leaving 1 (two sides: `2 1 0`, `2 0 1`) → 2 moves.
    assert_eq!(g.answer("2\n1 2\n"), Ok("2\n".into()));
}

fn generated(g: &GameSpec, knobs: &str, seeds: std::ops::Range<u64>) -> Vec<String> {
    let p = params(knobs);
    seeds
        .map(|s| g.generate(&p, &mut Rng::new(s)).expect("generates"))
        .collect()
}

#[test]
fn generated_inputs_fit_the_format_and_reach_the_asked_outcome() {
    let g = game(SUBTRACTION);
    let f = g.input_format();
    for (knobs, lost) in [
        ("{n: [1, 20], losing: 1.0}", Some("Second\n")),
        ("{n: [1, 20], losing: 0.0}", Some("First\n")),
        ("{n: [1, 20], sizes: bits, losing: 1.0}", Some("Second\n")),
        ("{n: [1, 20], sizes: residues}", None),
        (
            "{n: [1, 20], sizes: extremes, losing: 0.0}",
            Some("First\n"),
        ),
        ("{n: [5, 9], layout: messy, eol: false}", None),
        ("{n: [5, 9], layout: column}", None),
        (
            "{n: [5, 9], layout: one-line, losing: 1.0}",
            Some("Second\n"),
        ),
    ] {
        for input in generated(&g, knobs, 0..20) {
            assert_eq!(f.check_text(&input), Ok(()), "{knobs}: {input}");
            if let Some(want) = lost {
                assert_eq!(g.answer(&input).as_deref(), Ok(want), "{knobs}: {input}");
            }
        }
    }
}

#[test]
fn the_size_knobs_cover_the_period_the_top_bit_and_the_largest_input() {
    let g = game(SUBTRACTION);
    let numbers = |s: &str| -> Vec<u64> {
        s.split_whitespace()
            .map(|t| t.parse().expect("number"))
            .collect()
    };
    // Every class of the period 7 among the heaps of a few inputs.
    let mut classes = std::collections::BTreeSet::new();
    for input in generated(&g, "{n: [7, 14], sizes: residues}", 0..5) {
        classes.extend(numbers(&input)[1..].iter().map(|a| a % 7));
    }
    assert_eq!(classes.len(), 7);
    // The highest bit of 10^18 (2^59) set, alone or together.
    let mut top = 0;
    for input in generated(&g, "{n: [1, 10], sizes: bits}", 0..20) {
        top += numbers(&input)[1..]
            .iter()
            .filter(|&&a| a >> 59 == 1)
            .count();
    }
    assert!(top > 20, "{top}");
    // The largest input: every heap, each near the largest.
    let largest = &generated(&g, "{sizes: largest}", 0..1)[0];
    let heaps = numbers(largest);
    assert_eq!(heaps[0], 100_000);
    assert!(heaps[1..].iter().all(|&a| a >= 999_000_000_000_000_000));
}

#[test]
fn several_heap_games_are_generated_with_both_outcomes() {
    let moore = game(
        "heaps: [1, 50]\ntokens: [1, 1000000000000000000]\nparameters: {k: [1, 5]}\nmoves: [{heaps: k}]\nquestion: {winner: [A, B]}",
    );
    for input in generated(&moore, "{n: [3, 30], losing: 1.0}", 0..20) {
        assert_eq!(moore.answer(&input).as_deref(), Ok("B\n"), "{input}");
    }
    // Wythoff-like moves have no theorem: small positions only, by search.
    let wythoff = game(
        "heaps: 2\ntokens: [0, 12]\nmoves: [{take: any}, wythoff]\nquestion: {winner: [A, B]}",
    );
    let mut outcomes = std::collections::BTreeSet::new();
    for input in generated(&wythoff, "{losing: 0.5}", 0..30) {
        outcomes.insert(wythoff.answer(&input).expect("small enough to search"));
    }
    assert_eq!(outcomes.len(), 2, "{outcomes:?}");
}

#[test]
fn the_default_groups_generate_answerable_tests() {
    for yaml in [SUBTRACTION, BASH, KAYLES_MOVE] {
        let g = game(yaml);
        for group in g.default_groups() {
            for (_, knobs) in group.entries {
                for input in generated(&g, &knobs, 0..2) {
                    assert!(g.answer(&input).is_ok(), "{yaml}: {} {knobs}", group.name);
                }
            }
        }
    }
}

#[test]
fn single_tokens_end_traps_and_the_totals_parity_are_drawn_as_asked() {
    let misere = game(
        "heaps: [1, 100]\ntokens: [1, 1000000000]\nmoves: [{take: any}]\nending: misere\nquestion: {winner: [X, Y]}",
    );
    let numbers = |s: &str| -> Vec<u64> {
        s.split_whitespace()
            .map(|t| t.parse().expect("number"))
            .collect()
    };
    for lose in [0.0, 1.0] {
        let want = if lose == 1.0 { "Y\n" } else { "X\n" };
        for input in generated(&misere, &format!("{{ones: 1.0, losing: {lose}}}"), 0..20) {
            let heaps = numbers(&input);
            assert!(heaps[1..].iter().all(|&a| a == 1), "{input}");
            assert_eq!(misere.answer(&input).as_deref(), Ok(want), "{input}");
        }
        for input in generated(&misere, &format!("{{trap: 1.0, losing: {lose}}}"), 0..20) {
            let heaps = &numbers(&input)[1..];
            let n = heaps.len();
            assert!(n >= 3 && heaps[0] == 1 && heaps[n - 1] == 1, "{input}");
            assert!(heaps.iter().any(|&a| a > 1), "{input}");
            // Read as single tokens only, n heaps are won when n is even:
            // the count says the other outcome.
            assert_eq!(n % 2 == 0, lose == 1.0, "{input}");
            assert_eq!(misere.answer(&input).as_deref(), Ok(want), "{input}");
        }
        for input in generated(
            &misere,
            &format!("{{n: [2, 30], total: even, losing: {lose}}}"),
            0..20,
        ) {
            let total: u64 = numbers(&input)[1..].iter().sum();
            assert_eq!(total % 2, 0, "{input}");
            assert_eq!(misere.answer(&input).as_deref(), Ok(want), "{input}");
        }
    }
    let refused = misere.generate(&params("{total: odd, ones: 1.0, n: 2}"), &mut Rng::new(1));
    assert!(refused.is_err(), "two single tokens have an even total");
    let refused = misere.generate(&params("{total: some}"), &mut Rng::new(1));
    assert!(matches!(
        refused,
        Err(crate::generate::GenError::Param { .. })
    ));
}
