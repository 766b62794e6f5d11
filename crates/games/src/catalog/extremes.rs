//! Inputs that use the whole range and the whole format a problem's
//! statement allows, built from its input format alone.
//!
//! Random inputs rarely reach the top of the range: a value drawn from
//! 1..=10^9 has its highest allowed bit (2^29) set a little under half the
//! time, and an answer that *turns* on that bit almost never. A program
//! that keeps values in too few bits, loops over too few bit positions or
//! reads into too small a buffer passes such tests. These inputs aim at
//! exactly that:
//!
//! - `values`: `top-bit` (every number has the highest bit its bound
//!   allows), `top-bit-decides` (the list's XOR is exactly that bit: the
//!   others cancel in equal pairs, so a program that loses the bit sees
//!   zero), `top-bit-pairs` (every number has the top bit and comes in an
//!   equal pair: the XOR is zero, so a program that misreads a number
//!   sees something else), `powers` (2^k and 2^k − 1 for every k across the range),
//!   `max` (every number at its bound), `mixed` (each number one of
//!   those, or the minimum, or uniform);
//! - `layout`: `lines` (the canonical layout), `column` (one number a
//!   line), `spaces` (runs of spaces, trailing spaces), `one-line` (the
//!   whole input on one line), `blank` (blank lines between lines),
//!   `no-final-newline`;
//! - `size`: `max` (every count at its bound: the largest input in bytes
//!   the statement allows, capped at 250 000 numbers where the statement
//!   sets no bound) or `small` (the default);
//! - `n` and `cases`: the list length and the number of cases, clamped
//!   into the statement's bounds.
//!
//! Every input is checked against the format before it is returned, so no
//! test leaves the statement. Each catalog problem registers this as its
//! `<id>-extremes` family; [`range_inputs`] is the fixed set `mutants`
//! compares an equivalent candidate on.

use super::format::{Bound, Case, CaseLayout, Framing, InputFormat, Layout};
use crate::generate::{GenError, Params, Rng};

/// What an `<id>-extremes` family says of itself.
pub const ABOUT: &str = "inputs across the whole range and format: knobs values \
    (top-bit, top-bit-decides, top-bit-pairs, powers, max, mixed), layout (lines, column, spaces, \
    one-line, blank, no-final-newline), size (small, max), n, cases";

/// The knobs.
const KNOBS: [&str; 5] = ["values", "layout", "size", "n", "cases"];

/// Most numbers in one input when the statement bounds nothing.
const MAX_NUMBERS: u64 = 250_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Values {
    TopBit,
    TopBitDecides,
    TopBitPairs,
    Powers,
    Max,
    Mixed,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    Lines,
    Column,
    Spaces,
    OneLine,
    Blank,
    NoFinalNewline,
}

fn choice<T: Copy>(
    params: &Params,
    key: &str,
    default: &str,
    options: &[(&str, T)],
    expected: &'static str,
) -> Result<T, GenError> {
    let found = params.str_or(key, default)?;
    options
        .iter()
        .find(|(name, _)| *name == found)
        .map(|(_, v)| *v)
        .ok_or_else(|| GenError::Param {
            key: key.into(),
            expected,
            found: found.to_string(),
        })
}

/// One input of the format, per the knobs.
pub fn generate(format: &InputFormat, params: &Params, rng: &mut Rng) -> Result<String, GenError> {
    params.only(&KNOBS)?;
    let values = choice(
        params,
        "values",
        "mixed",
        &[
            ("top-bit", Values::TopBit),
            ("top-bit-decides", Values::TopBitDecides),
            ("top-bit-pairs", Values::TopBitPairs),
            ("powers", Values::Powers),
            ("max", Values::Max),
            ("mixed", Values::Mixed),
        ],
        "one of top-bit, top-bit-decides, top-bit-pairs, powers, max, mixed",
    )?;
    let style = choice(
        params,
        "layout",
        "lines",
        &[
            ("lines", Style::Lines),
            ("column", Style::Column),
            ("spaces", Style::Spaces),
            ("one-line", Style::OneLine),
            ("blank", Style::Blank),
            ("no-final-newline", Style::NoFinalNewline),
        ],
        "one of lines, column, spaces, one-line, blank, no-final-newline",
    )?;
    let largest = choice(
        params,
        "size",
        "small",
        &[("small", false), ("max", true)],
        "small or max",
    )?;
    let cases = case_count(format, params, largest)?;
    let n = list_range(format, params, largest, cases)?;
    let built: Vec<Case> = (0..cases).map(|_| case(format, rng, values, n)).collect();
    let text = format.render_with(&built, &layout(format, &built, style, rng));
    format
        .check_text(&text)
        .map_err(|e| GenError::Impossible(format!("the input built leaves the statement: {e}")))?;
    Ok(text)
}

