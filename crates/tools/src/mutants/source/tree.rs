//! A program parsed by tree-sitter, and mutants made as text edits on it.
//!
//! The operators find nodes on the syntax tree (so a `<` inside a string or
//! a comment is never touched) and change the original text at the node's
//! bytes, so a mutant keeps the program's comments and layout and differs
//! from it by one edit (or a few that belong together: a narrowed type and
//! the `scanf` conversions that read into it).

use std::ops::Range;

use tree_sitter::{Node, Parser};

use super::{Candidate, Class, Language, ParseError};

/// A parsed program.
pub(crate) struct Tree<'a> {
    pub language: Language,
    pub text: &'a str,
    tree: tree_sitter::Tree,
}

/// One replacement of a byte range of the original text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Edit {
    pub range: Range<usize>,
    pub text: String,
}

impl Edit {
    pub fn new(range: Range<usize>, text: impl Into<String>) -> Edit {
        Edit {
            range,
            text: text.into(),
        }
    }

    /// Replaces a node's text.
    pub fn node(node: Node<'_>, text: impl Into<String>) -> Edit {
        Edit::new(node.byte_range(), text)
    }
}

fn grammar(language: Language) -> tree_sitter::Language {
    match language {
        Language::C => tree_sitter_c::LANGUAGE.into(),
        Language::Cpp => tree_sitter_cpp::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
    }
}

impl<'a> Tree<'a> {
    pub fn parse(language: Language, text: &'a str) -> Result<Tree<'a>, ParseError> {
        let mut parser = Parser::new();
        parser
            .set_language(&grammar(language))
            .map_err(|e| ParseError::Grammar {
                language,
                why: e.to_string(),
            })?;
        let tree = parser
            .parse(text, None)
            .ok_or(ParseError::GaveUp { language })?;
        Ok(Tree {
            language,
            text,
            tree,
        })
    }

    /// Every node, parents before children, in source order; the subtrees
    /// tree-sitter could not parse are left out. An explicit walk: a deeply
    /// nested hostile file cannot overflow the stack.
    pub fn nodes(&self) -> Vec<Node<'_>> {
        let mut out = Vec::new();
        let mut cursor = self.tree.walk();
        loop {
            let node = cursor.node();
            let broken = node.is_error() || node.is_missing();
            if !broken {
                out.push(node);
            }
            if !broken && cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return out;
                }
            }
        }
    }

    pub fn text(&self, node: Node<'_>) -> &'a str {
        self.text.get(node.byte_range()).unwrap_or("")
    }

    /// A candidate mutant: the original text with `edits` applied, at the
    /// line of `at`. `None` when the edits overlap.
    pub fn candidate(
        &self,
        at: Node<'_>,
        kind: impl Into<String>,
        class: Class,
        description: String,
        edits: Vec<Edit>,
    ) -> Option<Candidate> {
        Some(Candidate {
            line: at.start_position().row + 1,
            kind: kind.into(),
            class,
            description,
            source: apply(self.text, edits)?,
        })
    }
}

/// `text` with the edits made; `None` when two edits overlap.
pub(crate) fn apply(text: &str, mut edits: Vec<Edit>) -> Option<String> {
    edits.sort_by_key(|e| e.range.start);
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in &edits {
        if e.range.start < at || e.range.end > text.len() {
            return None;
        }
        out.push_str(text.get(at..e.range.start)?);
        out.push_str(&e.text);
        at = e.range.end;
    }
    out.push_str(text.get(at..)?);
    Some(out)
}

/// The named children of a node.
pub(crate) fn named_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor).collect()
}

/// Every child of a node, named or not.
pub(crate) fn children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).collect()
}

/// The children of a node under a field name (Python's `alternative`s,
/// a comparison's `operators`).
pub(crate) fn field_children<'t>(node: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let mut cursor = node.walk();
    node.children_by_field_name(field, &mut cursor).collect()
}

