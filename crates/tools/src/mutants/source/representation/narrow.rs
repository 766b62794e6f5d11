//! Narrowed integer types: `long long` → `int`, `int` → `short`,
//! `u64` → `u32`, Java `long` → `int`, and their reading functions
//! (`Long.parseLong` → `Integer.parseInt`, `atoll` → `atoi`).
//!
//! In C and C++ a student who holds a value in `int` also reads and
//! prints it with `%d`: the conversions of the `scanf`/`printf` calls that
//! take a narrowed variable change with its type, so the mutant is the
//! program that student would have written, not one whose `scanf` writes
//! eight bytes into a four-byte variable.

use tree_sitter::Node;

use super::super::tree::{Edit, Tree, ancestor, within};
use super::super::{Candidate, Class, Language, show};
use super::conversions::{base_name, format_call};

/// The narrower type a value is mistakenly kept in, and the largest value
/// that still fits there.
fn narrower(language: Language, text: &str) -> Option<(&'static str, &'static str)> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let t = words.join(" ");
    let t = t.strip_prefix("std::").unwrap_or(&t);
    match language {
        Language::C | Language::Cpp => match t {
            "long long"
            | "long long int"
            | "signed long long"
            | "signed long long int"
            | "long"
            | "long int"
            | "signed long" => Some(("int", "2^31 - 1")),
            "unsigned long long"
            | "unsigned long long int"
            | "unsigned long"
            | "unsigned long int" => Some(("unsigned", "2^32 - 1")),
            "int" | "signed" | "signed int" => Some(("short", "2^15 - 1")),
            "unsigned" | "unsigned int" => Some(("unsigned short", "2^16 - 1")),
            "int64_t" => Some(("int32_t", "2^31 - 1")),
            "uint64_t" => Some(("uint32_t", "2^32 - 1")),
            "int32_t" => Some(("int16_t", "2^15 - 1")),
            "uint32_t" => Some(("uint16_t", "2^16 - 1")),
            "size_t" => Some(("unsigned", "2^32 - 1")),
            "__int128" | "__int128_t" | "signed __int128" => Some(("long long", "2^63 - 1")),
            "unsigned __int128" | "__uint128_t" => Some(("unsigned long long", "2^64 - 1")),
            _ => None,
        },
        Language::Java => match t {
            "long" => Some(("int", "2^31 - 1")),
            "int" => Some(("short", "2^15 - 1")),
            _ => None,
        },
        Language::Rust => match t {
            "u128" => Some(("u64", "2^64 - 1")),
            "i128" => Some(("i64", "2^63 - 1")),
            "u64" => Some(("u32", "2^32 - 1")),
            "i64" => Some(("i32", "2^31 - 1")),
            "usize" => Some(("u32", "2^32 - 1")),
            "isize" => Some(("i32", "2^31 - 1")),
            "u32" => Some(("u16", "2^16 - 1")),
            "i32" => Some(("i16", "2^15 - 1")),
            _ => None,
        },
        Language::Python => None,
    }
}

/// `narrow-long-long-to-int`.
fn kind(from: &str, to: &str) -> String {
    let slug = |s: &str| {
        s.split_whitespace()
            .map(|w| w.trim_start_matches('_').trim_end_matches("_t"))
            .collect::<Vec<_>>()
            .join("-")
    };
    format!("narrow-{}-to-{}", slug(from), slug(to))
}

/// The line of the source holding `node`, trimmed: the context shown.
fn line_of<'a>(tree: &Tree<'a>, node: Node<'_>) -> &'a str {
    let start = tree.text[..node.start_byte()]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let end = tree.text[node.end_byte()..]
        .find('\n')
        .map_or(tree.text.len(), |i| node.end_byte() + i);
    tree.text[start..end].trim()
}

fn describe(tree: &Tree<'_>, node: Node<'_>, from: &str, to: &str, fits: &str) -> String {
    format!(
        "narrow {} to {to} in {}: a value above {fits} no longer fits",
        from.split_whitespace().collect::<Vec<_>>().join(" "),
        show(line_of(tree, node))
    )
}

