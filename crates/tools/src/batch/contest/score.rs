//! Scoring a contest and ranking the contestants.
//!
//! **ICPC.** A problem is solved by its first AC. Its penalty is the minutes
//! from the start to that AC (rounded down) plus `penalty` minutes (20 by
//! default) for each rejected try before it. A compile error is not a try
//! (the program never ran: the ICPC World Finals rule), and neither is an
//! internal error (the judge's fault). Tries after the first AC do not
//! count. Contestants rank by problems solved, then total penalty, then the
//! earlier last AC; equal on all three, they share the rank.
//!
//! **IOI.** Each problem scores the best score of any of its submissions
//! (0–100); contestants rank by the sum, and equal sums share the rank.

use serde::{Deserialize, Serialize};

use crate::problem::ProblemId;
use crate::verdict::Verdict;

/// How the scoreboard ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Scoring {
    /// Solved problems, then penalty minutes.
    #[default]
    Icpc,
    /// Sum of the best score on each problem.
    Ioi,
}

/// A problem of the contest, with the letter shown on the scoreboard.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct ContestProblem {
    pub id: ProblemId,
    pub label: String,
}

/// One judged submission, at a time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    pub contestant: String,
    pub problem: ProblemId,
    /// Seconds since the start.
    pub time: u64,
    pub file: String,
    pub verdict: Verdict,
    pub score: f64,
}

/// A contestant's standing on one problem.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Cell {
    /// Submissions made (all of them, CE included).
    pub submissions: usize,
    /// ICPC: rejected tries counted (before the AC, CE and IE excluded).
    pub rejected: u32,
    /// ICPC: minutes from the start to the first AC.
    pub solved_minute: Option<u64>,
    /// ICPC: seconds from the start to the first AC (for first-to-solve).
    #[serde(skip)]
    pub solved_second: Option<u64>,
    /// ICPC: the first contestant to solve this problem.
    pub first: bool,
    /// IOI: the best score.
    pub best: Option<f64>,
    /// Submissions judged up to and including the first AC (ICPC), or
    /// all of them (IOI): what the Contest API calls `num_judged`.
    #[serde(skip)]
    pub judged: usize,
    /// IOI: seconds from the start to the first submission with the best score.
    #[serde(skip)]
    pub best_second: Option<u64>,
}

/// One line of the scoreboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    pub rank: usize,
    pub contestant: String,
    pub name: String,
    pub solved: usize,
    pub penalty: u64,
    pub total: f64,
    pub cells: Vec<Cell>,
    #[serde(skip)]
    last_ac: u64,
}

/// The ranked scoreboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standings {
    pub title: String,
    pub scoring: Scoring,
    pub penalty_minutes: u32,
    pub problems: Vec<ContestProblem>,
    pub rows: Vec<Row>,
}

