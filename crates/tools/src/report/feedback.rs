//! Per-student feedback (`OUT/feedback/<student>.txt`) at the level of
//! disclosure the teacher chose:
//!
//! - `verdict`: each problem's verdict and score;
//! - `groups`: also which test groups passed, with their points, the
//!   compiler's message for a submission that does not compile, and a
//!   failed sample (input, expected output, what went wrong: samples are
//!   public in the statement);
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
use crate::markup::terminal;
use crate::verdict::Verdict;

use super::stable;

/// Lines of a compile log a student sees.
const LOG_LINES: usize = 30;

/// The feedback text of one student. A student reads it with `cat` as
/// often as in an editor: what a program, a package or a name put in it
/// that a terminal would act on is escaped ([`crate::markup::terminal`]),
/// and a name is one line.
pub fn feedback(class: &ClassReport, student: &str) -> String {
    crate::markup::terminal_lines(&feedback_text(class, student)).into_owned()
}

fn feedback_text(class: &ClassReport, student: &str) -> String {
    let level = class.feedback;
    let mut s = String::new();
    let _ = writeln!(s, "Feedback for {}\n", terminal(student));
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
                    let others = class.issues_of(student).any(|i| i.problem.is_none());
                    let _ = writeln!(
                        s,
                        "  {}",
                        if others {
                            "no file of yours was judged for it (see the files not judged below)"
                        } else {
                            "no submission found"
                        }
                    );
                }
                for i in why {
                    let _ = writeln!(s, "  {}: {}", terminal(&i.path), i.message);
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
            let _ = writeln!(
                s,
                "  {}: {}: {}",
                terminal(&i.path),
                i.kind.label(),
                i.message
            );
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
        terminal(&r.submission)
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
        failed_sample(s, p, g);
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
        // A failed sample is already shown in full above.
        && !shown_sample(p, t)
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
        let total = p
            .groups
            .iter()
            .find(|gr| gr.name == name)
            .map(|gr| gr.tests)
            .or_else(|| (name == SAMPLE_GROUP).then_some(p.samples.len()))
            .filter(|&n| n >= tests.len())
            .unwrap_or(tests.len());
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
        // "passed 2 of 6 tests": a bare "2/6" after "failed" reads as two
        // failures. A group stops at its first failure: the tests after it
        // were not run, and are said to be skipped, not failed.
        let skipped = total - tests.len();
        let tests_word = |n: usize| if n == 1 { "test" } else { "tests" };
        let what = if passed == tests.len() {
            format!("passed {passed} of {total} {}", tests_word(total))
        } else if skipped == 0 {
            format!("failed: passed {passed} of {total} {}", tests_word(total))
        } else {
            format!(
                "failed: passed {passed} of {total} {}, {skipped} skipped after the first failure",
                tests_word(total)
            )
        };
        let _ = writeln!(s, "  {name:<16} {what}{points}");
    }
}

/// Whether `t` is a sample this feedback shows whole.
fn shown_sample(p: &ProblemInfo, t: &crate::judge::TestResult) -> bool {
    t.group == SAMPLE_GROUP && p.samples.iter().any(|x| x.name == t.name)
}

/// Lines of a sample quoted in feedback; a longer one is cut.
const SAMPLE_LINES: usize = 20;

/// The first failed sample, whole: it is in the statement, so the student
/// may see its input and expected output beside what went wrong.
fn failed_sample(s: &mut String, p: &ProblemInfo, g: &Graded) {
    let Some(t) = g
        .result
        .tests
        .iter()
        .find(|t| t.verdict != Verdict::AC && shown_sample(p, t))
    else {
        return;
    };
    let Some(sample) = p.samples.iter().find(|x| x.name == t.name) else {
        return;
    };
    let _ = writeln!(
        s,
        "  Sample {} ({}): {}",
        t.name,
        t.verdict.code(),
        stable::message(t)
    );
    for (title, text) in [
        ("input", &sample.input),
        ("expected output", &sample.output),
    ] {
        let _ = writeln!(s, "    {title}:");
        quote(s, text);
    }
    if t.game.is_none()
        && let Some(diff) = &t.diff
    {
        let _ = writeln!(s, "    difference:");
        quote(s, diff.text());
    }
}

