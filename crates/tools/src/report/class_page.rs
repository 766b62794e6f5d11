//! What the class as a whole got right and wrong, for `report.html`'s class
//! page and `report.json`'s `class` object: per problem, how the scores are
//! spread, for each "wrong idea" group (an `anti-*` group: misère rule,
//! overflow, unsorted input, EOF handling…) which students fell to it, and
//! the submissions that failed, by verdict.
//!
//! A teacher reading 200 verdicts one by one does not see that a third of
//! the class ignored the misère rule; one count per wrong idea does. Only a
//! wrong answer in its group is a wrong idea: a program that crashed, ran
//! out of time or memory on that group's test said nothing about the idea,
//! and is counted under its verdict instead.

use std::fmt::Write as _;

use serde::Serialize;

use super::feedback::file_names;
use super::model::{ClassReport, ProblemInfo, score_text};
use super::verdict_css::class_of;
use crate::markup::{count, escape};
use crate::problem::ProblemId;
use crate::verdict::Verdict;

/// Groups named so reject one known wrong idea each.
pub const WRONG_IDEA_PREFIX: &str = "anti-";

/// Width of a histogram bar, in points; after the ten bars of 0–100 (100
/// excluded) a last one holds the full scores.
const BIN: f64 = 10.0;
const BINS: usize = 10;

/// The class figures of every problem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassStats {
    pub problems: Vec<ProblemStats>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProblemStats {
    pub id: ProblemId,
    /// Submissions judged (compile errors included: they scored 0).
    pub judged: usize,
    pub histogram: Vec<Bin>,
    pub wrong_ideas: Vec<WrongIdea>,
    /// The submissions not accepted, by verdict (in the order of
    /// [`Verdict::ALL`]), whatever group they failed.
    pub failures: Vec<Failures>,
}

/// Submissions whose score is in `[from, to)`, or is 100 for the last
/// (`from` = `to` = 100).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bin {
    pub from: f64,
    pub to: f64,
    pub count: usize,
}

/// The submissions of one verdict other than AC.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failures {
    pub verdict: Verdict,
    pub count: usize,
    /// Sorted, as the class is.
    pub students: Vec<String>,
}

/// The students whose submission gave a wrong answer in one `anti-*` group.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WrongIdea {
    pub group: String,
    /// The group's name without `anti-`: the idea it rejects.
    pub idea: String,
    pub failed: usize,
    /// Sorted, as the class is.
    pub students: Vec<String>,
}

/// The figures of the class, from its judged submissions.
pub fn class_stats(class: &ClassReport) -> ClassStats {
    ClassStats {
        problems: class.problems.iter().map(|p| problem(class, p)).collect(),
    }
}

fn problem(class: &ClassReport, p: &ProblemInfo) -> ProblemStats {
    let graded: Vec<_> = class
        .graded
        .iter()
        .filter(|g| g.result.problem == p.id)
        .collect();
    let full = BINS as f64 * BIN;
    let mut histogram: Vec<Bin> = (0..BINS)
        .map(|i| Bin {
            from: i as f64 * BIN,
            to: (i + 1) as f64 * BIN,
            count: 0,
        })
        .chain([Bin {
            from: full,
            to: full,
            count: 0,
        }])
        .collect();
    for g in &graded {
        let i = if g.result.score >= full {
            BINS
        } else {
            ((g.result.score / BIN).floor().max(0.0) as usize).min(BINS - 1)
        };
        histogram[i].count += 1;
    }
    let wrong_ideas = p
        .groups
        .iter()
        .filter_map(|gr| {
            let idea = gr.name.strip_prefix(WRONG_IDEA_PREFIX)?;
            // A failing test of the group is in the report (a group stops
            // at its first failure, which is always reported). Only a wrong
            // answer there is the idea: a crash, a time-out or a program
            // that does not compile fell to no idea in particular.
            let mut students: Vec<String> = graded
                .iter()
                .filter(|g| {
                    g.result
                        .tests
                        .iter()
                        .any(|t| t.group == gr.name && t.verdict == Verdict::WA)
                })
                .map(|g| g.student.clone())
                .collect();
            students.dedup();
            Some(WrongIdea {
                group: gr.name.clone(),
                idea: idea.to_string(),
                failed: students.len(),
                students,
            })
        })
        .collect();
    let failures = Verdict::ALL
        .iter()
        .filter(|&&v| v != Verdict::AC)
        .filter_map(|&verdict| {
            let mut students: Vec<String> = graded
                .iter()
                .filter(|g| g.result.verdict == verdict)
                .map(|g| g.student.clone())
                .collect();
            students.dedup();
            (!students.is_empty()).then_some(Failures {
                verdict,
                count: students.len(),
                students,
            })
        })
        .collect();
    ProblemStats {
        id: p.id.clone(),
        judged: graded.len(),
        histogram,
        wrong_ideas,
        failures,
    }
}

/// Geometry of the inline SVG histogram, in pixels.
const BAR_W: usize = 34;
const PLOT_H: usize = 120;
const TOP: usize = 16;
const LEFT: usize = 8;
const AXIS_H: usize = 18;