/// The type nodes of C and C++ whose text names an integer type.
fn is_c_type(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "primitive_type" | "sized_type_specifier" | "type_identifier"
    ) && node
        .parent()
        .is_none_or(|p| p.kind() != "sized_type_specifier")
}

/// Every narrowing of the program.
pub(super) fn candidates(tree: &Tree<'_>, nodes: &[Node<'_>]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &node in nodes {
        let found = match tree.language {
            Language::C | Language::Cpp if is_c_type(node) => c_type(tree, nodes, node),
            Language::C | Language::Cpp if node.kind() == "call_expression" => renamed_call(
                tree,
                node,
                &[
                    ("atoll", "atoi"),
                    ("atol", "atoi"),
                    ("stoll", "stoi"),
                    ("stol", "stoi"),
                ],
            ),
            Language::Java if node.kind() == "integral_type" => plain(tree, node),
            Language::Java if node.kind() == "method_invocation" => java_parse(tree, nodes, node),
            Language::Rust if node.kind() == "primitive_type" => plain(tree, node),
            Language::Rust if node.kind() == "integer_literal" => rust_suffix(tree, node),
            _ => None,
        };
        out.extend(found);
    }
    out
}

/// A type narrowed where it is written, nothing else changed (Java, Rust).
fn plain(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let from = tree.text(node);
    let (to, fits) = narrower(tree.language, from)?;
    tree.candidate(
        node,
        kind(from, to),
        Class::Representation,
        describe(tree, node, from, to, fits),
        vec![Edit::node(node, to)],
    )
}

/// `0u64` → `0u32`.
fn rust_suffix(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let text = tree.text(node);
    let at = text.find(['u', 'i'])?;
    let (digits, suffix) = text.split_at(at);
    let (to, fits) = narrower(Language::Rust, suffix)?;
    tree.candidate(
        node,
        kind(suffix, to),
        Class::Representation,
        describe(tree, node, suffix, to, fits),
        vec![Edit::node(node, format!("{digits}{to}"))],
    )
}

/// `atoll(s)` → `atoi(s)`: the value read into an `int`.
fn renamed_call(tree: &Tree<'_>, node: Node<'_>, renames: &[(&str, &str)]) -> Option<Candidate> {
    let function = node.child_by_field_name("function")?;
    let name = tree.text(function);
    let bare = name.strip_prefix("std::").unwrap_or(name);
    let &(_, to) = renames.iter().find(|(from, _)| *from == bare)?;
    let new = name.replacen(bare, to, 1);
    tree.candidate(
        node,
        format!("narrow-{bare}-to-{to}"),
        Class::Representation,
        format!(
            "read with {to} instead of {bare} in {}: a value above 2^31 - 1 no longer fits",
            show(line_of(tree, node))
        ),
        vec![Edit::node(function, new)],
    )
}

/// `Long.parseLong(s)` → `Integer.parseInt(s)`; `in.nextLong()` →
/// `in.nextInt()` when the reader has a `nextInt`.
fn java_parse(tree: &Tree<'_>, nodes: &[Node<'_>], node: Node<'_>) -> Option<Candidate> {
    let name = node.child_by_field_name("name")?;
    let object = node.child_by_field_name("object").map(|o| tree.text(o));
    let (edit_node, new, what) = match (object, tree.text(name)) {
        (Some("Long"), "parseLong") => (
            node.child_by_field_name("object")?,
            "Integer",
            "Integer.parseInt",
        ),
        (_, "nextLong") => {
            let own_reader = nodes.iter().any(|n| {
                n.kind() == "method_declaration"
                    && n.child_by_field_name("name")
                        .is_some_and(|m| tree.text(m) == "nextLong")
            });
            let has_int = !own_reader
                || nodes.iter().any(|n| {
                    n.kind() == "method_declaration"
                        && n.child_by_field_name("name")
                            .is_some_and(|m| tree.text(m) == "nextInt")
                });
            if !has_int {
                return None;
            }
            (name, "nextInt", "nextInt")
        }
        _ => return None,
    };
    let mut edits = vec![Edit::node(edit_node, new)];
    if what == "Integer.parseInt" {
        edits.push(Edit::node(name, "parseInt"));
    }
    tree.candidate(
        node,
        "narrow-long-to-int",
        Class::Representation,
        format!(
            "read with {what} in {}: a value above 2^31 - 1 no longer fits",
            show(line_of(tree, node))
        ),
        edits,
    )
}

