//! The generator family `game` of a described game: inputs within the
//! description's constraints, each case winning or losing for the first
//! player as the `losing` knob asks (built, not hoped for, where theory
//! allows), with heap sizes drawn to cover what wrong programs miss.
//!
//! Knobs (`params:` of a `generator: game` entry):
//! - `n` heaps, `min`/`max` tokens (ranges clamped into the constraints),
//!   `cases` (for inputs of several cases), and each parameter by its name;
//! - `losing`: the share of cases the first player loses (default 0.5);
//! - `sizes`: `random` (default); `residues` (every class of the proven
//!   period in turn); `preperiod` (heaps below the period's start);
//!   `bits` (the highest bit the largest heap allows set, alone or in
//!   several heaps, and powers of two and one below them); `extremes`
//!   (the smallest and the largest heap); `largest` (every count and heap
//!   at its maximum: the largest input in bytes);
//! - `ones`: the share of cases made of single-token heaps only (where
//!   normal and misère play part); `trap`: the share of cases whose first
//!   and last heaps are single tokens around larger ones, with a count of
//!   heaps whose parity misleads a program that reads the position as
//!   single tokens only (as if the heaps were sorted and it looked at one
//!   end); `total` (`even` or `odd`): the parity of every case's total of
//!   tokens, against programs that decide by it;
//! - `layout` (`lines`, `column`, `blank`, `messy`, `one-line`) and `eol`, as for the
//!   catalog's families.

use super::{GameSpec, Position};
use crate::catalog::format::{Bound, Framing};
use crate::catalog::kit::{Style, TRIES, outcome, render};
use crate::games::described::{Analysis, Theory};
use crate::generate::{GenError, Params, Rng};

/// How many draws of the parameters a case may take to reach its outcome.
const PARAMETER_ROUNDS: usize = 30;

/// The family's name in `generator:`.
pub const FAMILY: &str = "game";

/// What the family says of itself.
pub const ABOUT: &str = "a described game's positions (`game:`): knobs n, min, max, cases, \
    each parameter by name, losing, sizes (random, residues, preperiod, bits, extremes, \
    largest), ones, trap, total (even, odd), layout, eol";

/// How heap sizes are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sizes {
    Random,
    Residues,
    Preperiod,
    Bits,
    Extremes,
    Largest,
}

impl GameSpec {
    /// One input of the family `game` for this description.
    pub fn generate(&self, params: &Params, rng: &mut Rng) -> Result<String, GenError> {
        let mut known: Vec<&str> = vec![
            "n", "min", "max", "cases", "losing", "sizes", "ones", "trap", "total", "layout", "eol",
        ];
        known.extend(self.parameters.iter().map(|(n, _)| n.as_str()));
        params.only(&known)?;
        let sizes = match params.str_or("sizes", "random")? {
            "random" => Sizes::Random,
            "residues" => Sizes::Residues,
            "preperiod" => Sizes::Preperiod,
            "bits" => Sizes::Bits,
            "extremes" => Sizes::Extremes,
            "largest" => Sizes::Largest,
            other => {
                return Err(GenError::Param {
                    key: "sizes".into(),
                    expected: "one of random, residues, preperiod, bits, extremes, largest",
                    found: other.to_string(),
                });
            }
        };
        let style = Style::read(params)?;
        let losing = params.f64_or("losing", 0.5)?;
        let ones = params.f64_or("ones", 0.0)?;
        let trap = params.f64_or("trap", 0.0)?;
        let odd_total = match params.str_or("total", "any")? {
            "any" => None,
            "even" => Some(false),
            "odd" => Some(true),
            other => {
                return Err(GenError::Param {
                    key: "total".into(),
                    expected: "one of any, even, odd",
                    found: other.to_string(),
                });
            }
        };
        let size = self.heap_size();
        let tokens = clamp("min`/`max", within(params, size)?, size)?;
        let count = match self.position {
            Position::Heaps { count, .. } => {
                clamp("n", params.range_or("n", (count.min, count.max))?, count)?
            }
            Position::Heap { .. } => Bound::new(1, 1),
        };
        let ranges: Vec<Bound> = self
            .parameters
            .iter()
            .map(|(name, b)| clamp(name, params.range_or(name, (b.min, b.max))?, *b))
            .collect::<Result<_, _>>()?;
        let cases = self.case_count(params, rng, sizes)?;
        let draw = Draw {
            tries: if ranges.is_empty() {
                TRIES
            } else {
                TRIES / PARAMETER_ROUNDS
            },
            tokens,
            count,
            sizes,
            odd_total,
        };
        let mut made = Vec::with_capacity(cases);
        // With parameters, an outcome may be out of reach for some values
        // (no lost heap below m + 1 in Bash's game): draw them again.
        let rounds = if ranges.is_empty() {
            1
        } else {
            PARAMETER_ROUNDS
        };
        for c in 0..cases {
            let lose = rng.chance(losing);
            // Drawn only when asked for, so that inputs without these
            // knobs stay as they were.
            let shape = if ones > 0.0 && rng.chance(ones) {
                Shape::Ones
            } else if trap > 0.0 && rng.chance(trap) {
                Shape::Trap
            } else {
                Shape::General
            };
            let mut last_error = None;
            for round in 0..rounds {
                let values: Vec<u64> = ranges
                    .iter()
                    .map(|b| {
                        // The largest parameters first; others if the
                        // outcome cannot be built with them.
                        if sizes == Sizes::Largest && round == 0 {
                            b.max
                        } else {
                            rng.range(b.min, b.max)
                        }
                    })
                    .collect();
                let analysis = self.analysis(&values).ok_or_else(|| {
                    GenError::Impossible("a parameter of the moves has no value".into())
                })?;
                match draw.position(&analysis, lose, shape, c, rng) {
                    Ok(position) => {
                        made.push((values, position));
                        last_error = None;
                        break;
                    }
                    Err(e) => last_error = Some(e),
                }
            }
            if let Some(e) = last_error {
                return Err(e);
            }
        }
        Ok(self.render_cases(&made, style, rng))
    }

