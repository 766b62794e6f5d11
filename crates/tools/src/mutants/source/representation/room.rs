//! Less room than the input needs: a fixed array, bitset or input buffer
//! half as long, a `scanf` width or an `fgets` size halved, the input read
//! a line at a time (the numbers one `scanf` call does not read are lost
//! with the rest of their line) or split on single spaces (a second space
//! or a blank line makes an empty token).

use tree_sitter::Node;

use super::super::tree::{Edit, IntLiteral, Tree, ancestor, named_children};
use super::super::{Candidate, Class, Language, show};
use super::conversions::format_call;

/// Every change of this kind in the program.
pub(super) fn candidates(tree: &Tree<'_>, nodes: &[Node<'_>]) -> Vec<Candidate> {
    let mut out = Vec::new();
    for &node in nodes {
        match (tree.language, node.kind()) {
            (Language::C | Language::Cpp, "array_declarator") => {
                if let Some(size) = node.child_by_field_name("size") {
                    let declaration = ancestor(node, &["declaration", "field_declaration"]);
                    let ty = declaration
                        .and_then(|d| d.child_by_field_name("type"))
                        .map(|t| tree.text(t))
                        .unwrap_or("");
                    let what = element_kind(ty);
                    out.extend(shorten(tree, nodes, node, size, what));
                }
            }
            (Language::Cpp, "template_type") => {
                let name = node
                    .child_by_field_name("name")
                    .map(|n| tree.text(n))
                    .unwrap_or("");
                let args = node
                    .child_by_field_name("arguments")
                    .map(named_children)
                    .unwrap_or_default();
                if name.ends_with("bitset") {
                    if let Some(&n) = args.first() {
                        out.extend(shorten(tree, nodes, node, n, Room::Bitset));
                    }
                } else if name.ends_with("array")
                    && let Some(&n) = args.last()
                {
                    out.extend(shorten(tree, nodes, node, n, Room::Array));
                }
            }
            (Language::C | Language::Cpp, "call_expression") => {
                out.extend(c_reading(tree, nodes, node));
            }
            (Language::Cpp, "expression_statement") => out.extend(cin_line(tree, node)),
            (Language::Java, "array_creation_expression") => {
                let ty = node
                    .child_by_field_name("type")
                    .map(|t| tree.text(t))
                    .unwrap_or("");
                let dims = named_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "dimensions_expr");
                if let Some(size) = dims.and_then(|d| d.named_child(0)) {
                    out.extend(shorten(tree, nodes, node, size, element_kind(ty)));
                }
            }
            (Language::Java, "method_invocation") => out.extend(java_split(tree, node)),
            (Language::Rust, "array_expression" | "array_type") => {
                if let Some(size) = node.child_by_field_name("length") {
                    let element = named_children(node)
                        .first()
                        .map(|e| tree.text(*e))
                        .unwrap_or("");
                    out.extend(shorten(tree, nodes, node, size, element_kind(element)));
                }
            }
            (Language::Rust, "call_expression") => out.extend(rust_split(tree, node)),
            (Language::Python, "binary_operator") => {
                let list = node
                    .child_by_field_name("left")
                    .is_some_and(|l| l.kind() == "list");
                let times = node
                    .child_by_field_name("operator")
                    .is_some_and(|o| tree.text(o) == "*");
                if let (true, true, Some(size)) = (list, times, node.child_by_field_name("right")) {
                    out.extend(shorten(tree, nodes, node, size, Room::Array));
                }
            }
            (Language::Python, "call") => out.extend(python_split(tree, node)),
            _ => {}
        }
    }
    out
}

/// What a shortened length belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Room {
    Array,
    Bitset,
    /// An array of characters or bytes: an input or output buffer.
    Buffer,
}

fn element_kind(ty: &str) -> Room {
    let t = ty.trim();
    let bytes = ["char", "byte", "u8", "i8", "uint8_t", "int8_t"];
    // Rust's `[0u8; N]` names its element by the literal's suffix.
    let byte_literal = t.ends_with("u8") || t.ends_with("i8");
    if byte_literal
        || bytes
            .iter()
            .any(|b| t == *b || t.ends_with(&format!(" {b}")) || t.starts_with(b))
    {
        Room::Buffer
    } else {
        Room::Array
    }
}

