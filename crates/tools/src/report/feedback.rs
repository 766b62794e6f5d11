//! Per-student feedback (`OUT/feedback/<student>.txt`) at the level of
//! disclosure the teacher chose:
//!
//! - `verdict`: each problem's verdict and score;
//! - `groups`: also which test groups passed, with their points, and the
//!   compiler's message for a submission that does not compile;
//! - `first-fail`: also the first failing test: its message, the
//!   difference (for a played game, the game lost: its start position and
//!   moves), and the start of its input.
//!
//! Problems the student did not submit, and files that could not be
//! judged, are named, so a student knows why a grade is missing.

use std::fmt::Write as _;

use super::model::{ClassReport, FeedbackLevel, Graded, ProblemInfo, score_text};
use crate::games::play::{Side, Transcript};
use crate::generate::SAMPLE_GROUP;
use crate::verdict::Verdict;

use super::stable;

/// Lines of a compile log a student sees.
const LOG_LINES: usize = 30;

/// The feedback text of one student.
pub fn feedback(class: &ClassReport, student: &str) -> String {
    let level = class.feedback;
    let mut s = String::new();
    let _ = writeln!(s, "Feedback for {student}\n");
    for p in &class.problems {
        match class.cell(student, &p.id) {
            Some(g) => problem(&mut s, p, g, level),
            None => {
                let _ = writeln!(s, "{}: not judged", p.id);
                let why: Vec<_> = class
                    .issues_of(student)
                    .filter(|i| i.problem.as_ref().is_some_and(|id| *id == p.id))
                    .collect();
                if why.is_empty() {
                    let _ = writeln!(s, "  no submission found");
                }
                for i in why {
                    let _ = writeln!(s, "  {}: {}", i.path, i.message);
                }
                s.push('\n');
            }
        }
    }
    let other: Vec<_> = class
        .issues_of(student)
        .filter(|i| i.problem.is_none())
        .collect();
    if !other.is_empty() {
        let _ = writeln!(s, "Files not judged:");
        for i in other {
            let _ = writeln!(s, "  {}: {}: {}", i.path, i.kind.label(), i.message);
        }
        s.push('\n');
    }
    let _ = writeln!(s, "Total: {}", score_text(class.total(student)));
    s
}

fn problem(s: &mut String, p: &ProblemInfo, g: &Graded, level: FeedbackLevel) {
    let r = &g.result;
    let _ = writeln!(
        s,
        "{}: {} ({}), {}/100  [{}]",
        p.id,
        r.verdict.code(),
        r.verdict.meaning(),
        score_text(r.score),
        r.submission
    );
    if level == FeedbackLevel::Verdict {
        s.push('\n');
        return;
    }
    if !r.compile.ok {
        let _ = writeln!(s, "  The program does not compile. The compiler said:");
        let lines: Vec<&str> = r.compile.log.lines().collect();
        for l in lines.iter().take(LOG_LINES) {
            let _ = writeln!(s, "    {l}");
        }
        if lines.len() > LOG_LINES {
            let _ = writeln!(s, "    [… {} more lines]", lines.len() - LOG_LINES);
        }
    } else {
        groups(s, p, g);
        if r.skipped > 0 {
            let _ = writeln!(
                s,
                "  {} {} not run: a group stops at its first failing test",
                r.skipped,
                if r.skipped == 1 { "test" } else { "tests" }
            );
        }
    }
    if level == FeedbackLevel::FirstFail
        && let Some(t) = r.tests.iter().find(|t| t.verdict != Verdict::AC)
    {
        {
            let _ = writeln!(
                s,
                "  First failing test: {} ({}): {}",
                t.name,
                t.verdict.code(),
                stable::message(t)
            );
            if let Some(input) = &g.first_fail_input {
                let _ = writeln!(s, "    input:");
                for l in input.lines() {
                    let _ = writeln!(s, "      {l}");
                }
            }
            if let Some(small) = &g.smallest_failing_input {
                let _ = writeln!(s, "    a smaller input on which it fails the same way:");
                for l in small.lines() {
                    let _ = writeln!(s, "      {l}");
                }
            }
            if let Some(game) = &t.game {
                let _ = writeln!(s, "    the game you lost:");
                for l in game_lines(game) {
                    let _ = writeln!(s, "      {l}");
                }
            } else if let Some(diff) = &t.diff {
                let _ = writeln!(s, "    difference:");
                for l in diff.text().lines() {
                    let _ = writeln!(s, "      {l}");
                }
            }
        }
    }
    s.push('\n');
}

