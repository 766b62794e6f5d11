//! The kit the pile problems of the catalog share (`nim`, `nim-yes-no`,
//! `matches-game`, `misere-nim`, `john`, `bounded-nim`, `bash-game`, and
//! the position lists of the others): knob reading, position construction,
//! the layout of numbers in an input, and the exhaustive oracle cases.

use crate::generate::{GenError, Params, Rng};

/// How often a construction is retried before the parameters are declared
/// impossible; every construction here succeeds far sooner on sane knobs.
pub(crate) const TRIES: usize = 1000;

/// Which ending the piles are built for, so that "losing" means the right
/// thing for the problem at hand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    Normal,
    Misere,
}

impl Rule {
    /// The known characterisation of won positions. Generators use it only
    /// to steer towards losing or winning positions; the oracle never does,
    /// and the unit tests check the steering against the oracle.
    pub(crate) fn first_wins(self, piles: &[u64]) -> bool {
        match self {
            Rule::Normal => nim_sum(piles) != 0,
            Rule::Misere if piles.iter().all(|&a| a <= 1) => {
                piles.iter().filter(|&&a| a == 1).count().is_multiple_of(2)
            }
            Rule::Misere => nim_sum(piles) != 0,
        }
    }
}

pub(crate) fn nim_sum(piles: &[u64]) -> u64 {
    piles.iter().fold(0, |x, &a| x ^ a)
}

/// A knob range clamped into the problem's constraint, so a spec can never
/// produce an input the statement forbids.
pub(crate) fn range_within(
    params: &Params,
    key: &str,
    default: (u64, u64),
    limit: (u64, u64),
) -> Result<(u64, u64), GenError> {
    let (lo, hi) = params.range_or(key, default)?;
    clamp_pair(key, lo.max(limit.0), hi.min(limit.1), limit)
}

/// The `min`/`max` value knobs (defaulting to `default`), clamped like
/// [`range_within`].
pub(crate) fn values_within(
    params: &Params,
    default: (u64, u64),
    limit: (u64, u64),
) -> Result<(u64, u64), GenError> {
    let lo = params.u64_or("min", default.0)?.max(limit.0);
    let hi = params.u64_or("max", default.1)?.min(limit.1);
    clamp_pair("min`/`max", lo, hi, limit)
}

fn clamp_pair(key: &str, lo: u64, hi: u64, limit: (u64, u64)) -> Result<(u64, u64), GenError> {
    if lo > hi {
        Err(GenError::Impossible(format!(
            "`{key}` leaves no value within the problem's limits {}..={}",
            limit.0, limit.1
        )))
    } else {
        Ok((lo, hi))
    }
}

/// The knobs every pile family reads.
#[derive(Debug, Clone)]
pub(crate) struct PileKnobs {
    /// Number of piles.
    pub n: (u64, u64),
    /// Pile sizes.
    pub vals: (u64, u64),
    /// Probability of a losing position (constructed, not sampled).
    pub losing: f64,
    /// Probability of a position made only of single stones, the one place
    /// where normal and misère play disagree.
    pub ones: f64,
    /// Probability of a position whose first and last piles are single
    /// stones while another pile is larger, with the pile count chosen so
    /// that looking at one end pile (as if sorted) gives the wrong answer.
    pub trap: f64,
    /// Winning positions get an even total, against "odd total wins".
    pub even_sum: bool,
}

impl PileKnobs {
    /// Reads `n`, `min`, `max`, `losing`, `ones`, `trap` and `even_sum`;
    /// families list in `params.only` the ones they accept.
    pub(crate) fn read(
        params: &Params,
        n_limit: (u64, u64),
        val_limit: (u64, u64),
    ) -> Result<Self, GenError> {
        Ok(PileKnobs {
            n: range_within(params, "n", n_limit, n_limit)?,
            vals: values_within(params, val_limit, val_limit)?,
            losing: params.f64_or("losing", 0.5)?,
            ones: params.f64_or("ones", 0.0)?,
            trap: params.f64_or("trap", 0.0)?,
            even_sum: params.bool_or("even_sum", false)?,
        })
    }
}

