//! The logic operators for C, C++, Java and Python, on tree-sitter's
//! syntax trees: the same set as Rust's ([`super::rust`], cargo-mutants'
//! set) in each language's own syntax.
//!
//! Left alone: string and character literals, preprocessor lines, C++
//! stream operators (`cin >> x`, `cout << x`) and Java string
//! concatenation (a change there only breaks the build), loop conditions
//! (negating one only makes the program loop forever, which the samples
//! already show), and `main`'s body as a whole.

use tree_sitter::Node;

use super::operator_table::{op_name, replacements};
use super::tree::{Edit, IntLiteral, Tree, ancestor, children, field_children, named_children};
use super::{Candidate, Class, Language, show};

/// Every logic mutant of a C, C++, Java or Python program.
pub(super) fn candidates(tree: &Tree<'_>) -> Vec<Candidate> {
    let mut out = Vec::new();
    for node in tree.nodes() {
        if ancestor(node, &["preproc_include", "preproc_def", "preproc_call"]).is_some() {
            continue;
        }
        let found = if tree.language == Language::Python {
            python(tree, node)
        } else {
            c_family(tree, node)
        };
        out.extend(found);
    }
    out
}

/// The mutants swapping the operator token `op` of `whole`.
fn swaps(tree: &Tree<'_>, whole: Node<'_>, op: Node<'_>) -> Vec<Candidate> {
    let text = tree.text(op);
    let shown = show(tree.text(whole));
    replacements(text, tree.language)
        .iter()
        .filter_map(|new| {
            tree.candidate(
                whole,
                format!("{}-to-{}", op_name(text), op_name(new)),
                Class::Logic,
                format!("replace {text} with {new} in {shown}"),
                vec![Edit::node(op, *new)],
            )
        })
        .collect()
}

/// The literal moved up and down by one.
fn moved_literal(tree: &Tree<'_>, node: Node<'_>) -> Vec<Candidate> {
    let Some(lit) = IntLiteral::parse(tree.text(node), tree.language) else {
        return Vec::new();
    };
    let around = node
        .parent()
        .filter(|p| {
            p.kind().contains("binary")
                || p.kind().contains("comparison")
                || p.kind().contains("assignment")
        })
        .map(|p| format!(" in {}", show(tree.text(p))))
        .unwrap_or_default();
    let mut moves = vec![("literal-plus-1", lit.value.checked_add(1))];
    if lit.value > 0 {
        moves.push(("literal-minus-1", Some(lit.value - 1)));
    }
    moves
        .into_iter()
        .filter_map(|(kind, new)| {
            let new = new?;
            tree.candidate(
                node,
                kind,
                Class::Logic,
                format!("replace the literal {} with {new}{around}", lit.value),
                vec![Edit::node(node, lit.with(new))],
            )
        })
        .collect()
}

fn is_string(kind: &str) -> bool {
    kind.contains("string") || kind.contains("char_literal") || kind == "character_literal"
}

/// The leftmost leaf of an expression (`cin` in `cin >> a >> b`).
fn leftmost<'t>(mut node: Node<'t>) -> Node<'t> {
    while let Some(first) = node.named_child(0) {
        node = first;
    }
    node
}

/// A C++ stream expression: `<<`/`>>` on `cin`, `cout`, `cerr`, or with a
/// string operand. Swapping its operator only breaks the build.
fn is_stream(tree: &Tree<'_>, node: Node<'_>) -> bool {
    let first = tree.text(leftmost(node));
    let streams = ["cin", "cout", "cerr", "std::cin", "std::cout", "std::cerr"];
    streams.contains(&first)
        || first.starts_with("std")
        || named_children(node).iter().any(|c| is_string(c.kind()))
}

/// C, C++ and Java.
fn c_family(tree: &Tree<'_>, node: Node<'_>) -> Vec<Candidate> {
    let kind = node.kind();
    match kind {
        "binary_expression" => {
            let Some(op) = node.child_by_field_name("operator") else {
                return Vec::new();
            };
            let op_text = tree.text(op);
            if matches!(op_text, "<<" | ">>") && is_stream(tree, node) {
                return Vec::new();
            }
            // Java's `+` on strings is concatenation.
            if op_text == "+" && named_children(node).iter().any(|c| is_string(c.kind())) {
                return Vec::new();
            }
            swaps(tree, node, op)
        }
        "assignment_expression" => match node.child_by_field_name("operator") {
            Some(op) if tree.text(op) != "=" => swaps(tree, node, op),
            _ => Vec::new(),
        },
        "number_literal" | "decimal_integer_literal" | "hex_integer_literal" => {
            moved_literal(tree, node)
        }
        "unary_expression" => unary(tree, node, "operator", "argument")
            .into_iter()
            .chain(unary(tree, node, "operator", "operand"))
            .collect(),
        "if_statement" => if_mutants(tree, node),
        "conditional_expression" | "ternary_expression" => {
            match node.child_by_field_name("condition") {
                Some(c) => negate(tree, node, c).into_iter().collect(),
                None => Vec::new(),
            }
        }
        "expression_statement" => delete_statement(tree, node).into_iter().collect(),
        "function_definition" | "method_declaration" => constant_bodies(tree, node),
        _ => Vec::new(),
    }
}

