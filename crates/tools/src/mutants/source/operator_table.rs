//! Which operator a logic mutant puts in place of which, in C, C++, Java
//! and Python: cargo-mutants' table for Rust, in each language's syntax.
//! Kept apart from the walk over the syntax tree so that the table can
//! be read (and extended) on its own.

use super::Language;

/// A short name of an operator, for mutant kinds (`lt-to-le`).
pub(super) fn op_name(op: &str) -> &'static str {
    match op {
        "+" => "add",
        "-" => "sub",
        "*" => "mul",
        "/" => "div",
        "//" => "floordiv",
        "%" => "rem",
        "**" => "pow",
        "&&" | "and" => "and",
        "||" | "or" => "or",
        "^" => "xor",
        "&" => "bitand",
        "|" => "bitor",
        "<<" => "shl",
        ">>" => "shr",
        ">>>" => "ushr",
        "==" => "eq",
        "!=" => "ne",
        "<" => "lt",
        "<=" => "le",
        ">" => "gt",
        ">=" => "ge",
        "+=" => "add-assign",
        "-=" => "sub-assign",
        "*=" => "mul-assign",
        "/=" => "div-assign",
        "//=" => "floordiv-assign",
        "%=" => "rem-assign",
        "^=" => "xor-assign",
        "&=" => "bitand-assign",
        "|=" => "bitor-assign",
        "<<=" => "shl-assign",
        ">>=" => "shr-assign",
        _ => "op",
    }
}

/// The operators a binary operator is swapped for (cargo-mutants' table;
/// Python's `//` and `**` take the place of integer `/`).
pub(super) fn replacements(op: &str, language: Language) -> &'static [&'static str] {
    let python = language == Language::Python;
    match op {
        "+" => &["-", "*"],
        "-" => &["+", "*"],
        "*" if python => &["+", "//"],
        "*" => &["+", "/"],
        "/" if python => &["//", "*"],
        "/" => &["%", "*"],
        "//" => &["%", "*"],
        "%" if python => &["//", "+"],
        "%" => &["/", "+"],
        "**" => &["*"],
        "&&" => &["||"],
        "||" => &["&&"],
        "and" => &["or"],
        "or" => &["and"],
        "^" => &["|", "&"],
        "|" => &["^", "&"],
        "&" => &["|", "^"],
        "<<" => &[">>"],
        ">>" => &["<<"],
        ">>>" => &["<<"],
        "==" => &["!="],
        "!=" => &["=="],
        "<" => &["<=", ">", ">="],
        "<=" => &["<", ">", ">="],
        ">" => &[">=", "<", "<="],
        ">=" => &[">", "<", "<="],
        "+=" => &["-=", "*="],
        "-=" => &["+="],
        "*=" if python => &["+=", "//="],
        "*=" => &["+=", "/="],
        "/=" => &["*=", "%="],
        "//=" => &["*=", "%="],
        "%=" if python => &["//="],
        "%=" => &["/="],
        "^=" => &["|=", "&="],
        "&=" => &["|=", "^="],
        "|=" => &["&=", "^="],
        "<<=" => &[">>="],
        ">>=" => &["<<="],
        _ => &[],
    }
}
