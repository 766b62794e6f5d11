//! Every move kind against the search on small positions; the period
//! finder against values computed naively far past the proven point.

use std::collections::HashSet;

use super::analysis::{Analysis, Theory, misere_nim_wins};
use super::bound::Bound;
use super::period::{Period, Refuted, prove};
use super::positions::{Search, steps};
use super::rules::{Ending, Move, Rules};
use super::values::{HeapValues, Known};

fn bound(moves: &str, ending: Ending) -> Bound {
    let moves: Vec<Move> = serde_yaml::from_str(moves).expect("moves");
    Rules { moves, ending }
        .bind(&["k".to_string()], &[2])
        .expect("bound")
}

fn bound_k(moves: &str, k: u64) -> Bound {
    let moves: Vec<Move> = serde_yaml::from_str(moves).expect("moves");
    Rules {
        moves,
        ending: Ending::Normal,
    }
    .bind(&["k".to_string()], &[k])
    .expect("bound")
}

#[test]
fn masks_say_what_a_take_may_leave() {
    let kayles = bound("[{octal: \"0.77\"}]", Ending::Normal);
    assert_eq!(kayles.mask(1, 1), 1);
    assert_eq!(kayles.mask(2, 1), 2);
    assert_eq!(kayles.mask(3, 1), 6);
    assert_eq!(kayles.mask(3, 3), 0);
    let sub = bound("[{take: [1, 3, 4]}]", Ending::Normal);
    assert_eq!(sub.mask(4, 4), 1);
    assert_eq!(sub.mask(5, 4), 2);
    assert_eq!(sub.mask(5, 2), 0);
    assert_eq!(sub.finite_take(), Some(4));
    let half = bound("[{take: {fraction: 1/2}}]", Ending::Normal);
    assert_eq!(half.mask(5, 2), 2);
    assert_eq!(half.mask(5, 3), 0);
    assert_eq!(half.max_take(5), 2);
    assert_eq!(half.finite_take(), None);
    let bounded = bound_k("[{take: {max: k}}]", 3);
    assert_eq!(bounded.plain_up_to(), Some(3));
    assert_eq!(
        bound("[{take: [1, 2, 3]}]", Ending::Normal).plain_up_to(),
        Some(3)
    );
    assert_eq!(
        bound("[{take: [1, 3]}]", Ending::Normal).plain_up_to(),
        None
    );
    assert_eq!(
        bound("[{take: {max: 2}}, {take: [3, 5]}]", Ending::Normal).plain_up_to(),
        None
    );
    assert_eq!(
        bound("[{take: {max: 2}}, {take: [3]}]", Ending::Normal).plain_up_to(),
        Some(3)
    );
}

/// One-heap move kinds and their mixtures.
const ONE_HEAP: &[&str] = &[
    "[{take: any}]",
    "[{take: [1, 3, 4]}]",
    "[{take: [2, 5, 7]}]",
    "[{take: {max: 3}}]",
    "[{take: {max: k}}]",
    "[{take: {fraction: 1/2}}]",
    "[{take: {fraction: 2/3}}, {take: [1]}]",
    "[{octal: \"0.77\"}]",
    "[{octal: \"0.07\"}]",
    "[{octal: \"0.137\"}]",
    "[{octal: \"0.6\"}]",
    "[{octal: \"4.07\"}]",
    "[{octal: \"0.4\"}, {take: [2]}]",
    "[{take: any}, {octal: \"0.04\"}]",
];

/// Every multiset of 1 to `n` heaps of 1 to `max` tokens.
fn positions(n: usize, max: u64) -> Vec<Vec<u64>> {
    let mut all = Vec::new();
    let mut layer: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..n {
        layer = layer
            .iter()
            .flat_map(|p| {
                let low = p.last().copied().unwrap_or(1);
                (low..=max).map(move |a| {
                    let mut q = p.clone();
                    q.push(a);
                    q
                })
            })
            .collect();
        all.extend(layer.iter().cloned());
    }
    all
}

