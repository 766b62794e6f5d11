//! Text as people read it. Made safe to place in HTML: one function for
//! every page grundy writes (reports, statements, similarity), so that all
//! escape alike. Made safe to print on a terminal: one function for every
//! line that quotes a submission, a package or a file name. And counts
//! with the right plural.

use std::borrow::Cow;

/// Escapes text for HTML content and attribute values (double- or
/// single-quoted).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Characters a terminal acts on rather than shows: control characters
/// (escape sequences, carriage return, backspace, bell, the C1 set) and
/// the Unicode marks that reorder or isolate text (a line that reads one
/// way and is another).
fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// Text from a submission, a package or a file name, safe to print as one
/// line on a terminal: every character a terminal would act on, newlines
/// included (a name must not start a line of its own), is shown escaped,
/// as `\u{1b}`.
pub fn terminal(s: &str) -> Cow<'_, str> {
    shown(s, false)
}

/// The same for text shown on several lines: newlines and tabs stay.
pub fn terminal_lines(s: &str) -> Cow<'_, str> {
    shown(s, true)
}

fn shown(s: &str, keep_lines: bool) -> Cow<'_, str> {
    let kept = |c: char| keep_lines && (c == '\n' || c == '\t');
    if !s.chars().any(|c| acts_on_terminal(c) && !kept(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if acts_on_terminal(c) && !kept(c) {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `1 student`, `2 students`.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn terminal_text_keeps_nothing_a_terminal_acts_on() {
        let hostile = "ok\x1b]0;pwned\x07\x1b[2J\rAC 100\u{202e}txt.exe\u{9b}31m\nforged line";
        let one = super::terminal(hostile);
        assert!(
            !one.chars().any(|c| c.is_control() || c == '\u{202e}'),
            "{one:?}"
        );
        assert!(one.contains("\\u{1b}]0;pwned"), "{one}");
        assert!(one.contains("\\nforged line"), "{one}");
        let lines = super::terminal_lines("a\tb\nc\x1b[2J");
        assert_eq!(lines, "a\tb\nc\\u{1b}[2J");
        assert!(matches!(
            super::terminal("plain é"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    #[test]
    fn counts_say_one_or_many() {
        assert_eq!(super::count(1, "problem", "problems"), "1 problem");
        assert_eq!(super::count(0, "problem", "problems"), "0 problems");
    }

    #[test]
    fn escapes_markup_and_both_quotes() {
        assert_eq!(
            super::escape(r#"<a href="x" title='y'>&</a>"#),
            "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;"
        );
    }
}
