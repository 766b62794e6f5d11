//! The logic mutants of a Rust program: every small change a person could
//! make by mistake, found and applied on the syntax tree (`syn`) and
//! printed back with `prettyplease`, so a change is always a well-formed
//! expression swap rather than a text edit that might hit a comment or a
//! string.
//!
//! The operators are cargo-mutants' set: binary operators swapped for their
//! neighbours, integer literals moved by one, conditions negated, function
//! bodies replaced by a default value, statements and `else` branches
//! removed, unary `!`/`-` dropped. Macro bodies (`writeln!`, `format!`) and
//! string literals are left alone: changing how a program prints only makes
//! it crash or print garbage, which says nothing about the tests.

use proc_macro2::Span;
use quote::ToTokens;
use syn::spanned::Spanned;
use syn::visit_mut::{self, VisitMut};
use syn::{BinOp, Block, Expr, ExprLit, ItemFn, Lit, LitInt, ReturnType, Stmt, Type, UnOp};

use super::{Candidate, Class, ParseError};

/// The logic mutants of a Rust program, each with its whole source.
pub(super) fn logic(source: &str) -> Result<Vec<Candidate>, ParseError> {
    let file = syn::parse_file(source).map_err(|e| {
        let at = e.span().start();
        ParseError::Rust(format!("line {}:{}: {e}", at.line, at.column + 1))
    })?;
    let mut survey = Mutator::new(None, source);
    survey.visit_file_mut(&mut file.clone());
    let mut out = Vec::new();
    for (i, site) in survey.sites.into_iter().enumerate() {
        let mut copy = file.clone();
        let mut apply = Mutator::new(Some(i), source);
        apply.visit_file_mut(&mut copy);
        out.push(Candidate {
            line: site.line,
            kind: site.kind,
            class: Class::Logic,
            description: site.description,
            source: prettyplease::unparse(&copy),
        });
    }
    Ok(out)
}

struct Site {
    line: usize,
    kind: String,
    description: String,
}

/// Walks the tree numbering every possible change; with a target, applies
/// that one change and stops counting.
struct Mutator<'s> {
    /// The program as written: descriptions quote it.
    source: &'s str,
    target: Option<usize>,
    next: usize,
    sites: Vec<Site>,
    /// The innermost operation around the node being visited, so that a
    /// moved literal is described with its use (`0` in `big > 0`).
    around: Option<String>,
}

impl<'s> Mutator<'s> {
    fn new(target: Option<usize>, source: &'s str) -> Self {
        Mutator {
            source,
            target,
            next: 0,
            sites: Vec::new(),
            around: None,
        }
    }

    /// Numbers one candidate change; true when it is the one to apply.
    fn candidate(&mut self, span: Span, kind: String, description: String) -> bool {
        let id = self.next;
        self.next += 1;
        if self.target.is_none() {
            self.sites.push(Site {
                line: span.start().line,
                kind,
                description,
            });
        }
        self.target == Some(id)
    }

    fn done(&self) -> bool {
        self.target.is_some_and(|t| self.next > t)
    }

    /// `node` as its author wrote it (`io::stdin().read_to_string`), on one
    /// line and cut; its tokens only when it has no place in the source.
    fn quote(&self, node: &(impl ToTokens + Spanned)) -> String {
        let span = node.span();
        let text = source_text(self.source, span.start(), span.end())
            .unwrap_or_else(|| node.to_token_stream().to_string());
        one_line(&text)
    }
}

/// The text of the source from `start` to `end` (lines from 1, columns in
/// characters from 0, as spans count them).
fn source_text(
    source: &str,
    start: proc_macro2::LineColumn,
    end: proc_macro2::LineColumn,
) -> Option<String> {
    if start.line == 0 || (end.line, end.column) <= (start.line, start.column) {
        return None;
    }
    let mut out = String::new();
    for (n, line) in source.lines().enumerate().skip(start.line - 1) {
        let n = n + 1;
        if n > end.line {
            break;
        }
        let from = if n == start.line { start.column } else { 0 };
        let to = if n == end.line {
            end.column
        } else {
            usize::MAX
        };
        if n > start.line {
            out.push('\n');
        }
        out.extend(line.chars().skip(from).take(to.saturating_sub(from)));
    }
    (!out.trim().is_empty()).then_some(out)
}

