//! Catalog entries of the played games (`nim-play`, `misere-nim-play`,
//! `wythoff-play`): the generators of their start positions.
//!
//! A test input is what the judge will send, without the moves: `T`, then
//! one position line per game (`n a_1 … a_n`, or `a b`). The built-in
//! interactor (`games::play`) reads it and plays each game, so there is no
//! expected output; the interactor's rules are checked against the search
//! in its own unit tests, hence no oracle cases here.

use super::format::{Bound, Framing, InputFormat, field};
use super::kit::{PileKnobs, Rule, draw_position, range_within};
use super::wythoff::{cold_pair, cold_range, fibonacci_ks, near_miss};
use super::{Coded, Entry, Family, OracleCase, Rejection};
use crate::generate::{GenError, Params, Rng};

const GAMES: (u64, u64) = (1, 100);
const N_LIMIT: (u64, u64) = (1, 100);
const A_LIMIT: (u64, u64) = (1, 1_000_000_000);
const HEAP_MAX: u64 = 1_000_000_000_000_000_000;

pub const NIM_PLAY: Entry = Entry {
    id: "nim-play",
    families: &[
        Family {
            name: "nim-play-games",
            about: "T (`games`, 1..100) Nim start positions of 1..100 piles in min..max \
                (1..10^9); knobs losing, ones, trap",
            generate: nim_games,
        },
        Family {
            name: "nim-play-extremes",
            about: super::extremes::ABOUT,
            generate: |p, r| super::extremes::generate(&nim_format(), p, r),
        },
    ],
    coded: Some(Coded {
        format: nim_format,
        oracle_cases: no_oracle_cases,
        accepts: not_an_output,
    }),
};

pub const MISERE_NIM_PLAY: Entry = Entry {
    id: "misere-nim-play",
    families: &[
        Family {
            name: "misere-nim-play-games",
            about: "T misère Nim start positions; knobs games, n, min, max, losing, ones, \
                trap, endgame (share of positions with one pile above one, where the \
                misère rule departs from the normal one)",
            generate: misere_games,
        },
        Family {
            name: "misere-nim-play-extremes",
            about: super::extremes::ABOUT,
            generate: |p, r| super::extremes::generate(&nim_format(), p, r),
        },
    ],
    coded: Some(Coded {
        format: nim_format,
        oracle_cases: no_oracle_cases,
        accepts: not_an_output,
    }),
};

pub const WYTHOFF_PLAY: Entry = Entry {
    id: "wythoff-play",
    families: &[
        Family {
            name: "wythoff-play-games",
            about: "T Wythoff start positions `a b` (0..10^18, not both 0, in either order); \
                knobs games, min, max, losing, near, traps (share next to the \
                floating-point traps of wythoff-large), bits, swap",
            generate: wythoff_games,
        },
        Family {
            name: "wythoff-play-extremes",
            about: super::extremes::ABOUT,
            generate: |p, r| super::extremes::generate(&wythoff_format(), p, r),
        },
    ],
    coded: Some(Coded {
        format: wythoff_format,
        oracle_cases: no_oracle_cases,
        accepts: not_an_output,
    }),
};

/// `T` games, each `n a_1 … a_n` on one line: what `stress` shrinks.
fn nim_format() -> InputFormat {
    InputFormat {
        framing: Framing::Counted(Bound::new(1, 100)),
        list_len: Some(field("n", Bound::new(N_LIMIT.0, N_LIMIT.1))),
        fixed: Vec::new(),
        item: field("a_i", Bound::new(A_LIMIT.0, A_LIMIT.1)),
        distinct: false,
        one_line: true,
    }
}

/// `T` games, each `a b`. (Both heaps empty is not a game; the
/// interactor refuses such an input as the problem's fault.)
fn wythoff_format() -> InputFormat {
    InputFormat {
        framing: Framing::Counted(Bound::new(1, 100)),
        list_len: None,
        fixed: vec![
            field("a", Bound::new(0, HEAP_MAX)),
            field("b", Bound::new(0, HEAP_MAX)),
        ],
        item: field("-", Bound::new(0, 0)),
        distinct: false,
        one_line: true,
    }
}