/// How many cases: the `cases` knob within the framing's bound.
fn case_count(format: &InputFormat, params: &Params, largest: bool) -> Result<u64, GenError> {
    let (lo, hi) = match format.framing {
        Framing::Single => return Ok(1),
        Framing::Counted(b) => (b.min.max(1), b.max),
        Framing::UntilEof { max } => (1, max),
        Framing::UntilZero => (1, u64::MAX),
    };
    let per_case =
        1 + format.fixed.len() as u64 + format.list_len.map_or(0, |(_, b)| b.max.min(MAX_NUMBERS));
    let cap = (MAX_NUMBERS / per_case).max(1);
    let default = if largest {
        (hi.min(cap), hi.min(cap))
    } else {
        (lo, hi.min(10).max(lo))
    };
    let (a, b) = params.range_or("cases", default)?;
    let (a, b) = (a.max(lo), b.min(hi).min(cap.max(lo)));
    if a > b {
        return Err(GenError::Impossible(format!(
            "`cases` leaves no count within {lo}..={hi}"
        )));
    }
    Ok(if a == b { a } else { a + (b - a) / 2 })
}

/// The list lengths allowed: the `n` knob within the list's bound, so that
/// all cases together stay within the number cap.
fn list_range(
    format: &InputFormat,
    params: &Params,
    largest: bool,
    cases: u64,
) -> Result<(u64, u64), GenError> {
    let Some((_, b)) = format.list_len else {
        return Ok((0, 0));
    };
    let cap = (MAX_NUMBERS / cases.max(1)).max(b.min);
    let hi_allowed = b.max.min(cap);
    let default = if largest {
        (hi_allowed, hi_allowed)
    } else {
        (b.min, hi_allowed.min(20).max(b.min))
    };
    let (lo, hi) = params.range_or("n", default)?;
    let (lo, hi) = (lo.max(b.min), hi.min(hi_allowed));
    if lo > hi {
        return Err(GenError::Impossible(format!(
            "`n` leaves no list length within {}..={}",
            b.min, b.max
        )));
    }
    Ok((lo, hi))
}

/// The highest power of two within a bound, if the bound reaches one.
fn top_bit(b: Bound) -> Option<u64> {
    if b.max == 0 {
        return None;
    }
    let top = 1u64 << (63 - b.max.leading_zeros());
    (top >= b.min).then_some(top)
}

/// A number in `b` with its highest allowed bit set.
fn with_top_bit(rng: &mut Rng, b: Bound) -> u64 {
    match top_bit(b) {
        Some(t) => rng.range(t, b.max),
        None => b.max,
    }
}

/// 2^k and 2^k - 1 for every k whose value lies in the bound.
fn powers(b: Bound) -> Vec<u64> {
    let mut out = Vec::new();
    for k in 0..64 {
        let p = 1u64 << k;
        for v in [p.wrapping_sub(1), p] {
            if (b.min..=b.max).contains(&v) && !out.contains(&v) {
                out.push(v);
            }
        }
    }
    if out.is_empty() {
        out.push(b.max);
    }
    out
}

fn number(rng: &mut Rng, b: Bound, values: Values) -> u64 {
    match values {
        Values::TopBit | Values::TopBitDecides | Values::TopBitPairs => with_top_bit(rng, b),
        Values::Max => b.max,
        Values::Powers => {
            let all = powers(b);
            all[rng.range(0, all.len() as u64 - 1) as usize]
        }
        Values::Mixed => match rng.range(0, 4) {
            0 => with_top_bit(rng, b),
            1 => number(rng, b, Values::Powers),
            2 => b.max,
            3 => b.min,
            _ => rng.range(b.min, b.max),
        },
    }
}

/// One case of the format.
fn case(format: &InputFormat, rng: &mut Rng, values: Values, (lo, hi): (u64, u64)) -> Case {
    let mut fixed: Vec<u64> = format
        .fixed
        .iter()
        .map(|(_, b)| number(rng, *b, values))
        .collect();
    // A case of nothing but zeros is no game (two empty heaps).
    if !fixed.is_empty() && fixed.iter().all(|&v| v == 0) && format.list_len.is_none() {
        let last = fixed.len() - 1;
        fixed[last] = format.fixed[last].1.max.min(1);
    }
    let items = match format.list_len {
        None => Vec::new(),
        Some(_) => {
            let n = rng.range(lo, hi);
            list(format, rng, values, n, (lo, hi))
        }
    };
    Case { fixed, items }
}