/// Quotes `text` indented, its first [`SAMPLE_LINES`] lines.
fn quote(s: &mut String, text: &str) {
    let lines: Vec<&str> = text.lines().collect();
    for l in lines.iter().take(SAMPLE_LINES) {
        let _ = writeln!(s, "      {l}");
    }
    if lines.len() > SAMPLE_LINES {
        let _ = writeln!(s, "      [… {} more lines]", lines.len() - SAMPLE_LINES);
    }
}

/// The longest student name kept whole in a file name (bytes): with a
/// suffix and `.txt` it stays under the 255 bytes a file name may have.
const NAME_BYTES: usize = 200;

/// Each student's feedback file name, unique within the class: the name
/// with path separators and control characters replaced; a name that had
/// to be changed (or shortened) also gets a short hash of the name as given,
/// so that `carol<TAB>` and `carol_` never share a file. Names that would
/// still meet, also ignoring case (a class folder copied to a file system
/// that ignores it), get `-2`, `-3`… in the class's order.
pub fn file_names(students: &[String]) -> std::collections::HashMap<String, String> {
    use std::collections::{HashMap, HashSet};
    let mut taken: HashSet<String> = HashSet::new();
    let mut out = HashMap::new();
    let mut sorted: Vec<&String> = students.iter().collect();
    sorted.sort();
    sorted.dedup();
    // Names kept as they are claim theirs first, so that a changed name
    // never takes the file of a student whose name needed no change.
    let (plain, changed): (Vec<&String>, Vec<&String>) =
        sorted.into_iter().partition(|s| base_name(s).1);
    for student in plain.into_iter().chain(changed) {
        let (base, kept) = base_name(student);
        let stem = if kept {
            base
        } else {
            format!(
                "{base}-{}",
                &crate::batch::walk::sha256(student.as_bytes())[..8]
            )
        };
        let mut name = stem.clone();
        let mut n = 1;
        while !taken.insert(name.to_lowercase()) {
            n += 1;
            name = format!("{stem}-{n}");
        }
        out.insert(student.clone(), format!("{name}.txt"));
    }
    out
}

/// The student's name as a file name's stem, and whether it is unchanged.
fn base_name(student: &str) -> (String, bool) {
    let mut name = String::with_capacity(student.len());
    for c in student.chars() {
        if name.len() + c.len_utf8() > NAME_BYTES {
            break;
        }
        name.push(if c == '/' || c == '\\' || c.is_control() {
            '_'
        } else {
            c
        });
    }
    if name.starts_with('.') || name.is_empty() {
        name.insert(0, '_');
    }
    let kept = name == student;
    (name, kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_would_meet_get_files_of_their_own() {
        let students: Vec<String> = [
            "carol\t", "carol_", "Bob", "bob", "a/b", "a\\b", ".x", "_.x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let names = file_names(&students);
        assert_eq!(names["carol_"], "carol_.txt");
        assert_eq!(names["_.x"], "_.x.txt");
        assert!(names["carol\t"].starts_with("carol_-"), "{names:?}");
        let distinct: std::collections::HashSet<String> =
            names.values().map(|n| n.to_lowercase()).collect();
        assert_eq!(distinct.len(), students.len(), "{names:?}");
        for n in names.values() {
            assert!(
                !n.contains('/') && !n.contains('\t') && !n.starts_with('.'),
                "{n:?}"
            );
        }
        // The same class gives the same names.
        assert_eq!(file_names(&students), names);
    }

    #[test]
    fn a_long_name_fits_a_file_name() {
        let long = "é".repeat(300);
        let names = file_names(std::slice::from_ref(&long));
        assert!(names[&long].len() <= 255, "{}", names[&long].len());
    }
}