/// The class page: a section per problem with its histogram (inline SVG:
/// no script, so the page still opens from a mail or a file share) and its
/// wrong ideas, each student linked to their feedback and submission.
pub fn class_section(h: &mut String, class: &ClassReport) {
    let stats = class_stats(class);
    let _ = writeln!(h, "<section id=\"class\">\n<h2>The class</h2>");
    for (p, s) in class.problems.iter().zip(&stats.problems) {
        let _ = writeln!(
            h,
            "<div class=\"class-problem\" data-problem=\"{0}\">\n<h3>{0}: scores of {1}</h3>",
            escape(p.id.as_str()),
            count(s.judged, "submission", "submissions")
        );
        histogram_svg(h, p.id.as_str(), &s.histogram);
        wrong_ideas(h, class, p, s);
        failures(h, class, p, s);
        h.push_str("</div>\n");
    }
    h.push_str("</section>\n");
}

fn histogram_svg(h: &mut String, id: &str, bins: &[Bin]) {
    let most = bins.iter().map(|b| b.count).max().unwrap_or(0).max(1);
    let width = LEFT * 2 + BAR_W * bins.len();
    let height = TOP + PLOT_H + AXIS_H;
    let _ = writeln!(
        h,
        "<svg class=\"histogram\" role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" xmlns=\"http://www.w3.org/2000/svg\"><title>Scores on {}</title>",
        escape(id)
    );
    for (i, b) in bins.iter().enumerate() {
        let bar = b.count * PLOT_H / most;
        let x = LEFT + i * BAR_W;
        let y = TOP + PLOT_H - bar;
        let range = if b.from == b.to {
            score_text(b.from)
        } else {
            format!("{}–{} (excl.)", score_text(b.from), score_text(b.to))
        };
        let _ = writeln!(
            h,
            "<rect class=\"bar\" data-from=\"{}\" data-to=\"{}\" data-count=\"{}\" x=\"{}\" y=\"{y}\" width=\"{}\" height=\"{bar}\" fill=\"#5c6bc0\"><title>{range}: {}</title></rect>",
            score_text(b.from),
            score_text(b.to),
            b.count,
            x + 2,
            BAR_W - 4,
            count(b.count, "submission", "submissions")
        );
        if b.count > 0 {
            let _ = writeln!(
                h,
                "<text x=\"{}\" y=\"{}\" font-size=\"11\" text-anchor=\"middle\">{}</text>",
                x + BAR_W / 2,
                y.saturating_sub(3),
                b.count
            );
        }
        let _ = writeln!(
            h,
            "<text x=\"{}\" y=\"{}\" font-size=\"10\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x + BAR_W / 2,
            TOP + PLOT_H + 13,
            score_text(b.from)
        );
    }
    let _ = writeln!(
        h,
        "<line x1=\"{LEFT}\" y1=\"{0}\" x2=\"{1}\" y2=\"{0}\" stroke=\"#333\"/></svg>",
        TOP + PLOT_H,
        width - LEFT
    );
}

/// Each student linked to their feedback file and their submission.
fn who(class: &ClassReport, p: &ProblemInfo, students: &[String]) -> String {
    let names = file_names(&class.students);
    let who: Vec<String> = students
        .iter()
        .map(|student| {
            let anchor = class
                .graded
                .iter()
                .position(|g| &g.student == student && g.result.problem == p.id)
                .map(|i| format!(" (<a href=\"#sub-{i}\">report</a>)"))
                .unwrap_or_default();
            match names.get(student) {
                Some(file) => format!(
                    "<a class=\"feedback\" href=\"feedback/{}\">{}</a>{anchor}",
                    escape(&url_path(file)),
                    escape(student)
                ),
                None => format!("{}{anchor}", escape(student)),
            }
        })
        .collect();
    who.join(", ")
}

fn wrong_ideas(h: &mut String, class: &ClassReport, p: &ProblemInfo, s: &ProblemStats) {
    if s.wrong_ideas.is_empty() {
        h.push_str("<p>No group of this problem names a wrong idea (<code>anti-*</code>).</p>\n");
        return;
    }
    h.push_str("<table class=\"wrong-ideas\"><thead><tr><th>wrong idea (group): a wrong answer there</th><th>students</th><th>who</th></tr></thead><tbody>\n");
    for w in &s.wrong_ideas {
        let _ = writeln!(
            h,
            "<tr data-group=\"{}\" data-failed=\"{}\"><td>{} <code>{}</code></td><td class=\"count\">{} of {}</td><td>{}</td></tr>",
            escape(&w.group),
            w.failed,
            escape(&w.idea),
            escape(&w.group),
            w.failed,
            s.judged,
            who(class, p, &w.students)
        );
    }
    h.push_str("</tbody></table>\n");
}

/// The submissions not accepted, one row per verdict.
fn failures(h: &mut String, class: &ClassReport, p: &ProblemInfo, s: &ProblemStats) {
    if s.failures.is_empty() {
        return;
    }
    h.push_str("<table class=\"failures\"><thead><tr><th>not accepted: verdict</th><th>students</th><th>who</th></tr></thead><tbody>\n");
    for f in &s.failures {
        let _ = writeln!(
            h,
            "<tr data-verdict=\"{0}\" data-failed=\"{1}\"><td><span class=\"badge {2}\">{0}</span> {3}</td><td class=\"count\">{1} of {4}</td><td>{5}</td></tr>",
            f.verdict.code(),
            f.count,
            class_of(f.verdict),
            escape(f.verdict.meaning()),
            s.judged,
            who(class, p, &f.students)
        );
    }
    h.push_str("</tbody></table>\n");
}

/// A file name as a relative URL: characters that mean something in a URL
/// percent-encoded.
fn url_path(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn feedback_links_are_encoded() {
        assert_eq!(url_path("Ann Lee#1.txt"), "Ann%20Lee%231.txt");
    }
}
