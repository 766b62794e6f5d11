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

/// How many games an entry's cases hold.
#[derive(Clone, Copy)]
enum Cases {
    /// The group's number (`cases:`), where the input has several cases.
    Group,
    /// The generator's own.
    Generator,
}

/// A derived group's plan: its name, its points, how many games a case
/// holds, whether its parameters stay small too, and its entries (a count,
/// the games of its cases, its knobs).
struct Plan {
    name: &'static str,
    points: u32,
    games: &'static str,
    small_parameters: bool,
    entries: &'static [(u32, Cases, &'static str)],
}

/// The groups of a problem that lists none: small positions (with small
/// parameters too: a lost heap of Bash's game needs m + 1 tokens), every
/// class of the period, the extremes and highest bits, every layout of
/// whitespace, and the largest inputs.
const PLAN: &[Plan] = &[
    Plan {
        name: "small",
        points: 20,
        games: "[1, 10]",
        small_parameters: true,
        entries: &[
            (6, Cases::Group, "losing: 0.5"),
            (2, Cases::Group, "losing: 1.0"),
        ],
    },
    Plan {
        name: "period",
        points: 15,
        games: "[5, 20]",
        small_parameters: false,
        entries: &[
            (3, Cases::Group, "sizes: residues, losing: 0.5"),
            (2, Cases::Group, "sizes: preperiod, losing: 0.5"),
        ],
    },
    Plan {
        name: "extremes",
        points: 15,
        games: "[5, 20]",
        small_parameters: false,
        entries: &[
            (2, Cases::Group, "sizes: extremes, losing: 0.5"),
            (3, Cases::Group, "sizes: bits, losing: 0.5"),
            (1, Cases::Group, "sizes: bits, losing: 1.0"),
        ],
    },
    Plan {
        name: "layout",
        points: 10,
        games: "[3, 10]",
        small_parameters: false,
        entries: &[
            (1, Cases::Group, "layout: messy, losing: 0.5"),
            (1, Cases::Group, "layout: column, eol: false"),
            (1, Cases::Group, "layout: blank, losing: 1.0"),
            (1, Cases::Group, "layout: one-line, losing: 0.0"),
        ],
    },
    Plan {
        name: "large",
        points: 40,
        games: "[50, 100]",
        small_parameters: false,
        entries: &[
            (2, Cases::Group, "losing: 0.5"),
            (1, Cases::Group, "losing: 1.0"),
            (1, Cases::Generator, "sizes: largest"),
        ],
    },
];

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
        let mut groups: Vec<DerivedGroup> = PLAN
            .iter()
            .map(|g| DerivedGroup {
                name: g.name,
                points: g.points,
                entries: g
                    .entries
                    .iter()
                    .map(|&(count, cases, knobs)| {
                        let cases = match cases {
                            Cases::Group => games(g.games),
                            Cases::Generator => String::new(),
                        };
                        let cap = if g.small_parameters { &small_cap } else { &cap };
                        entry(count, format!("{cases}{knobs}{cap}"))
                    })
                    .collect(),
            })
            .collect();
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
