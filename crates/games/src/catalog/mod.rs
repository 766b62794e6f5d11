//! What grundy knows about each problem of the catalog beyond its YAML spec:
//! the generator families that write its inputs, and the exhaustive cases on
//! which its reference is checked against the game oracle.
//!
//! One file per problem id. The YAML spec names families by their global name
//! (`generator: nim-piles`); [`family`] finds them.

use crate::generate::Families;
pub use crate::generate::Family;

pub mod described;
pub mod extremes;
pub mod format;
pub mod kit;
pub mod piles;
pub mod text_layout;

pub mod bash_game;
pub mod bounded_nim;
pub mod john;
pub mod matches_game;
pub mod misere_nim;
pub mod new_stone_game;
pub mod nim;
pub mod nim_count_moves;
pub mod nim_winning_move;
pub mod nim_yes_no;
pub mod play;
pub mod staircase_nim;
pub mod wythoff;
pub mod wythoff_large;

/// One input decided by the oracle, with the output a correct program prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleCase {
    pub input: String,
    pub expected: String,
}

/// The catalog knowledge of one problem.
pub struct Entry {
    pub id: &'static str,
    pub families: &'static [Family],
    /// The game as Rust code; `None` when the problem's `problem.yaml`
    /// describes it (`game:`), which then gives the input format, the
    /// oracle and the answers, and the entry keeps only the generator
    /// families its tests name.
    pub coded: Option<Coded>,
}

/// What grundy knows of a game coded in Rust rather than described.
pub struct Coded {
    /// The structure of this problem's inputs, as the catalog table of
    /// docs/reference.md states it.
    pub format: fn() -> format::InputFormat,
    /// Every position up to the problem's size bound, decided by search.
    pub oracle_cases: fn() -> Vec<OracleCase>,
    /// Whether `output` is right for `case`. Most problems have one right
    /// answer ([`tokens_match`]); problems that accept any winning move
    /// check the move against the oracle instead.
    pub accepts: fn(&OracleCase, &str) -> Result<(), Rejection>,
}

/// Why an output is wrong for an oracle case. `verify` shows it after the
/// input it disagrees on, so each variant names the token or move at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Rejection {
    #[error("token {index}: expected `{expected}`, got `{got}`")]
    Token {
        index: usize,
        expected: String,
        got: String,
    },
    #[error("token {index}: expected `{expected}`, got end of output")]
    Missing { index: usize, expected: String },
    #[error("token {index}: expected end of output, got `{got}`")]
    Extra { index: usize, got: String },
    /// A played game's tests have no expected output; its interactor is
    /// checked against the search in its own unit tests.
    #[error("an interactive problem has no output to compare")]
    Interactive,
    /// A problem that accepts any winning move judged the move.
    #[error(transparent)]
    Move(#[from] nim_winning_move::MoveError),
    /// A described game's move question judged the move.
    #[error("{0}")]
    Described(String),
}

impl Entry {
    /// The structure of this problem's inputs: how `stress` shrinks a
    /// failing input without breaking the statement's bounds, and what
    /// `export` writes as the package's input validator.
    pub fn input_format(&self) -> Option<format::InputFormat> {
        self.coded.as_ref().map(|c| (c.format)())
    }
}

/// Every catalog entry, in the order of docs/reference.md's catalog.
pub fn entries() -> [&'static Entry; 16] {
    [
        &nim::ENTRY,
        &nim_yes_no::ENTRY,
        &matches_game::ENTRY,
        &misere_nim::ENTRY,
        &john::ENTRY,
        &bash_game::ENTRY,
        &bounded_nim::ENTRY,
        &wythoff::ENTRY,
        &wythoff_large::ENTRY,
        &nim_winning_move::ENTRY,
        &nim_count_moves::ENTRY,
        &staircase_nim::ENTRY,
        &new_stone_game::ENTRY,
        &play::NIM_PLAY,
        &play::MISERE_NIM_PLAY,
        &play::WYTHOFF_PLAY,
    ]
}

/// The catalog entry of a problem id.
pub fn entry(id: &str) -> Option<&'static Entry> {
    entries().into_iter().find(|e| e.id == id)
}

/// Every generator family of the catalog: what test generation takes.
pub fn families() -> Families {
    Families::new(entries().into_iter().flat_map(|e| e.families.iter()))
}

