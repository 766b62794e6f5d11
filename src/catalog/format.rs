//! The structure of a problem's input: cases of numbers within the
//! statement's bounds.
//!
//! One declarative description per problem serves three users: `stress`
//! parses a failing input into cases, shrinks them and writes them back;
//! the shrinker validates every candidate so it never reports an input the
//! statement forbids; and `export` turns the same description into the
//! input validator an ICPC package needs. Every catalog input is a sequence
//! of cases, each case an optional list length, some fixed numbers, then
//! the list; whitespace is any mix of spaces and newlines (SPEC.md).

use std::fmt::Write as _;

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

    fn check(&self, what: &str, v: u64) -> Result<(), String> {
        if (self.min..=self.max).contains(&v) {
            Ok(())
        } else {
            Err(format!(
                "{what} = {v} is outside {}..={}",
                self.min, self.max
            ))
        }
    }
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

/// The input grammar of one problem.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InputFormat {
    pub framing: Framing,
    /// The list length, when the case has a list: the case's first number.
    pub list_len: Option<(&'static str, Bound)>,
    /// Numbers after the list length (or the whole case without a list).
    pub fixed: &'static [(&'static str, Bound)],
    /// The list's items.
    pub item: (&'static str, Bound),
    /// Whether the list's items must be pairwise distinct.
    pub distinct: bool,
    /// Whether a case's list is written on the same line as its header.
    pub one_line: bool,
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

    /// Reads an input into cases; an error says where it stops making sense.
    pub fn parse(&self, text: &str) -> Result<Vec<Case>, String> {
        let mut tokens = text.split_ascii_whitespace().enumerate().peekable();
        let mut next = |what: &str| -> Result<u64, String> {
            let (i, t) = tokens
                .next()
                .ok_or_else(|| format!("the input ends where {what} should be"))?;
            number(t)
                .ok_or_else(|| format!("token {}: `{}` is not a number ({what})", i + 1, clip(t)))
        };
        let mut cases = Vec::new();
        let total = match self.framing {
            Framing::Counted(_) => Some(next("the number of cases")?),
            _ => None,
        };
        loop {
            if let Some(t) = total {
                if cases.len() as u64 == t {
                    break;
                }
            }
            let len = match self.list_len {
                Some((name, _)) => {
                    if matches!(self.framing, Framing::UntilEof { .. }) && self.at_end(text, &cases)
                    {
                        break;
                    }
                    let n = next(name)?;
                    if n == 0 && self.framing == Framing::UntilZero {
                        break;
                    }
                    Some(n)
                }
                None => {
                    if matches!(self.framing, Framing::UntilEof { .. }) && self.at_end(text, &cases)
                    {
                        break;
                    }
                    None
                }
            };
            let mut fixed = Vec::with_capacity(self.fixed.len());
            for (name, _) in self.fixed {
                fixed.push(next(name)?);
            }
            let mut items = Vec::new();
            if let Some(n) = len {
                let (name, _) = self.item;
                if n > 10_000_000 {
                    return Err(format!(
                        "a list of {n} numbers is more than any problem allows"
                    ));
                }
                for _ in 0..n {
                    items.push(next(name)?);
                }
            }
            cases.push(Case { fixed, items });
            if self.framing == Framing::Single {
                break;
            }
        }
        let consumed = self.token_count(&cases);
        let extra = text.split_ascii_whitespace().nth(consumed);
        if let Some(t) = extra {
            return Err(format!(
                "token {}: `{}` after the end of the input",
                consumed + 1,
                clip(t)
            ));
        }
        Ok(cases)
    }

    /// Whether every token of `text` has been read into `cases` already.
    fn at_end(&self, text: &str, cases: &[Case]) -> bool {
        text.split_ascii_whitespace()
            .nth(self.token_count(cases))
            .is_none()
    }

    /// How many tokens `cases` take when written (with the count or terminator).
    fn token_count(&self, cases: &[Case]) -> usize {
        let per: usize = cases
            .iter()
            .map(|c| usize::from(self.has_list()) + c.fixed.len() + c.items.len())
            .sum();
        per + match self.framing {
            Framing::Counted(_) | Framing::UntilZero => 1,
            _ => 0,
        }
    }

    /// Whether the cases respect every bound of the statement.
    pub fn validate(&self, cases: &[Case]) -> Result<(), String> {
        let n = cases.len() as u64;
        match self.framing {
            Framing::Single if n != 1 => return Err(format!("{n} cases where the input is one")),
            Framing::Counted(b) => b.check("the number of cases", n)?,
            Framing::UntilEof { max } if n == 0 || n > max => {
                return Err(format!("{n} cases, expected 1..={max}"));
            }
            Framing::UntilZero if n == 0 => return Err("no case before the final 0".into()),
            _ => {}
        }
        for (k, c) in cases.iter().enumerate() {
            let at = |what: &str| {
                if cases.len() > 1 {
                    format!("case {}: {what}", k + 1)
                } else {
                    what.to_string()
                }
            };
            if c.fixed.len() != self.fixed.len() {
                return Err(at(&format!(
                    "{} numbers where {} belong",
                    c.fixed.len(),
                    self.fixed.len()
                )));
            }
            for ((name, b), v) in self.fixed.iter().zip(&c.fixed) {
                b.check(&at(name), *v)?;
            }
            match self.list_len {
                Some((name, b)) => b.check(&at(name), c.items.len() as u64)?,
                None if !c.items.is_empty() => return Err(at("a list where the case has none")),
                None => {}
            }
            let (name, b) = self.item;
            for v in &c.items {
                b.check(&at(name), *v)?;
            }
            if self.distinct {
                let mut seen = c.items.clone();
                seen.sort_unstable();
                if let Some(w) = seen.windows(2).find(|w| w[0] == w[1]) {
                    return Err(at(&format!("{name} = {} appears twice", w[0])));
                }
            }
        }
        Ok(())
    }

    /// Writes cases the way the catalog's generators lay them out.
    pub fn render(&self, cases: &[Case]) -> String {
        let mut s = String::new();
        if self.framing != Framing::Single {
            if let Framing::Counted(_) = self.framing {
                let _ = writeln!(s, "{}", cases.len());
            }
        }
        for c in cases {
            let mut head: Vec<u64> = Vec::new();
            if self.has_list() {
                head.push(c.items.len() as u64);
            }
            head.extend(&c.fixed);
            s.push_str(&join(&head));
            if self.has_list() {
                s.push(if self.one_line { ' ' } else { '\n' });
                s.push_str(&join(&c.items));
            }
            // An empty list on one line would leave a trailing space.
            if s.ends_with(' ') {
                s.pop();
            }
            s.push('\n');
        }
        if self.framing == Framing::UntilZero {
            s.push_str("0\n");
        }
        s
    }

    /// A standalone ICPC input validator (Python 3): exit 42 when standard
    /// input is a valid input, 43 with a reason on standard error otherwise.
    pub fn python_validator(&self, title: &str) -> String {
        let bound = |b: Bound| format!("({}, {})", b.min, b.max);
        let named = |(n, b): (&str, Bound)| format!("({n:?}, {})", bound(b));
        let framing = match self.framing {
            Framing::Single => "(\"single\", None)".to_string(),
            Framing::Counted(b) => format!("(\"counted\", {})", bound(b)),
            Framing::UntilEof { max } => format!("(\"eof\", {max})"),
            Framing::UntilZero => "(\"zero\", None)".to_string(),
        };
        let fixed: Vec<String> = self.fixed.iter().map(|&f| named(f)).collect();
        let list_len = self.list_len.map_or("None".to_string(), named);
        VALIDATOR_PY
            .replace("{title}", title)
            .replace("{framing}", &framing)
            .replace("{list_len}", &list_len)
            .replace("{fixed}", &format!("[{}]", fixed.join(", ")))
            .replace("{item}", &named(self.item))
            .replace("{distinct}", if self.distinct { "True" } else { "False" })
    }
}

