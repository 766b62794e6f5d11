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
use crate::catalog::format::{Case, CaseLayout, InputFormat, Layout};
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
    shrink_within(runner, format, input, verdict, budget, None)
}

/// [`shrink`], stopping after `max_candidates` judged candidates as well:
/// a count, unlike a time budget, gives the same result on a loaded machine,
/// which reports that must be reproducible (a resumed `grade`) need.
pub fn shrink_within(
    runner: &Runner<'_>,
    format: &InputFormat,
    input: &str,
    verdict: Verdict,
    budget: Duration,
    max_candidates: Option<usize>,
) -> Result<Shrunk, JudgeError> {
    let deadline = Instant::now() + budget;
    let mut out = Shrunk {
        input: input.to_string(),
        steps: 0,
        candidates: 0,
    };
    let Ok(mut best) = format.parse_layout(input) else {
        return Ok(out);
    };
    if format.validate(&best.0).is_err() {
        return Ok(out);
    }
    // Hashes, not texts: an input of many cases has as many candidates,
    // each as long as the input.
    let mut seen: HashSet<u64> = HashSet::new();
    seen.insert(super::hash(input));
    let batch = runner.options.jobs.max(1) * 2;
    'outer: while Instant::now() < deadline {
        let (text, state) = {
            // Made one at a time as they are judged: an input of n cases has
            // about 2n candidates of n cases each, which together would
            // hold n² cases (tens of gigabytes for 10^5 cases).
            let mut fresh = candidates(format, &best)
                .filter(|c| format.validate(&c.0).is_ok())
                .map(|c| (format.render_with(&c.0, &c.1), c))
                .filter(|(text, _)| seen.insert(super::hash(text)));
            'chunks: loop {
                let mut chunk: Vec<(String, State)> = fresh.by_ref().take(batch).collect();
                if chunk.is_empty()
                    || Instant::now() >= deadline
                    || max_candidates.is_some_and(|m| out.candidates >= m)
                {
                    break 'outer;
                }
                out.candidates += chunk.len();
                let texts: Vec<String> = chunk.iter().map(|c| c.0.clone()).collect();
                // The first candidate of the chunk failing the same way; one
                // failing differently (a crash where the answer was wrong) is
                // another bug, not this one.
                let mut from = 0;
                while from < texts.len() {
                    match runner.first_failure(&texts[from..])? {
                        Some(f) if f.result.verdict == verdict => {
                            break 'chunks chunk.swap_remove(from + f.index);
                        }
                        Some(f) => from += f.index + 1,
                        None => break,
                    }
                }
            }
        };
        best = state;
        out.input = text;
        out.steps += 1;
    }
    Ok(out)
}

/// Cases and the whitespace around their numbers.
type State = (Vec<Case>, Layout);

/// One whitespace of the layout put back to the plain one.
enum Plainer {
    End,
    Count,
    Terminator,
    Head(usize, usize),
    Item(usize, usize),
}