    /// How many cases the input holds.
    fn case_count(&self, params: &Params, rng: &mut Rng, sizes: Sizes) -> Result<usize, GenError> {
        let allowed = match self.cases {
            Framing::Single => return Ok(1),
            Framing::Counted(b) => b,
            Framing::UntilEof { max } => Bound::new(1, max),
            Framing::UntilZero => Bound::new(1, 100_000),
        };
        let default = (allowed.min, allowed.max.min(allowed.min.max(10)));
        let (lo, hi) =
            clamp("cases", params.range_or("cases", default)?, allowed).map(|b| (b.min, b.max))?;
        Ok(if sizes == Sizes::Largest {
            hi
        } else {
            rng.range(lo, hi)
        } as usize)
    }

    /// The input: logical lines of numbers in the chosen style.
    fn render_cases(&self, made: &[(Vec<u64>, Vec<u64>)], style: Style, rng: &mut Rng) -> String {
        let mut lines: Vec<Vec<u64>> = Vec::new();
        if let Framing::Counted(_) = self.cases {
            lines.push(vec![made.len() as u64]);
        }
        for (values, position) in made {
            match self.position {
                Position::Heaps { .. } => {
                    let mut head = vec![position.len() as u64];
                    head.extend(values);
                    if self.same_line {
                        head.extend(position);
                        lines.push(head);
                    } else {
                        lines.push(head);
                        lines.push(position.clone());
                    }
                }
                Position::Heap { .. } => {
                    let mut line = position.clone();
                    line.extend(values);
                    lines.push(line);
                }
            }
        }
        if self.cases == Framing::UntilZero {
            lines.push(vec![0]);
        }
        render(&lines, style, rng)
    }
}

/// The `min`/`max` knobs as a range (defaults: the constraint).
fn within(params: &Params, b: Bound) -> Result<(u64, u64), GenError> {
    Ok((params.u64_or("min", b.min)?, params.u64_or("max", b.max)?))
}

/// A knob's range clamped into the constraint, or why nothing is left.
fn clamp(key: &str, (lo, hi): (u64, u64), limit: Bound) -> Result<Bound, GenError> {
    let (lo, hi) = (lo.max(limit.min), hi.min(limit.max));
    if lo > hi {
        return Err(GenError::Impossible(format!(
            "`{key}` leaves no value within the problem's limits {}..={}",
            limit.min, limit.max
        )));
    }
    Ok(Bound::new(lo, hi))
}

/// What one case's position is drawn from.
struct Draw {
    /// Draws of a position before giving up.
    tries: usize,
    tokens: Bound,
    count: Bound,
    sizes: Sizes,
    /// The parity the case's total of tokens must have, if any.
    odd_total: Option<bool>,
}

/// The shape of one case's position (knobs `ones` and `trap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    General,
    /// Single-token heaps only.
    Ones,
    /// Single tokens at both ends, a larger heap between them, and a
    /// count of heaps odd when the position is won, even when it is lost:
    /// read as single tokens only (misère), the other outcome.
    Trap,
}

