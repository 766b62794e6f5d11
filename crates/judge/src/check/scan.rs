//! Zero-copy scanning of outputs into tokens and lines.
//!
//! Outputs can be many megabytes, so scanners borrow slices of the original
//! bytes and remember where they are (line number, line start) instead of
//! building strings; positions let messages and diff windows point at the
//! exact place a student has to look.

/// Where something sits in a text: enough to name it in a message and to
/// cut a diff window around it without rescanning from the start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Focus {
    /// 1-based line number.
    pub line: usize,
    /// Byte offset of that line's first byte in the whole text.
    pub line_start: usize,
    /// Byte offset within the line.
    pub col: usize,
}

/// Whitespace as the C locale and testlib see it; every other byte
/// (including non-ASCII and NUL) belongs to a token.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// One whitespace-separated token and where it was found.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Token<'a> {
    pub bytes: &'a [u8],
    /// 1-based position of the token within its line.
    pub index: usize,
    pub at: Focus,
}

/// Iterates over the tokens of a text, tracking line numbers.
pub(crate) struct Tokens<'a> {
    data: &'a [u8],
    pos: usize,
    line: usize,
    line_start: usize,
    index: usize,
}

impl<'a> Tokens<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Tokens {
            data,
            pos: 0,
            line: 1,
            line_start: 0,
            index: 0,
        }
    }

    /// Where the scanner stands: after exhaustion, the end of the text.
    pub fn here(&self) -> Focus {
        Focus {
            line: self.line,
            line_start: self.line_start,
            col: self.pos - self.line_start,
        }
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.data.get(self.pos) {
            if !is_space(b) {
                break;
            }
            self.pos += 1;
            if b == b'\n' {
                self.line += 1;
                self.line_start = self.pos;
                self.index = 0;
            }
        }
    }
}

impl<'a> Iterator for Tokens<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        self.skip_space();
        let start = self.pos;
        let rest = self.data.get(start..)?;
        let len = rest.iter().position(|&b| is_space(b)).unwrap_or(rest.len());
        if len == 0 {
            return None;
        }
        self.pos += len;
        self.index += 1;
        Some(Token {
            bytes: &rest[..len],
            index: self.index,
            at: Focus {
                line: self.line,
                line_start: self.line_start,
                col: start - self.line_start,
            },
        })
    }
}

/// One line without its terminator (`\n` or `\r\n`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Line<'a> {
    pub bytes: &'a [u8],
    /// Byte offset of the line's first byte in the whole text.
    pub start: usize,
}

/// Iterates over lines; a final line without a newline counts, an empty
/// remainder after the last newline does not (so a missing final newline
/// never changes the line list).
pub(crate) struct Lines<'a> {
    data: &'a [u8],
    pos: usize,
}

impl<'a> Lines<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Lines { data, pos: 0 }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Line<'a>;

    fn next(&mut self) -> Option<Line<'a>> {
        let start = self.pos;
        let rest = self.data.get(start..).filter(|r| !r.is_empty())?;
        let (raw, advance) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        self.pos += advance;
        let bytes = raw.strip_suffix(b"\r").unwrap_or(raw);
        Some(Line { bytes, start })
    }
}

/// Longest piece of a token or line quoted in a message, in characters.
const QUOTE_CHARS: usize = 60;

/// Quotes bytes for a one-line message: lossy UTF-8, control characters
/// escaped, long values cut with an ellipsis so a megabyte token cannot
/// flood a report.
pub(crate) fn quote(bytes: &[u8]) -> String {
    let head = &bytes[..bytes.len().min(QUOTE_CHARS * 4)];
    let text = String::from_utf8_lossy(head);
    let mut chars = text.chars();
    let shown: String = chars.by_ref().take(QUOTE_CHARS).collect();
    let cut = chars.next().is_some() || head.len() < bytes.len();
    if cut {
        format!("{shown:?}…")
    } else {
        format!("{shown:?}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<(String, usize, usize)> {
        Tokens::new(s.as_bytes())
            .map(|t| {
                let text = String::from_utf8_lossy(t.bytes).into_owned();
                (text, t.at.line, t.index)
            })
            .collect()
    }

    #[test]
    fn tokens_track_lines_and_positions() {
        let got = tokens("  a b\r\n\n c\t\x0bd  \ne");
        let want = [
            ("a", 1, 1),
            ("b", 1, 2),
            ("c", 3, 1),
            ("d", 3, 2),
            ("e", 4, 1),
        ];
        let want: Vec<_> = want
            .iter()
            .map(|&(s, l, i)| (s.to_string(), l, i))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn token_focus_points_into_the_text() {
        let text = b"xx\n  yy";
        let t = Tokens::new(text).nth(1);
        let at = t.map(|t| t.at);
        assert_eq!(
            at,
            Some(Focus {
                line: 2,
                line_start: 3,
                col: 2
            })
        );
    }

    #[test]
    fn end_of_tokens_reports_final_position() {
        let mut t = Tokens::new(b"a\nb\n");
        assert_eq!(t.by_ref().count(), 2);
        assert_eq!(t.here().line, 3);
    }

    #[test]
    fn lines_ignore_missing_final_newline_and_strip_cr() {
        let collect = |s: &str| -> Vec<String> {
            Lines::new(s.as_bytes())
                .map(|l| String::from_utf8_lossy(l.bytes).into_owned())
                .collect()
        };
        assert_eq!(collect("a\r\nb\n"), ["a", "b"]);
        assert_eq!(collect("a\nb"), ["a", "b"]);
        assert_eq!(collect("a\n\n"), ["a", ""]);
        assert!(collect("").is_empty());
    }

    #[test]
    fn quote_escapes_and_cuts() {
        assert_eq!(quote(b"Bob"), "\"Bob\"");
        assert_eq!(quote(b"a\tb"), "\"a\\tb\"");
        assert_eq!(quote(&[0xff, b'x']), "\"\u{fffd}x\"");
        let long = vec![b'z'; 1000];
        let q = quote(&long);
        assert!(q.ends_with("\"…"));
        assert_eq!(q.chars().count(), QUOTE_CHARS + 3);
    }
}
