//! The mutants of one program, in any of the languages grundy judges: C,
//! C++, Java, Python and Rust.
//!
//! A mutant is the program with one small change a person could make by
//! mistake. Two families of change:
//!
//! - **logic** ([`logic`] with tree-sitter for C, C++, Java and Python;
//!   [`rust`] with `syn` for Rust): an operator swapped for a neighbour, an
//!   integer literal moved by one, a condition negated, a branch or a
//!   statement removed, a function body replaced by a constant;
//! - **representation** ([`representation`], tree-sitter for all five):
//!   an integer type narrowed (`long long` → `int`, `u64` → `u32`, Java
//!   `long` → `int`), an array, bitset or input buffer shortened, a loop
//!   over bit positions or digits stopped early, a value masked to fewer
//!   bits, the input read a line at a time or by single spaces. These are
//!   the mistakes of students who write C, C++ or Java, which a mutant of
//!   an idiomatic Rust program (`u64`, `split_whitespace`) never imitates.
//!
//! The API is over "a program in language L": [`mutants`] takes the
//! language, the source and what the problem's constraints say about value
//! sizes ([`Widths`]), and gives every distinct mutant with its whole
//! source. Nothing here knows of problems or judging.

mod logic;
mod operator_table;
mod representation;
mod rust;
mod tree;

use std::path::Path;

/// A language whose programs can be mutated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    C,
    Cpp,
    Java,
    Python,
    Rust,
}

impl Language {
    pub const ALL: [Language; 5] = [
        Language::C,
        Language::Cpp,
        Language::Java,
        Language::Python,
        Language::Rust,
    ];

    /// The language of a source file, by its extension (as the judge's
    /// language table names them).
    pub fn of_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "c" => Some(Language::C),
            "cpp" | "cc" | "cxx" | "c++" => Some(Language::Cpp),
            "java" => Some(Language::Java),
            "py" => Some(Language::Python),
            "rs" => Some(Language::Rust),
            _ => None,
        }
    }

    /// The judge's language id (`c`, `cpp`, `java`, `python`, `rust`).
    pub fn id(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Java => "java",
            Language::Python => "python",
            Language::Rust => "rust",
        }
    }

    /// The extension a mutant's file is written with.
    pub fn extension(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "cpp",
            Language::Java => "java",
            Language::Python => "py",
            Language::Rust => "rs",
        }
    }

    /// For people: `C++`, `Python`.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Java => "Java",
            Language::Python => "Python",
            Language::Rust => "Rust",
        }
    }
}

impl std::fmt::Display for Language {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which family of change a mutant comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Class {
    /// The logic is changed: an operator, a constant, a branch.
    Logic,
    /// The logic is kept but a value is held, or the input read, in less
    /// room than the constraints need.
    Representation,
}

impl Class {
    pub fn word(self) -> &'static str {
        match self {
            Class::Logic => "logic",
            Class::Representation => "representation",
        }
    }
}

/// One mutant: where, what, and its whole source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mutant {
    /// 1-based, in the order of the source (by line).
    pub index: usize,
    /// Line of the changed code in the original file.
    pub line: usize,
    /// The kind of change, short enough for a group name (`eq-to-ne`,
    /// `narrow-long-long-to-int`).
    pub kind: String,
    pub class: Class,
    /// What was changed into what, for people; a representation mutant
    /// also says what no longer fits (`narrow long long to int in …: a
    /// value above 2^31 - 1 no longer fits`).
    pub description: String,
    /// The mutated program.
    pub source: String,
}

/// What the problem's constraints say about the size of values, so that
/// representation mutants aim at the top of the allowed range.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Widths {
    /// Bits of the largest number the input may hold (`10^9` → 30), when
    /// known. A mask then drops exactly the top allowed bit, and a loop
    /// over bit positions stops just below it.
    pub value_bits: Option<u32>,
}

impl Widths {
    /// The widths of inputs whose largest number is `max`.
    pub fn for_max(max: u64) -> Widths {
        Widths {
            value_bits: Some(u64::BITS - max.leading_zeros()),
        }
    }
}

/// Why a program has no mutants.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    #[error("not Rust that `syn` can parse: {0}")]
    Rust(String),
    #[error("{language} source larger than {} KiB: not mutated", MAX_SOURCE / 1024)]
    TooLarge { language: Language },
    #[error("the {language} grammar could not be loaded: {why}")]
    Grammar { language: Language, why: String },
    #[error("the {language} parser gave up on the source")]
    GaveUp { language: Language },
}

/// The largest source mutated: a program is a package file (hostile input),
/// and every mutant is a copy of it.
pub const MAX_SOURCE: usize = 256 * 1024;

/// A change found by an operator, before numbering.
pub(crate) struct Candidate {
    pub line: usize,
    pub kind: String,
    pub class: Class,
    pub description: String,
    pub source: String,
}

/// Every mutant of `source`, written in `language`, without duplicates and
/// without mutants that are the original program again; in source order.
pub fn mutants(
    language: Language,
    source: &str,
    widths: &Widths,
) -> Result<Vec<Mutant>, ParseError> {
    if source.len() > MAX_SOURCE {
        return Err(ParseError::TooLarge { language });
    }
    let parsed = tree::Tree::parse(language, source)?;
    // Representation first: where a logic change makes the same program
    // (`1 << 21` → `1 << 20` is also a literal moved by one), the mutant is
    // described by what it does to the representation.
    let mut all = representation::candidates(&parsed, widths);
    all.extend(match language {
        Language::Rust => rust::logic(source)?,
        _ => logic::candidates(&parsed),
    });
    // Stable: within a line, the order the operators found them in.
    all.sort_by_key(|c| c.line);
    let mut seen = std::collections::HashSet::new();
    seen.insert(source.to_string());
    if language == Language::Rust
        && let Ok(file) = syn::parse_file(source)
    {
        seen.insert(prettyplease::unparse(&file));
    }
    let mut out = Vec::new();
    for c in all {
        if seen.insert(c.source.clone()) {
            out.push(Mutant {
                index: out.len() + 1,
                line: c.line,
                kind: c.kind,
                class: c.class,
                description: c.description,
                source: c.source,
            });
        }
    }
    Ok(out)
}

/// A snippet of code on one line, cut at 60 characters, for descriptions.
pub(crate) fn show(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() > 60 {
        format!("{}…", one_line.chars().take(60).collect::<String>())
    } else {
        one_line
    }
}