/// Scores `attempts` and ranks `contestants` (id, name).
pub fn standings(
    title: &str,
    scoring: Scoring,
    penalty_minutes: u32,
    problems: &[ContestProblem],
    contestants: &[(String, String)],
    attempts: &[Attempt],
) -> Standings {
    let mut rows: Vec<Row> = contestants
        .iter()
        .map(|(id, name)| {
            let cells: Vec<Cell> = problems
                .iter()
                .map(|p| {
                    let mut mine: Vec<&Attempt> = attempts
                        .iter()
                        .filter(|a| &a.contestant == id && a.problem == p.id)
                        .collect();
                    mine.sort_by(|a, b| (a.time, &a.file).cmp(&(b.time, &b.file)));
                    cell(&mine, scoring)
                })
                .collect();
            let solved = cells.iter().filter(|c| c.solved_minute.is_some()).count();
            let penalty = cells
                .iter()
                .filter_map(|c| {
                    c.solved_minute
                        .map(|m| m + u64::from(penalty_minutes) * u64::from(c.rejected))
                })
                .sum();
            let last_ac = cells
                .iter()
                .filter_map(|c| c.solved_second)
                .max()
                .unwrap_or(0);
            let total = cells.iter().filter_map(|c| c.best).sum::<f64>() + 0.0;
            Row {
                rank: 0,
                contestant: id.clone(),
                name: name.clone(),
                solved,
                penalty,
                total,
                cells,
                last_ac,
            }
        })
        .collect();
    // First to solve each problem (ties: all of them).
    for j in 0..problems.len() {
        let first = rows.iter().filter_map(|r| r.cells[j].solved_second).min();
        for r in &mut rows {
            r.cells[j].first = first.is_some() && r.cells[j].solved_second == first;
        }
    }
    let key = |r: &Row| -> (i64, i64, i64) {
        match scoring {
            Scoring::Icpc => (-(r.solved as i64), r.penalty as i64, r.last_ac as i64),
            Scoring::Ioi => (-((r.total * 1000.0).round() as i64), 0, 0),
        }
    };
    rows.sort_by(|a, b| {
        key(a)
            .cmp(&key(b))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    for i in 0..rows.len() {
        rows[i].rank = if i > 0 && key(&rows[i]) == key(&rows[i - 1]) {
            rows[i - 1].rank
        } else {
            i + 1
        };
    }
    Standings {
        title: title.to_string(),
        scoring,
        penalty_minutes,
        problems: problems.to_vec(),
        rows,
    }
}

fn cell(mine: &[&Attempt], scoring: Scoring) -> Cell {
    let mut c = Cell {
        submissions: mine.len(),
        ..Cell::default()
    };
    match scoring {
        Scoring::Icpc => {
            for a in mine {
                c.judged += 1;
                match a.verdict {
                    Verdict::AC => {
                        c.solved_minute = Some(a.time / 60);
                        c.solved_second = Some(a.time);
                        break;
                    }
                    Verdict::CE | Verdict::IE => {}
                    _ => c.rejected += 1,
                }
            }
        }
        Scoring::Ioi => {
            c.judged = mine.len();
            for a in mine {
                if c.best.is_none_or(|b| a.score > b) {
                    c.best = Some(a.score);
                    c.best_second = Some(a.time);
                }
            }
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(who: &str, problem: &str, minute: u64, verdict: Verdict, score: f64) -> Attempt {
        Attempt {
            contestant: who.into(),
            problem: ProblemId(problem.into()),
            time: minute * 60,
            file: format!("{who}-{problem}-{minute}"),
            verdict,
            score,
        }
    }

    fn problems() -> Vec<ContestProblem> {
        ["p", "q"]
            .iter()
            .enumerate()
            .map(|(i, id)| ContestProblem {
                id: ProblemId(id.to_string()),
                label: ((b'A' + i as u8) as char).to_string(),
            })
            .collect()
    }

    fn people(ids: &[&str]) -> Vec<(String, String)> {
        ids.iter().map(|s| (s.to_string(), s.to_string())).collect()
    }

    #[test]
    fn icpc_penalty_ignores_compile_errors_and_later_tries() {
        use Verdict::*;
        let attempts = [
            at("ana", "p", 10, CE, 0.0),
            at("ana", "p", 12, WA, 40.0),
            at("ana", "p", 30, AC, 100.0),
            at("ana", "p", 40, WA, 0.0),
            at("ben", "p", 20, AC, 100.0),
            at("ben", "q", 25, TLE, 0.0),
            at("cy", "q", 50, AC, 100.0),
        ];
        let s = standings(
            "t",
            Scoring::Icpc,
            20,
            &problems(),
            &people(&["ana", "ben", "cy"]),
            &attempts,
        );
        let order: Vec<_> = s
            .rows
            .iter()
            .map(|r| (r.contestant.as_str(), r.rank, r.solved, r.penalty))
            .collect();
        // ben 20; ana 30 + 20 (one WA; the CE and the WA after the AC do not
        // count); cy 50, and ana's last AC came earlier.
        assert_eq!(
            order,
            [("ben", 1, 1, 20), ("ana", 2, 1, 50), ("cy", 3, 1, 50)]
        );
        assert!(s.rows[0].cells[0].first && !s.rows[1].cells[0].first);
        assert_eq!(s.rows[1].cells[0].rejected, 1);
        assert_eq!(s.rows[0].cells[1].rejected, 1);
    }

    #[test]
    fn ioi_sums_best_scores_and_shares_ranks() {
        use Verdict::*;
        let attempts = [
            at("ana", "p", 1, WA, 40.0),
            at("ana", "p", 2, WA, 60.0),
            at("ana", "q", 3, AC, 100.0),
            at("ben", "p", 4, AC, 100.0),
            at("ben", "q", 5, WA, 60.0),
            at("cy", "p", 6, CE, 0.0),
        ];
        let s = standings(
            "t",
            Scoring::Ioi,
            20,
            &problems(),
            &people(&["ana", "ben", "cy"]),
            &attempts,
        );
        let order: Vec<_> = s
            .rows
            .iter()
            .map(|r| (r.contestant.as_str(), r.rank, r.total))
            .collect();
        assert_eq!(
            order,
            [("ana", 1, 160.0), ("ben", 1, 160.0), ("cy", 3, 0.0)]
        );
    }
}
