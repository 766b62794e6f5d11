//! The judge's strategy in each played game: the winning move from the
//! game's rule when it has one, and otherwise a legal move chosen to expose
//! wrong strategies while keeping the game short.
//!
//! The rules here are formulas (nim-sum, the misère endgame switch, the
//! Beatty pairs of Wythoff's game); the unit tests check each of them
//! against the exhaustive search of [`crate::games::search`] on every small
//! position, so the interactor never trusts a formula the oracle has not
//! vouched for.

use crate::generate::Rng;

/// Why a move breaks its game's rule; the interactor shows it to the
/// contestant after the move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMove {
    #[error("wrong number of heaps")]
    HeapCount,
    #[error("a move cannot add stones")]
    Adds,
    #[error("a move must take at least one stone")]
    Empty,
    #[error("taking from both heaps must take the same number from each")]
    Unequal,
    #[error("a move takes from exactly one pile")]
    SeveralPiles,
}

/// Which game is played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Game {
    /// Normal Nim: whoever takes the last stone wins.
    Nim,
    /// Misère Nim: whoever takes the last stone loses.
    MisereNim,
    /// Wythoff's game on two heaps, in the order of the position line.
    Wythoff,
}

impl Game {
    /// The built-in interactor name (`interactor:` in a problem spec).
    pub fn from_name(name: &str) -> Option<Game> {
        match name {
            "nim-play" => Some(Game::Nim),
            "misere-nim-play" => Some(Game::MisereNim),
            "wythoff-play" => Some(Game::Wythoff),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Game::Nim => "nim-play",
            Game::MisereNim => "misere-nim-play",
            Game::Wythoff => "wythoff-play",
        }
    }

    /// Every built-in interactor name, for "expected one of" messages.
    pub fn names() -> [&'static str; 3] {
        ["nim-play", "misere-nim-play", "wythoff-play"]
    }

    /// Whether the player to move from `p` wins with best play.
    pub fn mover_wins(self, p: &[u64]) -> bool {
        match self {
            Game::Nim => nim_sum(p) != 0,
            Game::MisereNim => misere_wins(p),
            Game::Wythoff => match p {
                [a, b] => !is_cold(*a, *b),
                _ => false,
            },
        }
    }

    /// Whether a game at `p` is over (every heap empty).
    pub fn over(p: &[u64]) -> bool {
        p.iter().all(|&a| a == 0)
    }

    /// Whether `from → to` is one legal move of this game.
    pub fn legal(self, from: &[u64], to: &[u64]) -> Result<(), IllegalMove> {
        if from.len() != to.len() {
            return Err(IllegalMove::HeapCount);
        }
        let changed: Vec<usize> = (0..from.len()).filter(|&i| from[i] != to[i]).collect();
        if changed.iter().any(|&i| to[i] > from[i]) {
            return Err(IllegalMove::Adds);
        }
        match (self, changed.as_slice()) {
            (_, []) => Err(IllegalMove::Empty),
            (_, [_]) => Ok(()),
            (Game::Wythoff, [0, 1]) if from[0] - to[0] == from[1] - to[1] => Ok(()),
            (Game::Wythoff, _) => Err(IllegalMove::Unequal),
            _ => Err(IllegalMove::SeveralPiles),
        }
    }

    /// The judge's move from `p` when the mover wins: a move to a losing
    /// position, the one that takes the most stones (short games).
    pub fn winning_move(self, p: &[u64]) -> Option<Vec<u64>> {
        match self {
            Game::Nim => nim_winning_move(p),
            Game::MisereNim => misere_winning_move(p),
            Game::Wythoff => match p {
                [a, b] => wythoff_winning_move(*a, *b).map(|(x, y)| vec![x, y]),
                _ => None,
            },
        }
    }

