//! What became of each mutant, the counts and scores per program and over
//! the union, and the JSON `grundy mutants --json` prints.

use std::path::PathBuf;
use std::time::Duration;

use crate::problem::ProblemId;
use crate::stress::Counterexample;
use crate::verdict::Verdict;

use super::programs::Program;
use super::source::{Class, Mutant};

/// Why a mutant that passed every test is called equivalent: the inputs
/// on which it answered like the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Evidence {
    /// The catalog oracle's exhaustive small positions (all of them).
    pub small_inputs: usize,
    /// Inputs across the whole range and format the constraints allow.
    pub range_inputs: usize,
    /// Seeded random inputs of growing size.
    pub random_inputs: usize,
    /// For a player (an interactive problem) the inputs are start
    /// positions, and it won every game played from them.
    pub played: bool,
}

impl Evidence {
    /// The reason, for people.
    pub fn reason(&self) -> String {
        let (small, range, random) = (self.small_inputs, self.range_inputs, self.random_inputs);
        if small + range + random == 0 {
            return "no input to compare it on (no oracle, no generated tests): equivalence unproven"
                .into();
        }
        let mut parts = Vec::new();
        if self.played {
            // The first kind named says "games"; the others count on it.
            let first = |n: usize, rest: &str| format!("{} {rest}", plural(n, "game", "games"));
            if small > 0 {
                parts.push(first(small, "from small positions"));
            }
            if range > 0 {
                let what = "from positions across the whole range \
                            (top bits, powers of two, every number at its bound)";
                parts.push(if parts.is_empty() {
                    first(range, what)
                } else {
                    format!("{range} {what}")
                });
            }
            if random > 0 {
                parts.push(if parts.is_empty() {
                    first(random, "from random positions")
                } else {
                    format!("{random} random ones")
                });
            }
            let all = if small + range + random > 1 {
                "all "
            } else {
                ""
            };
            return format!("won {all}{}", join(&parts));
        }
        if small > 0 {
            let every = if small == 1 {
                "the only one"
            } else {
                "all of them"
            };
            parts.push(format!(
                "{} ({every})",
                plural(small, "small position", "small positions")
            ));
        }
        if range > 0 {
            parts.push(format!(
                "{} across the whole range and format (top bits, powers of two, the largest input)",
                plural(range, "input", "inputs")
            ));
        }
        if random > 0 {
            parts.push(plural(random, "random input", "random inputs"));
        }
        let unchecked = if range == 0 {
            " (no input format known: the top of the range unchecked)"
        } else {
            ""
        };
        format!("same answers on {}{unchecked}", join(&parts))
    }
}

/// `n` with the word that agrees with it.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `a`, `a and b`, `a, b and c`.
fn join(parts: &[String]) -> String {
    match parts.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// What became of one mutant.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// A test rejected it.
    Killed {
        test: String,
        group: String,
        verdict: Verdict,
    },
    /// It does not compile.
    Unviable,
    /// It runs out of time on a sample: counted apart, like cargo-mutants.
    Timeout { test: String },
    /// It passed every test and answered like the reference on every input
    /// compared.
    Equivalent(Evidence),
    /// It passed every test but is wrong on this (shrunk) input.
    Survived { counterexample: Box<Counterexample> },
    /// The judge itself failed on it.
    Error { message: String },
    /// The time budget ran out before it was judged.
    NotRun,
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Killed { .. } => "killed",
            Outcome::Unviable => "unviable",
            Outcome::Timeout { .. } => "timeout",
            Outcome::Equivalent(_) => "equivalent",
            Outcome::Survived { .. } => "survived",
            Outcome::Error { .. } => "error",
            Outcome::NotRun => "not-run",
        }
    }
}

/// One mutant and its outcome.
#[derive(Debug, Clone)]
pub struct MutantResult {
    /// Index into [`ProblemMutants::programs`].
    pub program: usize,
    pub mutant: Mutant,
    pub outcome: Outcome,
}

/// A program whose mutants were made, or why it has none.
#[derive(Debug, Clone)]
pub struct ProgramEntry {
    pub program: Program,
    /// Why it was not mutated (a source too large, one `syn` cannot parse).
    pub skipped: Option<String>,
}

/// Every mutant of one problem's programs.
#[derive(Debug, Clone)]
pub struct ProblemMutants {
    pub id: ProblemId,
    /// The program whose answers the tests hold (the reference).
    pub reference: PathBuf,
    pub programs: Vec<ProgramEntry>,
    pub results: Vec<MutantResult>,
    pub elapsed: Duration,
    /// Whether the programs are players (an interactive problem): their
    /// survivors lost a game rather than answered wrongly.
    pub played: bool,
}

/// Counts by outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    pub mutants: usize,
    pub killed: usize,
    pub survived: usize,
    pub equivalent: usize,
    pub unviable: usize,
    pub timeout: usize,
    pub error: usize,
    pub not_run: usize,
}

