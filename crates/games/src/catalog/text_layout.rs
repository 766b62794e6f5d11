//! Whitespace layouts of the inputs written as text lines (`wythoff`,
//! `wythoff-large`, `nim-winning-move`, `nim-count-moves`, `staircase-nim`,
//! `new-stone-game`): the `layout` knob, and the lines joined the way it
//! says, so that the tests catch programs that read line by line or expect
//! a final newline.

use crate::generate::{GenError, Params, Rng};

/// How the lines of a generated input are laid out. Correct solutions read
/// tokens and do not care; the others trip over blank lines or a missing
/// final newline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    /// One case per line, single spaces, final newline.
    Plain,
    /// Like `Plain` without the final newline.
    NoFinalNewline,
    /// Runs of spaces, blank lines, lines broken inside a case, ragged end.
    Messy,
}

/// The `layout` knob: `plain` (default), `no-final-newline` or `messy`.
pub(crate) fn read_layout(params: &Params) -> Result<Layout, GenError> {
    match params.str_or("layout", "plain")? {
        "plain" => Ok(Layout::Plain),
        "no-final-newline" => Ok(Layout::NoFinalNewline),
        "messy" => Ok(Layout::Messy),
        other => Err(GenError::Param {
            key: "layout".into(),
            expected: "one of plain, no-final-newline, messy",
            found: other.to_string(),
        }),
    }
}

/// Joins `lines` (tokens separated by single spaces) according to `layout`.
pub(crate) fn render(lines: &[String], layout: Layout, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 2).sum());
    for line in lines {
        match layout {
            Layout::Plain | Layout::NoFinalNewline => out.push_str(line),
            Layout::Messy => messy_line(line, rng, &mut out),
        }
        out.push('\n');
    }
    match layout {
        Layout::Plain => {}
        Layout::NoFinalNewline => {
            out.pop();
        }
        Layout::Messy => {
            out.pop();
            let ends = ["", "\n", "\n\n", "  \n", " ", "\n \n\n"];
            out.push_str(rng.pick(&ends).copied().unwrap_or("\n"));
        }
    }
    out
}

fn messy_line(line: &str, rng: &mut Rng, out: &mut String) {
    if rng.chance(0.1) {
        out.push('\n');
    }
    if rng.chance(0.2) {
        out.push_str(&" ".repeat(rng.range(1, 3) as usize));
    }
    for (i, token) in line.split(' ').enumerate() {
        if i > 0 {
            if rng.chance(0.1) {
                out.push_str(if rng.chance(0.5) { "\n" } else { " \n  " });
            } else {
                out.push_str(&" ".repeat(rng.range(1, 4) as usize));
            }
        }
        out.push_str(token);
    }
    if rng.chance(0.2) {
        out.push_str(&" ".repeat(rng.range(1, 3) as usize));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layouts_differ_only_in_whitespace() {
        let lines: Vec<String> = (0..50).map(|i| format!("{i} {}", i * 7)).collect();
        let mut r = Rng::new(5);
        let plain = render(&lines, Layout::Plain, &mut r);
        let bare = render(&lines, Layout::NoFinalNewline, &mut r);
        let messy = render(&lines, Layout::Messy, &mut r);
        assert!(plain.ends_with("9 343\n"));
        assert!(bare.ends_with("9 343"));
        assert_ne!(messy, plain);
        let tokens = |s: &str| {
            s.split_ascii_whitespace()
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(tokens(&plain), tokens(&messy));
        assert_eq!(tokens(&plain), tokens(&bare));
    }
}