/// A length written as a literal (`100005`), a shift (`1 << 16`), a sum
/// whose first term is one of those, or the name of a constant defined so
/// (`#define MAXN 100005`, `const int N = …`, `static final int N = …`),
/// halved: the edit and the old and new text.
fn halved(
    tree: &Tree<'_>,
    nodes: &[Node<'_>],
    node: Node<'_>,
    depth: u32,
) -> Option<(Edit, String, String)> {
    if depth > 8 {
        return None;
    }
    let text = tree.text(node);
    if let Some(lit) = IntLiteral::parse(text.trim(), tree.language) {
        if lit.value < 2 {
            return None;
        }
        let new = lit.with(lit.value / 2);
        let start = node.start_byte() + (text.len() - text.trim_start().len());
        let range = start..start + text.trim().len();
        return Some((Edit::new(range, new.clone()), text.trim().to_string(), new));
    }
    match node.kind() {
        "binary_expression" | "binary_operator" => {
            let op = tree.text(node.child_by_field_name("operator")?);
            let left = node.child_by_field_name("left")?;
            let right = node.child_by_field_name("right")?;
            match op {
                "<<" => {
                    let k = IntLiteral::parse(tree.text(right), tree.language)?;
                    if k.value == 0 {
                        return None;
                    }
                    let new_k = k.with(k.value - 1);
                    let new = format!("{} << {new_k}", tree.text(left));
                    Some((Edit::node(right, new_k), text.to_string(), new))
                }
                "+" | "-" | "*" => halved(tree, nodes, left, depth + 1)
                    .or_else(|| halved(tree, nodes, right, depth + 1)),
                _ => None,
            }
        }
        "parenthesized_expression" => halved(tree, nodes, node.named_child(0)?, depth + 1),
        // A template argument C++ could not tell from a type (`bitset<N>`).
        "type_descriptor" => halved(tree, nodes, node.child_by_field_name("type")?, depth + 1),
        "identifier" | "type_identifier" => {
            let definition = constant_value(tree, nodes, text)?;
            halved(tree, nodes, definition, depth + 1)
        }
        _ => None,
    }
}

/// The value of the constant `name`: a `#define`, or a `const`/`final`
/// variable initialised once.
fn constant_value<'t>(tree: &Tree<'_>, nodes: &[Node<'t>], name: &str) -> Option<Node<'t>> {
    nodes.iter().find_map(|&n| match n.kind() {
        "preproc_def" => {
            let named = n
                .child_by_field_name("name")
                .is_some_and(|x| tree.text(x) == name);
            named.then(|| n.child_by_field_name("value")).flatten()
        }
        "init_declarator" | "variable_declarator" => {
            let target = n
                .child_by_field_name("declarator")
                .or_else(|| n.child_by_field_name("name"))?;
            let constant = ancestor(
                n,
                &[
                    "declaration",
                    "field_declaration",
                    "local_variable_declaration",
                ],
            )
            .is_some_and(|d| tree.text(d).contains("const") || tree.text(d).contains("final"));
            (constant && tree.text(target) == name)
                .then(|| n.child_by_field_name("value"))
                .flatten()
        }
        "const_item" | "static_item" => {
            let named = n
                .child_by_field_name("name")
                .is_some_and(|x| tree.text(x) == name);
            named.then(|| n.child_by_field_name("value")).flatten()
        }
        _ => None,
    })
}

fn shorten(
    tree: &Tree<'_>,
    nodes: &[Node<'_>],
    at: Node<'_>,
    size: Node<'_>,
    room: Room,
) -> Option<Candidate> {
    let (edit, old, new) = halved(tree, nodes, size, 0)?;
    let (kind, what) = match room {
        Room::Array => ("shorten-array", "the array"),
        Room::Bitset => ("shorten-bitset", "the bitset"),
        Room::Buffer => ("shrink-buffer", "the buffer"),
    };
    let holds = match room {
        Room::Bitset => "bits",
        Room::Buffer => "bytes",
        Room::Array => "elements",
    };
    tree.candidate(
        at,
        kind,
        Class::Representation,
        format!(
            "shorten {what} {} from {old} to {new} {holds}: an input that needs more no longer fits",
            show(tree.text(at))
        ),
        vec![edit],
    )
}

/// C's reading calls: a `scanf` width halved, an `fgets`/`fread`/`read`
/// size halved, and a `scanf` that throws the rest of its line away.
fn c_reading(tree: &Tree<'_>, nodes: &[Node<'_>], node: Node<'_>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let function = node
        .child_by_field_name("function")
        .map(|f| tree.text(f))
        .unwrap_or("");
    let args = node
        .child_by_field_name("arguments")
        .map(named_children)
        .unwrap_or_default();
    let size_arg = match function.strip_prefix("std::").unwrap_or(function) {
        "fgets" => Some(1),
        "fread" | "read" => Some(2),
        f if f.ends_with(".getline") || f.ends_with("->getline") => Some(1),
        _ => None,
    };
    if let Some(&size) = size_arg.and_then(|i| args.get(i))
        && let Some((edit, old, new)) = halved(tree, nodes, size, 0)
    {
        out.extend(tree.candidate(
            node,
            "shrink-buffer",
            Class::Representation,
            format!(
                "read at most {new} bytes instead of {old} in {}: a longer line or input is cut",
                show(tree.text(node))
            ),
            vec![edit],
        ));
    }
    let Some(call) = format_call(tree, node) else {
        return out;
    };
    if !call.scanf {
        return out;
    }
    for c in &call.conversions {
        if let Some((range, width)) = c.width.clone()
            && width >= 2
        {
            out.extend(tree.candidate(
                node,
                "shrink-scanf-width",
                Class::Representation,
                format!(
                    "read at most {} characters instead of {width} in {}: a longer token is cut in two",
                    width / 2,
                    show(tree.text(node))
                ),
                vec![Edit::new(range, (width / 2).to_string())],
            ));
        }
    }
    if matches!(function, "scanf" | "fscanf") {
        let end = call.literal.end_byte().saturating_sub(1);
        out.extend(rest_of_line_lost(
            tree,
            node,
            node,
            "call reads",
            Edit::new(end..end, "%*[^\\n]"),
        ));
    }
    out
}

/// Reading a line at a time: the rest of the line thrown away after
/// `read` (at `at`), where one `does` read less than the line holds.
fn rest_of_line_lost(
    tree: &Tree<'_>,
    at: Node<'_>,
    read: Node<'_>,
    does: &str,
    edit: Edit,
) -> Option<Candidate> {
    tree.candidate(
        at,
        "tokens-per-line",
        Class::Representation,
        format!(
            "throw the rest of the line away after {}: numbers laid out more to a line than one {does} are lost",
            show(tree.text(read))
        ),
        vec![edit],
    )
}

/// `cin >> a >> b;` → `(cin >> a >> b).ignore(1 << 30, '\n');`: the
/// same line-based reading in C++.
fn cin_line(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let expr = node.named_child(0)?;
    let mut root = expr;
    while root.kind() == "binary_expression"
        && root
            .child_by_field_name("operator")
            .is_some_and(|o| tree.text(o) == ">>")
    {
        root = root.child_by_field_name("left")?;
    }
    if root == expr || !matches!(tree.text(root), "cin" | "std::cin") {
        return None;
    }
    let ignore = format!("({}).ignore(1 << 30, '\\n')", tree.text(expr));
    rest_of_line_lost(tree, node, expr, "read takes", Edit::node(expr, ignore))
}

/// Python's `….read().split()` (or `input().split()`) taken apart at
/// single spaces within lines.
fn python_split(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let function = method_without_arguments(node, "attribute")?;
    if tree.text(function.child_by_field_name("attribute")?) != "split" {
        return None;
    }
    let object = function.child_by_field_name("object")?;
    if object.kind() != "call" {
        return None;
    }
    let reader = tree.text(object.child_by_field_name("function")?);
    let bytes = reader.contains(".buffer");
    let (nl, sp) = if bytes {
        ("b\"\\n\"", "b\" \"")
    } else {
        ("\"\\n\"", "\" \"")
    };
    let whole = tree.text(object);
    let new = if reader.ends_with(".read") {
        format!("[t for l in {whole}.split({nl}) for t in l.split({sp})]")
    } else if reader.ends_with(".readline") || reader == "input" {
        format!("{whole}.rstrip({nl}).split({sp})")
    } else {
        return None;
    };
    single_space(tree, node, SPACE_OR_LINE, Edit::node(node, new))
}

/// What a split at single spaces does to a second space or a blank line.
const SPACE_OR_LINE: &str = "a second space or a blank line makes an empty token";

/// `node`, a split on any whitespace, made a split on single spaces.
fn single_space(tree: &Tree<'_>, node: Node<'_>, why: &str, edit: Edit) -> Option<Candidate> {
    tree.candidate(
        node,
        "single-space",
        Class::Representation,
        format!("split {} on single spaces: {why}", show(tree.text(node))),
        vec![edit],
    )
}

/// The function of `node`, a call of a method with no arguments
/// (`….split()`), when it is a member access of `kind`.
fn method_without_arguments<'t>(node: Node<'t>, kind: &str) -> Option<Node<'t>> {
    let function = node.child_by_field_name("function")?;
    let args = node.child_by_field_name("arguments")?;
    (function.kind() == kind && named_children(args).is_empty()).then_some(function)
}