/// One position drawn per the knobs: first the outcome, then the kind.
pub(crate) fn draw_position(
    rng: &mut Rng,
    knobs: &PileKnobs,
    rule: Rule,
) -> Result<Vec<u64>, GenError> {
    let losing = rng.chance(knobs.losing);
    if rng.chance(knobs.ones) {
        return single_stones(rng, knobs.n, rule, losing);
    }
    if rng.chance(knobs.trap) {
        return end_trap(rng, knobs, rule, losing);
    }
    let shape = Shape {
        n: knobs.n,
        vals: knobs.vals,
        rule,
        losing,
        even_sum: knobs.even_sum,
        need_big: false,
    };
    general(rng, &shape)
}

/// A number in `lo..=hi` with the given parity, if there is one.
pub(crate) fn draw_parity(rng: &mut Rng, (lo, hi): (u64, u64), odd: bool) -> Option<u64> {
    let first = if lo % 2 == u64::from(odd) { lo } else { lo + 1 };
    if first > hi {
        return None;
    }
    Some(first + 2 * rng.range(0, (hi - first) / 2))
}

fn single_stones(
    rng: &mut Rng,
    n: (u64, u64),
    rule: Rule,
    losing: bool,
) -> Result<Vec<u64>, GenError> {
    // Normal play: an even count of single stones loses; misère: odd.
    let odd = (rule == Rule::Misere) == losing;
    let count = draw_parity(rng, n, odd).ok_or_else(|| {
        GenError::Impossible(format!(
            "no {} pile count in {}..={} for a {} position of single stones",
            if odd { "odd" } else { "even" },
            n.0,
            n.1,
            outcome(losing)
        ))
    })?;
    Ok(vec![1; count as usize])
}

fn end_trap(
    rng: &mut Rng,
    knobs: &PileKnobs,
    rule: Rule,
    losing: bool,
) -> Result<Vec<u64>, GenError> {
    // Read as "all single stones", n piles win exactly when n is even; pick
    // the parity that makes that reading wrong.
    let lo = knobs.n.0.max(3);
    let count = draw_parity(rng, (lo, knobs.n.1), !losing).ok_or_else(|| {
        GenError::Impossible(format!(
            "a {} end-trap position needs an {} pile count of at least 3 within {}..={}",
            outcome(losing),
            if losing { "even" } else { "odd" },
            knobs.n.0,
            knobs.n.1
        ))
    })?;
    let inner = Shape {
        n: (count - 2, count - 2),
        vals: knobs.vals,
        rule,
        losing,
        even_sum: false,
        need_big: true,
    };
    let mut piles = vec![1];
    piles.extend(general(rng, &inner)?);
    piles.push(1);
    Ok(piles)
}

/// What [`general`] must build.
pub(crate) struct Shape {
    pub n: (u64, u64),
    pub vals: (u64, u64),
    pub rule: Rule,
    pub losing: bool,
    pub even_sum: bool,
    /// At least one pile must hold more than one stone.
    pub need_big: bool,
}

/// A position of `shape`: losing ones built with nim-sum zero, winning ones
/// sampled; anything not matching the shape is drawn again.
pub(crate) fn general(rng: &mut Rng, shape: &Shape) -> Result<Vec<u64>, GenError> {
    let (lo, hi) = shape.vals;
    let n_range = if shape.losing {
        (shape.n.0.max(2), shape.n.1)
    } else {
        shape.n
    };
    if n_range.0 <= n_range.1 {
        for _ in 0..TRIES {
            let n = rng.range(n_range.0, n_range.1) as usize;
            let piles = if shape.losing {
                match xor_to(rng, n, lo, hi, 0) {
                    Some(p) => p,
                    None => continue,
                }
            } else {
                random_piles(rng, n, lo, hi)
            };
            if fits(&piles, shape) {
                return Ok(piles);
            }
        }
    }
    Err(GenError::Impossible(format!(
        "could not build a {} position with {}..={} piles of {lo}..={hi} stones{}",
        outcome(shape.losing),
        shape.n.0,
        shape.n.1,
        if shape.even_sum {
            " and an even total"
        } else {
            ""
        }
    )))
}

fn fits(piles: &[u64], shape: &Shape) -> bool {
    let outcome_ok = shape.rule.first_wins(piles) != shape.losing;
    let sum_ok = !shape.even_sum || piles.iter().sum::<u64>().is_multiple_of(2);
    let big_ok = !shape.need_big || piles.iter().any(|&a| a > 1);
    outcome_ok && sum_ok && big_ok
}