/// A single-case pile input: `n`, then `n` piles.
const fn piles(n_max: u64, a_max: u64) -> InputFormat {
    InputFormat {
        framing: Framing::Single,
        list_len: Some(("n", Bound::new(1, n_max))),
        fixed: &[],
        item: ("a_i", Bound::new(1, a_max)),
        distinct: false,
        one_line: false,
    }
}

/// Lines `a b` until the end of the input.
const fn pairs(max_lines: u64, max: u64) -> InputFormat {
    InputFormat {
        framing: Framing::UntilEof { max: max_lines },
        list_len: None,
        fixed: if max == 1_000_000_000 {
            &WYTHOFF_FIELDS
        } else {
            &WYTHOFF_LARGE_FIELDS
        },
        item: ("-", Bound::new(0, 0)),
        distinct: false,
        one_line: true,
    }
}

const WYTHOFF_FIELDS: [(&str, Bound); 2] = [
    ("a", Bound::new(0, 1_000_000_000)),
    ("b", Bound::new(0, 1_000_000_000)),
];
const WYTHOFF_LARGE_FIELDS: [(&str, Bound); 2] = [
    ("a", Bound::new(0, 1_000_000_000_000_000_000)),
    ("b", Bound::new(0, 1_000_000_000_000_000_000)),
];