    /// The judge's move from a losing (or any) position that is not over.
    /// `early` says the game is young: the judge then prefers moves that
    /// lead to the positions wrong strategies get wrong; later it prefers
    /// moves that shorten the game.
    pub fn probing_move(self, p: &[u64], early: bool, rng: &mut Rng) -> Option<Vec<u64>> {
        if Game::over(p) {
            return None;
        }
        Some(match self {
            Game::Nim => nim_probe(p, rng),
            Game::MisereNim => misere_probe(p, rng),
            Game::Wythoff => wythoff_probe(p, early, rng),
        })
    }
}

pub fn nim_sum(p: &[u64]) -> u64 {
    p.iter().fold(0, |s, &a| s ^ a)
}

/// Misère Nim: with a pile above one, the normal rule; with single stones
/// only, the mover wins when their count is even.
fn misere_wins(p: &[u64]) -> bool {
    if p.iter().all(|&a| a <= 1) {
        p.iter().filter(|&&a| a == 1).count() % 2 == 0
    } else {
        nim_sum(p) != 0
    }
}

fn nim_winning_move(p: &[u64]) -> Option<Vec<u64>> {
    let s = nim_sum(p);
    if s == 0 {
        return None;
    }
    let i = (0..p.len())
        .filter(|&i| p[i] ^ s < p[i])
        .max_by_key(|&i| (p[i] - (p[i] ^ s), std::cmp::Reverse(i)))?;
    let mut q = p.to_vec();
    q[i] ^= s;
    Some(q)
}

fn misere_winning_move(p: &[u64]) -> Option<Vec<u64>> {
    if !misere_wins(p) {
        return None;
    }
    let big: Vec<usize> = (0..p.len()).filter(|&i| p[i] > 1).collect();
    let ones = p.iter().filter(|&&a| a == 1).count();
    let mut q = p.to_vec();
    match big.as_slice() {
        // An even number of single stones: take one.
        [] => {
            let i = p.iter().position(|&a| a == 1)?;
            q[i] = 0;
        }
        // The endgame switch: leave an odd number of single stones.
        [i] => q[*i] = if ones % 2 == 1 { 0 } else { 1 },
        _ => return nim_winning_move(p),
    }
    Some(q)
}

/// Normal Nim, losing: empty a pile, or cut a big pile down to a few
/// stones. Either way a pile is emptied or becomes small, so the judge
/// makes at most two moves per pile and a game stays short.
fn nim_probe(p: &[u64], rng: &mut Rng) -> Vec<u64> {
    let live: Vec<usize> = (0..p.len()).filter(|&i| p[i] > 0).collect();
    let i = *rng.pick(&live).unwrap_or(&0);
    let mut q = p.to_vec();
    q[i] = if p[i] > 3 && rng.chance(0.5) {
        rng.range(1, 3)
    } else {
        0
    };
    q
}

/// Misère Nim, losing: bring piles above one down to zero or one. With two
/// such piles this hands the submission exactly one pile above one, the
/// position where the misère rule departs from the normal one.
fn misere_probe(p: &[u64], rng: &mut Rng) -> Vec<u64> {
    let big: Vec<usize> = (0..p.len()).filter(|&i| p[i] > 1).collect();
    let mut q = p.to_vec();
    if let Some(&i) = rng.pick(&big) {
        q[i] = rng.range(0, 1);
    } else if let Some(i) = p.iter().position(|&a| a > 0) {
        q[i] = 0;
    }
    q
}

/// Wythoff, losing: early, one stone off the position along the diagonal
/// or from the smaller heap, where the reply must be computed exactly at
/// the size of the start position (floating-point formulas round wrongly
/// there); later, halve a heap, so a game ends within about 60 of the
/// judge's moves even from heaps of 10^18.
fn wythoff_probe(p: &[u64], early: bool, rng: &mut Rng) -> Vec<u64> {
    let (a, b) = (p[0], p[1]);
    let small = if a <= b { 0 } else { 1 };
    let mut q = p.to_vec();
    if early && a > 0 && b > 0 {
        if rng.chance(0.5) {
            q[0] -= 1;
            q[1] -= 1;
        } else {
            q[small] -= 1;
        }
        return q;
    }
    let heaps: Vec<usize> = (0..2).filter(|&i| p[i] > 0).collect();
    let i = *rng.pick(&heaps).unwrap_or(&(1 - small));
    q[i] = rng.range(0, p[i] / 2);
    q
}

