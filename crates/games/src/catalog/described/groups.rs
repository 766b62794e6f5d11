//! The test groups a described game gets when its spec lists none, and
//! that `grundy new --game` writes out for the setter to edit: small
//! positions in fair proportion of won and lost, every class of the
//! period, the pre-period, the extremes of the constraints, the highest
//! bits, every layout of whitespace, and the largest inputs.
//!
//! Where the description gives answers only up to a bound (no theorem,
//! no period), the groups stay within it, so that a problem with no
//! reference still has an answer for every test.

use super::{GameSpec, Question};
use crate::games::described::Theory;

/// One derived group: its name, its points and its entries, each a count
/// and the `params:` of a `generator: game` entry, written as YAML.
pub struct DerivedGroup {
    pub name: &'static str,
    pub points: u32,
    pub entries: Vec<(u32, String)>,
}

impl GameSpec {
    /// The largest heap the description answers for every parameter
    /// value, and the most heaps, when it answers only small positions.
    fn answer_limit(&self) -> Option<(u64, u64)> {
        let analysis = self.first_analysis()?;
        match analysis.theory() {
            Theory::Search => Some((if self.splits() { 6 } else { 8 }, 3)),
            _ => analysis
                .heap_values()
                .and_then(|h| h.known_below())
                .map(|b| (b - 1, u64::MAX)),
        }
    }

    /// The groups of a problem that lists none.
    pub fn default_groups(&self) -> Vec<DerivedGroup> {
        let played = self.question == Question::Play;
        // A played problem's cases are its games.
        let games = |n: &str| {
            if played || self.multi_case() {
                format!("cases: {n}, ")
            } else {
                String::new()
            }
        };
        let cap = match self.answer_limit() {
            Some((tokens, heaps)) => {
                let heaps = if heaps == u64::MAX {
                    String::new()
                } else {
                    format!(", n: [1, {heaps}]")
                };
                format!(", max: {tokens}{heaps}")
            }
            None => String::new(),
        };
        let entry = |count: u32, knobs: String| {
            let knobs = knobs.trim_start_matches([',', ' ']);
            (count, format!("{{{}}}", knobs.trim_end_matches([',', ' '])))
        };
        // Small positions with small parameters too (a lost heap of Bash's
        // game needs m + 1 tokens).
        let small_parameters: String = self
            .parameters
            .iter()
            .map(|(name, b)| format!(", {name}: [{}, {}]", b.min, b.max.min(b.min + 9)))
            .collect();
        let small_cap = if cap.is_empty() {
            format!(", max: 12, n: [1, 3]{small_parameters}")
        } else {
            format!("{cap}{small_parameters}")
        };
        let mut groups = vec![
            DerivedGroup {
                name: "small",
                points: 20,
                entries: vec![
                    entry(6, format!("{}losing: 0.5{small_cap}", games("[1, 10]"))),
                    entry(2, format!("{}losing: 1.0{small_cap}", games("[1, 10]"))),
                ],
            },
            DerivedGroup {
                name: "period",
                points: 15,
                entries: vec![
                    entry(
                        3,
                        format!("{}sizes: residues, losing: 0.5{cap}", games("[5, 20]")),
                    ),
                    entry(
                        2,
                        format!("{}sizes: preperiod, losing: 0.5{cap}", games("[5, 20]")),
                    ),
                ],
            },
            DerivedGroup {
                name: "extremes",
                points: 15,
                entries: vec![
                    entry(
                        2,
                        format!("{}sizes: extremes, losing: 0.5{cap}", games("[5, 20]")),
                    ),
                    entry(
                        3,
                        format!("{}sizes: bits, losing: 0.5{cap}", games("[5, 20]")),
                    ),
                    entry(
                        1,
                        format!("{}sizes: bits, losing: 1.0{cap}", games("[5, 20]")),
                    ),
                ],
            },
            DerivedGroup {
                name: "layout",
                points: 10,
                entries: vec![
                    entry(
                        1,
                        format!("{}layout: messy, losing: 0.5{cap}", games("[3, 10]")),
                    ),
                    entry(
                        1,
                        format!("{}layout: column, eol: false{cap}", games("[3, 10]")),
                    ),
                    entry(
                        1,
                        format!("{}layout: blank, losing: 1.0{cap}", games("[3, 10]")),
                    ),
                    entry(
                        1,
                        format!("{}layout: one-line, losing: 0.0{cap}", games("[3, 10]")),
                    ),
                ],
            },
            DerivedGroup {
                name: "large",
                points: 40,
                entries: vec![
                    entry(2, format!("{}losing: 0.5{cap}", games("[50, 100]"))),
                    entry(1, format!("{}losing: 1.0{cap}", games("[50, 100]"))),
                    entry(1, format!("sizes: largest{cap}")),
                ],
            },
        ];
        // One-case inputs have no `cases` to vary; the entries stay.
        for g in &mut groups {
            for (_, knobs) in &mut g.entries {
                if knobs == "{}" {
                    *knobs = "{losing: 0.5}".into();
                }
            }
        }
        groups
    }
}