#[test]
fn heap_values_agree_with_the_search() {
    for moves in ONE_HEAP {
        let b = bound(moves, Ending::Normal);
        let values = HeapValues::of(&b).expect("one-heap moves");
        let mut search = Search::new(b.clone());
        let top = if b.splits() { 24 } else { 60 };
        for n in 0..=top {
            assert_eq!(values.get(n), Some(search.grundy(&[n])), "{moves}: G({n})");
        }
    }
}

#[test]
fn sums_of_heaps_agree_with_the_search_and_so_do_their_winning_moves() {
    for moves in ONE_HEAP {
        let b = bound(moves, Ending::Normal);
        let analysis = Analysis::new(b.clone());
        assert_eq!(analysis.theory(), Theory::Sum, "{moves}");
        let mut search = Search::new(b.clone());
        let max = if b.splits() { 6 } else { 7 };
        for p in positions(3, max) {
            let wins = search.wins(&p);
            assert_eq!(analysis.mover_wins(&p), Some(wins), "{moves}: {p:?}");
            assert_eq!(
                analysis.sum_value(&p),
                Some(search.grundy(&p)),
                "{moves}: {p:?}"
            );
            let winning = analysis.winning_steps(&p).expect("steps");
            let by_search: Vec<_> = steps(&b, &p)
                .into_iter()
                .filter(|s| !search.wins(&s.apply(&p)))
                .collect();
            let mut got = winning.clone();
            got.sort();
            let mut want = by_search.clone();
            want.sort();
            want.dedup();
            assert_eq!(got, want, "{moves}: {p:?}");
            assert_eq!(
                analysis.count_winning_steps(&p),
                Some(want.len() as u128),
                "{moves}: {p:?}"
            );
        }
    }
}

#[test]
fn several_heap_moves_and_misere_agree_with_the_search() {
    for (moves, ending, theory) in [
        ("[{take: any}]", Ending::Misere, Theory::MisereNim),
        ("[{heaps: 2}]", Ending::Normal, Theory::Moore(2)),
        (
            "[{heaps: k}, {take: [1]}]",
            Ending::Normal,
            Theory::Moore(2),
        ),
        ("[{heaps: 3}]", Ending::Normal, Theory::Moore(3)),
        ("[staircase]", Ending::Normal, Theory::Staircase),
        ("[{take: any}, wythoff]", Ending::Normal, Theory::Search),
        ("[{take: [1, 2]}]", Ending::Misere, Theory::Search),
        ("[staircase, {take: [1]}]", Ending::Normal, Theory::Search),
        ("[{octal: \"0.77\"}]", Ending::Misere, Theory::Search),
    ] {
        let b = bound(moves, ending);
        let analysis = Analysis::new(b.clone());
        assert_eq!(analysis.theory(), theory, "{moves}");
        let mut search = Search::new(b.clone());
        // Staircase positions are ordered: try both orders.
        for p in positions(4, 5) {
            for q in [p.clone(), p.iter().rev().copied().collect()] {
                assert_eq!(
                    analysis.mover_wins(&q),
                    Some(search.wins(&q)),
                    "{moves} {ending:?}: {q:?}"
                );
            }
        }
    }
    // The misère rule's winning moves are the search's.
    let b = bound("[{take: any}]", Ending::Misere);
    let analysis = Analysis::new(b.clone());
    let mut search = Search::new(b.clone());
    for p in positions(4, 4) {
        let mut got = analysis.winning_steps(&p).expect("steps");
        got.sort();
        let want: Vec<_> = steps(&b, &p)
            .into_iter()
            .filter(|s| !search.wins(&s.apply(&p)))
            .collect();
        assert_eq!(got, want, "{p:?}");
        assert_eq!(misere_nim_wins(&p), search.wins(&p));
    }
}