fn no_oracle_cases() -> Vec<OracleCase> {
    Vec::new()
}

fn not_an_output(_: &OracleCase, _: &str) -> Result<(), Rejection> {
    Err(Rejection::Interactive)
}

fn game_count(params: &Params, rng: &mut Rng) -> Result<usize, GenError> {
    let (lo, hi) = range_within(params, "games", (10, 10), GAMES)?;
    Ok(rng.range(lo, hi) as usize)
}

fn write(games: &[Vec<u64>], with_count: bool) -> String {
    let mut s = format!("{}\n", games.len());
    for g in games {
        let v: Vec<String> = g.iter().map(u64::to_string).collect();
        if with_count {
            s.push_str(&format!("{} ", g.len()));
        }
        s.push_str(&v.join(" "));
        s.push('\n');
    }
    s
}

fn nim_games(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&["games", "n", "min", "max", "losing", "ones", "trap"])?;
    let knobs = PileKnobs::read(params, N_LIMIT, A_LIMIT)?;
    let t = game_count(params, rng)?;
    let games = (0..t)
        .map(|_| draw_position(rng, &knobs, Rule::Normal))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(write(&games, true))
}

fn misere_games(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "games", "n", "min", "max", "losing", "ones", "trap", "endgame",
    ])?;
    let knobs = PileKnobs::read(params, N_LIMIT, A_LIMIT)?;
    let endgame = params.f64_or("endgame", 0.2)?;
    let t = game_count(params, rng)?;
    let mut games = Vec::with_capacity(t);
    for _ in 0..t {
        games.push(if knobs.vals.1 >= 2 && rng.chance(endgame) {
            endgame_position(rng, &knobs)
        } else {
            draw_position(rng, &knobs, Rule::Misere)?
        });
    }
    Ok(write(&games, true))
}

/// Single stones and one bigger pile: won by the mover, but only by the
/// misère move (leave an odd number of single stones), never the normal one.
fn endgame_position(rng: &mut Rng, knobs: &PileKnobs) -> Vec<u64> {
    let n = rng.range(knobs.n.0.max(1), knobs.n.1) as usize;
    let big = rng.range(knobs.vals.0.max(2), knobs.vals.1);
    let mut piles = vec![1; n.saturating_sub(1)];
    piles.push(big);
    rng.shuffle(&mut piles);
    piles
}

fn wythoff_games(params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&[
        "games", "min", "max", "losing", "near", "traps", "bits", "swap",
    ])?;
    let max = params.u64_or("max", HEAP_MAX)?.min(HEAP_MAX);
    let min = params.u64_or("min", 0)?.min(max);
    let losing = params.f64_or("losing", 0.5)?;
    let near = params.f64_or("near", 0.3)?;
    let traps = params.f64_or("traps", 0.0)?;
    let bits = params.u64_or("bits", 64)?.min(200) as u32;
    let swap = params.f64_or("swap", 0.5)?;
    let ks = cold_range(min, max);
    let trap_ks = if traps > 0.0 {
        fibonacci_ks(20, bits, max)
    } else {
        Vec::new()
    };
    let t = game_count(params, rng)?;
    let mut games = Vec::with_capacity(t);
    while games.len() < t {
        let (a, b) = match ks {
            _ if !trap_ks.is_empty() && rng.chance(traps) => {
                // The losing pair at a trap, or one stone off it along the
                // diagonal, which a wrongly rounded formula mistakes for it.
                let k = *rng.pick(&trap_ks).unwrap_or(&1);
                let (a, b) = cold_pair(k);
                match rng.range(0, 2) {
                    0 => (a, b),
                    1 if b < max => (a + 1, b + 1),
                    _ => (a - 1, b - 1),
                }
            }
            Some(ks) if rng.chance(losing) => cold_pair(rng.range(ks.0, ks.1)),
            Some(ks) if rng.chance(near) => near_miss(rng, ks, min, max)
                .unwrap_or_else(|| (rng.range(min, max), rng.range(min, max))),
            _ => (rng.range(min, max), rng.range(min, max)),
        };
        if a == 0 && b == 0 {
            continue;
        }
        games.push(if rng.chance(swap) {
            vec![b, a]
        } else {
            vec![a, b]
        });
    }
    Ok(write(&games, false))
}