pub(crate) fn outcome(losing: bool) -> &'static str {
    if losing { "losing" } else { "winning" }
}

pub(crate) fn random_piles(rng: &mut Rng, n: usize, lo: u64, hi: u64) -> Vec<u64> {
    (0..n).map(|_| rng.range(lo, hi)).collect()
}

/// `n` piles in `lo..=hi` with nim-sum `target`, in random order, or `None`
/// when this attempt's last pile fell outside the range (callers retry).
pub(crate) fn xor_to(rng: &mut Rng, n: usize, lo: u64, hi: u64, target: u64) -> Option<Vec<u64>> {
    if n == 0 {
        return (target == 0).then(Vec::new);
    }
    let mut piles = random_piles(rng, n - 1, lo, hi);
    let last = nim_sum(&piles) ^ target;
    if !(lo..=hi).contains(&last) {
        return None;
    }
    piles.push(last);
    rng.shuffle(&mut piles);
    Some(piles)
}

/// `parts` numbers in `lo..=hi` adding up to exactly `total`, or `None` when
/// no such numbers exist.
pub(crate) fn compose(rng: &mut Rng, total: u64, parts: u64, lo: u64, hi: u64) -> Option<Vec<u64>> {
    if parts == 0 || total < parts.checked_mul(lo)? || total > parts.checked_mul(hi)? {
        return None;
    }
    let mut left = total;
    let mut out = Vec::with_capacity(parts as usize);
    for rest in (0..parts).rev() {
        // Keep what is left reachable by the `rest` numbers still to come.
        let low = lo.max(left.saturating_sub(rest * hi));
        let high = hi.min(left - rest * lo);
        // Stay near the average share so that the numbers come out balanced
        // instead of a few big ones followed by the minimum.
        let share = left / (rest + 1);
        let x = rng
            .range(low.max(share / 2), high.min(share + share / 2))
            .clamp(low, high);
        out.push(x);
        left -= x;
    }
    rng.shuffle(&mut out);
    Some(out)
}

/// How whitespace is laid out in a generated input. Every layout is valid
/// (any mix of spaces and newlines is allowed); the odd ones catch programs
/// that read line by line or stop early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One line per logical line, single spaces.
    Lines,
    /// One number per line.
    Column,
    /// Logical lines kept whole, with extra spaces and blank lines between.
    Blank,
    /// Random runs of spaces and newlines anywhere between numbers.
    Messy,
    /// The whole input on one line, numbers apart by runs of spaces: a
    /// program that reads a fixed count of numbers per line, or throws the
    /// rest of a line away, loses the numbers that follow on it.
    OneLine,
}

/// Layout plus whether the file ends with a newline.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Style {
    pub layout: Layout,
    pub eol: bool,
}

impl Style {
    /// Reads `layout` (`lines`, `column`, `blank`, `messy`, `one-line`) and
    /// `eol`.
    pub(crate) fn read(params: &Params) -> Result<Self, GenError> {
        let layout = match params.str_or("layout", "lines")? {
            "lines" => Layout::Lines,
            "column" => Layout::Column,
            "blank" => Layout::Blank,
            "messy" => Layout::Messy,
            "one-line" => Layout::OneLine,
            other => {
                return Err(GenError::Param {
                    key: "layout".into(),
                    expected: "one of lines, column, blank, messy, one-line",
                    found: other.to_string(),
                });
            }
        };
        Ok(Style {
            layout,
            eol: params.bool_or("eol", true)?,
        })
    }
}

/// Writes logical lines of numbers in the given style.
pub(crate) fn render(lines: &[Vec<u64>], style: Style, rng: &mut Rng) -> String {
    let mut out = String::new();
    for (li, line) in lines.iter().enumerate() {
        if li > 0 {
            out.push_str(&line_break(style.layout, rng));
        }
        for (ti, v) in line.iter().enumerate() {
            if ti > 0 {
                out.push_str(&token_gap(style.layout, rng));
            } else if style.layout != Layout::Lines && rng.chance(0.1) {
                out.push_str("  ");
            }
            out.push_str(&v.to_string());
        }
        if matches!(style.layout, Layout::Blank | Layout::Messy) && rng.chance(0.15) {
            out.push(' ');
        }
    }
    if style.eol {
        out.push('\n');
        if style.layout == Layout::Messy && rng.chance(0.5) {
            out.push_str("\n \n");
        }
    } else {
        out.truncate(out.trim_end().len());
    }
    out
}

