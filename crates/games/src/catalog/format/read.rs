//! Reading an input text into the cases of its format: where it stops
//! making sense, and the line of a number out of bounds.

use super::{Case, CaseLayout, FormatError, Framing, InputFormat, Layout};

/// Tokens with the whitespace before each.
struct Spaced<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Spaced<'a> {
    fn new(text: &'a str) -> Self {
        Spaced { text, pos: 0 }
    }

    /// What is left after the last token read.
    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }
}

impl<'a> Iterator for Spaced<'a> {
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<(&'a str, &'a str)> {
        let rest = &self.text[self.pos..];
        let start = rest.find(|c: char| !c.is_ascii_whitespace())?;
        let len = rest[start..]
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len() - start);
        self.pos += start + len;
        Some((&rest[..start], &rest[start..start + len]))
    }
}

impl InputFormat {
    /// Reads an input into cases; an error says where it stops making sense.
    pub fn parse(&self, text: &str) -> Result<Vec<Case>, FormatError> {
        self.parse_at(text, false)
            .map(|(cases, _)| cases)
            .map_err(|(_, why)| why)
    }

    /// Reads an input into cases and the whitespace around every number.
    pub fn parse_layout(&self, text: &str) -> Result<(Vec<Case>, Layout), FormatError> {
        self.parse_at(text, true).map_err(|(_, why)| why)
    }

    /// Checks a whole input file against the statement: its shape, then
    /// every bound. The error names the line of the offending number, so a
    /// setter finds a hand-written test's mistake at once (`verify`).
    pub fn check_text(&self, text: &str) -> Result<(), InputError> {
        self.checked_cases(text).map(|_| ())
    }

    /// [`Self::check_text`] and [`Self::parse`] in one reading: the cases
    /// of an input that respects the statement (what answering a large
    /// input needs, read once).
    pub fn checked_cases(&self, text: &str) -> Result<Vec<Case>, InputError> {
        let located = |(token, error): (usize, FormatError)| InputError {
            line: line_of_token(text, token),
            error,
        };
        let (cases, _) = self.parse_at(text, false).map_err(located)?;
        self.validate_at(&cases)
            .map_err(|(token, error)| match token {
                Some(t) => located((t, error)),
                None => InputError { line: None, error },
            })?;
        Ok(cases)
    }

    /// [`Self::parse_layout`], with the 1-based index of the token where
    /// the input stops making sense (one past the last at its end).
    /// The whitespace is kept only when `keep_layout` asks for it.
    fn parse_at(
        &self,
        text: &str,
        keep_layout: bool,
    ) -> Result<(Vec<Case>, Layout), (usize, FormatError)> {
        let mut tokens = Spaced::new(text);
        let mut read = 0usize;
        let mut next = |tokens: &mut Spaced<'_>,
                        what: &str,
                        sep: &mut String|
         -> Result<u64, (usize, FormatError)> {
            let (space, t) = tokens.next().ok_or_else(|| {
                (
                    read + 1,
                    FormatError::Ends {
                        what: what.to_string(),
                    },
                )
            })?;
            read += 1;
            if keep_layout {
                *sep = space.to_string();
            }
            number(t).ok_or_else(|| {
                (
                    read,
                    FormatError::NotANumber {
                        token: read,
                        text: clip(t),
                        what: what.to_string(),
                    },
                )
            })
        };
        let mut layout = Layout::default();
        let mut cases = Vec::new();
        let total = match self.framing {
            Framing::Counted(_) => {
                Some(next(&mut tokens, "the number of cases", &mut layout.count)?)
            }
            _ => None,
        };
        let until_eof = matches!(self.framing, Framing::UntilEof { .. });
        loop {
            if total.is_some_and(|t| cases.len() as u64 == t) {
                break;
            }
            if until_eof && tokens.rest().trim_ascii().is_empty() {
                break;
            }
            let mut seps = CaseLayout::default();
            let len = match &self.list_len {
                Some((name, _)) => {
                    let mut sep = String::new();
                    let n = next(&mut tokens, name, &mut sep)?;
                    if n == 0 && self.framing == Framing::UntilZero {
                        layout.terminator = sep;
                        break;
                    }
                    seps.head.push(sep);
                    Some(n)
                }
                None => None,
            };
            let mut fixed = Vec::with_capacity(self.fixed.len());
            for (name, _) in &self.fixed {
                let mut sep = String::new();
                fixed.push(next(&mut tokens, name, &mut sep)?);
                seps.head.push(sep);
            }
            let mut items = Vec::new();
            if let Some(n) = len {
                let (name, _) = &self.item;
                if n > 10_000_000 {
                    return Err((read, FormatError::TooLong { n }));
                }
                for _ in 0..n {
                    let mut sep = String::new();
                    items.push(next(&mut tokens, name, &mut sep)?);
                    if keep_layout {
                        seps.items.push(sep);
                    }
                }
            }
            cases.push(Case { fixed, items });
            layout.cases.push(seps);
            if self.framing == Framing::Single {
                break;
            }
        }
        let consumed = read;
        if let Some((_, t)) = tokens.next() {
            return Err((
                consumed + 1,
                FormatError::Trailing {
                    token: consumed + 1,
                    text: clip(t),
                },
            ));
        }
        layout.end = tokens.rest().to_string();
        Ok((cases, layout))
    }
}

/// Why an input file breaks its problem's input format, and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    /// The line (from 1) of the offending number, when one number is at fault.
    pub line: Option<usize>,
    pub error: FormatError,
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(l) => write!(f, "line {l}: {}", self.error),
            None => write!(f, "{}", self.error),
        }
    }
}

impl std::error::Error for InputError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// The line of the `token`-th (from 1) whitespace-separated token; past
/// the last token, the input's last line.
fn line_of_token(text: &str, token: usize) -> Option<usize> {
    let mut spaced = Spaced::new(text);
    let mut offset = None;
    for _ in 0..token {
        match spaced.next() {
            Some((_, t)) => offset = Some(spaced.pos - t.len()),
            None => {
                // Past the end: the last line that holds anything.
                let end = text.trim_end_matches(|c: char| c.is_ascii_whitespace());
                return Some(end.matches('\n').count() + 1);
            }
        }
    }
    offset.map(|o| text[..o].matches('\n').count() + 1)
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