impl Draw {
    /// A position lost (`lose`) or won for the first player, the `c`-th of
    /// the input; the outcome is built where theory allows, else drawn
    /// until the search agrees (or left to chance when positions are too
    /// large for it).
    fn position(
        &self,
        analysis: &Analysis,
        lose: bool,
        shape: Shape,
        c: usize,
        rng: &mut Rng,
    ) -> Result<Vec<u64>, GenError> {
        let mut unknown = None;
        for attempt in 0..self.tries {
            let Some(p) = self.shaped(analysis, lose, shape, c + attempt, rng) else {
                continue;
            };
            if p.iter()
                .any(|a| !(self.tokens.min..=self.tokens.max).contains(a))
            {
                continue;
            }
            let total = p.iter().fold(0u64, |s, &a| s.wrapping_add(a));
            if self.odd_total.is_some_and(|odd| (total % 2 == 1) != odd) {
                continue;
            }
            match analysis.mover_wins(&p) {
                Some(wins) if wins != lose => return Ok(p),
                Some(_) => {}
                None => {
                    unknown.get_or_insert(p);
                }
            }
        }
        unknown.ok_or_else(|| {
            GenError::Impossible(format!(
                "could not build a {} position{} with {}..={} heaps of {}..={} tokens",
                outcome(lose),
                match (shape, self.odd_total) {
                    (Shape::Ones, _) => " of single tokens",
                    (Shape::Trap, _) => " with single tokens at both ends",
                    (_, Some(true)) => " with an odd total",
                    (_, Some(false)) => " with an even total",
                    (_, None) => "",
                },
                self.count.min,
                self.count.max,
                self.tokens.min,
                self.tokens.max
            ))
        })
    }

    /// One draw of a position of `shape`, steered towards the outcome
    /// (`None`: the shape cannot be drawn within the constraints).
    fn shaped(
        &self,
        analysis: &Analysis,
        lose: bool,
        shape: Shape,
        c: usize,
        rng: &mut Rng,
    ) -> Option<Vec<u64>> {
        let n = if self.sizes == Sizes::Largest {
            self.count.max
        } else {
            rng.range(self.count.min, self.count.max)
        } as usize;
        match shape {
            Shape::General => {
                let mut p = self.heaps(analysis, n, c, rng);
                self.steer(analysis, lose, &mut p, rng);
                Some(p)
            }
            Shape::Ones => Some(vec![1; n]),
            Shape::Trap => {
                let lo = self.count.min.max(3);
                let first = lo + u64::from(lo % 2 == u64::from(lose));
                if first > self.count.max {
                    return None;
                }
                let n = first + 2 * rng.range(0, (self.count.max - first) / 2);
                // The two single tokens first, so that steering the outcome
                // changes a heap between them; then one goes to the end.
                let mut p = vec![1, 1];
                p.extend(self.heaps(analysis, n as usize - 2, c, rng));
                self.steer(analysis, lose, &mut p, rng);
                if p[2..].iter().all(|&a| a <= 1) {
                    return None;
                }
                p.remove(1);
                p.push(1);
                Some(p)
            }
        }
    }

    fn steer(&self, analysis: &Analysis, lose: bool, p: &mut [u64], rng: &mut Rng) {
        if lose {
            self.make_lost(analysis, p, rng);
        } else {
            self.make_won(analysis, p, rng);
        }
    }

    /// `n` heap sizes as `sizes` says.
    fn heaps(&self, analysis: &Analysis, n: usize, c: usize, rng: &mut Rng) -> Vec<u64> {
        let Bound { min: lo, max: hi } = self.tokens;
        let period = analysis.heap_values().and_then(|h| h.period());
        (0..n)
            .map(|j| match self.sizes {
                Sizes::Random => rng.range(lo, hi),
                Sizes::Largest => rng.range(self.near_top(), hi),
                // The smallest and the largest heaps, and their neighbours.
                Sizes::Extremes => match rng.range(0, 3) {
                    0 => lo,
                    1 => lo.saturating_add(1).min(hi),
                    2 => hi.saturating_sub(1).max(lo),
                    _ => hi,
                },
                Sizes::Preperiod => match period {
                    Some(p) if p.from > lo => rng.range(lo, hi.min(p.from - 1)),
                    _ => rng.range(lo, hi.min(lo.saturating_add(64))),
                },
                Sizes::Residues => match period {
                    Some(p) => {
                        // Class (c + j) mod length, at a random height.
                        let class = (c + j) as u64 % p.length;
                        let base = p.from.max(lo);
                        let first = base + (p.from + class + p.length - base % p.length) % p.length;
                        if first > hi {
                            rng.range(lo, hi)
                        } else {
                            first + p.length * rng.range(0, (hi - first) / p.length)
                        }
                    }
                    None => rng.range(lo, hi),
                },
                Sizes::Bits => bits(lo, hi, rng),
            })
            .collect()
    }