/// Rust's `split_whitespace()` taken apart at single spaces within lines.
fn rust_split(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let function = method_without_arguments(node, "field_expression")?;
    let field = function.child_by_field_name("field")?;
    if !matches!(
        tree.text(field),
        "split_whitespace" | "split_ascii_whitespace"
    ) {
        return None;
    }
    let lines = Edit::new(
        field.start_byte()..node.end_byte(),
        "lines().flat_map(|l| l.split(' '))",
    );
    single_space(tree, node, SPACE_OR_LINE, lines)
}

/// Java's `split("\\s+")` made `split(" ")`.
fn java_split(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let name = node.child_by_field_name("name")?;
    if tree.text(name) != "split" {
        return None;
    }
    let args = named_children(node.child_by_field_name("arguments")?);
    let [pattern] = args.as_slice() else {
        return None;
    };
    if !matches!(tree.text(*pattern), "\"\\\\s+\"" | "\" +\"" | "\"\\\\s\"") {
        return None;
    }
    single_space(
        tree,
        node,
        "a second space makes an empty token",
        Edit::node(*pattern, "\" \""),
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::{Mutant, Widths, mutants};
    use super::*;

    fn of_kind(language: Language, source: &str, kind: &str) -> Vec<Mutant> {
        mutants(language, source, &Widths::default())
            .expect("parses")
            .into_iter()
            .filter(|m| m.kind == kind)
            .collect()
    }

    /// The program the first mutant of `kind` makes of `source`.
    fn first_of_kind(language: Language, source: &str, kind: &str) -> String {
        of_kind(language, source, kind)[0].source.clone()
    }

    #[test]
    fn arrays_bitsets_and_buffers_are_halved() {
        let src = "#include <bitset>\n#define MAXN 100005\nstatic char out[1 << 21];\nint a[MAXN];\nstd::bitset<64> seen;\nint main() { char line[256]; fgets(line, sizeof line, stdin); }\n";
        let arrays = of_kind(Language::Cpp, src, "shorten-array");
        assert!(
            arrays
                .iter()
                .any(|m| m.source.contains("#define MAXN 50002")),
            "{arrays:#?}"
        );
        let buffers = of_kind(Language::Cpp, src, "shrink-buffer");
        assert!(buffers.iter().any(|m| m.source.contains("out[1 << 20]")));
        assert!(buffers.iter().any(|m| m.source.contains("line[128]")));
        let bits = of_kind(Language::Cpp, src, "shorten-bitset");
        assert!(bits.iter().any(|m| m.source.contains("bitset<32>")));
        let java = "class Main { static byte[] buf = new byte[1 << 16]; static long[] a = new long[200000]; }";
        assert!(first_of_kind(Language::Java, java, "shrink-buffer").contains("1 << 15"));
        assert!(first_of_kind(Language::Java, java, "shorten-array").contains("long[100000]"));
        let rust = "fn main() { let b = [0u8; 4096]; let c: [u64; 64] = [0; 64]; }";
        assert!(first_of_kind(Language::Rust, rust, "shrink-buffer").contains("[0u8; 2048]"));
        assert!(!of_kind(Language::Rust, rust, "shorten-array").is_empty());
        let py = "seen = [0] * 100001\n";
        assert!(first_of_kind(Language::Python, py, "shorten-array").contains("[0] * 50000"));
    }

    #[test]
    fn line_based_reading() {
        let c = "#include <stdio.h>\nint main(void) { int n; char w[32]; scanf(\"%d\", &n); scanf(\"%31s\", w); }\n";
        let lines = of_kind(Language::C, c, "tokens-per-line");
        assert!(
            lines
                .iter()
                .any(|m| m.source.contains("scanf(\"%d%*[^\\n]\", &n)")),
            "{lines:#?}"
        );
        let width = of_kind(Language::C, c, "shrink-scanf-width");
        assert!(width[0].source.contains("\"%15s\""));
        let cpp = "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; }\n";
        let lines = of_kind(Language::Cpp, cpp, "tokens-per-line");
        assert!(
            lines[0]
                .source
                .contains("(std::cin >> a >> b).ignore(1 << 30, '\\n');")
        );
        let py =
            "import sys\ndata = sys.stdin.buffer.read().split()\nn = int(input().split()[0])\n";
        let spaces = of_kind(Language::Python, py, "single-space");
        assert!(spaces.iter().any(|m| m.source.contains(
            "[t for l in sys.stdin.buffer.read().split(b\"\\n\") for t in l.split(b\" \")]"
        )));
        assert!(
            spaces
                .iter()
                .any(|m| m.source.contains("input().rstrip(\"\\n\").split(\" \")"))
        );
        let rust = "fn main() { let s = String::new(); let v: Vec<&str> = s.split_ascii_whitespace().collect(); }";
        let spaces = of_kind(Language::Rust, rust, "single-space");
        assert!(
            spaces[0]
                .source
                .contains("s.lines().flat_map(|l| l.split(' ')).collect()")
        );
    }
}