fn list(
    format: &InputFormat,
    rng: &mut Rng,
    values: Values,
    n: u64,
    (lo, hi): (u64, u64),
) -> Vec<u64> {
    let b = format.item.1;
    if format.distinct {
        return distinct(rng, b, values, n);
    }
    if values == Values::Powers {
        // Every power in turn, so that each one is in the input.
        let all = powers(b);
        let mut items: Vec<u64> = (0..n).map(|i| all[(i as usize) % all.len()]).collect();
        rng.shuffle(&mut items);
        return items;
    }
    if values == Values::TopBitDecides
        && let Some(items) = top_bit_decides(rng, b, n, (lo, hi))
    {
        return items;
    }
    if values == Values::TopBitPairs {
        // Equal pairs of numbers with the top bit: the XOR is zero.
        let even = if n.is_multiple_of(2) {
            Some(n)
        } else if n < hi {
            Some(n + 1)
        } else if n > lo {
            Some(n - 1)
        } else {
            None
        };
        if let Some(n) = even {
            let mut items = Vec::with_capacity(n as usize);
            while (items.len() as u64) < n {
                let x = with_top_bit(rng, b);
                items.extend([x, x]);
            }
            rng.shuffle(&mut items);
            return items;
        }
    }
    (0..n).map(|_| number(rng, b, values)).collect()
}

/// A list of about `n` numbers (within `lo..=hi`) whose XOR is exactly
/// the highest bit `b` allows: equal pairs cancel, and what is left is the
/// top bit alone (odd length) or split as `top + r` and `r` (even).
fn top_bit_decides(rng: &mut Rng, b: Bound, n: u64, (lo, hi): (u64, u64)) -> Option<Vec<u64>> {
    let top = top_bit(b)?;
    let r_range = (b.min.max(1), (top - 1).min(b.max - top));
    let can_split = r_range.0 <= r_range.1;
    let n = if n % 2 == 1 || (can_split && n >= 2) {
        n
    } else if n < hi {
        n + 1
    } else if n > lo {
        n - 1
    } else {
        return None;
    };
    let mut items = Vec::with_capacity(n as usize);
    if n % 2 == 1 {
        items.push(top);
    } else {
        let r = rng.range(r_range.0, r_range.1);
        items.extend([top + r, r]);
    }
    while (items.len() as u64) < n {
        let x = with_top_bit(rng, b);
        items.extend([x, x]);
    }
    rng.shuffle(&mut items);
    Some(items)
}

/// `n` distinct numbers of the bound, as close to the kind asked as the
/// bound allows (the top-bit range may hold fewer than `n`).
fn distinct(rng: &mut Rng, b: Bound, values: Values, n: u64) -> Vec<u64> {
    let mut seen = std::collections::BTreeSet::new();
    let mut tries = 0;
    while (seen.len() as u64) < n && tries < 20 * n + 100 {
        seen.insert(number(rng, b, values));
        tries += 1;
    }
    // Fill from the top down with what is left.
    let mut v = b.max;
    while (seen.len() as u64) < n && v >= b.min {
        seen.insert(v);
        if v == 0 {
            break;
        }
        v -= 1;
    }
    let mut items: Vec<u64> = seen.into_iter().collect();
    rng.shuffle(&mut items);
    items
}

/// The whitespace of a style, on the canonical layout's lines.
fn layout(format: &InputFormat, cases: &[Case], style: Style, rng: &mut Rng) -> Layout {
    let mut l = format.canonical_layout(cases);
    let map = |sep: &mut String, rng: &mut Rng| {
        if sep.is_empty() {
            return;
        }
        *sep = match style {
            Style::Lines | Style::NoFinalNewline => sep.clone(),
            Style::Column => "\n".into(),
            Style::OneLine => " ".into(),
            Style::Spaces if sep == " " => " ".repeat(rng.range(2, 4) as usize),
            Style::Spaces => format!("{}\n", " ".repeat(rng.range(0, 2) as usize)),
            Style::Blank if sep == "\n" => "\n\n".into(),
            Style::Blank => sep.clone(),
        };
    };
    map(&mut l.count, rng);
    for c in &mut l.cases {
        let CaseLayout { head, items } = c;
        for s in head.iter_mut().chain(items.iter_mut()) {
            map(s, rng);
        }
    }
    map(&mut l.terminator, rng);
    l.end = match style {
        Style::NoFinalNewline => String::new(),
        Style::Spaces => "  \n".into(),
        _ => "\n".into(),
    };
    l
}