/// `G(0..len)` the plain way: a set of option values per heap, every
/// option listed from the octal digits.
fn naive(digits: &[u8], len: usize) -> Vec<u64> {
    let mut g = vec![0u64; len];
    for n in 1..len {
        let mut seen = HashSet::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let r = n - k;
            if d & 1 != 0 && r == 0 {
                seen.insert(0);
            }
            if d & 2 != 0 && r >= 1 && k >= 1 {
                seen.insert(g[r]);
            }
            if d & 4 != 0 && r >= 2 {
                for x in 1..r {
                    seen.insert(g[x] ^ g[r - x]);
                }
            }
        }
        g[n] = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
    }
    g
}

#[test]
fn proven_periods_hold_far_past_the_proof() {
    for (moves, digits) in [
        ("[{octal: \"0.77\"}]", vec![0, 7, 7]),
        ("[{octal: \"0.07\"}]", vec![0, 0, 7]),
        ("[{octal: \"0.137\"}]", vec![0, 1, 3, 7]),
        ("[{octal: \"0.34\"}]", vec![0, 3, 4]),
        ("[{octal: \"0.154\"}]", vec![0, 1, 5, 4]),
        ("[{octal: \"0.53\"}]", vec![0, 5, 3]),
        ("[{octal: \"0.51\"}]", vec![0, 5, 1]),
        ("[{take: [1, 3, 4]}]", vec![0, 3, 0, 3, 3]),
        ("[{take: [2, 5, 7]}]", vec![0, 0, 3, 0, 0, 3, 0, 3]),
        ("[{take: [3, 4, 9]}]", vec![0, 0, 0, 3, 3, 0, 0, 0, 0, 3]),
    ] {
        let b = bound(moves, Ending::Normal);
        let values = HeapValues::of(&b).expect("one heap");
        let proof = *values
            .proof()
            .unwrap_or_else(|| panic!("{moves}: no proof"));
        let far = (proof.until as usize + 2 * proof.period.length as usize) * 4 + 500;
        let plain = naive(&digits, far);
        for (n, &want) in plain.iter().enumerate() {
            assert_eq!(values.get(n as u64), Some(want), "{moves}: G({n}), {proof}");
        }
        // And at sizes no table holds.
        let p = proof.period;
        for n in [1u64 << 40, 999_999_999_999_999_999, u64::MAX / 3] {
            let same = p.from + (n - p.from) % p.length;
            assert_eq!(values.get(n), values.get(same), "{moves}: G({n})");
        }
    }
}

#[test]
fn kayles_and_dawsons_games_have_their_published_periods() {
    let kayles = HeapValues::of(&bound("[{octal: \"0.77\"}]", Ending::Normal)).expect("kayles");
    assert_eq!(
        kayles.period(),
        Some(Period {
            from: 71,
            length: 12
        })
    );
    let dawson = HeapValues::of(&bound("[{octal: \"0.07\"}]", Ending::Normal)).expect("0.07");
    assert_eq!(
        dawson.period(),
        Some(Period {
            from: 53,
            length: 34
        })
    );
    let chess = HeapValues::of(&bound("[{octal: \"0.137\"}]", Ending::Normal)).expect("0.137");
    assert_eq!(
        chess.period(),
        Some(Period {
            from: 52,
            length: 34
        })
    );
    // Dawson's Kayles is Dawson's chess shifted by one heap.
    for n in 1..2000 {
        assert_eq!(dawson.get(n), chess.get(n - 1), "n = {n}");
    }
}

#[test]
fn the_proof_refuses_kayles_period_where_it_holds_only_for_a_while() {
    let kayles = HeapValues::of(&bound("[{octal: \"0.77\"}]", Ending::Normal)).expect("kayles");
    let Known::Table { values, .. } = kayles.known() else {
        panic!("a table");
    };
    // From 59, G(n + 12) = G(n) holds up to n = 69, then breaks at 70.
    for n in 59..70 {
        assert_eq!(values[n], values[n + 12], "n = {n}");
    }
    assert_eq!(
        prove(
            values,
            2,
            Period {
                from: 59,
                length: 12
            }
        ),
        Err(Refuted::Differs { n: 70, period: 12 })
    );
    assert!(
        prove(
            values,
            2,
            Period {
                from: 71,
                length: 12
            }
        )
        .is_ok()
    );
    // With too few values, nothing is proven, even the true period.
    assert!(matches!(
        prove(
            &values[..120],
            2,
            Period {
                from: 71,
                length: 12
            }
        ),
        Err(Refuted::TooShort { .. })
    ));
}

