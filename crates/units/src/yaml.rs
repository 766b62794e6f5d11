//! One way to read a YAML file a user controls, and to report one that
//! does not parse: `file:line:col: message`, with serde's own " at line L
//! column C" taken off the message so the location is printed once, up
//! front, where editors look for it.
//!
//! Before the parser sees a text, its size and its nesting are bounded
//! ([`from_str`]): the YAML parser takes time quadratic in the depth of
//! nested flow collections (a `problem.yaml` ending in 100,000 `[` took
//! over 100 s), and nothing grundy reads nests more than a few levels.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

/// The deepest nesting a YAML file may have (flow collections and
/// indented blocks together); serde_yaml itself stops at 128.
pub const MAX_DEPTH: usize = 64;
/// The most a YAML file may hold.
pub const MAX_BYTES: usize = 16 << 20;

/// Parses `text`, the YAML file `path`, into `T`, once its size and
/// nesting are known to be within bounds.
pub fn from_str<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, YamlError> {
    check(path, text)?;
    serde_yaml::from_str(text).map_err(|e| YamlError::new(path, &e))
}

/// Refuses a text larger than [`MAX_BYTES`] or nested deeper than
/// [`MAX_DEPTH`], naming where.
pub fn check(path: &Path, text: &str) -> Result<(), YamlError> {
    if text.len() > MAX_BYTES {
        return Err(YamlError {
            path: path.to_path_buf(),
            line: 1,
            column: 1,
            message: format!(
                "{} bytes: larger than the {} MiB a YAML file may hold",
                text.len(),
                MAX_BYTES >> 20
            ),
        });
    }
    match too_deep(text) {
        Some((line, column)) => Err(YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message: format!(
                "nested deeper than {MAX_DEPTH} levels (`[`, `{{` or indentation): not read"
            ),
        }),
        None => Ok(()),
    }
}

/// Where (line, column, from 1) the nesting of `text` first passes
/// [`MAX_DEPTH`], by one linear scan that knows enough YAML to tell
/// structure from text: flow collections opened where a node may start
/// (not a `[` inside a plain scalar), quoted scalars, comments, block
/// scalars (`|`, `>`: their lines are text), and the indentation and
/// `- `/`? ` indicators of block collections. It may count a level more
/// than the parser would, never fewer than the flow nesting.
fn too_deep(text: &str) -> Option<(usize, usize)> {
    let mut flow = 0usize;
    // Indentations of the open block collections.
    let mut blocks: Vec<usize> = Vec::new();
    // Inside a quoted scalar (which may span lines): its quote.
    let mut quote: Option<u8> = None;
    // The indentation a block scalar's lines are deeper than.
    let mut scalar_at: Option<usize> = None;
    for (n, line) in text.split('\n').enumerate() {
        let b = line.as_bytes();
        let indent = b.iter().take_while(|&&c| c == b' ' || c == b'\t').count();
        let blank = b[indent..].iter().all(|c| c.is_ascii_whitespace());
        if let Some(at) = scalar_at {
            if blank || indent > at {
                continue;
            }
            scalar_at = None;
        }
        let mut i = 0;
        // Whether a node may start here (so `[` opens a collection).
        let mut node = true;
        if quote.is_none() && flow == 0 {
            if blank || b[indent] == b'#' {
                continue;
            }
            while blocks.last().is_some_and(|&top| top >= indent) {
                blocks.pop();
            }
            blocks.push(indent);
            i = indent;
        }
        let deep = |flow: usize, blocks: &Vec<usize>| flow + blocks.len() > MAX_DEPTH;
        if deep(flow, &blocks) {
            return Some((n + 1, i + 1));
        }
        while i < b.len() {
            let c = b[i];
            if let Some(q) = quote {
                match c {
                    b'\\' if q == b'"' => i += 1,
                    b'\'' if q == b'\'' && b.get(i + 1) == Some(&b'\'') => i += 1,
                    _ if c == q => {
                        quote = None;
                        node = false;
                    }
                    _ => {}
                }
                i += 1;
                continue;
            }
            let spaced = |k: usize| b.get(k).is_none_or(|c| c.is_ascii_whitespace());
            let after_space = i == 0 || b[i - 1].is_ascii_whitespace();
            match c {
                b' ' | b'\t' | b'\r' => {}
                b'#' if after_space => break,
                b'[' | b'{' if node => {
                    flow += 1;
                    if deep(flow, &blocks) {
                        return Some((n + 1, i + 1));
                    }
                }
                b']' | b'}' if flow > 0 => {
                    flow -= 1;
                    node = false;
                }
                b',' if flow > 0 => node = true,
                b'"' | b'\'' if node => quote = Some(c),
                b'-' | b'?' if node && flow == 0 && spaced(i + 1) => {
                    blocks.push(i);
                    if deep(flow, &blocks) {
                        return Some((n + 1, i + 1));
                    }
                }
                b':' if spaced(i + 1) || (flow > 0 && b"[]{},".contains(&b[i + 1])) => node = true,
                b'|' | b'>' if node && flow == 0 => {
                    scalar_at = Some(indent);
                    break;
                }
                b'&' | b'!' if node => {
                    // An anchor or a tag: the node follows it.
                    while i < b.len() && !b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    continue;
                }
                _ => node = false,
            }
            i += 1;
        }
    }
    None
}

