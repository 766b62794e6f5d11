//! The text report of `grundy mutants`: one summary line per problem, then
//! every survivor with the smallest input it gets wrong.

use crate::mutants::{Counts, Outcome, ProblemMutants};

/// The header of [`summary_line`]s.
pub fn mutants_header() -> String {
    format!(
        "{:<18} {:>7} {:>6} {:>8} {:>10} {:>8} {:>7} {:>7}  {:>7}",
        "problem",
        "mutants",
        "killed",
        "survived",
        "equivalent",
        "unviable",
        "timeout",
        "not-run",
        "score"
    )
}

/// One line: counts and score of a problem.
pub fn summary_line(m: &ProblemMutants) -> String {
    let c: Counts = m.counts();
    format!(
        "{:<18} {:>7} {:>6} {:>8} {:>10} {:>8} {:>7} {:>7}  {:>7}  ({:.0} s)",
        m.id,
        c.mutants,
        c.killed,
        c.survived,
        c.equivalent,
        c.unviable,
        c.timeout + c.error,
        c.not_run,
        score_text(m.score()),
        m.elapsed.as_secs_f64()
    )
}

/// A score as `93.3%`, or `-` when no mutant was judged.
pub fn score_text(score: Option<f64>) -> String {
    score.map_or_else(|| "-".into(), |s| format!("{s:.1}%"))
}

/// The details under a problem's line: survivors (with their smallest
/// input), equivalents (with the evidence) and errors.
pub fn details(m: &ProblemMutants) -> String {
    let mut out = String::new();
    for r in &m.results {
        let head = format!(
            "  {:<10} #{:<3} line {:<3} {}",
            r.outcome.word(),
            r.mutant.index,
            r.mutant.line,
            r.mutant.description
        );
        match &r.outcome {
            Outcome::Survived { counterexample: c } => {
                out.push_str(&head);
                out.push('\n');
                out.push_str(&format!(
                    "             wrong on {:?}: expected {:?}, got {:?}\n",
                    c.input,
                    c.expected.trim_end(),
                    c.actual.trim_end()
                ));
            }
            Outcome::Equivalent {
                small_inputs,
                random_inputs,
            } => {
                out.push_str(&head);
                if small_inputs + random_inputs == 0 {
                    out.push_str("\n             no input to compare it on (no oracle, no generated tests): equivalence unproven\n");
                } else {
                    out.push_str(&format!(
                        "\n             same answers on {small_inputs} small positions (all of them) and {random_inputs} random inputs\n"
                    ));
                }
            }
            Outcome::Error { message } => {
                out.push_str(&head);
                out.push_str(&format!("\n             {message}\n"));
            }
            _ => {}
        }
    }
    out
}