/// Largest `x` with `x * x <= n`; exact for every `n` below 2^127.
fn isqrt(n: u128) -> u128 {
    let mut x = (n as f64).sqrt() as u128;
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// The `k`-th losing pair `(⌊kφ⌋, ⌊kφ⌋ + k)` without rounding error:
/// `⌊kφ⌋ = ⌊(k + ⌊√(5k²)⌋) / 2⌋`. Exact for `k < 2^62`, which covers
/// heaps up to 10^18.
pub fn cold_pair(k: u64) -> (u64, u64) {
    let k = u128::from(k);
    let a = (k + isqrt(5 * k * k)) / 2;
    (a as u64, (a + k) as u64)
}

/// Whether `(a, b)`, in either order, is a losing pair.
pub fn is_cold(a: u64, b: u64) -> bool {
    let (a, b) = if a <= b { (a, b) } else { (b, a) };
    cold_pair(b - a).0 == a
}

/// The smallest `k` in `0..=hi` with `pred(k)`, for a monotone `pred`
/// that holds at `hi`.
fn first_k(hi: u64, pred: impl Fn(u64) -> bool) -> u64 {
    let (mut lo, mut hi) = (0, hi);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if pred(mid) { hi = mid } else { lo = mid + 1 }
    }
    lo
}

/// The partner of `a` in its losing pair: every number belongs to exactly
/// one pair (the two Beatty sequences split the positive integers).
fn cold_partner(a: u64) -> u64 {
    let k = first_k(a, |k| cold_pair(k).0 >= a);
    if cold_pair(k).0 == a {
        return cold_pair(k).1;
    }
    let j = first_k(a, |j| cold_pair(j).1 >= a);
    cold_pair(j).0
}