/// A node's tokens, for comparing nodes (not for people: `a :: b ()`).
fn show(node: &impl ToTokens) -> String {
    node.to_token_stream().to_string()
}

/// Text on one line, cut to what a line of the report holds.
fn one_line(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 60 {
        format!("{}…", one_line.chars().take(60).collect::<String>())
    } else {
        one_line
    }
}

fn op_text(op: &BinOp) -> String {
    op.to_token_stream().to_string()
}

fn op_name(op: &BinOp) -> &'static str {
    match op {
        BinOp::Add(_) => "add",
        BinOp::Sub(_) => "sub",
        BinOp::Mul(_) => "mul",
        BinOp::Div(_) => "div",
        BinOp::Rem(_) => "rem",
        BinOp::And(_) => "and",
        BinOp::Or(_) => "or",
        BinOp::BitXor(_) => "xor",
        BinOp::BitAnd(_) => "bitand",
        BinOp::BitOr(_) => "bitor",
        BinOp::Shl(_) => "shl",
        BinOp::Shr(_) => "shr",
        BinOp::Eq(_) => "eq",
        BinOp::Lt(_) => "lt",
        BinOp::Le(_) => "le",
        BinOp::Ne(_) => "ne",
        BinOp::Ge(_) => "ge",
        BinOp::Gt(_) => "gt",
        BinOp::AddAssign(_) => "add-assign",
        BinOp::SubAssign(_) => "sub-assign",
        BinOp::MulAssign(_) => "mul-assign",
        BinOp::DivAssign(_) => "div-assign",
        BinOp::RemAssign(_) => "rem-assign",
        BinOp::BitXorAssign(_) => "xor-assign",
        BinOp::BitAndAssign(_) => "bitand-assign",
        BinOp::BitOrAssign(_) => "bitor-assign",
        BinOp::ShlAssign(_) => "shl-assign",
        BinOp::ShrAssign(_) => "shr-assign",
        _ => "op",
    }
}

/// The operators a binary operator is swapped for.
fn replacements(op: &BinOp) -> Vec<BinOp> {
    use syn::token;
    let s = op.span();
    match op {
        BinOp::Add(_) => vec![BinOp::Sub(token::Minus(s)), BinOp::Mul(token::Star(s))],
        BinOp::Sub(_) => vec![BinOp::Add(token::Plus(s)), BinOp::Mul(token::Star(s))],
        BinOp::Mul(_) => vec![BinOp::Add(token::Plus(s)), BinOp::Div(token::Slash(s))],
        BinOp::Div(_) => vec![BinOp::Rem(token::Percent(s)), BinOp::Mul(token::Star(s))],
        BinOp::Rem(_) => vec![BinOp::Div(token::Slash(s)), BinOp::Add(token::Plus(s))],
        BinOp::And(_) => vec![BinOp::Or(token::OrOr(s))],
        BinOp::Or(_) => vec![BinOp::And(token::AndAnd(s))],
        BinOp::BitXor(_) => vec![BinOp::BitOr(token::Or(s)), BinOp::BitAnd(token::And(s))],
        BinOp::BitOr(_) => vec![BinOp::BitXor(token::Caret(s)), BinOp::BitAnd(token::And(s))],
        BinOp::BitAnd(_) => vec![BinOp::BitOr(token::Or(s)), BinOp::BitXor(token::Caret(s))],
        BinOp::Shl(_) => vec![BinOp::Shr(token::Shr(s))],
        BinOp::Shr(_) => vec![BinOp::Shl(token::Shl(s))],
        BinOp::Eq(_) => vec![BinOp::Ne(token::Ne(s))],
        BinOp::Ne(_) => vec![BinOp::Eq(token::EqEq(s))],
        BinOp::Lt(_) => vec![
            BinOp::Le(token::Le(s)),
            BinOp::Gt(token::Gt(s)),
            BinOp::Ge(token::Ge(s)),
        ],
        BinOp::Le(_) => vec![
            BinOp::Lt(token::Lt(s)),
            BinOp::Gt(token::Gt(s)),
            BinOp::Ge(token::Ge(s)),
        ],
        BinOp::Gt(_) => vec![
            BinOp::Ge(token::Ge(s)),
            BinOp::Lt(token::Lt(s)),
            BinOp::Le(token::Le(s)),
        ],
        BinOp::Ge(_) => vec![
            BinOp::Gt(token::Gt(s)),
            BinOp::Lt(token::Lt(s)),
            BinOp::Le(token::Le(s)),
        ],
        BinOp::AddAssign(_) => vec![
            BinOp::SubAssign(token::MinusEq(s)),
            BinOp::MulAssign(token::StarEq(s)),
        ],
        BinOp::SubAssign(_) => vec![BinOp::AddAssign(token::PlusEq(s))],
        BinOp::MulAssign(_) => vec![
            BinOp::AddAssign(token::PlusEq(s)),
            BinOp::DivAssign(token::SlashEq(s)),
        ],
        BinOp::DivAssign(_) => vec![
            BinOp::MulAssign(token::StarEq(s)),
            BinOp::RemAssign(token::PercentEq(s)),
        ],
        BinOp::RemAssign(_) => vec![BinOp::DivAssign(token::SlashEq(s))],
        BinOp::BitXorAssign(_) => vec![
            BinOp::BitOrAssign(token::OrEq(s)),
            BinOp::BitAndAssign(token::AndEq(s)),
        ],
        BinOp::BitAndAssign(_) => vec![
            BinOp::BitOrAssign(token::OrEq(s)),
            BinOp::BitXorAssign(token::CaretEq(s)),
        ],
        BinOp::BitOrAssign(_) => vec![
            BinOp::BitAndAssign(token::AndEq(s)),
            BinOp::BitXorAssign(token::CaretEq(s)),
        ],
        BinOp::ShlAssign(_) => vec![BinOp::ShrAssign(token::ShrEq(s))],
        BinOp::ShrAssign(_) => vec![BinOp::ShlAssign(token::ShlEq(s))],
        _ => Vec::new(),
    }
}

