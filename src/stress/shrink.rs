//! Shrinking a failing input: fewer cases, fewer piles, smaller numbers,
//! for as long as the submission still fails with the same verdict.
//!
//! Greedy, in the spirit of delta debugging: candidates come largest cut
//! first (half of the cases, then quarters, … then single cases; the same
//! for each case's list; then each number down to its minimum, to half, to
//! one less), the first candidate that still fails is kept and the search
//! starts over from it. Every candidate is validated against the problem's
//! input format first, so the result is always an input the statement
//! allows. Candidates are judged a few at a time so both cores work.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::Runner;
use crate::catalog::format::{Case, InputFormat};
use crate::judge::JudgeError;
use crate::verdict::Verdict;

/// A shrunk input and how it was reached.
#[derive(Debug, Clone, PartialEq)]
pub struct Shrunk {
    pub input: String,
    /// Candidates kept (each one smaller than the one before).
    pub steps: usize,
    /// Candidates judged.
    pub candidates: usize,
}

/// Shrinks `input`, on which the submission gets `verdict`, within `budget`.
/// An input the format cannot read is returned unchanged.
pub fn shrink(
    runner: &Runner<'_>,
    format: &InputFormat,
    input: &str,
    verdict: Verdict,
    budget: Duration,
) -> Result<Shrunk, JudgeError> {
    let deadline = Instant::now() + budget;
    let mut out = Shrunk {
        input: input.to_string(),
        steps: 0,
        candidates: 0,
    };
    let Ok(mut best) = format.parse(input) else {
        return Ok(out);
    };
    if format.validate(&best).is_err() {
        return Ok(out);
    }
    let mut seen: HashSet<String> = HashSet::new();
    seen.insert(format.render(&best));
    let batch = runner.options.jobs.max(1) * 2;
    'outer: while Instant::now() < deadline {
        let candidates: Vec<String> = candidates(format, &best)
            .into_iter()
            .filter(|c| format.validate(c).is_ok())
            .map(|c| format.render(&c))
            .filter(|text| seen.insert(text.clone()))
            .collect();
        for chunk in candidates.chunks(batch) {
            if Instant::now() >= deadline {
                break 'outer;
            }
            out.candidates += chunk.len();
            // The first failing candidate of the chunk; others failing
            // differently (a crash where the answer was wrong) do not count.
            let mut from = 0;
            while from < chunk.len() {
                match runner.first_failure(&chunk[from..])? {
                    Some(f) if f.result.verdict == verdict => {
                        let text = &chunk[from + f.index];
                        if let Ok(cases) = format.parse(text) {
                            best = cases;
                            out.input = text.clone();
                            out.steps += 1;
                            continue 'outer;
                        }
                        from += f.index + 1;
                    }
                    Some(f) => from += f.index + 1,
                    None => break,
                }
            }
        }
        break;
    }
    Ok(out)
}

/// Smaller inputs than `cases`, the biggest cuts first.
fn candidates(format: &InputFormat, cases: &[Case]) -> Vec<Vec<Case>> {
    let mut out = Vec::new();
    for kept in without_chunks(cases) {
        out.push(kept);
    }
    for (k, case) in cases.iter().enumerate() {
        for items in without_chunks(&case.items) {
            let mut c = cases.to_vec();
            c[k].items = items;
            out.push(c);
        }
    }
    for (k, case) in cases.iter().enumerate() {
        for (j, &v) in case.fixed.iter().enumerate() {
            let min = format.fixed.get(j).map_or(0, |f| f.1.min);
            for smaller in smaller_values(v, min) {
                let mut c = cases.to_vec();
                c[k].fixed[j] = smaller;
                out.push(c);
            }
        }
        for (j, &v) in case.items.iter().enumerate() {
            for smaller in smaller_values(v, format.item.1.min) {
                let mut c = cases.to_vec();
                c[k].items[j] = smaller;
                out.push(c);
            }
        }
    }
    // Everything at once, one less: keeps relations such as a losing
    // Wythoff pair's (the smaller pile and the difference) when both shrink.
    if cases.iter().any(|c| !c.items.is_empty()) {
        let mut c = cases.to_vec();
        for case in &mut c {
            for v in &mut case.items {
                *v = (*v / 2).max(format.item.1.min);
            }
        }
        out.push(c);
    }
    out
}

/// The list with one chunk removed, for chunk sizes n/2, n/4, …, 1.
fn without_chunks<T: Clone>(list: &[T]) -> Vec<Vec<T>> {
    let n = list.len();
    let mut out = Vec::new();
    let mut size = n / 2;
    while size >= 1 {
        let mut start = 0;
        while start < n {
            let end = (start + size).min(n);
            let mut kept = list[..start].to_vec();
            kept.extend_from_slice(&list[end..]);
            out.push(kept);
            start = end;
        }
        if size == 1 {
            break;
        }
        size /= 2;
    }
    if n == 1 {
        out.push(Vec::new());
    }
    out
}

/// The minimum, half, and one less, when smaller than `v`.
fn smaller_values(v: u64, min: u64) -> Vec<u64> {
    let mut out = Vec::new();
    for c in [min, v / 2, v.saturating_sub(1)] {
        if c < v && c >= min && !out.contains(&c) {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_go_from_halves_to_single_items() {
        let got = without_chunks(&[1, 2, 3, 4]);
        assert_eq!(
            got,
            vec![
                vec![3, 4],
                vec![1, 2],
                vec![2, 3, 4],
                vec![1, 3, 4],
                vec![1, 2, 4],
                vec![1, 2, 3]
            ]
        );
        assert_eq!(without_chunks(&[7]), vec![Vec::<i32>::new()]);
    }

    #[test]
    fn smaller_values_stay_in_bounds() {
        assert_eq!(smaller_values(10, 1), vec![1, 5, 9]);
        assert_eq!(smaller_values(1, 1), Vec::<u64>::new());
        assert_eq!(smaller_values(2, 1), vec![1]);
        assert_eq!(smaller_values(3, 0), vec![0, 1, 2]);
    }
}