    /// The lowest heap `largest` draws: within the top thousandth of the
    /// largest heap (at least the top ten heaps, so that both outcomes
    /// can be built), so the input is as long as any.
    fn near_top(&self) -> u64 {
        let Bound { min: lo, max: hi } = self.tokens;
        hi.saturating_sub((hi / 1000).max(9)).max(lo)
    }

    /// Turns a sum of heaps whose values cancel into a won position by
    /// changing its last heap (others are drawn again by the caller).
    fn make_won(&self, analysis: &Analysis, p: &mut [u64], rng: &mut Rng) {
        let Bound { min: lo, max: hi } = self.tokens;
        let (Theory::Sum, Some(h), Some(last)) = (
            analysis.theory(),
            analysis.heap_values(),
            p.len().checked_sub(1),
        ) else {
            return;
        };
        let Some(rest) = p[..last].iter().try_fold(0u64, |x, &a| Some(x ^ h.get(a)?)) else {
            return;
        };
        if h.get(p[last]).is_some_and(|v| v != rest) {
            return;
        }
        let pick = rng.next_u64();
        if let Some(a) = (0..8u64)
            .filter(|&v| v != rest)
            .find_map(|v| h.heap_with_value(v, lo, hi, pick))
        {
            p[last] = a;
        }
    }

    /// Turns `p` into a lost position by changing as little as theory
    /// allows; leaves it alone where no theory builds one.
    fn make_lost(&self, analysis: &Analysis, p: &mut [u64], rng: &mut Rng) {
        let Bound { min: lo, max: hi } = self.tokens;
        let Some(last) = p.len().checked_sub(1) else {
            return;
        };
        match analysis.theory() {
            Theory::Sum => {
                let Some(h) = analysis.heap_values() else {
                    return;
                };
                let rest = p[..last].iter().try_fold(0u64, |x, &a| Some(x ^ h.get(a)?));
                let pick = rng.next_u64();
                let near = if self.sizes == Sizes::Largest {
                    self.near_top()
                } else {
                    lo
                };
                if let Some(x) = rest
                    && let Some(a) = h
                        .heap_with_value(x, near, hi, pick)
                        .or_else(|| h.heap_with_value(x, lo, hi, pick))
                {
                    p[last] = a;
                }
            }
            Theory::MisereNim => {
                let x = p[..last].iter().fold(0, |s, &a| s ^ a);
                if x > 1 || p[..last].iter().any(|&a| a > 1) {
                    // A heap above one stays: the normal rule, XOR 0.
                    p[last] = x;
                } else {
                    // Single tokens only: an odd number of them loses.
                    let ones = p[..last].iter().filter(|&&a| a == 1).count();
                    p[last] = u64::from(ones % 2 == 0);
                }
            }
            Theory::Moore(k) => moore_balance(p, k),
            Theory::Staircase => {
                let x = p.iter().skip(2).step_by(2).fold(0, |s, &a| s ^ a);
                p[0] = x;
            }
            Theory::Search => {}
        }
    }
}

/// A heap with the highest bit `hi` allows set, or a power of two or one
/// below it, within `lo..=hi`.
fn bits(lo: u64, hi: u64, rng: &mut Rng) -> u64 {
    if hi == 0 {
        return 0;
    }
    let top = 63 - hi.leading_zeros();
    let candidate = match rng.range(0, 3) {
        // The top bit set: anywhere from 2^top to hi.
        0 | 1 => rng.range(1u64 << top, hi),
        // A power of two, or one below it, at any height.
        _ => {
            let b = rng.range(0, u64::from(top));
            let p = 1u64 << b;
            if rng.chance(0.5) {
                p
            } else {
                p.saturating_sub(1).max(1)
            }
        }
    };
    candidate.clamp(lo, hi)
}

/// Moore's Nim_k: makes the last `k` heaps balance every binary digit so
/// that each is set in a multiple of `k + 1` heaps (the heaps may then
/// leave the bounds; the caller checks the outcome and draws again).
fn moore_balance(p: &mut [u64], k: u64) {
    let n = p.len();
    let free = (k as usize).min(n.saturating_sub(1)).max(1);
    let fixed = n - free;
    for slot in &mut p[fixed..] {
        *slot = 0;
    }
    for bit in 0..64 {
        let set = p[..fixed].iter().filter(|&&a| (a >> bit) & 1 == 1).count() as u64;
        let need = ((k + 1) - set % (k + 1)) % (k + 1);
        if need as usize > free {
            return;
        }
        for slot in p[fixed..].iter_mut().take(need as usize) {
            *slot |= 1 << bit;
        }
    }
}