/// The families a problem may name: the catalog's, and the family
/// `game` of its described game when it has one.
pub fn families_for(game: Option<&std::sync::Arc<described::GameSpec>>) -> Families {
    let all = families();
    match game {
        Some(g) => {
            let g = std::sync::Arc::clone(g);
            all.with(crate::generate::OwnFamily {
                name: described::generate::FAMILY,
                generate: Box::new(move |params, rng| g.generate(params, rng)),
            })
        }
        None => all,
    }
}

/// The oracle of a problem: the catalog entry's for its id, or its
/// described game's.
pub struct Oracle {
    pub cases: Vec<OracleCase>,
    accepts: Box<AcceptFn>,
}

/// Whether an output is right for an oracle case.
type AcceptFn = dyn Fn(&OracleCase, &str) -> Result<(), Rejection>;

impl Oracle {
    /// Whether `output` is right for `case`.
    pub fn accepts(&self, case: &OracleCase, output: &str) -> Result<(), Rejection> {
        (self.accepts)(case, output)
    }
}

/// The oracle of problem `id`, described by `game` if it is.
pub fn oracle_for(id: &str, game: Option<&std::sync::Arc<described::GameSpec>>) -> Option<Oracle> {
    if let Some(g) = game {
        let g = std::sync::Arc::clone(g);
        return Some(Oracle {
            cases: g.oracle_cases(),
            accepts: Box::new(move |case, out| g.accepts(case, out)),
        });
    }
    let coded = entry(id)?.coded.as_ref()?;
    Some(Oracle {
        cases: (coded.oracle_cases)(),
        accepts: Box::new(coded.accepts),
    })
}

/// The input format of problem `id`, described by `game` if it is.
pub fn input_format_for(
    id: &str,
    game: Option<&std::sync::Arc<described::GameSpec>>,
) -> Option<format::InputFormat> {
    match game {
        Some(g) => Some(g.input_format()),
        None => entry(id)?.input_format(),
    }
}

/// A generator family by its global name.
pub fn family(name: &str) -> Option<&'static Family> {
    entries()
        .into_iter()
        .flat_map(|e| e.families.iter())
        .find(|f| f.name == name)
}

/// All family names, for "expected one of …" messages.
pub fn family_names() -> Vec<&'static str> {
    entries()
        .into_iter()
        .flat_map(|e| e.families.iter().map(|f| f.name))
        .collect()
}

/// The usual acceptance rule: the same whitespace-separated tokens.
pub fn tokens_match(case: &OracleCase, output: &str) -> Result<(), Rejection> {
    let mut want = case.expected.split_whitespace();
    let mut got = output.split_whitespace();
    let mut i = 1;
    loop {
        match (want.next(), got.next()) {
            (None, None) => return Ok(()),
            (Some(w), Some(g)) if w == g => i += 1,
            (Some(w), Some(g)) => {
                return Err(Rejection::Token {
                    index: i,
                    expected: w.to_string(),
                    got: g.to_string(),
                });
            }
            (Some(w), None) => {
                return Err(Rejection::Missing {
                    index: i,
                    expected: w.to_string(),
                });
            }
            (None, Some(g)) => {
                return Err(Rejection::Extra {
                    index: i,
                    got: g.to_string(),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn family_names_are_unique() {
        let mut names = family_names();
        names.sort_unstable();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "two families share a name");
    }

    #[test]
    fn token_mismatches_say_which_token() {
        let case = OracleCase {
            input: String::new(),
            expected: "1 2\n".into(),
        };
        assert_eq!(tokens_match(&case, " 1\n2 "), Ok(()));
        let shown = |out: &str| tokens_match(&case, out).map_err(|e| e.to_string());
        assert_eq!(shown("1 3"), Err("token 2: expected `2`, got `3`".into()));
        assert_eq!(
            shown("1"),
            Err("token 2: expected `2`, got end of output".into())
        );
        assert_eq!(
            shown("1 2 3"),
            Err("token 3: expected end of output, got `3`".into())
        );
    }

    #[test]
    fn ids_follow_the_spec_order() {
        let ids: Vec<_> = entries().iter().map(|e| e.id).collect();
        assert_eq!(ids[0], "nim");
        assert_eq!(ids[12], "new-stone-game");
        assert_eq!(ids.len(), 16);
        assert_eq!(ids[15], "wythoff-play");
    }
}
