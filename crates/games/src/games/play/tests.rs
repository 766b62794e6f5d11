//! The protocol, played against scripted submissions that read the judge's
//! bytes as a real program would.

use std::collections::VecDeque;

use super::*;

/// A scripted submission: `choose` says whether to move first, `reply`
/// picks its move (the new position) from the position it faces.
struct Script<'a> {
    game: Game,
    choose: &'a dyn Fn(&[u64]) -> bool,
    reply: &'a dyn Fn(&[u64]) -> Vec<u64>,
}

/// The wire text of a move from `from` to `to`.
fn move_text(game: Game, from: &[u64], to: &[u64]) -> String {
    match game {
        Game::Wythoff => format!("{} {}\n", to[0], to[1]),
        _ => {
            let i = (0..to.len()).find(|&i| to[i] != from[i]).unwrap_or(0);
            format!("{} {}\n", i + 1, to[i])
        }
    }
}

/// Plays a whole run; returns the outcome and every byte the judge wrote.
fn play(script: &Script<'_>, starts: Vec<Vec<u64>>, seed: u64) -> (Outcome, String, u64) {
    let mut judge = Interactor::new(script.game, starts, seed);
    let mut wire = String::new();
    let mut tokens: VecDeque<String> = VecDeque::new();
    let mut pull = |judge: &mut Interactor, tokens: &mut VecDeque<String>| {
        let out = String::from_utf8(judge.take_output()).unwrap_or_default();
        wire.push_str(&out);
        tokens.extend(out.split_whitespace().map(String::from));
    };
    let next = |tokens: &mut VecDeque<String>| -> Option<u64> { tokens.pop_front()?.parse().ok() };
    pull(&mut judge, &mut tokens);
    let games = next(&mut tokens).unwrap_or(0);
    'games: for _ in 0..games {
        let mut pos: Vec<u64> = match script.game {
            Game::Wythoff => vec![
                next(&mut tokens).unwrap_or(0),
                next(&mut tokens).unwrap_or(0),
            ],
            _ => {
                let n = next(&mut tokens).unwrap_or(0);
                (0..n).map(|_| next(&mut tokens).unwrap_or(0)).collect()
            }
        };
        let mut mine = (script.choose)(&pos);
        judge.feed(if mine { b"first\n" } else { b"second\n" });
        pull(&mut judge, &mut tokens);
        loop {
            if judge.outcome().is_some() {
                break 'games;
            }
            if Game::over(&pos) {
                break;
            }
            if mine {
                let q = (script.reply)(&pos);
                judge.feed(move_text(script.game, &pos, &q).as_bytes());
                pull(&mut judge, &mut tokens);
                pos = q;
            } else {
                let (a, b) = (next(&mut tokens), next(&mut tokens));
                let (Some(a), Some(b)) = (a, b) else {
                    break 'games;
                };
                match script.game {
                    Game::Wythoff => pos = vec![a, b],
                    _ => pos[(a - 1) as usize] = b,
                }
            }
            mine = !mine;
        }
    }
    judge.end_of_output();
    let outcome = judge.outcome().cloned();
    let moves = judge.moves();
    (outcome.unwrap_or(Outcome::Accepted), wire, moves)
}

fn right_choice(game: Game) -> impl Fn(&[u64]) -> bool {
    move |p: &[u64]| game.mover_wins(p)
}

/// Plays the winning move, or takes one stone when there is none.
fn best_reply(game: Game) -> impl Fn(&[u64]) -> Vec<u64> {
    move |p: &[u64]| {
        game.winning_move(p).unwrap_or_else(|| {
            let mut q = p.to_vec();
            if let Some(i) = q.iter().position(|&a| a > 0) {
                q[i] -= 1;
            }
            q
        })
    }
}

fn nim_starts() -> Vec<Vec<u64>> {
    vec![
        vec![1, 2, 3],
        vec![5],
        vec![1_000_000_000, 999_999_999, 3],
        vec![1, 1],
        vec![7, 7, 7, 1, 2, 9, 4],
        (1..=100).collect(),
    ]
}

#[test]
fn a_correct_player_wins_every_game_of_each_kind() {
    let wythoff = vec![
        vec![3, 5],
        vec![5, 3],
        vec![0, 7],
        vec![1_000_000_000_000_000_000, 1],
        vec![
            super::rules::cold_pair(400_000_000_000_000_000).0,
            super::rules::cold_pair(400_000_000_000_000_000).1,
        ],
    ];
    for (game, starts) in [
        (Game::Nim, nim_starts()),
        (Game::MisereNim, nim_starts()),
        (Game::Wythoff, wythoff),
    ] {
        for seed in 0..5 {
            let choose = right_choice(game);
            let reply = best_reply(game);
            let script = Script {
                game,
                choose: &choose,
                reply: &reply,
            };
            let (outcome, wire, _) = play(&script, starts.clone(), seed);
            assert_eq!(outcome, Outcome::Accepted, "{game:?} seed {seed}\n{wire}");
            assert!(!wire.contains("-1"), "{wire}");
        }
    }
}

