//! Source text → a stream of normalised tokens, read by tree-sitter's
//! grammars rather than by regular expressions: a real parser knows that
//! `count` in `int count = 0;` is a name, that `"for"` is a string and not
//! the keyword, and where a comment ends, in every language alike.
//!
//! Normalising is what makes a renamed and reformatted copy look like its
//! original: every identifier becomes one token kind, every literal another,
//! comments and layout disappear; keywords, operators and punctuation stay,
//! since they are the program's shape.

use tree_sitter::{Language, Node, Parser};

use super::SimilarityError;

/// The languages with a grammar here; anything else is not compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Lang {
    C,
    Cpp,
    Java,
    Python,
    Rust,
}

impl Lang {
    /// The language of a judged-language id (`c`, `cpp`, …), as the
    /// language table names them.
    pub fn from_id(id: &str) -> Option<Lang> {
        match id {
            "c" => Some(Lang::C),
            "cpp" => Some(Lang::Cpp),
            "java" => Some(Lang::Java),
            "python" => Some(Lang::Python),
            "rust" => Some(Lang::Rust),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::C => "c",
            Lang::Cpp => "cpp",
            Lang::Java => "java",
            Lang::Python => "python",
            Lang::Rust => "rust",
        }
    }

    fn grammar(self) -> Language {
        match self {
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
            Lang::Python => tree_sitter_python::LANGUAGE.into(),
            Lang::Rust => tree_sitter_rust::LANGUAGE.into(),
        }
    }
}

/// One token: its normalised kind, hashed, and where it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub kind: u64,
    /// The token's own text, hashed: names and values as written (how
    /// near-identical files are told, `super::near`).
    pub text: u64,
    /// The 0-based lines of the source it spans, for showing matches.
    pub first_line: u32,
    pub last_line: u32,
}

/// What a leaf stands for once names and values are taken out.
fn normalised<'a>(node: &Node<'_>, text: &'a [u8]) -> Option<&'a str> {
    let kind = node.kind();
    if kind.contains("comment") || node.is_missing() || node.is_extra() && kind != "ERROR" {
        return None;
    }
    if is_identifier(kind) {
        return Some("$id");
    }
    if is_literal(kind) {
        return Some("$lit");
    }
    // The keyword, operator or punctuation itself; a named leaf with no
    // text of its own (a primitive type, `self`, `true`) by its text.
    let bytes = text.get(node.start_byte()..node.end_byte())?;
    std::str::from_utf8(bytes).ok().map(str::trim)
}

fn is_identifier(kind: &str) -> bool {
    kind.ends_with("identifier") || kind == "metavariable"
}

/// Literal nodes are one token each and are not looked into: a string's
/// pieces (escapes, interpolations) are part of the value.
fn is_literal(kind: &str) -> bool {
    kind.contains("literal")
        || kind.contains("string")
        || matches!(kind, "integer" | "float" | "number" | "char")
}

/// Blocks that a language marks by indentation only get explicit open and
/// close tokens, so that Python's structure counts as C's braces do.
fn is_indented_block(lang: Lang, kind: &str) -> bool {
    lang == Lang::Python && kind == "block"
}

/// A source is parsed in pieces of about this many bytes, cut at lines
/// that start a top-level declaration: a syntax tree takes tens of times
/// its text's size, so a long file costs the memory of one piece, not of
/// the whole. A program shorter than this (nearly every one written by
/// hand) is parsed whole.
pub const PIECE: usize = 64 << 10;

/// No piece is longer than this, whatever its lines: a file of one long
/// line is cut anywhere.
const LONGEST_PIECE: usize = 4 * PIECE;

/// Where the next piece of `source` after `start` ends.
fn piece_end(source: &[u8], start: usize) -> usize {
    if source.len() - start <= PIECE {
        return source.len();
    }
    let from = start + PIECE;
    let upto = (start + LONGEST_PIECE).min(source.len());
    let starts_declaration = |b: u8| b.is_ascii_alphabetic() || matches!(b, b'#' | b'@' | b'_');
    let newline_before = |i: usize| source[i - 1] == b'\n';
    if let Some(i) = (from..upto).find(|&i| newline_before(i) && starts_declaration(source[i])) {
        return i;
    }
    if let Some(i) = (from..upto).find(|&i| newline_before(i)) {
        return i;
    }
    if upto == source.len() {
        return upto;
    }
    // Inside one long line: at a character's start.
    (from..upto)
        .rev()
        .find(|&i| source[i] & 0xc0 != 0x80)
        .unwrap_or(upto)
}

/// The normalised tokens of `source` in `lang`.
///
/// Source that does not parse cleanly still gives tokens: tree-sitter
/// recovers from errors, and half-finished student code is common.
pub fn tokenize(lang: Lang, source: &[u8]) -> Result<Vec<Token>, SimilarityError> {
    let mut parser = Parser::new();
    parser
        .set_language(&lang.grammar())
        .map_err(|source| SimilarityError::Grammar {
            lang: lang.name(),
            source,
        })?;
    let mut out = Vec::new();
    let (mut start, mut row) = (0usize, 0usize);
    while start < source.len() || start == 0 {
        let end = piece_end(source, start);
        let piece = &source[start..end];
        tokenize_piece(lang, &mut parser, piece, row, &mut out)?;
        row += piece.iter().filter(|&&b| b == b'\n').count();
        if end >= source.len() {
            break;
        }
        start = end;
    }
    Ok(out)
}

