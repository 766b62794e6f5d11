//! The representation operators: the program's logic kept, a value held
//! or the input read in less room than the constraints need.
//!
//! - [`narrow`]: an integer type one size down (`long long` → `int`,
//!   `int` → `short`, `u64` → `u32`, `i64` → `i32`, Java `long` → `int`),
//!   with the `scanf`/`printf` conversions that go with it;
//! - [`room`]: a fixed array, `bitset<N>` or input buffer halved, a `scanf`
//!   width or an `fgets` size halved, the input read a line at a time or
//!   split on single spaces;
//! - here: a loop over bit positions or digits stopped early, and a value
//!   masked to fewer bits.
//!
//! [`Widths`] aims the last two at the top of the allowed range: with
//! values up to 10^9 (30 bits), a mask keeps 29 bits and a loop over bit
//! positions stops before bit 29, so only a test whose answer turns on
//! the highest bit the constraints allow tells the mutant apart.

mod conversions;
mod narrow;
mod room;

use tree_sitter::Node;

use super::tree::{Edit, IntLiteral, Tree, named_children, within};
use super::{Candidate, Class, Language, Widths, show};

/// Every representation mutant of the program.
pub(super) fn candidates(tree: &Tree<'_>, widths: &Widths) -> Vec<Candidate> {
    let nodes = tree.nodes();
    let mut out = narrow::candidates(tree, &nodes);
    out.extend(room::candidates(tree, &nodes));
    for &node in &nodes {
        out.extend(short_loop(tree, &nodes, node, widths));
        out.extend(masks(tree, node, widths));
    }
    out
}

/// What a loop walks over, if it looks like bit positions or digits: its
/// body shifts, or divides or takes the remainder by 10.
fn walks_over(tree: &Tree<'_>, nodes: &[Node<'_>], looped: Node<'_>) -> Option<&'static str> {
    let mut digits = false;
    let shift = |t: &str| matches!(t, "<<" | ">>" | ">>>" | "<<=" | ">>=" | ">>>=");
    for &n in nodes {
        if !within(n, looped) {
            continue;
        }
        // A shift token anywhere, also inside a macro's tokens (`print!`).
        if n.child_count() == 0 && shift(tree.text(n)) {
            return Some("bit positions");
        }
        let Some(op) = n.child_by_field_name("operator") else {
            continue;
        };
        let op = tree.text(op);
        let by_ten = n
            .child_by_field_name("right")
            .is_some_and(|r| tree.text(r) == "10");
        digits |= by_ten && matches!(op, "%" | "/" | "//" | "%=" | "/=" | "//=");
    }
    digits.then_some("digits")
}

/// A loop's bound: the literal, and whether the loop reaches it (`<=`,
/// or a loop counting down from it) or stops before it (`<`).
struct Bound<'t> {
    literal: Node<'t>,
    inclusive: bool,
}

/// The literal bound of a counting loop, in each language's syntax.
fn loop_bound<'t>(tree: &Tree<'_>, node: Node<'t>) -> Option<Bound<'t>> {
    let literal = |n: Node<'t>| IntLiteral::parse(tree.text(n), tree.language).map(|_| n);
    match (tree.language, node.kind()) {
        (Language::C | Language::Cpp | Language::Java, "for_statement") => {
            let condition = node.child_by_field_name("condition")?;
            let op = tree.text(condition.child_by_field_name("operator")?);
            match op {
                "<" | "!=" | "<=" => Some(Bound {
                    literal: literal(condition.child_by_field_name("right")?)?,
                    inclusive: op == "<=",
                }),
                ">=" | ">" => {
                    // Counting down from the initial value.
                    let init = node
                        .child_by_field_name("initializer")
                        .or_else(|| node.child_by_field_name("init"))?;
                    let value = match init.kind() {
                        "declaration" | "local_variable_declaration" => init
                            .child_by_field_name("declarator")?
                            .child_by_field_name("value")?,
                        "assignment_expression" => init.child_by_field_name("right")?,
                        _ => return None,
                    };
                    Some(Bound {
                        literal: literal(value)?,
                        inclusive: true,
                    })
                }
                _ => None,
            }
        }
        (Language::Python, "for_statement") => {
            let mut right = node.child_by_field_name("right")?;
            // `reversed(range(…))`
            if right.kind() == "call"
                && right
                    .child_by_field_name("function")
                    .is_some_and(|f| tree.text(f) == "reversed")
            {
                right = named_children(right.child_by_field_name("arguments")?)
                    .into_iter()
                    .next()?;
            }
            if right.kind() != "call"
                || right
                    .child_by_field_name("function")
                    .is_none_or(|f| tree.text(f) != "range")
            {
                return None;
            }
            let args = named_children(right.child_by_field_name("arguments")?);
            match args.as_slice() {
                [end] | [_, end] => Some(Bound {
                    literal: literal(*end)?,
                    inclusive: false,
                }),
                [start, _, step] if tree.text(*step).starts_with('-') => Some(Bound {
                    literal: literal(*start)?,
                    inclusive: true,
                }),
                _ => None,
            }
        }
        (Language::Rust, "for_expression") => {
            let value = node.child_by_field_name("value")?;
            let range = std::iter::successors(Some(value), |n| n.named_child(0))
                .find(|n| n.kind() == "range_expression")?;
            let parts = tree_children(range);
            let op = parts
                .iter()
                .find(|c| matches!(tree.text(**c), ".." | "..="))?;
            let end = parts
                .iter()
                .rev()
                .find(|c| c.is_named() && c.start_byte() > op.start_byte())?;
            Some(Bound {
                literal: literal(*end)?,
                inclusive: tree.text(*op) == "..=",
            })
        }
        _ => None,
    }
}

