//! The structure of a problem's input: cases of numbers within the
//! statement's bounds.
//!
//! One declarative description per problem serves three users: `stress`
//! parses a failing input into cases, shrinks them and writes them back;
//! the shrinker validates every candidate so it never reports an input the
//! statement forbids; and `export` turns the same description into the
//! input validator an ICPC package needs. Every catalog input is a sequence
//! of cases, each case an optional list length, some fixed numbers, then
//! the list; whitespace is any mix of spaces and newlines (docs/reference.md, "The problem
//! catalog").

mod problems;
mod read;

pub use problems::{
    bash_game, bounded_nim, john, large_piles, matches_game, new_stone_game, nim, nim_count_moves,
    staircase_nim, wythoff, wythoff_large,
};
pub use read::InputError;

/// An inclusive range of allowed values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    pub min: u64,
    pub max: u64,
}

impl Bound {
    pub const fn new(min: u64, max: u64) -> Bound {
        Bound { min, max }
    }

    fn check(&self, what: &str, v: u64) -> Result<(), FormatError> {
        if (self.min..=self.max).contains(&v) {
            Ok(())
        } else {
            Err(FormatError::OutOfBounds {
                what: what.to_string(),
                value: v,
                bound: *self,
            })
        }
    }
}

/// Why an input breaks its problem's format: what `stress` skips as a
/// shrinking candidate and `verify` reports (with the line) for a test.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    #[error("the input ends where {what} should be")]
    Ends { what: String },
    #[error("token {token}: `{text}` is not a number ({what})")]
    NotANumber {
        token: usize,
        text: String,
        what: String,
    },
    /// A list length no problem allows, refused before reading the list
    /// so a hostile input cannot make the parser allocate for it.
    #[error("a list of {n} numbers is more than any problem allows")]
    TooLong { n: u64 },
    #[error("token {token}: `{text}` after the end of the input")]
    Trailing { token: usize, text: String },
    #[error("{what} = {value} is outside {}..={}", bound.min, bound.max)]
    OutOfBounds {
        what: String,
        value: u64,
        bound: Bound,
    },
    #[error("{n} cases where the input is one")]
    NotSingle { n: u64 },
    #[error("{n} cases, expected 1..={max}")]
    CaseCount { n: u64, max: u64 },
    #[error("no case before the final 0")]
    NoCase,
    #[error("{got} numbers where {want} belong")]
    FixedCount { got: usize, want: usize },
    #[error("a list where the case has none")]
    UnexpectedList,
    #[error("{what} = {value} appears twice")]
    Repeated { what: String, value: u64 },
    /// A fault inside one case of an input with several.
    #[error("case {case}: {error}")]
    InCase {
        case: usize,
        error: Box<FormatError>,
    },
}

/// How the cases of one input follow each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// The whole input is one case.
    Single,
    /// A first number `T` within the bound, then `T` cases.
    Counted(Bound),
    /// Cases until the end of the input (at least one, at most `max`).
    UntilEof { max: u64 },
    /// Cases until a case whose list length is 0 (a line `0`).
    UntilZero,
}

/// A number's name in the statement (`n`, `a_i`): written in the code for
/// the catalog's problems, taken from the description for a described game.
pub type Name = std::borrow::Cow<'static, str>;

/// A number of the input: its name and its bound.
pub type Field = (Name, Bound);

/// A field named by a constant.
pub fn field(name: &'static str, bound: Bound) -> Field {
    (Name::Borrowed(name), bound)
}

/// The input grammar of one problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFormat {
    pub framing: Framing,
    /// The list length, when the case has a list: the case's first number.
    pub list_len: Option<Field>,
    /// Numbers after the list length (or the whole case without a list).
    pub fixed: Vec<Field>,
    /// The list's items.
    pub item: Field,
    /// Whether the list's items must be pairwise distinct.
    pub distinct: bool,
    /// Whether a case's list is written on the same line as its header.
    pub one_line: bool,
}