#[cfg(test)]
mod tests {
    use super::super::kit::test_support::params;
    use super::*;
    use crate::games::play::{Game, parse_games};

    fn generate(
        f: fn(&Params, &mut Rng) -> Result<String, GenError>,
        yaml: &str,
        seed: u64,
    ) -> String {
        f(&params(yaml), &mut Rng::new(seed)).unwrap_or_default()
    }

    #[test]
    fn inputs_are_valid_for_the_interactor_and_reproducible() {
        for (f, game, yaml) in [
            (
                nim_games as fn(&Params, &mut Rng) -> Result<String, GenError>,
                Game::Nim,
                "{games: [1, 100], n: [1, 100]}",
            ),
            (
                misere_games,
                Game::MisereNim,
                "{games: 50, ones: 0.2, trap: 0.2, endgame: 0.3}",
            ),
            (wythoff_games, Game::Wythoff, "{games: 100, traps: 0.3}"),
            (wythoff_games, Game::Wythoff, "{games: 100, max: 3}"),
        ] {
            for seed in 0..5 {
                let input = generate(f, yaml, seed);
                assert_eq!(input, generate(f, yaml, seed));
                let games = parse_games(game, &input);
                assert!(games.is_ok(), "{yaml}: {games:?}\n{input}");
            }
        }
    }

    #[test]
    fn both_outcomes_appear_in_fair_proportion() {
        for (f, game) in [
            (
                nim_games as fn(&Params, &mut Rng) -> Result<String, GenError>,
                Game::Nim,
            ),
            (misere_games, Game::MisereNim),
            (wythoff_games, Game::Wythoff),
        ] {
            let input = generate(f, "{games: 100, max: 1000}", 3);
            let games = parse_games(game, &input).unwrap_or_default();
            let won = games.iter().filter(|g| game.mover_wins(g)).count();
            assert!((25..=75).contains(&won), "{game:?}: {won} of 100 won");
        }
    }

    #[test]
    fn misere_endgame_positions_need_the_misere_move() {
        let input = generate(misere_games, "{games: 30, endgame: 1.0, n: [2, 9]}", 1);
        let games = parse_games(Game::MisereNim, &input).unwrap_or_default();
        assert_eq!(games.len(), 30);
        for g in &games {
            assert!(Game::MisereNim.mover_wins(g), "{g:?}");
            assert_eq!(g.iter().filter(|&&a| a > 1).count(), 1, "{g:?}");
        }
    }

    #[test]
    fn wythoff_traps_sit_at_the_top_and_in_either_order() {
        let input = generate(wythoff_games, "{games: 100, traps: 1.0}", 2);
        let games = parse_games(Game::Wythoff, &input).unwrap_or_default();
        // Each is a losing pair or one stone off it along the diagonal.
        for g in &games {
            let (a, b) = (g[0].min(g[1]), g[0].max(g[1]));
            let d = b - a;
            assert!(
                (a..=a + 1).contains(&cold_pair(d).0) || cold_pair(d).0 + 1 == a,
                "{g:?}"
            );
        }
        assert!(games.iter().any(|g| g[0].max(g[1]) > 1 << 50), "{input}");
        assert!(games.iter().any(|g| g[0] > g[1]) && games.iter().any(|g| g[0] < g[1]));
    }
}