/// Whether `node` lies inside `outer` (or is it).
pub(crate) fn within(node: Node<'_>, outer: Node<'_>) -> bool {
    outer.start_byte() <= node.start_byte() && node.end_byte() <= outer.end_byte()
}

/// The nearest ancestor of `node` (not itself) of one of `kinds`.
pub(crate) fn ancestor<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut at = node.parent();
    while let Some(n) = at {
        if kinds.contains(&n.kind()) {
            return Some(n);
        }
        at = n.parent();
    }
    None
}

/// An integer literal as written: its value, radix and type suffix
/// (`100005`, `0x3f`, `1LL`, `0u64`, `1_000_000`); `None` for floats,
/// characters and C's octal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct IntLiteral {
    pub value: u128,
    pub hex: bool,
    pub suffix: String,
}

impl IntLiteral {
    pub fn parse(text: &str, language: Language) -> Option<IntLiteral> {
        let (digits, hex) = match text.strip_prefix("0x").or_else(|| text.strip_prefix("0X")) {
            Some(rest) => (rest, true),
            None => (text, false),
        };
        let is_digit = |c: char| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        };
        let end = digits
            .find(|c: char| !is_digit(c) && c != '_')
            .unwrap_or(digits.len());
        let (number, suffix) = digits.split_at(end);
        let clean: String = number.chars().filter(|&c| c != '_').collect();
        if clean.is_empty() {
            return None;
        }
        let suffix_ok = match language {
            Language::Rust => {
                suffix.is_empty()
                    || ["u8", "u16", "u32", "u64", "u128", "usize"]
                        .iter()
                        .chain(&["i8", "i16", "i32", "i64", "i128", "isize"])
                        .any(|s| *s == suffix)
            }
            Language::Python => suffix.is_empty(),
            _ => suffix.chars().all(|c| matches!(c, 'u' | 'U' | 'l' | 'L')),
        };
        // C and Java read a leading 0 as octal.
        let octal = !hex && clean.len() > 1 && clean.starts_with('0');
        if !suffix_ok || octal {
            return None;
        }
        let value = u128::from_str_radix(&clean, if hex { 16 } else { 10 }).ok()?;
        Some(IntLiteral {
            value,
            hex,
            suffix: suffix.to_string(),
        })
    }

    /// The literal with another value, written the same way.
    pub fn with(&self, value: u128) -> String {
        if self.hex {
            format!("0x{value:X}{}", self.suffix)
        } else {
            format!("{value}{}", self.suffix)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_keep_their_spelling() {
        let l = IntLiteral::parse("1LL", Language::Cpp).expect("literal");
        assert_eq!((l.value, l.with(2)), (1, "2LL".to_string()));
        let h = IntLiteral::parse("0x3f", Language::C).expect("literal");
        assert_eq!(h.with(31), "0x1F");
        let r = IntLiteral::parse("1_000u64", Language::Rust).expect("literal");
        assert_eq!((r.value, r.with(999)), (1000, "999u64".to_string()));
        assert_eq!(IntLiteral::parse("017", Language::C), None);
        assert_eq!(IntLiteral::parse("1e9", Language::C), None);
        assert_eq!(IntLiteral::parse("1.5", Language::Java), None);
        assert!(IntLiteral::parse("0", Language::Java).is_some());
    }

    #[test]
    fn overlapping_edits_make_no_mutant() {
        let text = "abcdef";
        assert_eq!(
            apply(text, vec![Edit::new(4..5, "X"), Edit::new(0..1, "Y")]).as_deref(),
            Some("YbcdXf")
        );
        assert_eq!(
            apply(text, vec![Edit::new(0..3, "X"), Edit::new(2..4, "Y")]),
            None
        );
    }

    #[test]
    fn a_broken_file_still_parses_around_the_break() {
        let t = Tree::parse(Language::C, "int main() { int x = ; return 0; }").expect("parses");
        assert!(t.nodes().iter().any(|n| n.kind() == "return_statement"));
    }
}
