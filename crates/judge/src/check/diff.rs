//! A small diff window around the first difference.
//!
//! Students fix output faster when they see the lines around the mistake,
//! but a diff of two multi-megabyte outputs is slow and unreadable. So the
//! window is cut from a few lines around each side's focus before `similar`
//! ever sees it, long lines are clipped around the focus column, and the
//! result is capped in lines and characters.

use std::fmt::Write as _;

use similar::{Algorithm, DiffTag, capture_diff_slices};

use super::scan::{Focus, Lines, Tokens};

/// Lines shown on each side of the focus line.
const CONTEXT: usize = 2;
/// Most diff lines shown under the header.
const MAX_BODY_LINES: usize = 10;
/// Most characters of one line shown.
const LINE_CHARS: usize = 120;
/// When a line is clipped on the left, characters kept before the focus.
const LEAD_CHARS: usize = 40;

/// How lines are rendered in the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Style {
    /// Each line shown as its tokens joined by single spaces: for checkers
    /// that ignore layout, so only differences that matter stand out.
    Tokens,
    /// Tabs and control characters escaped, trailing spaces shown as `·`:
    /// for checkers where layout is the difference.
    Visible,
}

/// One side's lines near its focus, ready to diff.
struct Side {
    first_line: usize,
    lines: Vec<String>,
}

/// What is shown under a failing test: the checker's diff window around
/// the first difference, or a lost game's last moves. Which side each line
/// comes from is settled once, where the lines are made ([`window`]), so
/// the views mark lines without reading them again. In JSON it is the text
/// (the JSON report's `diff`). It lives with the checkers, which make it; the
/// judge's results carry it (`judge::Diff`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    text: String,
    /// One per line of `text` (as [`str::lines`] splits it).
    sides: Vec<DiffSide>,
}

/// Where a line of a [`Diff`] comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffSide {
    /// The expected answer's (`-` in the checker's window).
    Expected,
    /// The program's output (`+`).
    Output,
    /// Both, or neither: context, the header, a note, a move of a game.
    Neither,
}

impl DiffSide {
    /// The side of a window's line, by its first character: the one
    /// [`window`] gave it. Lines are rendered with control characters
    /// escaped, so a line of the text is a line of the window.
    fn of_line(line: &str) -> DiffSide {
        match line.as_bytes().first() {
            Some(b'-') => DiffSide::Expected,
            Some(b'+') => DiffSide::Output,
            _ => DiffSide::Neither,
        }
    }

    fn mark(self) -> char {
        match self {
            DiffSide::Expected => '-',
            DiffSide::Output => '+',
            DiffSide::Neither => ' ',
        }
    }
}

impl Diff {
    /// A window read back from its text (a journal, a shard's output, a
    /// test's fixture): each line's side is its first character, as
    /// [`window`] wrote it: `-` expected, `+` output, else neither.
    pub fn window(text: String) -> Diff {
        let sides = text.lines().map(DiffSide::of_line).collect();
        Diff { text, sides }
    }

    /// Text whose lines belong to neither side (a lost game's moves).
    pub fn plain(text: String) -> Diff {
        let sides = vec![DiffSide::Neither; text.lines().count()];
        Diff { text, sides }
    }

    /// The text, as the JSON report and the text views quote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Each line with its side.
    pub fn lines(&self) -> impl Iterator<Item = (DiffSide, &str)> {
        self.sides.iter().copied().zip(self.text.lines())
    }
}