/// The names a C declaration declares (`x` and `a` in `long long x = 0,
/// a[10];`).
fn declared_names<'a>(tree: &Tree<'a>, declaration: Node<'_>) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut cursor = declaration.walk();
    for d in declaration.children_by_field_name("declarator", &mut cursor) {
        let mut d = d;
        loop {
            match d.kind() {
                "identifier" | "field_identifier" | "type_identifier" => {
                    out.push(tree.text(d));
                    break;
                }
                _ => match d
                    .child_by_field_name("declarator")
                    .or_else(|| d.named_child(0))
                {
                    Some(inner) => d = inner,
                    None => break,
                },
            }
        }
    }
    out
}

const DECLARATIONS: [&str; 4] = [
    "declaration",
    "field_declaration",
    "parameter_declaration",
    "type_definition",
];

/// A C or C++ type narrowed, with the `scanf`/`printf` conversions of the
/// variables it declares (in their scope) made to match.
fn c_type(tree: &Tree<'_>, nodes: &[Node<'_>], node: Node<'_>) -> Option<Candidate> {
    // `short main` is no one's mistake.
    let is_main = node.parent().is_some_and(|p| {
        p.kind() == "function_definition"
            && p.child_by_field_name("declarator")
                .and_then(|d| d.child_by_field_name("declarator"))
                .is_some_and(|n| tree.text(n) == "main")
    });
    if is_main {
        return None;
    }
    let from = tree.text(node);
    let (to, fits) = narrower(tree.language, from)?;
    let mut edits = vec![Edit::node(node, to)];
    // The declaration the type belongs to: directly, or through a
    // template argument (`vector<long long> a`).
    let declaration = match node.parent() {
        Some(p) if DECLARATIONS.contains(&p.kind()) => Some(p),
        _ => ancestor(node, &DECLARATIONS)
            .filter(|d| ancestor(node, &["template_argument_list"]).is_some_and(|t| within(t, *d))),
    };
    if let Some(declaration) = declaration {
        let mut names = declared_names(tree, declaration);
        let mut scope = declaration.parent().unwrap_or(declaration);
        if declaration.kind() == "parameter_declaration" {
            scope = ancestor(declaration, &["function_definition"]).unwrap_or(scope);
        }
        if declaration.kind() == "type_definition" {
            // Every variable declared with the typedef's name.
            let aliases = names.clone();
            names.clear();
            for &d in nodes {
                let typed = d
                    .child_by_field_name("type")
                    .is_some_and(|t| aliases.contains(&tree.text(t)));
                if DECLARATIONS.contains(&d.kind()) && d.kind() != "type_definition" && typed {
                    names.extend(declared_names(tree, d));
                }
            }
            scope = nodes.first().copied().unwrap_or(scope);
        }
        edits.extend(matching_conversions(tree, nodes, scope, &names, to));
    }
    tree.candidate(
        node,
        kind(from, to),
        Class::Representation,
        describe(tree, node, from, to, fits),
        edits,
    )
}

/// The length modifier a `scanf`/`printf` conversion has for `ty`.
fn length_for(ty: &str) -> &'static str {
    match ty {
        "short" | "unsigned short" | "int16_t" | "uint16_t" => "h",
        "long long" | "unsigned long long" => "ll",
        _ => "",
    }
}

