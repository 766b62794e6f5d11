//! One heap's Grundy values as the exported Python programs know them
//! (the accepted answers of a described game and its interactor): the
//! values grundy proved, written as a Python literal, and the function
//! `g(n)` that reads them, said once for both programs.

use crate::games::described::values::Known;

/// `VALUES = …` and `g(n)`; `@VALUES@` is the literal.
const HEAP_VALUES_PY: &str = include_str!("heap_values.py");

/// The Python of one heap's values `known`, written into a program at its
/// `@HEAP_VALUES@`.
pub(super) fn write_into(program: &str, known: &Known) -> String {
    program.replace(
        "@HEAP_VALUES@",
        HEAP_VALUES_PY
            .trim_end()
            .replace("@VALUES@", &literal(known))
            .as_str(),
    )
}

/// `known` as the tuple `g(n)` reads.
fn literal(known: &Known) -> String {
    match known {
        Known::Identity => "(\"identity\",)".into(),
        Known::Modulo(m) => format!("(\"modulo\", {m})"),
        Known::Table { values, proof } => {
            let (from, length) = proof.map_or((values.len() as u64, 1), |p| {
                (p.period.from, p.period.length)
            });
            let items: Vec<String> = values.iter().map(u64::to_string).collect();
            format!("(\"table\", [{}], {from}, {length})", items.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_and_their_reader_are_written_where_the_program_asks() {
        let out = write_into("A\n@HEAP_VALUES@\nB\n", &Known::Modulo(3));
        assert!(out.starts_with("A\n# How one heap"), "{out}");
        assert!(out.contains("VALUES = (\"modulo\", 3)\n"), "{out}");
        assert!(out.contains("def g(n):"), "{out}");
        assert!(
            out.ends_with("values[start + (n - start) % length]\nB\n"),
            "{out}"
        );
        assert!(!out.contains('@'), "{out}");
    }
}