/// `!x`, `-x`, `~x` without the operator.
fn unary(tree: &Tree<'_>, node: Node<'_>, op_field: &str, arg_field: &str) -> Option<Candidate> {
    let op = node.child_by_field_name(op_field)?;
    let arg = node.child_by_field_name(arg_field)?;
    let sign = tree.text(op);
    let (kind, shown) = match sign {
        "!" => ("delete-not", "!"),
        "not" => ("delete-not", "not"),
        "-" => ("delete-minus", "-"),
        "~" => ("delete-bitnot", "~"),
        _ => return None,
    };
    tree.candidate(
        node,
        kind,
        Class::Logic,
        format!("delete {shown} in {}", show(tree.text(node))),
        vec![Edit::node(node, tree.text(arg))],
    )
}

/// The expression of a condition: inside `( … )` in C and Java, a C++
/// `condition_clause`'s value, Python's bare condition.
fn condition_expression(node: Node<'_>) -> Option<Node<'_>> {
    match node.kind() {
        "parenthesized_expression" => named_children(node)
            .into_iter()
            .find(|c| !c.kind().contains("comment")),
        "condition_clause" => node.child_by_field_name("value"),
        _ => Some(node),
    }
}

fn negate(tree: &Tree<'_>, at: Node<'_>, condition: Node<'_>) -> Option<Candidate> {
    let inner = condition_expression(condition)?;
    if !inner.kind().contains("expression")
        && !matches!(
            inner.kind(),
            "identifier"
                | "call"
                | "comparison_operator"
                | "boolean_operator"
                | "not_operator"
                | "attribute"
                | "subscript"
                | "true"
                | "false"
                | "integer"
                | "number_literal"
        )
    {
        return None;
    }
    let text = tree.text(inner);
    let negated = if tree.language == Language::Python {
        format!("not ({text})")
    } else {
        format!("!({text})")
    };
    tree.candidate(
        at,
        "negate-condition",
        Class::Logic,
        format!("negate the condition {}", show(text)),
        vec![Edit::node(inner, negated)],
    )
}

/// An `if`: its condition negated, its body emptied, its `else` deleted.
fn if_mutants(tree: &Tree<'_>, node: Node<'_>) -> Vec<Candidate> {
    let mut out = Vec::new();
    let Some(condition) = node.child_by_field_name("condition") else {
        return out;
    };
    let shown = show(tree.text(condition_expression(condition).unwrap_or(condition)));
    out.extend(negate(tree, node, condition));
    if let Some(body) = node.child_by_field_name("consequence") {
        let empty = if tree.language == Language::Python {
            "pass"
        } else {
            "{}"
        };
        let already = named_children(body).is_empty() || tree.text(body).trim() == "pass";
        if !already {
            out.extend(tree.candidate(
                node,
                "empty-if-body",
                Class::Logic,
                format!("empty the body of if {shown}"),
                vec![Edit::node(body, empty)],
            ));
        }
    }
    let alternatives = field_children(node, "alternative");
    for alt in alternatives {
        // C and C++ wrap `else …` in an `else_clause`; Java's `else` is a
        // token of the `if` itself, just before the alternative.
        let start = if matches!(alt.kind(), "else_clause" | "elif_clause") {
            alt.start_byte()
        } else {
            match children(node)
                .into_iter()
                .rev()
                .find(|c| c.kind() == "else" && c.end_byte() <= alt.start_byte())
            {
                Some(e) => e.start_byte(),
                None => continue,
            }
        };
        let what = if alt.kind() == "elif_clause" {
            "elif"
        } else {
            "else"
        };
        out.extend(tree.candidate(
            node,
            "delete-else",
            Class::Logic,
            format!("delete the {what} of if {shown}"),
            vec![Edit::new(start..alt.end_byte(), "")],
        ));
    }
    out
}

/// An assignment, an update or a call made for its effect, deleted.
fn delete_statement(tree: &Tree<'_>, node: Node<'_>) -> Option<Candidate> {
    let expr = node.named_child(0)?;
    let removable = matches!(
        expr.kind(),
        "assignment_expression"
            | "update_expression"
            | "call_expression"
            | "method_invocation"
            | "assignment"
            | "augmented_assignment"
            | "call"
    );
    if !removable {
        return None;
    }
    // A statement that is the whole body of a Python block cannot go
    // without `pass`; a C one leaves an empty statement.
    let empty = if tree.language == Language::Python {
        "pass"
    } else {
        ";"
    };
    tree.candidate(
        node,
        "delete-statement",
        Class::Logic,
        format!("delete the statement {}", show(tree.text(node))),
        vec![Edit::node(node, empty)],
    )
}

/// The name of a C function or a Java method.
fn function_name<'a>(tree: &Tree<'a>, node: Node<'_>) -> Option<&'a str> {
    if let Some(name) = node.child_by_field_name("name") {
        return Some(tree.text(name));
    }
    let mut d = node.child_by_field_name("declarator")?;
    while let Some(inner) = d.child_by_field_name("declarator") {
        d = inner;
    }
    Some(tree.text(d))
}

/// A function's body replaced by a constant of its return type (not
/// `main`'s): `true`/`false`, `0`/`1`, or nothing for `void`.
fn constant_bodies(tree: &Tree<'_>, node: Node<'_>) -> Vec<Candidate> {
    let (Some(name), Some(ty), Some(body)) = (
        function_name(tree, node),
        node.child_by_field_name("type"),
        node.child_by_field_name("body"),
    ) else {
        return Vec::new();
    };
    if name == "main" {
        return Vec::new();
    }
    let ty_text = tree.text(ty);
    let bodies: &[(&str, &str)] = match ty_text {
        "bool" => &[("return-true", "true"), ("return-false", "false")],
        "boolean" => &[("return-true", "true"), ("return-false", "false")],
        "void" => &[("empty-body", "")],
        _ if matches!(
            ty.kind(),
            "primitive_type" | "sized_type_specifier" | "integral_type" | "type_identifier"
        ) && !matches!(ty_text, "double" | "float" | "char" | "String") =>
        {
            &[("return-0", "0"), ("return-1", "1")]
        }
        _ => &[],
    };
    bodies
        .iter()
        .filter_map(|(kind, value)| {
            let text = if value.is_empty() {
                "{}".to_string()
            } else {
                format!("{{ return {value}; }}")
            };
            if named_children(body).is_empty() && value.is_empty() {
                return None;
            }
            tree.candidate(
                node,
                *kind,
                Class::Logic,
                format!("replace the body of {name} with {}", show(&text)),
                vec![Edit::node(body, text)],
            )
        })
        .collect()
}

/// Python.
fn python(tree: &Tree<'_>, node: Node<'_>) -> Vec<Candidate> {
    match node.kind() {
        "binary_operator" => {
            let Some(op) = node.child_by_field_name("operator") else {
                return Vec::new();
            };
            // `"%d" % x` formats a string.
            let left_is_string = node
                .child_by_field_name("left")
                .is_some_and(|l| is_string(l.kind()));
            if left_is_string {
                return Vec::new();
            }
            swaps(tree, node, op)
        }
        "boolean_operator" => match node.child_by_field_name("operator") {
            Some(op) => swaps(tree, node, op),
            None => Vec::new(),
        },
        "comparison_operator" => field_children(node, "operators")
            .into_iter()
            .flat_map(|op| swaps(tree, node, op))
            .collect(),
        "augmented_assignment" => match node.child_by_field_name("operator") {
            Some(op) => swaps(tree, node, op),
            None => Vec::new(),
        },
        "integer" => moved_literal(tree, node),
        "unary_operator" => unary(tree, node, "operator", "argument")
            .into_iter()
            .collect(),
        "not_operator" => {
            let Some(arg) = node.child_by_field_name("argument") else {
                return Vec::new();
            };
            tree.candidate(
                node,
                "delete-not",
                Class::Logic,
                format!("delete not in {}", show(tree.text(node))),
                vec![Edit::node(node, format!("({})", tree.text(arg)))],
            )
            .into_iter()
            .collect()
        }
        "if_statement" => if_mutants(tree, node),
        "conditional_expression" => match named_children(node).get(1) {
            Some(&c) => negate(tree, node, c).into_iter().collect(),
            None => Vec::new(),
        },
        "expression_statement" => delete_statement(tree, node).into_iter().collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Mutant, Widths, mutants};
    use super::*;

    fn logic(language: Language, source: &str) -> Vec<Mutant> {
        mutants(language, source, &Widths::default())
            .expect("parses")
            .into_iter()
            .filter(|m| m.class == Class::Logic)
            .collect()
    }

    fn find<'m>(all: &'m [Mutant], kind: &str, text: &str) -> &'m Mutant {
        all.iter()
            .find(|m| m.kind == kind && m.source.contains(text))
            .unwrap_or_else(|| {
                let shown: Vec<_> = all.iter().map(|m| (&m.kind, &m.description)).collect();
                panic!("no {kind} making `{text}` in {shown:#?}")
            })
    }

    const C: &str = r#"#include <stdio.h>