/// The edits that make the integer conversions reading or printing
/// `names` (inside `scope`) use the length modifier of `to`.
fn matching_conversions(
    tree: &Tree<'_>,
    nodes: &[Node<'_>],
    scope: Node<'_>,
    names: &[&str],
    to: &str,
) -> Vec<Edit> {
    let mut edits = Vec::new();
    if names.is_empty() {
        return edits;
    }
    for &n in nodes {
        if !within(n, scope) {
            continue;
        }
        let Some(call) = format_call(tree, n) else {
            continue;
        };
        for c in &call.conversions {
            let Some(arg) = c.argument.and_then(|i| call.arguments.get(i)) else {
                continue;
            };
            let reads_name = base_name(tree, *arg).is_some_and(|name| names.contains(&name));
            let new = length_for(to);
            if c.is_integer() && reads_name && tree.text.get(c.length.clone()) != Some(new) {
                edits.push(Edit::new(c.length.clone(), new));
            }
        }
    }
    edits
}

#[cfg(test)]
mod tests {
    use super::super::super::{Mutant, Widths, mutants};
    use super::*;

    fn narrowings(language: Language, source: &str) -> Vec<Mutant> {
        mutants(language, source, &Widths::default())
            .expect("parses")
            .into_iter()
            .filter(|m| m.kind.starts_with("narrow-"))
            .collect()
    }

    #[test]
    fn c_narrowing_changes_the_conversions_with_the_type() {
        let src = "#include <stdio.h>\nint main(void) {\n    int n;\n    scanf(\"%d\", &n);\n    long long x = 0, a;\n    for (int i = 0; i < n; i++) { scanf(\"%lld\", &a); x ^= a; }\n    printf(\"%lld\\n\", x);\n    return 0;\n}\n";
        let all = narrowings(Language::C, src);
        let ll = all
            .iter()
            .find(|m| m.kind == "narrow-long-long-to-int")
            .expect("long long narrowed");
        assert!(ll.source.contains("    int x = 0, a;"), "{}", ll.source);
        assert!(ll.source.contains("scanf(\"%d\", &a)"), "{}", ll.source);
        assert!(ll.source.contains("printf(\"%d\\n\", x)"), "{}", ll.source);
        assert!(ll.description.contains("2^31 - 1"), "{}", ll.description);
        let n = all
            .iter()
            .find(|m| m.kind == "narrow-int-to-short" && m.source.contains("short n;"))
            .expect("int n narrowed");
        assert!(n.source.contains("scanf(\"%hd\", &n)"), "{}", n.source);
        // The loop counter's narrowing leaves the conversions alone.
        let i = all
            .iter()
            .find(|m| m.source.contains("short i = 0"))
            .expect("int i narrowed");
        assert!(i.source.contains("scanf(\"%d\", &n)") && i.source.contains("%lld\", &a"));
    }

    #[test]
    fn a_typedef_narrows_every_variable_of_its_type() {
        let src = "#include <cstdio>\ntypedef unsigned long long u64;\nint main() {\n    u64 a, b;\n    while (scanf(\"%llu %llu\", &a, &b) == 2) printf(\"%llu\\n\", a + b);\n}\n";
        let all = narrowings(Language::Cpp, src);
        let t = all
            .iter()
            .find(|m| m.kind == "narrow-unsigned-long-long-to-unsigned")
            .expect("typedef narrowed");
        assert!(t.source.contains("typedef unsigned u64;"), "{}", t.source);
        assert!(
            t.source.contains("scanf(\"%u %u\", &a, &b)"),
            "{}",
            t.source
        );
    }

    #[test]
    fn java_and_rust_types() {
        let java = "public class Main { public static void main(String[] a) { long x = Long.parseLong(a[0]); int[] v = new int[3]; } }";
        let all = narrowings(Language::Java, java);
        assert!(all.iter().any(|m| m.source.contains("int x = Long")));
        assert!(
            all.iter()
                .any(|m| m.source.contains("Integer.parseInt(a[0])"))
        );
        assert!(all.iter().any(|m| m.source.contains("short[] v")));
        let rust = "fn main() { let v: Vec<u64> = vec![0u64]; let s = \"5\".parse::<i64>(); }";
        let all = narrowings(Language::Rust, rust);
        assert!(
            all.iter()
                .any(|m| m.source.contains("Vec<u32> = vec![0u64]"))
        );
        assert!(all.iter().any(|m| m.source.contains("vec![0u32]")));
        assert!(all.iter().any(|m| m.source.contains("parse::<i32>")));
        assert!(all.iter().all(|m| m.class == Class::Representation));
    }
}