/// Moves of a lost game quoted in full; a longer game is quoted by its
/// start and its last moves (with the move that lost it, if earlier).
const GAME_MOVES: usize = 20;

/// A played game as a student reads it: where it started, the side chosen,
/// the moves (the last ones if long), the move that lost it, how it ended.
fn game_lines(t: &Transcript) -> Vec<String> {
    let start: Vec<String> = t.start.iter().map(u64::to_string).collect();
    let mut out = vec![format!(
        "game {} of {}, start position: {}",
        t.game,
        t.games,
        start.join(" ")
    )];
    match &t.choice {
        Some(c) if *c == t.right_choice => out.push(format!("you chose {c} (a winning choice)")),
        Some(c) => out.push(format!(
            "you chose {c}, but the winning choice was {}: the game was lost from the start",
            t.right_choice
        )),
        None => {}
    }
    let wrong = t.lost_after.filter(|&k| k > 0).map(|k| k as usize);
    let skip = t.moves.len().saturating_sub(GAME_MOVES);
    if skip > 0 {
        out.push(format!(
            "… {skip} earlier moves left out (all {} are in report.json)",
            t.moves.len()
        ));
        if let Some(k) = wrong.filter(|&k| k <= skip)
            && let Some(m) = t.moves.get(k - 1)
        {
            out.push(format!(
                "{k:>5}. you    {}   <- this move lost the game",
                m.text
            ));
            out.push("  …".into());
        }
    }
    for (i, m) in t.moves.iter().enumerate().skip(skip) {
        let who = match m.by {
            Side::Judge => "judge",
            Side::Submission => "you  ",
        };
        let mark = if wrong == Some(i + 1) {
            "   <- this move lost the game"
        } else {
            ""
        };
        out.push(format!("{:>5}. {who}  {}{mark}", i + 1, m.text));
    }
    if !t.result.is_empty() {
        out.push(t.result.clone());
    }
    out
}

/// One line per group: passed or not, and the points it carries.
fn groups(s: &mut String, p: &ProblemInfo, g: &Graded) {
    let mut names: Vec<&str> = Vec::new();
    for t in &g.result.tests {
        if !names.contains(&t.group.as_str()) {
            names.push(&t.group);
        }
    }
    for name in names {
        let tests: Vec<_> = g.result.tests.iter().filter(|t| t.group == name).collect();
        let passed = tests.iter().filter(|t| t.verdict == Verdict::AC).count();
        // "passed 2 of 6 tests": a bare "2/6" after "failed" reads as two
        // failures.
        let mark = if passed == tests.len() {
            ""
        } else {
            "failed: "
        };
        let points = p
            .groups
            .iter()
            .find(|gr| gr.name == name)
            .map(|gr| {
                let earned = if passed == tests.len() {
                    gr.points
                } else {
                    0.0
                };
                format!(", {}/{} points", score_text(earned), score_text(gr.points))
            })
            .unwrap_or_else(|| {
                if name == SAMPLE_GROUP {
                    ", no points".into()
                } else {
                    String::new()
                }
            });
        // Tests after a group's first failure are not run: the count is of
        // the tests run, and the skipped ones are counted below the groups.
        let _ = writeln!(
            s,
            "  {name:<16} {mark}passed {passed} of {} tests{points}",
            tests.len()
        );
    }
}

/// A file name for a student's feedback: the id with path separators and
/// control characters replaced.
pub fn file_name(student: &str) -> String {
    let mut name: String = student
        .chars()
        .map(|c| {
            if c == '/' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if name.starts_with('.') {
        name.insert(0, '_');
    }
    format!("{name}.txt")
}