#[test]
fn the_first_lines_follow_the_protocol() {
    let mut judge = Interactor::new(Game::Nim, vec![vec![1, 2, 3], vec![4]], 1);
    assert_eq!(judge.take_output(), b"2\n3 1 2 3\n");
    // [1, 2, 3] is lost for the mover: the judge must move after `second`.
    judge.feed(b"second\n");
    let out = String::from_utf8(judge.take_output()).unwrap_or_default();
    let parts: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(parts.len(), 2, "{out:?}");
    assert!(judge.waiting());
    let mut w = Interactor::new(Game::Wythoff, vec![vec![5, 3]], 1);
    assert_eq!(w.take_output(), b"1\n5 3\n");
}

#[test]
fn a_wrong_choice_loses_the_game() {
    let game = Game::Nim;
    let wrong = |p: &[u64]| !game.mover_wins(p);
    let reply = best_reply(game);
    let script = Script {
        game,
        choose: &wrong,
        reply: &reply,
    };
    let (outcome, wire, _) = play(&script, nim_starts(), 3);
    match outcome {
        Outcome::Wrong(why) => assert!(why.starts_with("game 1 of 6"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert!(wire.ends_with("-1\n"), "{wire}");
}

#[test]
fn the_normal_rule_loses_misere_nim_at_the_endgame() {
    let game = Game::MisereNim;
    let choose = right_choice(game);
    let normal = best_reply(Game::Nim);
    let script = Script {
        game,
        choose: &choose,
        reply: &normal,
    };
    // Two piles above one: the judge's probe hands over one pile above one.
    let (outcome, _, _) = play(&script, vec![vec![6, 6, 1, 1]], 0);
    assert!(matches!(outcome, Outcome::Wrong(_)), "{outcome:?}");
}

#[test]
fn illegal_moves_and_garbage_are_wrong_with_a_reason() {
    let cases: [(&[u8], &str); 6] = [
        (b"first\n1 5\n", "pile 1 has 5 stones"),
        (b"first\n4 0\n", "no pile 4"),
        (b"maybe\n", "expected `first` or `second`"),
        (b"first\n1 -1\n", "expected a number"),
        (b"first\n1 99999999999999999999999\n", "expected a number"),
        (b"First\n", "expected `first`"),
    ];
    for (input, reason) in cases {
        let mut judge = Interactor::new(Game::Nim, vec![vec![5, 1, 2]], 1);
        judge.take_output();
        judge.feed(input);
        match judge.outcome() {
            Some(Outcome::Wrong(why)) => assert!(why.contains(reason), "{why}"),
            other => panic!("{:?}: {other:?}", String::from_utf8_lossy(input)),
        }
        assert_eq!(judge.take_output(), b"-1\n");
        assert!(!judge.waiting());
    }
}

#[test]
fn a_wythoff_move_must_keep_the_heap_order() {
    let mut judge = Interactor::new(Game::Wythoff, vec![vec![10, 4]], 1);
    judge.take_output();
    // (10, 4) is hot; (4, 10) would be legal only in the sorted order.
    judge.feed(b"first\n4 7\n");
    assert!(matches!(judge.outcome(), Some(Outcome::Wrong(_))));
    let mut judge = Interactor::new(Game::Wythoff, vec![vec![10, 4]], 1);
    judge.take_output();
    // 10 4 -> 7 4 is a legal one-heap move, to the losing pair (4, 7).
    judge.feed(b"first\n7 4\n");
    assert_eq!(judge.outcome(), None);
    assert!(judge.has_output());
}

#[test]
fn anything_after_the_last_game_is_wrong_but_whitespace_is_fine() {
    for (tail, accepted) in [(&b" \n\t\n"[..], true), (b"\nfirst", false)] {
        // [3] is won by taking everything.
        let mut judge = Interactor::new(Game::Nim, vec![vec![3]], 1);
        judge.take_output();
        judge.feed(b"first\n1 0\n");
        assert!(judge.all_games_won());
        judge.feed(tail);
        judge.end_of_output();
        assert_eq!(judge.outcome() == Some(&Outcome::Accepted), accepted);
    }
}

#[test]
fn output_that_ends_early_is_unfinished() {
    let mut judge = Interactor::new(Game::Nim, vec![vec![3], vec![4]], 1);
    judge.feed(b"first\n1 0\n");
    judge.end_of_output();
    match judge.outcome() {
        Some(Outcome::Unfinished(why)) => assert!(why.contains("game 2 of 2"), "{why}"),
        other => panic!("{other:?}"),
    }
    // A last token without a newline still counts.
    let mut judge = Interactor::new(Game::Nim, vec![vec![3]], 1);
    judge.feed(b"first\n1 0");
    judge.end_of_output();
    assert_eq!(judge.outcome(), Some(&Outcome::Accepted));
}

#[test]
fn a_lost_game_is_declared_after_the_grace_moves() {
    // Mirror piles: moving first loses; taking one stone at a time would
    // last two billion moves.
    let game = Game::Nim;
    let first = |_: &[u64]| true;
    let one = |p: &[u64]| {
        let mut q = p.to_vec();
        if let Some(i) = q.iter().position(|&a| a > 0) {
            q[i] -= 1;
        }
        q
    };
    let script = Script {
        game,
        choose: &first,
        reply: &one,
    };
    let (outcome, _, _) = play(&script, vec![vec![1_000_000_000, 1_000_000_000]], 1);
    match outcome {
        Outcome::Wrong(why) => assert!(why.contains("lost position for 1000 moves"), "{why}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn transcripts_hold_the_failing_game() {
    let mut judge = Interactor::new(Game::Nim, vec![vec![3], vec![1, 1]], 1);
    judge.feed(b"first\n1 0\nfirst\n1 0\n");
    assert!(matches!(judge.outcome(), Some(Outcome::Wrong(_))));
    let t = judge.transcript();
    assert_eq!((t.game, t.games), (2, 2));
    assert_eq!(t.start, vec![1, 1]);
    assert_eq!(t.choice.as_deref(), Some("first"));
    assert_eq!(t.right_choice, "second");
    let moves: Vec<(Side, &str)> = t.moves.iter().map(|m| (m.by, m.text.as_str())).collect();
    assert_eq!(moves, vec![(Side::Submission, "1 0"), (Side::Judge, "2 0")]);
    assert!(
        t.result.contains("the judge took the last stone"),
        "{}",
        t.result
    );
}

#[test]
fn test_inputs_are_checked_against_the_statement() {
    assert_eq!(
        parse_games(Game::Nim, "2\n3 1 2 3\n1 7\n"),
        Ok(vec![vec![1, 2, 3], vec![7]])
    );
    assert_eq!(
        parse_games(Game::Wythoff, "1 1000000000000000000 0"),
        Ok(vec![vec![1_000_000_000_000_000_000, 0]])
    );
    for (game, bad) in [
        (Game::Nim, "0\n"),
        (Game::Nim, "1\n2 1\n"),
        (Game::Nim, "1\n1 0\n"),
        (Game::Nim, "1\n1 1000000001\n"),
        (Game::Wythoff, "1\n0 0\n"),
        (Game::Wythoff, "1\n1 2 3\n"),
    ] {
        assert!(parse_games(game, bad).is_err(), "{bad:?}");
    }
}

#[test]
fn runs_are_short_for_a_correct_player() {
    // 100 games of 100 big piles, each lost for the judge: the judge's
    // probing keeps the run well inside the protocol's move budget.
    let game = Game::Nim;
    let mut starts = Vec::new();
    for g in 0..100u64 {
        let mut piles: Vec<u64> = (0..99).map(|i| 1_000_000_000 - i * 7 - g).collect();
        piles.push(piles.iter().fold(0, |s, &a| s ^ a).max(1));
        starts.push(piles);
    }
    let choose = right_choice(game);
    let reply = best_reply(game);
    let script = Script {
        game,
        choose: &choose,
        reply: &reply,
    };
    let (outcome, _, moves) = play(&script, starts, 5);
    assert_eq!(outcome, Outcome::Accepted);
    assert!(moves > 100 && moves < MAX_MOVES, "{moves}");
}

#[test]
fn the_transcript_names_the_move_that_lost() {
    // A wrong choice: [1, 2, 3] is lost for the mover, and the player moves
    // first. The game was lost before any move.
    let mut judge = Interactor::new(Game::Nim, vec![vec![1, 2, 3]], 1);
    judge.take_output();
    judge.feed(b"first\n1 0\n");
    assert_eq!(judge.transcript().lost_after, Some(0));
    assert_eq!(judge.transcript().rules.as_deref(), Some("nim-play"));
    // A right choice, then a bad move: [1, 2] is won (leave 1 1), but the
    // player empties pile 2, and its first move (move 1) is the mistake.
    let mut judge = Interactor::new(Game::Nim, vec![vec![1, 2]], 1);
    judge.take_output();
    judge.feed(b"first\n");
    assert_eq!(judge.transcript().lost_after, None);
    judge.feed(b"2 0\n");
    assert_eq!(judge.transcript().lost_after, Some(1));
    assert_eq!(judge.transcript().moves[0].text, "2 0");
    // A winning move keeps it unset.
    let mut judge = Interactor::new(Game::Wythoff, vec![vec![4, 2]], 1);
    judge.take_output();
    judge.feed(b"first\n1 2\n");
    assert_eq!(
        judge.transcript().lost_after,
        None,
        "{:?}",
        judge.transcript()
    );
    assert_eq!(judge.transcript().rules.as_deref(), Some("wythoff-play"));
}
