//! A described game's input: its format (what `verify` validates,
//! `stress` shrinks and `export` writes as the input validator) and the
//! reading of one case into the game's position and parameters.
//!
//! A case is `n`, then the parameters in their order, then — for a list
//! of heaps — the `n` heaps, on the same line or the next one. One heap:
//! `n` and the parameters on one line. Whitespace is any mix of spaces
//! and newlines, as everywhere in grundy.

use super::{GameSpec, Position, Question};
use crate::catalog::format::{Bound, Case, Field, Framing, InputFormat, Name, field};

impl GameSpec {
    /// The input format the description implies.
    pub fn input_format(&self) -> InputFormat {
        let params = self
            .parameters
            .iter()
            .map(|(n, b)| (Name::Owned(n.clone()), *b));
        match self.position {
            Position::Heaps { count, size } => InputFormat {
                framing: self.cases,
                list_len: Some(field("n", count)),
                fixed: params.collect(),
                item: field("a_i", size),
                distinct: false,
                one_line: self.same_line,
            },
            Position::Heap { size } => {
                let mut fixed: Vec<Field> = vec![field("n", size)];
                fixed.extend(params);
                InputFormat {
                    framing: self.cases,
                    list_len: None,
                    fixed,
                    item: field("-", Bound::new(0, 0)),
                    distinct: false,
                    one_line: true,
                }
            }
        }
    }

    /// A case's parameter values and position.
    pub fn read_case(&self, case: &Case) -> (Vec<u64>, Vec<u64>) {
        match self.position {
            Position::Heaps { .. } => (case.fixed.clone(), case.items.clone()),
            Position::Heap { .. } => {
                let (n, params) = case
                    .fixed
                    .split_first()
                    .map_or((0, &[][..]), |(n, p)| (*n, p));
                (params.to_vec(), vec![n])
            }
        }
    }

    /// The case holding `position` with `params`.
    pub fn write_case(&self, params: &[u64], position: &[u64]) -> Case {
        match self.position {
            Position::Heaps { .. } => Case {
                fixed: params.to_vec(),
                items: position.to_vec(),
            },
            Position::Heap { .. } => {
                let mut fixed = vec![position.first().copied().unwrap_or(0)];
                fixed.extend_from_slice(params);
                Case {
                    fixed,
                    items: Vec::new(),
                }
            }
        }
    }

    /// Whether a problem's input holds several cases.
    pub fn multi_case(&self) -> bool {
        self.cases != Framing::Single
    }

    /// Whether the problem is played against the judge.
    pub fn played(&self) -> bool {
        self.question == Question::Play
    }
}
