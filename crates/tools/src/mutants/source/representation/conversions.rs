//! The conversions of a C `printf`/`scanf` format string (`%lld`, `%20s`,
//! `%*d`), with where each sits in the source, and which argument of the
//! call each one reads: what a narrowed type must change with it, and
//! where a `scanf` width is.

use std::ops::Range;

use tree_sitter::Node;

use super::super::tree::{Tree, named_children};

/// The functions whose format strings are read, with the index of the
/// format argument.
const SCANF: [(&str, usize); 3] = [("scanf", 0), ("sscanf", 1), ("fscanf", 1)];
const PRINTF: [(&str, usize); 4] = [
    ("printf", 0),
    ("fprintf", 1),
    ("sprintf", 1),
    ("snprintf", 2),
];

/// One `%` conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Conversion {
    /// The width digits, in source bytes, and their value.
    pub width: Option<(Range<usize>, u64)>,
    /// The length modifier (`ll`, `h`, possibly empty), in source bytes.
    pub length: Range<usize>,
    /// The conversion character (`d`, `s`, `[`).
    pub kind: char,
    /// The call argument it reads or writes, if any (`%*d` in `scanf`
    /// reads none).
    pub argument: Option<usize>,
}

impl Conversion {
    pub fn is_integer(&self) -> bool {
        matches!(self.kind, 'd' | 'i' | 'u' | 'o' | 'x' | 'X' | 'n')
    }
}

/// A call to a `printf` or `scanf` function.
pub(crate) struct FormatCall<'t> {
    pub scanf: bool,
    /// The format string literal.
    pub literal: Node<'t>,
    pub conversions: Vec<Conversion>,
    /// The arguments after the format, in order.
    pub arguments: Vec<Node<'t>>,
}

/// The `printf`/`scanf` call `node` is, if it is one with a literal format.
pub(crate) fn format_call<'t>(tree: &Tree<'_>, node: Node<'t>) -> Option<FormatCall<'t>> {
    if node.kind() != "call_expression" {
        return None;
    }
    let name = tree.text(node.child_by_field_name("function")?);
    let name = name.strip_prefix("std::").unwrap_or(name);
    let (scanf, at) = SCANF
        .iter()
        .map(|&(n, i)| (true, n, i))
        .chain(PRINTF.iter().map(|&(n, i)| (false, n, i)))
        .find(|(_, n, _)| *n == name)
        .map(|(s, _, i)| (s, i))?;
    let args = named_children(node.child_by_field_name("arguments")?);
    let literal = *args.get(at)?;
    if literal.kind() != "string_literal" {
        return None;
    }
    let conversions = parse(tree.text(literal), literal.start_byte(), scanf);
    Some(FormatCall {
        scanf,
        literal,
        conversions,
        arguments: args[at + 1..].to_vec(),
    })
}

/// The conversions of a format literal's source text (quotes included)
/// that starts at byte `base`.
fn parse(text: &str, base: usize, scanf: bool) -> Vec<Conversion> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut argument = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if bytes.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        let mut consumes = true;
        if scanf && bytes.get(i) == Some(&b'*') {
            consumes = false;
            i += 1;
        }
        if !scanf {
            while i < bytes.len() && b"-+ #0".contains(&bytes[i]) {
                i += 1;
            }
        }
        let width_start = i;
        if !scanf && bytes.get(i) == Some(&b'*') {
            argument += 1;
            i += 1;
        }
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let width = text
            .get(width_start..i)
            .and_then(|w| w.parse::<u64>().ok())
            .map(|v| (base + width_start..base + i, v));
        if !scanf && bytes.get(i) == Some(&b'.') {
            i += 1;
            if bytes.get(i) == Some(&b'*') {
                argument += 1;
                i += 1;
            }
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        let length_start = i;
        while i < bytes.len() && b"hlLqjzt".contains(&bytes[i]) {
            i += 1;
        }
        let Some(&kind) = bytes.get(i) else { break };
        let length = base + length_start..base + i;
        i += 1;
        if kind == b'[' {
            // A scan set runs to the next `]` (a `]` first is part of it).
            if bytes.get(i) == Some(&b'^') {
                i += 1;
            }
            if bytes.get(i) == Some(&b']') {
                i += 1;
            }
            while i < bytes.len() && bytes[i] != b']' {
                i += 1;
            }
            i += 1;
        }
        out.push(Conversion {
            width,
            length,
            kind: kind as char,
            argument: consumes.then(|| {
                argument += 1;
                argument - 1
            }),
        });
    }
    out
}

/// The variable an argument reads into or prints: `x` in `&x`, `&a[i]`,
/// `(x)`, `a[i]`.
pub(crate) fn base_name<'a>(tree: &Tree<'a>, mut node: Node<'_>) -> Option<&'a str> {
    loop {
        match node.kind() {
            "identifier" => return Some(tree.text(node)),
            "pointer_expression" | "parenthesized_expression" | "subscript_expression" => {
                node = node.named_child(0)?;
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str, scanf: bool) -> Vec<(Option<u64>, String, char, Option<usize>)> {
        parse(text, 0, scanf)
            .into_iter()
            .map(|c| {
                (
                    c.width.map(|w| w.1),
                    text[c.length].to_string(),
                    c.kind,
                    c.argument,
                )
            })
            .collect()
    }

    #[test]
    fn conversions_and_their_arguments() {
        assert_eq!(
            shown("\"%d %lld%%%*d %20s %[^\\n]\"", true),
            vec![
                (None, String::new(), 'd', Some(0)),
                (None, "ll".into(), 'd', Some(1)),
                (None, String::new(), 'd', None),
                (Some(20), String::new(), 's', Some(2)),
                (None, String::new(), '[', Some(3)),
            ]
        );
        assert_eq!(
            shown("\"%-*.*lld|%05hu\\n\"", false),
            vec![
                (None, "ll".into(), 'd', Some(2)),
                (Some(5), "h".into(), 'u', Some(3)),
            ]
        );
    }
}