impl Counts {
    pub fn of<'a>(results: impl IntoIterator<Item = &'a MutantResult>) -> Counts {
        let mut c = Counts::default();
        for r in results {
            c.mutants += 1;
            match r.outcome {
                Outcome::Killed { .. } => c.killed += 1,
                Outcome::Survived { .. } => c.survived += 1,
                Outcome::Equivalent(_) => c.equivalent += 1,
                Outcome::Unviable => c.unviable += 1,
                Outcome::Timeout { .. } => c.timeout += 1,
                Outcome::Error { .. } => c.error += 1,
                Outcome::NotRun => c.not_run += 1,
            }
        }
        c
    }

    /// killed / (killed + survived), in percent; `None` when no mutant
    /// told anything (all unviable, equivalent or not run).
    pub fn score(&self) -> Option<f64> {
        let judged = self.killed + self.survived;
        (judged > 0).then(|| 100.0 * self.killed as f64 / judged as f64)
    }
}

impl ProblemMutants {
    /// Over the union of every program's mutants.
    pub fn counts(&self) -> Counts {
        Counts::of(&self.results)
    }

    /// One program's.
    pub fn counts_of(&self, program: usize, class: Option<Class>) -> Counts {
        Counts::of(
            self.results
                .iter()
                .filter(|r| r.program == program && class.is_none_or(|c| r.mutant.class == c)),
        )
    }

    /// The score over the union.
    pub fn score(&self) -> Option<f64> {
        self.counts().score()
    }

    /// Every survivor with its program and counterexample.
    pub fn survivors(&self) -> impl Iterator<Item = (&Program, &Mutant, &Counterexample)> {
        self.results.iter().filter_map(|r| match &r.outcome {
            Outcome::Survived { counterexample } => Some((
                &self.programs[r.program].program,
                &r.mutant,
                &**counterexample,
            )),
            _ => None,
        })
    }

    pub fn json(&self) -> serde_json::Value {
        let programs: Vec<_> = self
            .programs
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let all = self.counts_of(i, None);
                serde_json::json!({
                    "file": e.program.path.display().to_string(),
                    "language": e.program.language.id(),
                    "reference": e.program.reference,
                    "skipped": e.skipped,
                    "counts": all,
                    "score": all.score(),
                    "logic": self.counts_of(i, Some(Class::Logic)),
                    "representation": self.counts_of(i, Some(Class::Representation)),
                })
            })
            .collect();
        let results: Vec<_> = self.results.iter().map(|r| self.result_json(r)).collect();
        serde_json::json!({
            "problem": self.id,
            "reference": self.reference.display().to_string(),
            "programs": programs,
            "counts": self.counts(),
            "score": self.score(),
            "played": self.played,
            "elapsed_s": self.elapsed.as_secs_f64(),
            "mutants": results,
        })
    }

    fn result_json(&self, r: &MutantResult) -> serde_json::Value {
        let program = &self.programs[r.program].program;
        let mut o = serde_json::json!({
            "program": r.program,
            "file": program.file_name(),
            "language": program.language.id(),
            "index": r.mutant.index,
            "line": r.mutant.line,
            "kind": r.mutant.kind,
            "class": r.mutant.class,
            "description": r.mutant.description,
            "outcome": r.outcome.word(),
        });
        match &r.outcome {
            Outcome::Killed {
                test,
                group,
                verdict,
            } => {
                o["test"] = test.clone().into();
                o["group"] = group.clone().into();
                o["verdict"] = verdict.code().into();
            }
            Outcome::Timeout { test } => o["test"] = test.clone().into(),
            Outcome::Equivalent(e) if e.played => {
                o["small_games"] = e.small_inputs.into();
                o["range_games"] = e.range_inputs.into();
                o["random_games"] = e.random_inputs.into();
                o["reason"] = e.reason().into();
            }
            Outcome::Equivalent(e) => {
                o["small_inputs"] = e.small_inputs.into();
                o["range_inputs"] = e.range_inputs.into();
                o["random_inputs"] = e.random_inputs.into();
                o["reason"] = e.reason().into();
            }
            Outcome::Survived { counterexample } => {
                o["input"] = counterexample.input.clone().into();
                o["expected"] = counterexample.expected.clone().into();
                o["actual"] = counterexample.actual.clone().into();
                o["verdict"] = counterexample.verdict.code().into();
                o["message"] = counterexample.message.clone().into();
            }
            Outcome::Error { message } => o["message"] = message.clone().into(),
            _ => {}
        }
        o
    }
}

#[cfg(test)]
mod evidence_tests {
    use super::Evidence;

    fn evidence(small: usize, range: usize, random: usize, played: bool) -> String {
        Evidence {
            small_inputs: small,
            range_inputs: range,
            random_inputs: random,
            played,
        }
        .reason()
    }

    #[test]
    fn evidence_names_only_the_inputs_there_were() {
        assert_eq!(
            evidence(0, 0, 40, false),
            "same answers on 40 random inputs (no input format known: the top of the range unchecked)"
        );
        assert_eq!(
            evidence(12, 3, 1, false),
            "same answers on 12 small positions (all of them), 3 inputs across the whole range \
             and format (top bits, powers of two, the largest input) and 1 random input"
        );
        assert_eq!(
            evidence(329, 0, 120, true),
            "won all 329 games from small positions and 120 random ones"
        );
        assert_eq!(evidence(0, 0, 1, true), "won 1 game from random positions");
        assert!(evidence(0, 0, 0, false).contains("unproven"));
    }
}