/// Appends the tokens of one piece whose first line is `row`.
fn tokenize_piece(
    lang: Lang,
    parser: &mut Parser,
    source: &[u8],
    row: usize,
    out: &mut Vec<Token>,
) -> Result<(), SimilarityError> {
    let tree = parser
        .parse(source, None)
        .ok_or(SimilarityError::ParserGaveUp { lang: lang.name() })?;
    let line = |r: usize| line(row + r);
    let mut cursor = tree.walk();
    // An explicit walk: recursion on a deeply nested hostile file could
    // overflow the stack.
    let mut closing: Vec<(usize, u32)> = Vec::new(); // (depth, line) of open indented blocks
    let mut depth = 0usize;
    loop {
        let node = cursor.node();
        let leafish = node.child_count() == 0 || is_literal(node.kind());
        let mut descend = !leafish;
        if leafish {
            if let Some(t) = normalised(&node, source)
                && !t.is_empty()
            {
                let own = source
                    .get(node.start_byte()..node.end_byte())
                    .map_or(0, |b| hash_bytes(0xcbf2_9ce4_8422_2325, b));
                out.push(Token {
                    kind: hash_str(t),
                    text: own,
                    first_line: line(node.start_position().row),
                    last_line: line(node.end_position().row),
                });
            }
        } else if node.kind().contains("comment") {
            descend = false;
        } else if is_indented_block(lang, node.kind()) {
            out.push(Token {
                kind: hash_str("{"),
                text: hash_str("{"),
                first_line: line(node.start_position().row),
                last_line: line(node.start_position().row),
            });
            closing.push((depth, line(node.end_position().row)));
        }
        if descend && cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            close_blocks(&mut closing, depth, out);
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return Ok(());
            }
            depth -= 1;
        }
    }
}

/// Emits the close tokens of indented blocks that end at `depth`.
fn close_blocks(closing: &mut Vec<(usize, u32)>, depth: usize, out: &mut Vec<Token>) {
    while let Some(&(d, l)) = closing.last() {
        if d < depth {
            break;
        }
        closing.pop();
        out.push(Token {
            kind: hash_str("}"),
            text: hash_str("}"),
            first_line: l,
            last_line: l,
        });
    }
}

fn line(row: usize) -> u32 {
    u32::try_from(row).unwrap_or(u32::MAX)
}

/// FNV-1a: a fixed hash, so that fingerprints are the same on every run
/// and every machine (std's hasher is seeded per process).
pub fn hash_str(s: &str) -> u64 {
    hash_bytes(0xcbf2_9ce4_8422_2325, s.as_bytes())
}

pub fn hash_bytes(mut h: u64, bytes: &[u8]) -> u64 {
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(lang: Lang, src: &str) -> Vec<u64> {
        tokenize(lang, src.as_bytes())
            .expect("tokens")
            .iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn names_literals_comments_and_layout_are_normalised_away() {
        let a = "int main() { int n = 3; /* sum */ printf(\"%d\\n\", n + 1); }";
        let b = "int\nmain ( )\n{\n  // count\n  int total=42;\n  printf(\"x\", total+7);\n}\n";
        assert_eq!(kinds(Lang::C, a), kinds(Lang::C, b));
        let c = "int main() { int n = 3; printf(\"%d\\n\", n - 1); }";
        assert_ne!(kinds(Lang::C, a), kinds(Lang::C, c), "operators count");
    }

    #[test]
    fn python_blocks_are_explicit() {
        let a = "def f(x):\n    if x:\n        return 1\n    return 2\n";
        let b = "def g(y):\n    if y:\n        return 1\n        return 2\n";
        assert_ne!(kinds(Lang::Python, a), kinds(Lang::Python, b));
        let c = "def h(z):  # renamed\n    if z:\n        return 7\n    return 9\n";
        assert_eq!(kinds(Lang::Python, a), kinds(Lang::Python, c));
    }

    #[test]
    fn every_grammar_loads() {
        for (lang, src) in [
            (Lang::C, "int x;"),
            (Lang::Cpp, "int x;"),
            (Lang::Java, "class A {}"),
            (Lang::Python, "x = 1"),
            (Lang::Rust, "fn main() {}"),
        ] {
            assert!(!kinds(lang, src).is_empty(), "{lang:?}");
        }
    }

    #[test]
    fn a_long_source_is_read_in_pieces_with_its_own_lines() {
        let function = |i: usize| format!("int f{i}(int a) {{\n    return a * {i} + 1;\n}}\n");
        let one = function(0);
        let src: String = (0..3 * PIECE / one.len()).map(function).collect();
        let tokens = tokenize(Lang::C, src.as_bytes()).expect("tokens");
        // Every function gives the same tokens, wherever the pieces end,
        // and a token's line is its line in the whole file.
        let per = kinds(Lang::C, &one);
        let all: Vec<u64> = tokens.iter().map(|t| t.kind).collect();
        assert_eq!(all.len(), per.len() * (3 * PIECE / one.len()));
        assert!(all.chunks(per.len()).all(|c| c == per.as_slice()));
        let last = tokens.last().expect("a token");
        assert_eq!(last.last_line as usize, src.lines().count() - 1);
        // One line longer than a piece is cut too, and still read.
        let line = "x = 1; ".repeat(2 * LONGEST_PIECE / 7);
        assert!(!kinds(Lang::Python, &line).is_empty());
    }

    #[test]
    fn broken_source_still_gives_tokens() {
        assert!(!kinds(Lang::C, "int main( { for (;;").is_empty());
    }
}