impl serde::Serialize for Diff {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// Read back (a journal, a shard's output) the text is all there is: its
/// lines are read as a checker's window.
impl<'de> serde::Deserialize<'de> for Diff {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Diff, D::Error> {
        Ok(Diff::window(<String as serde::Deserialize>::deserialize(
            d,
        )?))
    }
}

/// A unified-style window (`-` expected, `+` output) around the two focus
/// points, each line knowing its side, or `None` when the nearby lines do
/// not differ.
pub(crate) fn window(
    answer: &[u8],
    answer_at: Focus,
    output: &[u8],
    output_at: Focus,
    style: Style,
) -> Option<Diff> {
    let old = side(answer, answer_at, style);
    let new = side(output, output_at, style);
    let ops = capture_diff_slices(Algorithm::Myers, &old.lines, &new.lines);
    if ops.iter().all(|op| op.tag() == DiffTag::Equal) {
        return None;
    }
    let mut body: Vec<(DiffSide, &str)> = Vec::new();
    for op in &ops {
        for i in op.old_range() {
            if op.tag() == DiffTag::Equal {
                body.push((DiffSide::Neither, &old.lines[i]));
            } else {
                body.push((DiffSide::Expected, &old.lines[i]));
            }
        }
        if op.tag() != DiffTag::Equal {
            for i in op.new_range() {
                body.push((DiffSide::Output, &new.lines[i]));
            }
        }
    }
    Some(render(&old, &new, &body))
}

fn render(old: &Side, new: &Side, body: &[(DiffSide, &str)]) -> Diff {
    let mut text = format!(
        "@@ -{},{} +{},{} @@ (- expected, + output)\n",
        old.first_line,
        old.lines.len(),
        new.first_line,
        new.lines.len()
    );
    let mut sides = vec![DiffSide::Neither];
    for (side, line) in body.iter().take(MAX_BODY_LINES) {
        text.push(side.mark());
        text.push_str(line);
        text.push('\n');
        sides.push(*side);
    }
    if body.len() > MAX_BODY_LINES {
        let _ = writeln!(text, " … ({} more)", body.len() - MAX_BODY_LINES);
        sides.push(DiffSide::Neither);
    }
    Diff { text, sides }
}

/// Cuts `CONTEXT` lines either side of the focus line, clipped horizontally
/// so the focus column stays visible.
fn side(data: &[u8], at: Focus, style: Style) -> Side {
    let mut start = at.line_start.min(data.len());
    let mut first_line = at.line.max(1);
    for _ in 0..CONTEXT {
        if start == 0 {
            break;
        }
        start = data[..start - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        first_line -= 1;
    }
    let wanted = at.line.max(1) - first_line + CONTEXT + 1;
    let clip = if at.col + 20 > LINE_CHARS {
        at.col - LEAD_CHARS
    } else {
        0
    };
    let lines = Lines::new(&data[start..])
        .take(wanted)
        .map(|line| render_line(line.bytes, clip, style))
        .collect();
    Side { first_line, lines }
}

fn render_line(bytes: &[u8], clip: usize, style: Style) -> String {
    let piece = bytes.get(clip..).unwrap_or_default();
    let head = &piece[..piece.len().min(LINE_CHARS * 4)];
    let cut = head.len() < piece.len();
    let text = match style {
        Style::Tokens => {
            let tokens: Vec<&[u8]> = Tokens::new(head).map(|t| t.bytes).collect();
            String::from_utf8_lossy(&tokens.join(&b' ')).into_owned()
        }
        Style::Visible => String::from_utf8_lossy(head).into_owned(),
    };
    let mut shown = String::new();
    if clip > 0 {
        shown.push('…');
    }
    let visible_end = text.trim_end_matches(' ').len();
    for (count, (i, c)) in text.char_indices().enumerate() {
        if count == LINE_CHARS {
            shown.push('…');
            return shown;
        }
        match (style, c) {
            (Style::Visible, ' ') if i >= visible_end => shown.push('·'),
            (_, c) if c.is_control() => shown.extend(c.escape_default()),
            (_, c) => shown.push(c),
        }
    }
    if cut {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hundred lines: `prefix` and the line's index from 0.
    fn numbered(prefix: &str) -> Vec<u8> {
        (0..100)
            .flat_map(|i| format!("{prefix}{i}\n").into_bytes())
            .collect()
    }

    fn focus_of_token(data: &[u8], n: usize) -> Focus {
        Tokens::new(data).nth(n).map(|t| t.at).unwrap_or(Focus {
            line: 1,
            line_start: 0,
            col: 0,
        })
    }

    #[test]
    fn window_shows_context_and_change() {
        let answer = b"a\nb\nc\nd\ne\nf\ng\n";
        let output = b"a\nb\nc\nX\ne\nf\ng\n";
        let at = focus_of_token(answer, 3);
        let got = window(answer, at, output, at, Style::Tokens);
        let want = "@@ -2,5 +2,5 @@ (- expected, + output)\n b\n c\n-d\n+X\n e\n f\n";
        assert_eq!(got.as_ref().map(Diff::text), Some(want));
    }

    /// Each line of a window knows its side from where it was made, and
    /// its text read back (a journal) gives the same sides: an expected
    /// line that itself starts with `--`, and the note of a cut body.
    #[test]
    fn a_window_knows_its_sides_and_its_text_gives_them_back() {
        let answer = b"a\n--b\nc\n";
        let output = b"a\n++b\nc\n";
        let at = focus_of_token(answer, 1);
        let got = window(answer, at, output, at, Style::Visible).expect("a window");
        use DiffSide::{Expected, Neither, Output};
        let sides: Vec<DiffSide> = got.lines().map(|(s, _)| s).collect();
        assert_eq!(
            sides,
            [Neither, Neither, Expected, Output, Neither],
            "{got:?}"
        );
        assert_eq!(Diff::window(got.text().to_string()), got);

        let (long, other) = (numbered(""), numbered("x"));
        let at = focus_of_token(&long, 50);
        let cut = window(&long, at, &other, at, Style::Visible).expect("a window");
        assert_eq!(cut.lines().count(), cut.text().lines().count());
        assert_eq!(Diff::window(cut.text().to_string()), cut);
    }

    #[test]
    fn identical_windows_give_none() {
        let text = b"a\nb\n";
        let at = focus_of_token(text, 1);
        assert_eq!(window(text, at, text, at, Style::Tokens), None);
    }

    #[test]
    fn tokens_style_ignores_spacing_visible_shows_it() {
        let answer = b"x\n";
        let output = b"x  \n";
        let at = focus_of_token(answer, 0);
        assert_eq!(window(answer, at, output, at, Style::Tokens), None);
        let spaced = b" 1\t 2\r\n3\n";
        assert_eq!(window(b"1 2\n3\n", at, spaced, at, Style::Tokens), None);
        let got = window(answer, at, output, at, Style::Visible);
        assert_eq!(
            got.as_ref().map(Diff::text),
            Some("@@ -1,1 +1,1 @@ (- expected, + output)\n-x\n+x··\n")
        );
    }

    #[test]
    fn long_lines_are_clipped_around_the_focus() {
        let mut answer = "1 ".repeat(5000).into_bytes();
        let mut output = answer.clone();
        answer.extend_from_slice(b"2\n");
        output.extend_from_slice(b"3\n");
        let at = focus_of_token(&answer, 5000);
        let got = window(&answer, at, &output, at, Style::Tokens)
            .map(|d| d.text().to_string())
            .unwrap_or_default();
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(lines.len(), 3, "{got}");
        assert!(lines[1].starts_with("-…1 1"), "{got}");
        assert!(lines[1].ends_with("1 2"), "{got}");
        assert!(lines[2].ends_with("1 3"), "{got}");
        assert!(lines[1].chars().count() <= LINE_CHARS + 3);
    }

    #[test]
    fn window_is_bounded() {
        let (answer, output) = (numbered(""), numbered("x"));
        let at = focus_of_token(&answer, 50);
        let got = window(&answer, at, &output, at, Style::Tokens)
            .map(|d| d.text().to_string())
            .unwrap_or_default();
        assert_eq!(got.lines().count(), 1 + MAX_BODY_LINES, "{got}");
        assert!(got.starts_with("@@ -49,5 +49,5 @@"), "{got}");
    }

    #[test]
    fn invalid_utf8_and_control_chars_do_not_panic() {
        let answer = b"ok\n";
        let output = b"\xff\xfe\x01\tz\n";
        let at = focus_of_token(answer, 0);
        let got = window(answer, at, output, at, Style::Visible)
            .map(|d| d.text().to_string())
            .unwrap_or_default();
        assert!(got.contains("+\u{fffd}\u{fffd}\\u{1}\\tz"), "{got}");
    }

    #[test]
    fn missing_lines_at_the_end_are_shown() {
        let answer = b"a\nb\n";
        let output = b"a\n";
        let end = Focus {
            line: 2,
            line_start: 2,
            col: 0,
        };
        let at = focus_of_token(answer, 1);
        let got = window(answer, at, output, end, Style::Tokens);
        assert_eq!(
            got.as_ref().map(Diff::text),
            Some("@@ -1,2 +1,1 @@ (- expected, + output)\n a\n-b\n")
        );
    }
}