/// Smaller or plainer inputs than `state`, the biggest cuts first: the plain
/// layout, fewer cases, fewer items, smaller numbers, plainer whitespace.
/// Lazily: each is made when the one before has been judged.
fn candidates<'a>(format: &'a InputFormat, state: &'a State) -> impl Iterator<Item = State> + 'a {
    let (cases, layout) = state;
    let first = std::iter::once_with(move || (cases.clone(), format.canonical_layout(cases)));
    let paired: Vec<(Case, CaseLayout)> = cases
        .iter()
        .cloned()
        .zip(
            layout
                .cases
                .iter()
                .cloned()
                .chain(std::iter::repeat(CaseLayout::default())),
        )
        .collect();
    // The case after a removed chunk takes over the chunk's leading
    // whitespace, so no stray blank line appears where the chunk began.
    let inherit_case = |next: &mut (Case, CaseLayout), removed: &(Case, CaseLayout)| {
        if let (Some(to), Some(from)) = (next.1.head.first_mut(), removed.1.head.first()) {
            *to = from.clone();
        }
    };
    let fewer_cases = without_chunks_with(paired, inherit_case).map(move |kept| {
        let (c, l): (Vec<Case>, Vec<CaseLayout>) = kept.into_iter().unzip();
        (
            c,
            Layout {
                cases: l,
                ..layout.clone()
            },
        )
    });
    let fewer_items = cases.iter().enumerate().flat_map(move |(k, case)| {
        let seps = layout
            .cases
            .get(k)
            .map(|l| l.items.clone())
            .unwrap_or_default();
        let paired: Vec<(u64, String)> = case
            .items
            .iter()
            .copied()
            .zip(seps.into_iter().chain(std::iter::repeat(String::new())))
            .collect();
        let inherit_item =
            |next: &mut (u64, String), removed: &(u64, String)| next.1 = removed.1.clone();
        without_chunks_with(paired, inherit_item).map(move |kept| {
            let (items, seps): (Vec<u64>, Vec<String>) = kept.into_iter().unzip();
            let mut c = cases.clone();
            c[k].items = items;
            let mut l = layout.clone();
            if let Some(cl) = l.cases.get_mut(k) {
                cl.items = seps;
            }
            (c, l)
        })
    });
    // Two equal items at once, wherever they are: in a sum of heaps they
    // cancel, so one alone changes the outcome and the pair does not.
    let pairs = cases.iter().enumerate().flat_map(move |(k, case)| {
        equal_pairs(&case.items).into_iter().map(move |(i, j)| {
            let mut c = cases.clone();
            c[k].items.remove(j);
            c[k].items.remove(i);
            let mut l = layout.clone();
            if let Some(cl) = l.cases.get_mut(k) {
                for at in [j, i] {
                    if at < cl.items.len() {
                        cl.items.remove(at);
                    }
                }
            }
            (c, l)
        })
    });
    // Every item at its minimum, or halved, at once: keeps relations (equal piles, a zero
    // nim-sum of doubled values) that single changes break.
    let min = format.item.1.min;
    let any_items = cases.iter().any(|c| !c.items.is_empty());
    let all_at_once = [false, true]
        .into_iter()
        .filter(move |_| any_items)
        .map(move |halve| {
            let mut c = cases.clone();
            for case in &mut c {
                for v in &mut case.items {
                    *v = if halve { (*v / 2).max(min) } else { min };
                }
            }
            (c, layout.clone())
        });
    // An input of a few numbers left gets every small value tried: a
    // failure that starts at some size (a table one entry too short, a
    // period that holds only from some heap on) shrinks to that size,
    // which halving and one-less steps skip over.
    let numbers: usize = cases.iter().map(|c| c.fixed.len() + c.items.len()).sum();
    let few = numbers <= FEW_NUMBERS;
    let smaller = cases.iter().enumerate().flat_map(move |(k, case)| {
        let fixed = case.fixed.iter().enumerate().flat_map(move |(j, &v)| {
            let min = format.fixed.get(j).map_or(0, |f| f.1.min);
            smaller_values(v, min, few).into_iter().map(move |smaller| {
                let mut c = cases.clone();
                c[k].fixed[j] = smaller;
                (c, layout.clone())
            })
        });
        let items = case.items.iter().enumerate().flat_map(move |(j, &v)| {
            smaller_values(v, min, few).into_iter().map(move |smaller| {
                let mut c = cases.clone();
                c[k].items[j] = smaller;
                (c, layout.clone())
            })
        });
        fixed.chain(items)
    });
    let plain = format.canonical_layout(cases);
    let mut edits = vec![Plainer::End, Plainer::Count, Plainer::Terminator];
    for (k, pc) in plain.cases.iter().enumerate() {
        edits.extend((0..pc.head.len()).map(|i| Plainer::Head(k, i)));
        edits.extend((0..pc.items.len()).map(|i| Plainer::Item(k, i)));
    }
    let plainer = edits.into_iter().filter_map(move |edit| {
        let mut l = layout.clone();
        match edit {
            Plainer::End => l.end = plain.end.clone(),
            Plainer::Count => l.count = plain.count.clone(),
            Plainer::Terminator => l.terminator = plain.terminator.clone(),
            Plainer::Head(k, i) => {
                if let Some(s) = l.cases.get_mut(k).and_then(|c| c.head.get_mut(i)) {
                    *s = plain.cases[k].head[i].clone();
                }
            }
            Plainer::Item(k, i) => {
                if let Some(s) = l.cases.get_mut(k).and_then(|c| c.items.get_mut(i)) {
                    *s = plain.cases[k].items[i].clone();
                }
            }
        }
        (l != *layout).then(|| (cases.clone(), l))
    });
    first
        .chain(fewer_cases)
        .chain(fewer_items)
        .chain(pairs)
        .chain(all_at_once)
        .chain(smaller)
        .chain(plainer)
}