#[test]
fn closed_forms_cover_heaps_of_any_size() {
    let nim = HeapValues::of(&bound("[{take: any}]", Ending::Normal)).expect("nim");
    assert_eq!(*nim.known(), Known::Identity);
    assert_eq!(
        nim.get(1_000_000_000_000_000_000),
        Some(1_000_000_000_000_000_000)
    );
    let bash = HeapValues::of(&bound("[{take: {max: k}}]", Ending::Normal)).expect("bash");
    assert_eq!(*bash.known(), Known::Modulo(3));
    assert_eq!(bash.options_to(10, 0), Some(vec![(9, 0)]));
    assert_eq!(bash.options_to(9, 0), Some(vec![]));
    assert_eq!(bash.options_to(1, 0), Some(vec![(0, 0)]));
    // No finite take: only the computed heaps.
    let half = HeapValues::of(&bound("[{take: {fraction: 1/2}}]", Ending::Normal)).expect("half");
    let below = half.known_below().expect("a bound");
    assert!(half.get(below - 1).is_some() && half.get(below).is_none());
    // 0.6 has no known period: none is claimed, values stop at the bound.
    let six = HeapValues::of(&bound("[{octal: \"0.6\"}]", Ending::Normal)).expect("0.6");
    assert_eq!(six.proof(), None);
    assert!(six.known_below().is_some());
}

#[test]
fn a_heap_of_a_chosen_value_is_found_in_any_range() {
    let kayles = HeapValues::of(&bound("[{octal: \"0.77\"}]", Ending::Normal)).expect("kayles");
    for v in 0..=8 {
        for (lo, hi) in [
            (1, 100),
            (1, 1_000_000_000_000_000_000),
            (999_999, 1_000_100),
        ] {
            for pick in [0, 7, 1 << 40] {
                if let Some(n) = kayles.heap_with_value(v, lo, hi, pick) {
                    assert!((lo..=hi).contains(&n), "{n}");
                    assert_eq!(kayles.get(n), Some(v), "{v} in {lo}..={hi}");
                }
            }
        }
    }
    assert!(kayles.heap_with_value(4, 1, 1_000_000_000, 5).is_some());
    assert_eq!(kayles.heap_with_value(9, 1, 1_000_000_000, 5), None);
    let sub = HeapValues::of(&bound("[{take: [1, 3, 4]}]", Ending::Normal)).expect("sub");
    for v in 0..4 {
        let n = sub
            .heap_with_value(v, 1, 1_000_000_000_000_000_000, 123_456_789)
            .expect("v");
        assert_eq!(sub.get(n), Some(v));
    }
}

#[test]
fn split_moves_of_huge_heaps_are_counted_by_class() {
    let kayles = HeapValues::of(&bound("[{octal: \"0.77\"}]", Ending::Normal)).expect("kayles");
    // Against a plain count on a heap just past where counting by class
    // starts.
    for a in [400u64, 401, 517, 4200, 5003] {
        for target in 0..8 {
            let mut plain = 0u128;
            for k in 1..=2u64 {
                let r = a - k;
                plain += 2 * u128::from(kayles.get(r) == Some(target));
                for x in 1..r {
                    plain += u128::from(
                        kayles.get(x).zip(kayles.get(r - x)).map(|(p, q)| p ^ q) == Some(target),
                    );
                }
            }
            assert_eq!(
                kayles.count_options_to(a, target),
                Some(plain),
                "{a} {target}"
            );
            let listed = kayles.options_to(a, target).expect("options");
            assert_eq!(listed.is_empty(), plain == 0, "{a} {target}");
            for (x, y) in listed {
                assert_eq!(
                    kayles.get(x).zip(kayles.get(y)).map(|(p, q)| p ^ q),
                    Some(target)
                );
            }
        }
    }
}