/// A fixed set of inputs across the whole range and format: each kind of
/// values in the canonical layout, mixed values in every layout, and the
/// largest input. What `mutants` compares a candidate equivalent on.
pub fn range_inputs(format: &InputFormat, seed: u64) -> Vec<String> {
    let mut settings: Vec<String> = Vec::new();
    for values in [
        "top-bit-decides",
        "top-bit-pairs",
        "top-bit",
        "powers",
        "max",
        "mixed",
    ] {
        for size in ["small", "max"] {
            settings.push(format!("{{values: {values}, size: {size}}}"));
        }
    }
    for layout in ["column", "spaces", "one-line", "blank", "no-final-newline"] {
        settings.push(format!("{{layout: {layout}}}"));
        settings.push(format!("{{layout: {layout}, values: top-bit-decides}}"));
    }
    let mut out: Vec<String> = Vec::new();
    for (k, setting) in settings.iter().enumerate() {
        let Ok(params) = serde_yaml::from_str::<Params>(setting) else {
            continue;
        };
        for round in 0..3u64 {
            let mut rng = Rng::derive(seed, &format!("extremes/{k}/{round}"));
            if let Ok(text) = generate(format, &params, &mut rng)
                && !out.contains(&text)
            {
                out.push(text);
            }
        }
    }
    // Small first: a counterexample found early needs less shrinking.
    out.sort_by_key(|t| t.len());
    out
}

#[cfg(test)]
mod tests {
    use super::super::format;
    use super::*;

    fn params(yaml: &str) -> Params {
        serde_yaml::from_str(yaml).expect("test parameters are valid YAML")
    }

    fn all_formats() -> Vec<InputFormat> {
        super::super::entries()
            .iter()
            .filter_map(|e| e.input_format())
            .collect()
    }

    #[test]
    fn every_setting_stays_within_every_format() {
        for f in all_formats() {
            let inputs = range_inputs(&f, 7);
            assert!(inputs.len() >= 10, "{f:?}: {}", inputs.len());
            for i in &inputs {
                assert_eq!(f.check_text(i), Ok(()), "{f:?}");
            }
        }
    }

    #[test]
    fn the_top_bit_decides_the_xor() {
        let f = format::large_piles();
        for seed in 0..20 {
            let text = generate(
                &f,
                &params("{values: top-bit-decides}"),
                &mut Rng::new(seed),
            )
            .expect("builds");
            let cases = f.parse(&text).expect("parses");
            let xor = cases[0].items.iter().fold(0, |x, a| x ^ a);
            assert_eq!(xor, 1 << 29, "{text}");
        }
    }

    #[test]
    fn top_bit_pairs_cancel() {
        let f = format::large_piles();
        for seed in 0..10 {
            let text = generate(&f, &params("{values: top-bit-pairs}"), &mut Rng::new(seed))
                .expect("builds");
            let items = &f.parse(&text).expect("parses")[0].items;
            assert_eq!(items.iter().fold(0, |x, a| x ^ a), 0, "{text}");
            assert!(items.iter().all(|&a| a >= 1 << 29), "{text}");
        }
    }

    #[test]
    fn powers_cover_the_range_and_max_is_the_largest_input() {
        let f = format::nim();
        let text =
            generate(&f, &params("{values: powers, size: max}"), &mut Rng::new(1)).expect("builds");
        let items = &f.parse(&text).expect("parses")[0].items;
        assert_eq!(items.len(), 100);
        for k in 0..=13 {
            assert!(items.contains(&(1 << k)), "2^{k} in {items:?}");
            assert!(items.contains(&((1 << k) - 1)) || k == 0);
        }
        let text =
            generate(&f, &params("{values: max, size: max}"), &mut Rng::new(1)).expect("builds");
        assert_eq!(text, format!("100\n{}\n", vec!["10000"; 100].join(" ")));
    }

    #[test]
    fn layouts_differ_only_in_whitespace() {
        let f = format::john();
        let plain = generate(&f, &params("{cases: 5}"), &mut Rng::new(3)).expect("builds");
        let tokens = |s: &str| {
            s.split_ascii_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        for layout in ["column", "spaces", "one-line", "blank", "no-final-newline"] {
            let text = generate(
                &f,
                &params(&format!("{{cases: 5, layout: {layout}}}")),
                &mut Rng::new(3),
            )
            .expect("builds");
            assert_eq!(tokens(&text), tokens(&plain), "{layout}");
            assert_ne!(text, plain, "{layout}");
        }
        let one = generate(
            &f,
            &params("{cases: 5, layout: one-line}"),
            &mut Rng::new(3),
        )
        .expect("builds");
        assert_eq!(one.matches('\n').count(), 1);
        let spaces =
            generate(&f, &params("{cases: 5, layout: spaces}"), &mut Rng::new(3)).expect("builds");
        assert!(spaces.contains("  "));
    }

    #[test]
    fn bad_knobs_are_named() {
        let f = format::nim();
        let err = generate(&f, &params("{values: huge}"), &mut Rng::new(1)).expect_err("bad");
        assert!(err.to_string().contains("values"), "{err}");
        assert!(generate(&f, &params("{colour: red}"), &mut Rng::new(1)).is_err());
    }
}
