//! Near-identical files: the same text but for a few tokens inserted or
//! deleted (a copy with a condition changed, a line added). Such a pair is
//! reported however short the files are, so it is decided on the tokens
//! themselves, as written (names and values included), rather than on
//! fingerprints, which a ten-line program has too few of. Names count
//! here: two students who wrote the same short program in their own
//! words are a few tokens apart in shape, not in text. A copy renamed
//! throughout is the same program (`super::CopyKind::SameTokens`).
//!
//! The distance is computed in a band of the dynamic-programming table
//! (`|i - j| <= max`), after two cheap tests that every pair within the
//! bound passes: the lengths, and the counts of each kind of token, differ
//! by at most `max`. So comparing all pairs of a class costs little, and a
//! pair costs at most `(n + 1)(2 max + 1)` steps.

/// Token streams longer than this are not checked (a long copy has
/// fingerprints enough to be found as a partial copy).
pub const MAX_TOKENS: usize = 5000;

/// One token in this many may differ in a near-identical pair.
pub const ONE_IN: usize = 20;

/// The most edits two streams of these lengths may be apart and still be
/// near-identical.
pub fn bound(a: usize, b: usize) -> usize {
    a.max(b) / ONE_IN
}

/// The kinds of a token stream, with their counts (sorted by kind).
pub fn histogram(kinds: &[u64]) -> Vec<(u64, u32)> {
    let mut sorted = kinds.to_vec();
    sorted.sort_unstable();
    let mut out: Vec<(u64, u32)> = Vec::new();
    for k in sorted {
        match out.last_mut() {
            Some((last, n)) if *last == k => *n += 1,
            _ => out.push((k, 1)),
        }
    }
    out
}

/// The sum of the differences of the counts: a lower bound of the edits.
pub fn histogram_distance(a: &[(u64, u32)], b: &[(u64, u32)]) -> usize {
    let (mut i, mut j, mut d) = (0, 0, 0usize);
    while i < a.len() || j < b.len() {
        match (a.get(i), b.get(j)) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                d += x.1.abs_diff(y.1) as usize;
                i += 1;
                j += 1;
            }
            (Some(x), Some(y)) if x.0 < y.0 => {
                d += x.1 as usize;
                i += 1;
            }
            (Some(_), Some(y)) | (None, Some(y)) => {
                d += y.1 as usize;
                j += 1;
            }
            (Some(x), None) => {
                d += x.1 as usize;
                i += 1;
            }
            (None, None) => break,
        }
    }
    d
}

/// The number of tokens inserted or deleted to turn `a` into `b`, if it is
/// at most `max`.
pub fn edits_within(a: &[u64], b: &[u64], max: usize) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > max {
        return None;
    }
    // Row i holds d(i, j) for j in i - max ..= i + max, at j - i + max.
    let width = 2 * max + 1;
    let far = usize::MAX / 2;
    let mut prev = vec![far; width];
    let mut row = vec![far; width];
    for (c, cell) in prev.iter_mut().enumerate() {
        // d(0, j) = j, for 0 <= j <= m.
        let j = c as isize - max as isize;
        if j >= 0 && j as usize <= m {
            *cell = j as usize;
        }
    }
    for i in 1..=n {
        let mut best = far;
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = far;
            let j = i as isize + c as isize - max as isize;
            if j < 0 || j as usize > m {
                continue;
            }
            let j = j as usize;
            // From d(i-1, j) (delete a[i-1]): same j, column c + 1 of the
            // row above; from d(i, j-1) (insert b[j-1]): column c - 1 of
            // this row; from d(i-1, j-1) when the tokens are equal: column
            // c of the row above.
            let mut d = far;
            if c + 1 < width {
                d = d.min(prev[c + 1].saturating_add(1));
            }
            if j >= 1 && a[i - 1] == b[j - 1] {
                d = d.min(prev[c]);
            }
            *cell = d;
        }
        // Insertions run along the row, left to right.
        for c in 1..width {
            let left = row[c - 1].saturating_add(1);
            let j = i as isize + c as isize - max as isize;
            if j >= 1 && j as usize <= m && left < row[c] {
                row[c] = left;
            }
        }
        for &d in &row {
            best = best.min(d);
        }
        if best > max {
            return None;
        }
        std::mem::swap(&mut prev, &mut row);
    }
    let c = m as isize - n as isize + max as isize;
    let d = prev[c as usize];
    (d <= max).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Insertions and deletions by the textbook table: n + m - 2 LCS.
    fn edits(a: &[u64], b: &[u64]) -> usize {
        let mut t = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                t[i][j] = if a[i - 1] == b[j - 1] {
                    t[i - 1][j - 1] + 1
                } else {
                    t[i - 1][j].max(t[i][j - 1])
                };
            }
        }
        a.len() + b.len() - 2 * t[a.len()][b.len()]
    }

    #[test]
    fn the_band_agrees_with_the_whole_table() {
        let mut seed = 7u64;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _ in 0..3000 {
            let n = next(30) as usize;
            let a: Vec<u64> = (0..n).map(|_| next(4)).collect();
            let mut b = a.clone();
            for _ in 0..next(6) {
                match next(3) {
                    0 if !b.is_empty() => {
                        let at = next(b.len() as u64) as usize;
                        b.remove(at);
                    }
                    1 => {
                        let at = next(b.len() as u64 + 1) as usize;
                        b.insert(at, next(4));
                    }
                    _ => {}
                }
            }
            let truth = edits(&a, &b);
            for max in 0..8 {
                let got = edits_within(&a, &b, max);
                let want = (truth <= max).then_some(truth);
                assert_eq!(got, want, "{a:?} {b:?} max {max}");
                let hd = histogram_distance(&histogram(&a), &histogram(&b));
                assert!(hd <= truth, "the histogram bound holds");
            }
        }
    }

    #[test]
    fn far_streams_stop_early() {
        let a: Vec<u64> = (0..4000).collect();
        let b: Vec<u64> = (10_000..14_000).collect();
        assert_eq!(edits_within(&a, &b, 100), None);
        assert_eq!(edits_within(&a, &a, 0), Some(0));
    }
}