/// The input format of each catalog problem, as SPEC.md's table states it.
pub fn of(id: &str) -> Option<InputFormat> {
    const E9: u64 = 1_000_000_000;
    Some(match id {
        "nim" => piles(100, 10_000),
        "nim-yes-no" | "misere-nim" | "nim-winning-move" => piles(100_000, E9),
        "matches-game" => InputFormat {
            framing: Framing::UntilEof { max: u64::MAX },
            list_len: Some(("M", Bound::new(1, 20))),
            item: ("a_i", Bound::new(1, 10_000_000)),
            one_line: true,
            ..piles(0, 0)
        },
        "john" => InputFormat {
            framing: Framing::Counted(Bound::new(1, 474)),
            ..piles(47, 4747)
        },
        "bash-game" => InputFormat {
            framing: Framing::Counted(Bound::new(1, 100)),
            list_len: None,
            fixed: &[
                ("n", Bound { min: 1, max: 1000 }),
                ("m", Bound { min: 1, max: 1000 }),
            ],
            one_line: true,
            ..piles(0, 0)
        },
        "bounded-nim" => InputFormat {
            fixed: &[("k", Bound { min: 1, max: E9 })],
            ..piles(100_000, E9)
        },
        "wythoff" => pairs(u64::MAX, E9),
        "wythoff-large" => pairs(100_000, 1_000_000_000_000_000_000),
        "nim-count-moves" => InputFormat {
            framing: Framing::UntilZero,
            one_line: true,
            ..piles(1000, E9)
        },
        "staircase-nim" => InputFormat {
            framing: Framing::Counted(Bound::new(1, 20)),
            list_len: Some(("N", Bound::new(1, 1000))),
            item: ("P_i", Bound::new(1, 10_000)),
            distinct: true,
            ..piles(0, 0)
        },
        "new-stone-game" => InputFormat {
            framing: Framing::UntilZero,
            ..piles(10, 100)
        },
        _ => return None,
    })
}

/// A canonical non-negative decimal number (no sign, no leading zero).
fn number(t: &str) -> Option<u64> {
    let canonical =
        !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0'));
    if canonical { t.parse().ok() } else { None }
}

fn clip(t: &str) -> String {
    t.chars().take(30).collect()
}

fn join(values: &[u64]) -> String {
    super::piles::join(values)
}

const VALIDATOR_PY: &str = r#"#!/usr/bin/env python3
# Input validator for "{title}", written by `grundy export` from the
# problem's input format: exit 42 if standard input is valid, else 43.
import re
import sys

FRAMING = {framing}
LIST_LEN = {list_len}
FIXED = {fixed}
ITEM = {item}
DISTINCT = {distinct}


def fail(why):
    print(why, file=sys.stderr)
    sys.exit(43)


