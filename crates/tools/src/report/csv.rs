//! `grades.csv`: one row per student, a column per problem with the score,
//! and the total, for importing into a learning platform's gradebook.
//!
//! A cell is empty when nothing was judged for that student and problem
//! (no submission, or one the reports list as an issue): an empty cell
//! imports as "no grade", where a 0 would claim a failed attempt.

use super::model::{ClassReport, score_text};

/// The CSV text (RFC 4180: comma-separated, CRLF-free, quoted when needed).
pub fn grades(class: &ClassReport) -> String {
    let mut out = String::new();
    let mut header = vec!["student".to_string()];
    header.extend(class.problems.iter().map(|p| p.id.to_string()));
    header.push("total".into());
    push_row(&mut out, &header);
    for student in &class.students {
        let mut row = vec![text_cell(student)];
        for p in &class.problems {
            row.push(
                class
                    .cell(student, &p.id)
                    .map(|g| score_text(g.result.score))
                    .unwrap_or_default(),
            );
        }
        row.push(score_text(class.total(student)));
        push_row(&mut out, &row);
    }
    out
}

fn push_row(out: &mut String, fields: &[String]) {
    let quoted: Vec<String> = fields.iter().map(|f| field(f)).collect();
    out.push_str(&quoted.join(","));
    out.push('\n');
}

/// A name as a spreadsheet must show it: one that starts like a formula
/// (`=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, so
/// that opening the gradebook cannot run what a student put in their name.
fn text_cell(name: &str) -> String {
    if name.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{name}")
    } else {
        name.to_string()
    }
}

fn field(f: &str) -> String {
    if f.contains([',', '"', '\n', '\r']) || f.starts_with(' ') || f.ends_with(' ') {
        format!("\"{}\"", f.replace('"', "\"\""))
    } else {
        f.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_quoted_when_needed() {
        assert_eq!(field("alice"), "alice");
        assert_eq!(field("Doe, Jane"), "\"Doe, Jane\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }

    #[test]
    fn names_that_look_like_formulas_stay_text() {
        assert_eq!(text_cell("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(text_cell("@sum"), "'@sum");
        assert_eq!(text_cell("-1"), "'-1");
        assert_eq!(text_cell("alice"), "alice");
        assert_eq!(text_cell("o'neil"), "o'neil");
    }
}