/// A YAML error located in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl YamlError {
    /// Locates `e` in `path`; an error without a location is put at 1:1.
    pub fn new(path: &Path, e: &serde_yaml::Error) -> YamlError {
        let text = e.to_string();
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let message = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for YamlError {}

/// One step of a path to a key: a mapping key or a list item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyPart {
    Name(String),
    Index(usize),
}

/// The line and column (from 1) where the value at `path` starts in a
/// block-style YAML `text`, as near as the text shows: the deepest key of
/// the path found (a flow-style `{…}` value is found as a whole). For a
/// check that needs several keys at once, which serde cannot place.
pub fn locate(text: &str, path: &[KeyPart]) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let meaningful = |l: &str| {
        let t = l.trim_start();
        !t.is_empty() && !t.starts_with('#')
    };
    // (line index, indent) of the current key; the document to start.
    let mut at: Option<(usize, usize)> = None;
    let mut found: Option<(usize, usize)> = None;
    for part in path {
        let (from, parent) = match at {
            Some((i, ind)) => (i + 1, Some(ind)),
            None => (0, None),
        };
        let mut hit = None;
        let mut item = 0usize;
        for (i, l) in lines.iter().enumerate().skip(from) {
            if !meaningful(l) {
                continue;
            }
            let ind = indent(l);
            let t = l.trim_start();
            if let Some(p) = parent {
                // A list may sit at its key's own indent (`moves:\n- …`).
                let item_here = ind == p && t.starts_with('-') && matches!(part, KeyPart::Index(_));
                if ind < p || (ind == p && !item_here) {
                    break;
                }
            }
            match part {
                KeyPart::Name(k) => {
                    let bare = t.strip_prefix("- ").unwrap_or(t);
                    if bare.starts_with(&format!("{k}:")) {
                        let col = ind + (t.len() - bare.len());
                        hit = Some((i, col));
                        break;
                    }
                }
                KeyPart::Index(n) => {
                    if t.starts_with("- ") || t == "-" {
                        if item == *n {
                            hit = Some((i, ind));
                            break;
                        }
                        item += 1;
                    }
                }
            }
        }
        match hit {
            Some(h) => {
                at = Some(h);
                found = Some((h.0 + 1, h.1 + 1));
            }
            None => break,
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_located_in_block_yaml() {
        let text = "id: x\ngame:\n  heaps: [1, 2]\n  moves:\n    - take: any\n    - take: {max: k}\n  question: play\ngroups: []\n";
        let name = |s: &str| KeyPart::Name(s.to_string());
        assert_eq!(locate(text, &[name("game")]), Some((2, 1)));
        assert_eq!(
            locate(text, &[name("game"), name("question")]),
            Some((7, 3))
        );
        assert_eq!(
            locate(text, &[name("game"), name("moves"), KeyPart::Index(1)]),
            Some((6, 5))
        );
        // A key that is not there: the deepest found.
        assert_eq!(locate(text, &[name("game"), name("cases")]), Some((2, 1)));
        assert_eq!(locate(text, &[name("nothing")]), None);
    }

    fn deep_at(text: &str) -> Option<(usize, usize)> {
        too_deep(text)
    }

    #[test]
    fn deep_flow_nesting_is_refused_where_it_passes_the_bound() {
        let deep = format!(
            "name: x\nx: {}{}\n",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let e = check(Path::new("p.yaml"), &deep).expect_err("too deep");
        assert_eq!((e.line, e.column), (2, 4 + MAX_DEPTH - 1), "{e}");
        assert!(e.to_string().starts_with("p.yaml:2:"), "{e}");
        let ok = format!(
            "x: {}{}\n",
            "[".repeat(MAX_DEPTH - 1),
            "]".repeat(MAX_DEPTH - 1)
        );
        assert_eq!(deep_at(&ok), None);
        let braces = format!("x: {}\n", "{a: ".repeat(200));
        assert!(deep_at(&braces).is_some());
    }

    #[test]
    fn brackets_in_text_are_not_nesting() {
        let many = "[".repeat(500);
        for text in [
            format!("title: Nim {many}\n"),
            format!("title: \"{many}\"\n"),
            format!("title: '{many} it''s'\n"),
            format!("# {many}\nx: 1\n"),
            format!("in: |\n  {many}\n  {many}\nnext: 1\n"),
            format!("x: 1 # {many}\n"),
        ] {
            assert_eq!(deep_at(&text), None, "{text}");
        }
    }

    #[test]
    fn deep_blocks_count_too() {
        let mut text = String::new();
        for d in 0..100 {
            text.push_str(&format!("{}k{d}:\n", " ".repeat(d)));
        }
        assert_eq!(deep_at(&text).map(|(l, _)| l), Some(MAX_DEPTH + 1));
        let compact = format!("{}x\n", "- ".repeat(100));
        assert!(deep_at(&compact).is_some());
        // Real files are far from it.
        let plain = "a:\n  b:\n    - c: [1, [2, {d: 3}]]\n    - 'e'\n";
        assert_eq!(deep_at(plain), None);
    }

    #[test]
    fn the_location_is_printed_once() {
        let e = serde_yaml::from_str::<std::collections::BTreeMap<String, u32>>("a: 1\nb: [x\n")
            .expect_err("bad YAML");
        let y = YamlError::new(Path::new("c.yaml"), &e);
        let shown = y.to_string();
        assert!(shown.starts_with("c.yaml:"), "{shown}");
        assert!(!shown.contains(" at line "), "{shown}");
        assert_eq!(
            shown.matches(&format!(":{}:", y.line)).count(),
            1,
            "{shown}"
        );
    }
}