/// Like [`without_chunks`], with `inherit(next, first_removed)` applied to
/// the element that follows each removed chunk; made one at a time.
fn without_chunks_with<T: Clone>(
    list: Vec<T>,
    inherit: impl Fn(&mut T, &T),
) -> impl Iterator<Item = Vec<T>> {
    let n = list.len();
    chunk_bounds(n).into_iter().map(move |(start, end)| {
        let mut kept = list[..start].to_vec();
        kept.extend_from_slice(&list[end..]);
        if end < n {
            inherit(&mut kept[start], &list[start]);
        }
        kept
    })
}

/// The `(start, end)` of each chunk to remove from a list of `n`: halves,
/// quarters, … single elements; the whole list when it has one element.
fn chunk_bounds(n: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut size = n / 2;
    while size >= 1 {
        let mut start = 0;
        while start < n {
            let end = (start + size).min(n);
            out.push((start, end));
            start = end;
        }
        if size == 1 {
            break;
        }
        size /= 2;
    }
    if n == 1 {
        out.push((0, 1));
    }
    out
}

/// The list with one chunk removed, for chunk sizes n/2, n/4, …, 1.
#[cfg(test)]
fn without_chunks<T: Clone>(list: &[T]) -> Vec<Vec<T>> {
    without_chunks_with(list.to_vec(), |_, _| {}).collect()
}

/// For each value held by two items or more, the first two positions
/// `(i, j)` holding it (`i < j`), in the order the values first appear.
fn equal_pairs(items: &[u64]) -> Vec<(usize, usize)> {
    let mut first: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    let mut out = Vec::new();
    let mut paired = std::collections::HashSet::new();
    for (j, &v) in items.iter().enumerate() {
        match first.get(&v) {
            Some(&i) if paired.insert(v) => out.push((i, j)),
            Some(_) => {}
            None => {
                first.insert(v, j);
            }
        }
    }
    out
}

/// The minimum, half, and one less, when smaller than `v`.
/// An input with at most this many numbers gets [`SMALL_VALUES`] tried
/// for each.
const FEW_NUMBERS: usize = 4;
/// How many of the smallest values the bound allows are tried, in order,
/// for each number of an input of [`FEW_NUMBERS`].
const SMALL_VALUES: u64 = 64;

/// Values below `v` (and at least `min`) to try in its place, the biggest
/// cut first: the minimum, then with `few` every one of the smallest
/// [`SMALL_VALUES`] values in order, then half, then one less.
fn smaller_values(v: u64, min: u64, few: bool) -> Vec<u64> {
    let mut out = Vec::new();
    let small = if few {
        min.saturating_add(1)..min.saturating_add(SMALL_VALUES).min(v)
    } else {
        0..0
    };
    for c in std::iter::once(min)
        .chain(small)
        .chain([v / 2, v.saturating_sub(1)])
    {
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
    fn equal_items_are_paired_wherever_they_are() {
        assert_eq!(equal_pairs(&[2, 11, 2]), vec![(0, 2)]);
        assert_eq!(equal_pairs(&[5, 3, 5, 3, 5]), vec![(0, 2), (1, 3)]);
        assert_eq!(equal_pairs(&[1, 2, 3]), Vec::<(usize, usize)>::new());
    }

    #[test]
    fn smaller_values_stay_in_bounds() {
        assert_eq!(smaller_values(10, 1, false), vec![1, 5, 9]);
        assert_eq!(smaller_values(1, 1, false), Vec::<u64>::new());
        assert_eq!(smaller_values(2, 1, false), vec![1]);
        assert_eq!(smaller_values(3, 0, false), vec![0, 1, 2]);
        assert_eq!(smaller_values(1, 1, true), Vec::<u64>::new());
        assert_eq!(smaller_values(5, 2, true), vec![2, 3, 4]);
    }

    #[test]
    fn a_few_numbers_get_every_small_value_tried_in_order() {
        let got = smaller_values(1_000_000, 1, true);
        let mut want: Vec<u64> = (1..=64).collect();
        want.extend([500_000, 999_999]);
        assert_eq!(got, want);
        // Below the window, every smaller value, smallest first.
        assert_eq!(smaller_values(40, 30, true), (30..40).collect::<Vec<_>>());
    }
}