/// The whitespace before each number of an input, in the shape of its
/// cases, and after the last one: what a shrunk input keeps so that a
/// program failing on layout (reading line by line, missing the final
/// newline) still fails.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Layout {
    /// Before the number of cases (`Counted`).
    pub count: String,
    pub cases: Vec<CaseLayout>,
    /// Before the final `0` (`UntilZero`).
    pub terminator: String,
    /// After the last number.
    pub end: String,
}

/// The whitespace before each number of one case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CaseLayout {
    /// Before the list length and the fixed numbers.
    pub head: Vec<String>,
    /// Before each item of the list.
    pub items: Vec<String>,
}

/// One case: its fixed numbers and its list.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Case {
    pub fixed: Vec<u64>,
    pub items: Vec<u64>,
}

impl InputFormat {
    fn has_list(&self) -> bool {
        self.list_len.is_some()
    }

    /// The largest number an input may hold: what a value must fit in.
    pub fn largest_value(&self) -> u64 {
        let mut max = self.fixed.iter().map(|(_, b)| b.max).max().unwrap_or(0);
        if let Some((_, b)) = self.list_len {
            max = max.max(b.max).max(self.item.1.max);
        }
        if let Framing::Counted(b) = self.framing {
            max = max.max(b.max);
        }
        max
    }

    /// Whether the cases respect every bound of the statement.
    pub fn validate(&self, cases: &[Case]) -> Result<(), FormatError> {
        self.validate_at(cases).map_err(|(_, why)| why)
    }

    /// [`Self::validate`], with the 1-based index of the offending number
    /// among the input's tokens (none when the fault is the whole input's).
    fn validate_at(&self, cases: &[Case]) -> Result<(), (Option<usize>, FormatError)> {
        let n = cases.len() as u64;
        let whole = |why: FormatError| (None, why);
        match self.framing {
            Framing::Single if n != 1 => {
                return Err(whole(FormatError::NotSingle { n }));
            }
            Framing::Counted(b) => b
                .check("the number of cases", n)
                .map_err(|why| (Some(1), why))?,
            Framing::UntilEof { max } if n == 0 || n > max => {
                return Err(whole(FormatError::CaseCount { n, max }));
            }
            Framing::UntilZero if n == 0 => {
                return Err(whole(FormatError::NoCase));
            }
            _ => {}
        }
        // Tokens before the current case: the count, then earlier cases.
        let mut before = usize::from(matches!(self.framing, Framing::Counted(_)));
        let head = usize::from(self.has_list());
        for (k, c) in cases.iter().enumerate() {
            // Several cases: say which one is at fault.
            let at = |error: FormatError| {
                if cases.len() > 1 {
                    FormatError::InCase {
                        case: k + 1,
                        error: Box::new(error),
                    }
                } else {
                    error
                }
            };
            let token = |offset: usize| Some(before + offset + 1);
            if c.fixed.len() != self.fixed.len() {
                return Err((
                    token(0),
                    at(FormatError::FixedCount {
                        got: c.fixed.len(),
                        want: self.fixed.len(),
                    }),
                ));
            }
            for (j, ((name, b), v)) in self.fixed.iter().zip(&c.fixed).enumerate() {
                b.check(name, *v)
                    .map_err(|why| (token(head + j), at(why)))?;
            }
            match &self.list_len {
                Some((name, b)) => b
                    .check(name, c.items.len() as u64)
                    .map_err(|why| (token(0), at(why)))?,
                None if !c.items.is_empty() => {
                    return Err((token(0), at(FormatError::UnexpectedList)));
                }
                None => {}
            }
            let items_from = head + c.fixed.len();
            let (name, b) = &self.item;
            for (i, v) in c.items.iter().enumerate() {
                b.check(name, *v)
                    .map_err(|why| (token(items_from + i), at(why)))?;
            }
            if self.distinct {
                let mut seen: Vec<(u64, usize)> = c.items.iter().copied().zip(0..).collect();
                seen.sort_unstable();
                if let Some(w) = seen.windows(2).find(|w| w[0].0 == w[1].0) {
                    let later = w[0].1.max(w[1].1);
                    return Err((
                        token(items_from + later),
                        at(FormatError::Repeated {
                            what: name.to_string(),
                            value: w[0].0,
                        }),
                    ));
                }
            }
            before += items_from + c.items.len();
        }
        Ok(())
    }