fn tree_children<'t>(node: Node<'t>) -> Vec<Node<'t>> {
    super::tree::children(node)
}

/// A loop over bit positions or digits stopped early: at half its bound,
/// and (when the constraints' widths are known) just before the highest
/// bit the constraints allow.
fn short_loop(
    tree: &Tree<'_>,
    nodes: &[Node<'_>],
    node: Node<'_>,
    widths: &Widths,
) -> Vec<Candidate> {
    let Some(bound) = loop_bound(tree, node) else {
        return Vec::new();
    };
    let Some(lit) = IntLiteral::parse(tree.text(bound.literal), tree.language) else {
        return Vec::new();
    };
    let b = lit.value;
    if b < 8 {
        return Vec::new();
    }
    let Some(what) = walks_over(tree, nodes, node) else {
        return Vec::new();
    };
    let mut bounds = vec![("lower-bit-loop", b / 2)];
    if let (Some(v), "bit positions") = (widths.value_bits, what) {
        // The bound that leaves out bit v - 1, the highest allowed.
        let top = if bound.inclusive {
            u128::from(v).checked_sub(2)
        } else {
            u128::from(v).checked_sub(1)
        };
        if let Some(t) = top.filter(|&t| t >= 1 && t < b && t != b / 2) {
            bounds.push(("lower-bit-loop-below-top-bit", t));
        }
    }
    let header = tree.text(node).lines().next().unwrap_or("");
    bounds
        .into_iter()
        .filter_map(|(kind, new)| {
            tree.candidate(
                node,
                kind,
                Class::Representation,
                format!(
                    "stop the loop over {what} at {new} instead of {b} in {}: a value with more {} is cut",
                    show(header),
                    if what == "digits" { "digits" } else { "bits" }
                ),
                vec![Edit::node(bound.literal, lit.with(new))],
            )
        })
        .collect()
}

/// The mask widths tried: one bit below the constraints' largest value
/// (the top allowed bit lost), and 32 and 16 bits where those lose
/// something. A mask at least as wide as every allowed value changes no
/// XOR of them, so it is not made.
fn mask_bits(widths: &Widths) -> Vec<u32> {
    let mut bits: Vec<u32> = match widths.value_bits {
        Some(v) => [v.saturating_sub(1), 32, 16]
            .into_iter()
            .filter(|&m| m >= 1 && m < v)
            .collect(),
        None => vec![32, 16],
    };
    bits.sort_unstable_by(|a, b| b.cmp(a));
    bits.dedup();
    bits
}

/// The mask literal for `bits` low bits in the language.
fn mask_literal(language: Language, bits: u32) -> String {
    let value = (1u128 << bits) - 1;
    let suffix = match language {
        Language::C | Language::Cpp if bits >= 31 => "ULL",
        Language::Java if bits >= 31 => "L",
        _ => "",
    };
    format!("0x{value:X}{suffix}")
}

/// A value masked to fewer bits where the program combines it: the right
/// operand of `^` and `^=` (every Nim-like answer is a XOR), and, in
/// Python, a number as it is read (`int(…)`).
fn masks(tree: &Tree<'_>, node: Node<'_>, widths: &Widths) -> Vec<Candidate> {
    let operand = match node.kind() {
        "binary_expression"
        | "binary_operator"
        | "assignment_expression"
        | "augmented_assignment"
        | "compound_assignment_expr" => {
            let op = node.child_by_field_name("operator").map(|o| tree.text(o));
            if !matches!(op, Some("^" | "^=")) {
                return Vec::new();
            }
            node.child_by_field_name("right")
        }
        "call" if tree.language == Language::Python => node
            .child_by_field_name("function")
            .filter(|f| tree.text(*f) == "int")
            .map(|_| node),
        _ => None,
    };
    let Some(operand) = operand else {
        return Vec::new();
    };
    let value = tree.text(operand);
    mask_bits(widths)
        .into_iter()
        .filter_map(|bits| {
            let mask = mask_literal(tree.language, bits);
            let lost = if widths.value_bits == Some(bits + 1) {
                format!("the highest bit the constraints allow, 2^{bits}, is lost")
            } else {
                format!("a value of 2^{bits} or more loses its high bits")
            };
            tree.candidate(
                operand,
                format!("mask-to-{bits}-bits"),
                Class::Representation,
                format!(
                    "keep only the low {bits} bits of {} in {}: {lost}",
                    show(value),
                    show(tree.text(node))
                ),
                vec![Edit::node(operand, format!("(({value}) & {mask})"))],
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{Mutant, mutants};
    use super::*;

    fn of_kind(language: Language, source: &str, widths: Widths, kind: &str) -> Vec<Mutant> {
        mutants(language, source, &widths)
            .expect("parses")
            .into_iter()
            .filter(|m| m.kind == kind)
            .collect()
    }

    #[test]
    fn bit_loops_stop_early_and_below_the_top_bit() {
        let c = "int main(void) { long long x = 5; int c = 0; for (int b = 0; b < 62; b++) if (x >> b & 1) c++; for (int b = 40; b >= 0; b--) c += (x >> b) & 1; return c; }";
        let w = Widths::for_max(1_000_000_000);
        assert_eq!(w.value_bits, Some(30));
        let half = of_kind(Language::C, c, w, "lower-bit-loop");
        assert!(
            half.iter().any(|m| m.source.contains("b < 31;")),
            "{half:#?}"
        );
        assert!(half.iter().any(|m| m.source.contains("int b = 20;")));
        let top = of_kind(Language::C, c, w, "lower-bit-loop-below-top-bit");
        // Bits 0..=28 are left: 2^29, the top of 10^9, is not looked at.
        assert!(top.iter().any(|m| m.source.contains("b < 29;")), "{top:#?}");
        assert!(top.iter().any(|m| m.source.contains("int b = 28;")));
        let py = "x = 5\nfor b in range(31):\n    print(x >> b & 1)\nfor d in range(19):\n    x //= 10\n";
        let half = of_kind(Language::Python, py, w, "lower-bit-loop");
        assert!(half.iter().any(|m| m.source.contains("range(15)")));
        assert!(half.iter().any(|m| m.source.contains("range(9)")));
        let top = of_kind(Language::Python, py, w, "lower-bit-loop-below-top-bit");
        assert_eq!(top.len(), 1, "{top:#?}");
        assert!(top[0].source.contains("range(29)"));
        let rust =
            "fn main() { let x = 5u64; for b in (0..64).rev() { print!(\"{}\", x >> b & 1); } }";
        let half = of_kind(Language::Rust, rust, w, "lower-bit-loop");
        assert!(half[0].source.contains("(0..32).rev()"));
        // A loop that neither shifts nor divides by ten is left alone.
        let plain = "int main(void) { int s = 0; for (int i = 0; i < 100; i++) s += i; return s; }";
        assert!(of_kind(Language::C, plain, w, "lower-bit-loop").is_empty());
    }

    #[test]
    fn masks_aim_below_the_top_bit() {
        let src = "#include <stdio.h>\nint main(void) { long long x = 0, a = 7; x ^= a; printf(\"%lld\", x ^ a); }\n";
        let w = Widths::for_max(1_000_000_000_000_000_000);
        let kinds: Vec<String> = mutants(Language::C, src, &w)
            .expect("parses")
            .into_iter()
            .filter(|m| m.kind.starts_with("mask-"))
            .map(|m| m.kind)
            .collect();
        for k in ["mask-to-59-bits", "mask-to-32-bits", "mask-to-16-bits"] {
            assert_eq!(kinds.iter().filter(|x| *x == k).count(), 2, "{kinds:?}");
        }
        let top = of_kind(Language::C, src, w, "mask-to-59-bits");
        assert!(top[0].source.contains("x ^= ((a) & 0x7FFFFFFFFFFFFFFULL);"));
        assert!(
            top[0].description.contains("2^59"),
            "{}",
            top[0].description
        );
        // Values below 2^14: only the top-bit mask can matter.
        let small = Widths::for_max(10_000);
        let kinds: Vec<String> = mutants(Language::Python, "x = 0\nx ^= int('5') + 1\n", &small)
            .expect("parses")
            .into_iter()
            .filter(|m| m.kind.starts_with("mask-"))
            .map(|m| m.kind)
            .collect();
        assert_eq!(kinds, ["mask-to-13-bits", "mask-to-13-bits"]);
    }
}