/// A statement whose removal is a plausible slip (an update, a call made
/// for its effect) rather than plumbing whose removal only breaks the
/// build: `let`s, items, macros and `?` calls stay.
fn removable(stmt: &Stmt) -> bool {
    match stmt {
        Stmt::Expr(e, Some(_)) => match e {
            Expr::Assign(_) => true,
            Expr::Binary(b) => is_assign(&b.op),
            Expr::MethodCall(_) | Expr::Call(_) => !show(e).contains('?'),
            _ => false,
        },
        _ => false,
    }
}

fn is_assign(op: &BinOp) -> bool {
    op_text(op).ends_with('=')
        && !matches!(
            op,
            BinOp::Eq(_) | BinOp::Ne(_) | BinOp::Le(_) | BinOp::Ge(_)
        )
}

/// Bodies that a function returning `ty` could have instead of its own:
/// the kind of change, the body as people read it, the body.
fn default_bodies(ty: &ReturnType) -> Vec<(&'static str, &'static str, Block)> {
    let ty = match ty {
        ReturnType::Default => return vec![("empty-body", "{}", syn::parse_quote!({}))],
        ReturnType::Type(_, t) => t,
    };
    let name = match &**ty {
        Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        Type::Tuple(t) if t.elems.is_empty() => {
            return vec![("empty-body", "{}", syn::parse_quote!({}))];
        }
        _ => String::new(),
    };
    match name.as_str() {
        "bool" => vec![
            ("return-true", "{ true }", syn::parse_quote!({ true })),
            ("return-false", "{ false }", syn::parse_quote!({ false })),
        ],
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" => vec![
            ("return-0", "{ 0 }", syn::parse_quote!({ 0 })),
            ("return-1", "{ 1 }", syn::parse_quote!({ 1 })),
        ],
        "String" => vec![(
            "return-empty",
            "{ String::new() }",
            syn::parse_quote!({ String::new() }),
        )],
        "Vec" => vec![(
            "return-empty",
            "{ Vec::new() }",
            syn::parse_quote!({ Vec::new() }),
        )],
        "Option" => vec![("return-none", "{ None }", syn::parse_quote!({ None }))],
        _ => vec![(
            "return-default",
            "{ Default::default() }",
            syn::parse_quote!({ Default::default() }),
        )],
    }
}

fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let text = show(a);
        text.contains("test")
    })
}

