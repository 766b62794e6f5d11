//! One way to report a YAML file that does not parse: `file:line:col:
//! message`, with serde's own " at line L column C" taken off the message so
//! the location is printed once, up front, where editors look for it.

use std::fmt;
use std::path::{Path, PathBuf};

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