fn line_break(layout: Layout, rng: &mut Rng) -> String {
    match layout {
        Layout::Lines | Layout::Column => "\n".into(),
        Layout::OneLine => " ".repeat(rng.range(1, 3) as usize),
        Layout::Blank | Layout::Messy => {
            let mut s = String::from("\n");
            if rng.chance(0.3) {
                s.push_str(if rng.chance(0.5) { "\n" } else { "   \n" });
            }
            s
        }
    }
}

fn token_gap(layout: Layout, rng: &mut Rng) -> String {
    match layout {
        Layout::Lines => " ".into(),
        Layout::Column => "\n".into(),
        Layout::Blank | Layout::OneLine => " ".repeat(rng.range(1, 3) as usize),
        Layout::Messy => {
            if rng.chance(0.15) {
                if rng.chance(0.3) {
                    "\n\n".into()
                } else {
                    "\n".into()
                }
            } else {
                " ".repeat(rng.range(1, 3) as usize)
            }
        }
    }
}

/// Every non-decreasing list of `len` values in `1..=max`.
pub(crate) fn multisets(len: usize, max: u64) -> Vec<Vec<u64>> {
    if len == 0 {
        return vec![Vec::new()];
    }
    let mut out = Vec::new();
    for shorter in multisets(len - 1, max) {
        let from = shorter.last().copied().unwrap_or(1);
        for v in from..=max {
            let mut p = shorter.clone();
            p.push(v);
            out.push(p);
        }
    }
    out
}

/// Shows every other position in descending order, so that a reference
/// that silently relies on sorted input is caught by the oracle cases too.
pub(crate) fn vary_order(mut piles: Vec<u64>, index: usize) -> Vec<u64> {
    if index % 2 == 1 {
        piles.reverse();
    }
    piles
}

/// Splits `items` into chunks of at most `size`, for packing many oracle
/// positions into few multi-case inputs.
pub(crate) fn chunks<T: Clone>(items: &[T], size: usize) -> Vec<Vec<T>> {
    items.chunks(size.max(1)).map(<[T]>::to_vec).collect()
}

#[cfg(test)]
pub(crate) mod test_support {
    //! Shared setup for the catalog tests of the pile problems.

    use crate::generate::{Params, Rng};

    /// Parameters written as YAML, the way a spec writes them.
    pub(crate) fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test parameters are valid YAML")
    }

    /// All numbers of an input, whatever its layout.
    pub(crate) fn numbers(input: &str) -> Vec<u64> {
        input
            .split_whitespace()
            .map(|t| t.parse().expect("generated tokens are numbers"))
            .collect()
    }

    /// Runs a family on several seeds and returns the inputs.
    pub(crate) fn inputs(
        generate: fn(&Params, &mut Rng) -> Result<String, crate::generate::GenError>,
        yaml: &str,
        seeds: std::ops::Range<u64>,
    ) -> Vec<String> {
        let p = params(yaml);
        seeds
            .map(|s| generate(&p, &mut Rng::new(s)).expect("family succeeds"))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_puts_every_logical_line_on_a_single_line_in_order() {
        let lines = vec![vec![3], vec![5, 6, 7], vec![1_000_000_000_000_000_000]];
        for seed in 0..20 {
            let style = Style {
                layout: Layout::OneLine,
                eol: seed % 2 == 0,
            };
            let text = render(&lines, style, &mut Rng::new(seed));
            let body = text.strip_suffix('\n').unwrap_or(&text);
            assert!(!body.contains('\n'), "{text:?} spans lines");
            assert_eq!(text.ends_with('\n'), style.eol, "{text:?}");
            let numbers: Vec<u64> = body
                .split_whitespace()
                .map(|t| t.parse().expect("a number"))
                .collect();
            assert_eq!(numbers, [3, 5, 6, 7, 1_000_000_000_000_000_000]);
        }
    }

    #[test]
    fn one_line_is_a_layout_a_spec_can_name() {
        let p: Params = serde_yaml::from_str("{layout: one-line}").expect("YAML");
        assert_eq!(
            Style::read(&p).expect("known layout").layout,
            Layout::OneLine
        );
    }
}