/// A move from `(x, y)` (in the position's order) to a losing pair.
fn wythoff_winning_move(x: u64, y: u64) -> Option<(u64, u64)> {
    if is_cold(x, y) {
        return None;
    }
    let swapped = x > y;
    let (a, b) = if swapped { (y, x) } else { (x, y) };
    let (ca, cb) = cold_pair(b - a);
    let (na, nb) = if ca < a {
        // Along the diagonal to the pair with the same difference.
        (ca, cb)
    } else {
        // Keep the smaller heap; the larger one drops to its partner
        // (which is below `b`, or the position would be losing).
        (a, cold_partner(a))
    };
    Some(if swapped { (nb, na) } else { (na, nb) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::NimOracle;
    use crate::games::wythoff::Oracle;

    /// Every Nim position with 1 to `n` piles of at most `max` stones.
    fn positions(n: usize, max: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut layer: Vec<Vec<u64>> = vec![vec![]];
        for _ in 0..n {
            layer = layer
                .iter()
                .flat_map(|p| {
                    (0..=max).map(move |a| {
                        let mut q = p.clone();
                        q.push(a);
                        q
                    })
                })
                .collect();
            out.extend(layer.iter().cloned());
        }
        out
    }

    fn check_nim(game: Game, mut oracle: NimOracle) {
        let mut rng = Rng::new(7);
        let all = positions(4, 5);
        assert!(all.len() > 1000, "{}", all.len());
        for p in &all {
            let wins = oracle.first_player_wins(p);
            assert_eq!(game.mover_wins(p), wins, "{game:?} {p:?}");
            if Game::over(p) {
                continue;
            }
            match game.winning_move(p) {
                Some(q) => {
                    assert!(wins, "{p:?}");
                    assert_eq!(game.legal(p, &q), Ok(()), "{p:?} -> {q:?}");
                    assert!(!oracle.first_player_wins(&q), "{p:?} -> {q:?} not losing");
                }
                None => assert!(!wins, "{game:?} {p:?} has no winning move"),
            }
            for early in [true, false] {
                let q = game.probing_move(p, early, &mut rng);
                let q = q.unwrap_or_default();
                assert_eq!(game.legal(p, &q), Ok(()), "{p:?} -> {q:?}");
            }
        }
    }

    #[test]
    fn nim_rule_agrees_with_the_search() {
        check_nim(Game::Nim, NimOracle::normal());
    }

    #[test]
    fn misere_rule_agrees_with_the_search() {
        check_nim(Game::MisereNim, NimOracle::misere());
    }

    #[test]
    fn wythoff_rule_agrees_with_the_search() {
        let mut oracle = Oracle::new();
        let mut rng = Rng::new(9);
        for x in 0..=40u64 {
            for y in 0..=40u64 {
                let p = [x, y];
                let wins = oracle.wins(x, y);
                assert_eq!(Game::Wythoff.mover_wins(&p), wins, "{p:?}");
                match Game::Wythoff.winning_move(&p) {
                    Some(q) => {
                        assert_eq!(Game::Wythoff.legal(&p, &q), Ok(()), "{p:?} -> {q:?}");
                        assert!(!oracle.wins(q[0], q[1]), "{p:?} -> {q:?}");
                    }
                    None => assert!(!wins, "{p:?}"),
                }
                if x + y > 0 {
                    for early in [true, false] {
                        let q = Game::Wythoff.probing_move(&p, early, &mut rng);
                        let q = q.unwrap_or_default();
                        assert_eq!(Game::Wythoff.legal(&p, &q), Ok(()), "{p:?} -> {q:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn wythoff_moves_stay_exact_near_the_top() {
        // A losing pair near 10^18 and the hot pairs one stone away.
        let k = 600_000_000_000_000_000u64;
        let (a, b) = cold_pair(k);
        assert!(b <= 2_000_000_000_000_000_000);
        assert!(is_cold(a, b) && is_cold(b, a));
        for (x, y) in [(a - 1, b - 1), (a + 1, b + 1), (a, b - 1), (b, a - 1)] {
            let q = Game::Wythoff.winning_move(&[x, y]);
            let q = q.unwrap_or_default();
            assert_eq!(Game::Wythoff.legal(&[x, y], &q), Ok(()));
            assert!(is_cold(q[0], q[1]), "({x}, {y}) -> {q:?}");
        }
    }

    #[test]
    fn misere_probe_sets_the_endgame_trap() {
        // Two piles above one: the judge leaves exactly one, where the
        // normal rule and the misère rule answer differently.
        let mut rng = Rng::new(1);
        for _ in 0..20 {
            let q = Game::MisereNim
                .probing_move(&[5, 5, 1, 1], true, &mut rng)
                .unwrap_or_default();
            assert_eq!(q.iter().filter(|&&a| a > 1).count(), 1, "{q:?}");
            let normal = Game::Nim.winning_move(&q).unwrap_or_default();
            let misere = Game::MisereNim.winning_move(&q).unwrap_or_default();
            assert_ne!(normal, misere, "{q:?}");
        }
    }

    #[test]
    fn legality_names_what_is_wrong() {
        assert!(Game::Nim.legal(&[3, 4], &[3, 4]).is_err());
        assert!(Game::Nim.legal(&[3, 4], &[2, 3]).is_err());
        assert!(Game::Nim.legal(&[3, 4], &[3, 5]).is_err());
        assert_eq!(Game::Nim.legal(&[3, 4], &[0, 4]), Ok(()));
        assert_eq!(Game::Wythoff.legal(&[3, 4], &[1, 2]), Ok(()));
        assert!(Game::Wythoff.legal(&[3, 4], &[1, 3]).is_err());
    }
}