#define MAX 100
static int wins(int a) { return a % 2 != 0; }
int main(void) {
    int n, x = 0;
    if (scanf("%d", &n) != 1) return 0;
    for (int i = 0; i < n; i++) {
        int a;
        scanf("%d", &a);
        x ^= a;
    }
    if (x > 0 && !wins(x)) puts("<yes>"); else puts("no");
    printf("%d\n", x > 1 ? -x : x);
    return 0;
}
"#;

    #[test]
    fn c_operators_each_make_one_change() {
        let all = logic(Language::C, C);
        find(&all, "ne-to-eq", "scanf(\"%d\", &n) == 1");
        find(&all, "lt-to-le", "i <= n");
        find(&all, "xor-assign-to-bitor-assign", "x |= a;");
        find(&all, "and-to-or", "x > 0 || !wins(x)");
        find(&all, "delete-not", "x > 0 && wins(x)");
        find(&all, "negate-condition", "if (!(x > 0 && !wins(x)))");
        find(&all, "delete-else", "puts(\"<yes>\"); \n");
        find(&all, "empty-if-body", "if (x > 0 && !wins(x)) {} else");
        find(&all, "delete-statement", "        ;\n        x ^= a;");
        find(&all, "return-0", "static int wins(int a) { return 0; }");
        find(&all, "negate-condition", "!(x > 1) ? -x : x");
        find(&all, "delete-minus", "x > 1 ? x : x");
        find(&all, "literal-plus-1", "x > 2 ?");
        // The preprocessor and strings are left alone, and so is main.
        assert!(all.iter().all(|m| m.source.contains("#define MAX 100")));
        assert!(all.iter().all(|m| m.source.contains("\"<yes>\"")
            || matches!(m.kind.as_str(), "delete-statement" | "empty-if-body")));
        assert!(
            all.iter()
                .all(|m| m.kind != "return-0" || !m.description.contains("main"))
        );
        for m in &all {
            let changed = C
                .lines()
                .zip(m.source.lines())
                .filter(|(a, b)| a != b)
                .count();
            assert!(changed <= 1, "{}: {}", m.description, m.source);
        }
    }

    #[test]
    fn cpp_streams_are_not_shifts() {
        let src = "#include <iostream>\nint main() { long long a, b; std::cin >> a >> b; std::cout << (a >> 1) << '\\n'; }\n";
        let all = logic(Language::Cpp, src);
        let shifts: Vec<_> = all.iter().filter(|m| m.kind.starts_with("sh")).collect();
        assert_eq!(shifts.len(), 1, "{shifts:#?}");
        assert!(shifts[0].source.contains("(a << 1)"));
    }

    #[test]
    fn java_else_and_string_concatenation() {
        let src = "public class Main {\n  static boolean odd(long v) { return v % 2 == 1; }\n  public static void main(String[] a) {\n    long x = 3;\n    if (odd(x)) System.out.println(\"x\" + x); else x += 2;\n  }\n}\n";
        let all = logic(Language::Java, src);
        find(&all, "delete-else", "System.out.println(\"x\" + x); \n");
        find(
            &all,
            "return-false",
            "static boolean odd(long v) { return false; }",
        );
        find(&all, "add-assign-to-sub-assign", "x -= 2");
        assert!(!all.iter().any(|m| m.source.contains("\"x\" - x")));
    }

    #[test]
    fn python_operators() {
        let src = "import sys\n\ndef main():\n    data = sys.stdin.read().split()\n    x = 0\n    for t in data[1:]:\n        x ^= int(t)\n    if x and not x < 0:\n        print(\"A %d\" % x)\n    elif x == 0:\n        print(\"B\")\n    print(1 if x // 2 >= 1 else 0)\n\n\nmain()\n";
        let all = logic(Language::Python, src);
        find(&all, "xor-assign-to-bitor-assign", "x |= int(t)");
        find(&all, "and-to-or", "if x or not x < 0:");
        find(&all, "delete-not", "if x and (x < 0):");
        find(&all, "lt-to-le", "x <= 0");
        find(&all, "negate-condition", "if not (x and not x < 0):");
        find(&all, "empty-if-body", "if x and not x < 0:\n        pass\n");
        find(&all, "delete-else", "print(\"A %d\" % x)\n    \n");
        find(&all, "floordiv-to-rem", "x % 2 >= 1");
        find(&all, "negate-condition", "1 if not (x // 2 >= 1) else 0");
        find(&all, "delete-statement", "\npass\n");
        assert!(
            all.iter()
                .all(|m| m.source.contains("\"A %d\" % x") || m.kind == "empty-if-body")
        );
    }
}