    /// Writes cases the way the catalog's generators lay them out.
    pub fn render(&self, cases: &[Case]) -> String {
        self.render_with(cases, &self.canonical_layout(cases))
    }

    /// The plain layout: the count on its own line, one case per line (its
    /// list on the next line unless `one_line`), single spaces, a final newline.
    pub fn canonical_layout(&self, cases: &[Case]) -> Layout {
        let mut first = !matches!(self.framing, Framing::Counted(_));
        let mut layout = Layout {
            count: String::new(),
            cases: Vec::with_capacity(cases.len()),
            terminator: "\n".into(),
            end: "\n".into(),
        };
        for c in cases {
            let head_len = usize::from(self.has_list()) + c.fixed.len();
            let head = (0..head_len)
                .map(|i| match (i, first) {
                    (0, true) => String::new(),
                    (0, false) => "\n".to_string(),
                    _ => " ".to_string(),
                })
                .collect();
            first = false;
            let items = (0..c.items.len())
                .map(|i| if i == 0 && !self.one_line { "\n" } else { " " }.to_string())
                .collect();
            layout.cases.push(CaseLayout { head, items });
        }
        if first {
            layout.terminator = String::new();
        }
        layout
    }

    /// Writes cases with the given whitespace; where the layout has no entry
    /// (more numbers than it describes) the plain layout's is used.
    pub fn render_with(&self, cases: &[Case], layout: &Layout) -> String {
        let plain = self.canonical_layout(cases);
        let pick = |given: Option<&String>, fallback: &String| given.unwrap_or(fallback).clone();
        let mut s = String::new();
        if let Framing::Counted(_) = self.framing {
            s.push_str(&layout.count);
            s.push_str(&cases.len().to_string());
        }
        for (k, c) in cases.iter().enumerate() {
            let given = layout.cases.get(k);
            let fallback = &plain.cases[k];
            let mut head: Vec<u64> = Vec::new();
            if self.has_list() {
                head.push(c.items.len() as u64);
            }
            head.extend(&c.fixed);
            for (i, v) in head.iter().enumerate() {
                s.push_str(&pick(given.and_then(|g| g.head.get(i)), &fallback.head[i]));
                s.push_str(&v.to_string());
            }
            for (i, v) in c.items.iter().enumerate() {
                s.push_str(&pick(
                    given.and_then(|g| g.items.get(i)),
                    &fallback.items[i],
                ));
                s.push_str(&v.to_string());
            }
        }
        if self.framing == Framing::UntilZero {
            s.push_str(&layout.terminator);
            s.push('0');
        }
        s.push_str(&layout.end);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piles100() -> InputFormat {
        InputFormat {
            framing: Framing::Single,
            list_len: Some(field("n", Bound::new(1, 100))),
            fixed: Vec::new(),
            item: field("a_i", Bound::new(1, 10_000)),
            distinct: false,
            one_line: false,
        }
    }

    fn until_zero() -> InputFormat {
        InputFormat {
            framing: Framing::UntilZero,
            list_len: Some(field("n", Bound::new(1, 10))),
            fixed: Vec::new(),
            item: field("a_i", Bound::new(1, 100)),
            distinct: false,
            one_line: true,
        }
    }

    fn pair_lines() -> InputFormat {
        InputFormat {
            framing: Framing::UntilEof { max: 100_000 },
            list_len: None,
            fixed: vec![
                field("a", Bound::new(0, 1_000_000_000)),
                field("b", Bound::new(0, 1_000_000_000)),
            ],
            item: field("-", Bound::new(0, 0)),
            distinct: false,
            one_line: true,
        }
    }

    fn counted() -> InputFormat {
        InputFormat {
            framing: Framing::Counted(Bound::new(1, 20)),
            list_len: Some(field("N", Bound::new(1, 1000))),
            fixed: Vec::new(),
            item: field("P_i", Bound::new(1, 10_000)),
            distinct: true,
            one_line: false,
        }
    }

    #[test]
    fn check_text_names_the_line_of_the_broken_number() {
        let f = nim();
        assert_eq!(f.check_text("2\n3 5\n"), Ok(()));
        let too_big = f.check_text("2\n3\n99999999999\n").expect_err("bound");
        assert_eq!(too_big.line, Some(3), "{too_big}");
        assert!(
            too_big.to_string().contains("a_i = 99999999999"),
            "{too_big}"
        );
        let zero = f.check_text("1\n0\n").expect_err("a pile of 0");
        assert_eq!(zero.line, Some(2));
        let short = f.check_text("3\n1 2\n").expect_err("missing pile");
        assert_eq!(short.line, Some(2), "{short}");
        assert!(short.error.to_string().contains("ends"), "{short}");
        let extra = f.check_text("1\n1\n\n7\n").expect_err("extra token");
        assert_eq!(extra.line, Some(4));
        let word = f.check_text("1\nx\n").expect_err("not a number");
        assert_eq!(word.line, Some(2));
        let count = f.check_text("0\n").expect_err("n = 0");
        assert_eq!(count.line, Some(1));
    }

    #[test]
    fn parse_render_round_trip() {
        for (f, text) in [
            (piles100(), "3\n1 2 3\n"),
            (until_zero(), "2 1 2\n1 5\n0\n"),
            (pair_lines(), "1 2\n0 0\n"),
            (counted(), "2\n1\n5\n2\n1 2\n"),
        ] {
            let cases = f.parse(text).expect("parses");
            assert_eq!(f.validate(&cases), Ok(()));
            assert_eq!(f.render(&cases), text);
            let messy = format!(" {}", text.replace('\n', "  \n\t "));
            assert_eq!(f.parse(&messy), Ok(cases.clone()));
            let (again, layout) = f.parse_layout(&messy).expect("parses");
            assert_eq!(again, cases);
            assert_eq!(f.render_with(&cases, &layout), messy, "layout kept");
        }
    }

    #[test]
    fn bad_inputs_are_named() {
        fn shown<T>(r: Result<T, FormatError>) -> Result<T, String> {
            r.map_err(|e| e.to_string())
        }
        assert_eq!(
            shown(piles100().parse("2\n1\n")),
            Err("the input ends where a_i should be".into())
        );
        assert_eq!(
            shown(piles100().parse("1\n1 2\n")),
            Err("token 3: `2` after the end of the input".into())
        );
        assert_eq!(
            shown(piles100().parse("1\n01\n")),
            Err("token 2: `01` is not a number (a_i)".into())
        );
        let c = piles100().parse("1\n10001\n").expect("parses");
        assert_eq!(
            shown(piles100().validate(&c)),
            Err("a_i = 10001 is outside 1..=10000".into())
        );
        let c = counted().parse("1\n2\n3 3\n").expect("parses");
        assert_eq!(
            shown(counted().validate(&c)),
            Err("P_i = 3 appears twice".into())
        );
        assert!(until_zero().parse("1 1\n").is_err());
        let two = counted().parse("2\n1\n5\n2\n7 7\n").expect("parses");
        assert_eq!(
            shown(counted().validate(&two)),
            Err("case 2: P_i = 7 appears twice".into())
        );
        assert_eq!(
            shown(pair_lines().validate(&[])),
            Err("0 cases, expected 1..=100000".into())
        );
    }
}