impl VisitMut for Mutator<'_> {
    fn visit_item_fn_mut(&mut self, f: &mut ItemFn) {
        if self.done() || is_test_only(&f.attrs) {
            return;
        }
        if f.sig.ident != "main" {
            for (kind, text, body) in default_bodies(&f.sig.output) {
                if show(&*f.block) == show(&body) {
                    continue;
                }
                let description = format!("replace the body of fn {} with {text}", f.sig.ident);
                if self.candidate(f.block.span(), kind.to_string(), description) {
                    *f.block = body;
                    return;
                }
            }
        }
        visit_mut::visit_item_fn_mut(self, f);
    }

    fn visit_item_mod_mut(&mut self, m: &mut syn::ItemMod) {
        if !is_test_only(&m.attrs) {
            visit_mut::visit_item_mod_mut(self, m);
        }
    }

    /// Types are left to the representation operators (narrowing, shorter
    /// arrays), which work on the original text.
    fn visit_type_mut(&mut self, _: &mut Type) {}

    fn visit_attribute_mut(&mut self, _: &mut syn::Attribute) {}

    fn visit_block_mut(&mut self, block: &mut Block) {
        if self.done() {
            return;
        }
        for i in 0..block.stmts.len() {
            if removable(&block.stmts[i]) {
                let stmt = &block.stmts[i];
                let description = format!("delete the statement {}", self.quote(stmt));
                if self.candidate(stmt.span(), "delete-statement".into(), description) {
                    block.stmts.remove(i);
                    return;
                }
            }
        }
        visit_mut::visit_block_mut(self, block);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if self.done() {
            return;
        }
        let span = e.span();
        match e {
            Expr::Binary(b) => {
                let shown = self.quote(&*b);
                for new in replacements(&b.op) {
                    let kind = format!("{}-to-{}", op_name(&b.op), op_name(&new));
                    let description = format!(
                        "replace {} with {} in {shown}",
                        op_text(&b.op),
                        op_text(&new)
                    );
                    if self.candidate(span, kind, description) {
                        b.op = new;
                        return;
                    }
                }
            }
            Expr::Lit(ExprLit {
                lit: Lit::Int(lit), ..
            }) => {
                if let Ok(value) = lit.base10_parse::<u128>() {
                    let mut moved = vec![("literal-plus-1", value.checked_add(1))];
                    if value > 0 {
                        moved.push(("literal-minus-1", Some(value - 1)));
                    }
                    for (kind, new) in moved {
                        let Some(new) = new else { continue };
                        let description = match &self.around {
                            Some(a) => format!("replace the literal {value} with {new} in {a}"),
                            None => format!("replace the literal {value} with {new}"),
                        };
                        if self.candidate(span, kind.into(), description) {
                            let text = format!("{new}{}", lit.suffix());
                            *lit = LitInt::new(&text, lit.span());
                            return;
                        }
                    }
                }
            }
            Expr::Unary(u) if matches!(u.op, UnOp::Not(_) | UnOp::Neg(_)) => {
                let (kind, sign) = match u.op {
                    UnOp::Not(_) => ("delete-not", "!"),
                    _ => ("delete-minus", "-"),
                };
                let description = format!("delete {sign} in {}", self.quote(&*u));
                if self.candidate(span, kind.into(), description) {
                    let inner = (*u.expr).clone();
                    *e = inner;
                    return;
                }
            }
            Expr::If(i) => {
                let cond = &i.cond;
                let description = format!("negate the condition {}", self.quote(&**cond));
                if self.candidate(span, "negate-condition".into(), description) {
                    let negated: Expr = syn::parse_quote!(!(#cond));
                    *i.cond = negated;
                    return;
                }
                if !i.then_branch.stmts.is_empty() {
                    let description = format!("empty the body of if {}", self.quote(&**cond));
                    if self.candidate(span, "empty-if-body".into(), description) {
                        i.then_branch.stmts.clear();
                        return;
                    }
                }
                if i.else_branch.is_some() {
                    let description = format!("delete the else of if {}", self.quote(&**cond));
                    if self.candidate(span, "delete-else".into(), description) {
                        i.else_branch = None;
                        return;
                    }
                }
            }
            Expr::Macro(_) => return,
            _ => {}
        }
        let outer = match e {
            Expr::Binary(b) => {
                let shown = self.quote(&*b);
                self.around.replace(shown)
            }
            _ => self.around.clone(),
        };
        visit_mut::visit_expr_mut(self, e);
        self.around = outer;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mutants::source::{Language, Mutant, Widths};

    /// The logic mutants of a Rust program, through the public entry.
    fn mutants(source: &str) -> Result<Vec<Mutant>, ParseError> {
        Ok(
            crate::mutants::source::mutants(Language::Rust, source, &Widths::default())?
                .into_iter()
                .filter(|m| m.class == Class::Logic)
                .collect(),
        )
    }

    const PROGRAM: &str = r#"
fn wins(a: u64, b: u64) -> bool {
    a % (b + 1) != 0
}

fn main() {
    let mut x = 0;
    for v in [1u64, 2] {
        x ^= v;
    }
    if x > 0 && wins(x, 2) {
        print!("{}\n", x + 1);
    } else {
        print!("no\n");
    }
}
"#;

    fn kinds(source: &str) -> Vec<String> {
        mutants(source)
            .expect("parses")
            .into_iter()
            .map(|m| m.kind)
            .collect()
    }

    #[test]
    fn every_operator_family_appears() {
        let k = kinds(PROGRAM);
        for want in [
            "return-true",
            "return-false",
            "rem-to-div",
            "add-to-sub",
            "ne-to-eq",
            "xor-assign-to-bitor-assign",
            "gt-to-ge",
            "and-to-or",
            "literal-plus-1",
            "literal-minus-1",
            "negate-condition",
            "empty-if-body",
            "delete-else",
            "delete-statement",
        ] {
            assert!(k.iter().any(|x| x == want), "no {want} in {k:?}");
        }
    }

    #[test]
    fn macros_and_strings_are_left_alone() {
        for m in mutants(PROGRAM).expect("parses") {
            let kept = |s: &str| m.source.contains(s);
            assert!(
                kept("print!(\"{}\\n\", x + 1)") || m.kind == "empty-if-body",
                "{}",
                m.description
            );
            assert!(kept("print!(\"no\\n\")") || m.kind == "delete-else");
        }
    }

    #[test]
    fn one_change_per_mutant() {
        let original = prettyplease::unparse(&syn::parse_file(PROGRAM).expect("parses"));
        let all = mutants(PROGRAM).expect("parses");
        assert!(all.len() > 20, "{}", all.len());
        let flipped = all
            .iter()
            .find(|m| m.kind == "gt-to-ge")
            .expect("x > 0 has a >= mutant");
        assert_eq!(flipped.line, 11);
        assert!(flipped.source.contains("x >= 0 && wins(x, 2)"));
        let changed: Vec<_> = original
            .lines()
            .zip(flipped.source.lines())
            .filter(|(a, b)| a != b)
            .collect();
        assert_eq!(changed.len(), 1, "{changed:?}");
    }

    #[test]
    fn descriptions_quote_the_code_as_written() {
        let source = "use std::io::Read;\n\nfn main() {\n    let mut s = String::new();\n    std::io::stdin().read_to_string(&mut s).unwrap();\n    let n: Vec<u64> = s.split_whitespace().map(|t| t.parse().unwrap()).collect();\n    if n.len()  >  v(&n) {\n        println!(\"x\");\n    }\n}\n\nfn v(n: &[u64]) -> String {\n    n.iter().map(|x| x.to_string()).collect()\n}\n";
        let all = mutants(source).expect("parses");
        let said: Vec<&str> = all.iter().map(|m| m.description.as_str()).collect();
        for want in [
            "delete the statement std::io::stdin().read_to_string(&mut s).unwrap();",
            "replace > with >= in n.len() > v(&n)",
            "negate the condition n.len() > v(&n)",
            "replace the body of fn v with { String::new() }",
        ] {
            assert!(said.contains(&want), "no {want:?} in {said:#?}");
        }
        assert!(
            said.iter()
                .all(|d| !d.contains(" :: ") && !d.contains(" . ")),
            "{said:#?}"
        );
    }

    #[test]
    fn unparsable_source_is_an_error() {
        assert!(mutants("fn main( {").is_err());
    }
}