def main():
    data = sys.stdin.buffer.read()
    if re.search(rb"[^0-9 \t\r\n]", data):
        fail("a character other than a digit or whitespace")
    tokens = data.split()
    pos = [0]

    def number(what, bound):
        if pos[0] >= len(tokens):
            fail("the input ends where %s should be" % what)
        t = tokens[pos[0]]
        pos[0] += 1
        if len(t) > 1 and t.startswith(b"0"):
            fail("%s: leading zero in %r" % (what, t))
        v = int(t)
        if not bound[0] <= v <= bound[1]:
            fail("%s = %d is outside %d..%d" % (what, v, bound[0], bound[1]))
        return v

    kind, arg = FRAMING
    total = number("the number of cases", arg) if kind == "counted" else None
    cases = 0
    while True:
        if total is not None and cases == total:
            break
        if kind == "eof" and pos[0] == len(tokens):
            break
        n = None
        if LIST_LEN is not None:
            if kind == "zero" and pos[0] < len(tokens) and tokens[pos[0]] == b"0":
                pos[0] += 1
                break
            n = number(LIST_LEN[0], LIST_LEN[1])
        for name, bound in FIXED:
            number(name, bound)
        if n is not None:
            items = [number(ITEM[0], ITEM[1]) for _ in range(n)]
            if DISTINCT and len(set(items)) != len(items):
                fail("%s values repeat" % ITEM[0])
        cases += 1
        if kind == "single":
            break
    if kind == "eof" and not 1 <= cases <= arg:
        fail("%d cases, expected 1..%d" % (cases, arg))
    if kind == "zero" and cases == 0:
        fail("no case before the final 0")
    if pos[0] != len(tokens):
        fail("extra data after the input")
    sys.exit(42)


main()
"#;

#[cfg(test)]
mod tests {
    use super::*;

    const PILES: InputFormat = InputFormat {
        framing: Framing::Single,
        list_len: Some(("n", Bound::new(1, 100))),
        fixed: &[],
        item: ("a_i", Bound::new(1, 10_000)),
        distinct: false,
        one_line: false,
    };

    const ZERO: InputFormat = InputFormat {
        framing: Framing::UntilZero,
        list_len: Some(("n", Bound::new(1, 10))),
        fixed: &[],
        item: ("a_i", Bound::new(1, 100)),
        distinct: false,
        one_line: true,
    };

    const PAIRS: InputFormat = InputFormat {
        framing: Framing::UntilEof { max: 100_000 },
        list_len: None,
        fixed: &[
            ("a", Bound::new(0, 1_000_000_000)),
            ("b", Bound::new(0, 1_000_000_000)),
        ],
        item: ("-", Bound::new(0, 0)),
        distinct: false,
        one_line: true,
    };

    const COUNTED: InputFormat = InputFormat {
        framing: Framing::Counted(Bound::new(1, 20)),
        list_len: Some(("N", Bound::new(1, 1000))),
        fixed: &[],
        item: ("P_i", Bound::new(1, 10_000)),
        distinct: true,
        one_line: false,
    };

    #[test]
    fn parse_render_round_trip() {
        for (f, text) in [
            (PILES, "3\n1 2 3\n"),
            (ZERO, "2 1 2\n1 5\n0\n"),
            (PAIRS, "1 2\n0 0\n"),
            (COUNTED, "2\n1\n5\n2\n1 2\n"),
        ] {
            let cases = f.parse(text).expect("parses");
            assert_eq!(f.validate(&cases), Ok(()));
            assert_eq!(f.render(&cases), text);
            let messy = text.replace('\n', "  \n\t ");
            assert_eq!(f.parse(&messy), Ok(cases));
        }
    }

    #[test]
    fn bad_inputs_are_named() {
        assert_eq!(
            PILES.parse("2\n1\n"),
            Err("the input ends where a_i should be".into())
        );
        assert_eq!(
            PILES.parse("1\n1 2\n"),
            Err("token 3: `2` after the end of the input".into())
        );
        assert_eq!(
            PILES.parse("1\n01\n"),
            Err("token 2: `01` is not a number (a_i)".into())
        );
        let c = PILES.parse("1\n10001\n").expect("parses");
        assert_eq!(
            PILES.validate(&c),
            Err("a_i = 10001 is outside 1..=10000".into())
        );
        let c = COUNTED.parse("1\n2\n3 3\n").expect("parses");
        assert_eq!(COUNTED.validate(&c), Err("P_i = 3 appears twice".into()));
        assert!(ZERO.parse("1 1\n").is_err());
        assert_eq!(
            PAIRS.validate(&[]),
            Err("0 cases, expected 1..=100000".into())
        );
    }
}
