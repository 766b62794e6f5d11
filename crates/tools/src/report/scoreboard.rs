//! The contest scoreboard: a table for the terminal and a self-contained
//! HTML page (inline CSS, no script) to put on a projector.
//!
//! ICPC cells read like the ones contestants know: `+` for solved at the
//! first try, `+2` for solved after two rejected tries, with the minute of
//! the AC; `-3` for three rejected tries and no AC; the first to solve a
//! problem gets a darker cell. IOI cells show the best score, green at 100,
//! yellow in between, red at 0.

use crate::markup::terminal;
use std::fmt::Write as _;

use super::model::score_text;
use super::standings::Scoring;
use super::standings::{Cell, Standings};

use super::Style;
use crate::markup::escape;

/// The text of an ICPC cell: `+`, `+2`, `-3`, or empty.
fn icpc_mark(c: &Cell) -> String {
    match (c.solved_minute, c.rejected) {
        (Some(_), 0) => "+".into(),
        (Some(_), n) => format!("+{n}"),
        (None, 0) if c.submissions > 0 => "0".into(),
        (None, 0) => String::new(),
        (None, n) => format!("-{n}"),
    }
}

/// The scoreboard for the terminal.
pub fn scoreboard_text(s: &Standings, style: &Style) -> String {
    let mut out = String::new();
    let how = match s.scoring {
        Scoring::Icpc => format!("ICPC scoring, {} min per rejected try", s.penalty_minutes),
        Scoring::Ioi => "IOI scoring".into(),
    };
    // Team names and the title come from the contest's files: escaped,
    // and measured as shown.
    let _ = writeln!(out, "{}  ({how})", style.bold(&terminal(&s.title)));
    let name_w = s
        .rows
        .iter()
        .map(|r| terminal(&r.name).chars().count())
        .max()
        .unwrap_or(10)
        .clamp(10, 32);
    let col_w = s
        .problems
        .iter()
        .map(|p| p.label.len() + p.id.as_str().len() + 1)
        .max()
        .unwrap_or(8)
        .max(8);
    let mut head = format!("{:>4}  {:<name_w$}", "rank", "contestant");
    match s.scoring {
        Scoring::Icpc => head.push_str(&format!(" {:>6} {:>7}", "solved", "penalty")),
        Scoring::Ioi => head.push_str(&format!(" {:>7}", "total")),
    }
    for p in &s.problems {
        head.push_str(&format!(
            "  {:<col_w$}",
            format!("{} {}", terminal(&p.label), terminal(p.id.as_str()))
        ));
    }
    let _ = writeln!(out, "{}", style.bold(head.trim_end()));
    for r in &s.rows {
        let name: String = terminal(&r.name).chars().take(name_w).collect();
        let mut line = format!("{:>4}  {:<name_w$}", r.rank, name);
        match s.scoring {
            Scoring::Icpc => line.push_str(&format!(" {:>6} {:>7}", r.solved, r.penalty)),
            Scoring::Ioi => line.push_str(&format!(" {:>7}", score_text(r.total))),
        }
        for c in &r.cells {
            let text = match s.scoring {
                Scoring::Icpc => match c.solved_minute {
                    Some(m) if c.first => format!("{} {m}{FIRST_TEXT}", icpc_mark(c)),
                    Some(m) => format!("{} {m}", icpc_mark(c)),
                    None => icpc_mark(c),
                },
                Scoring::Ioi => c.best.map(score_text).unwrap_or_default(),
            };
            line.push_str(&format!("  {text:<col_w$}"));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if s.scoring == Scoring::Icpc {
        let _ = writeln!(out, "{}", style.dim(TEXT_LEGEND));
    }
    out
}

/// The mark of a first solve on the terminal, where there is no colour to
/// tell it.
const FIRST_TEXT: &str = "*";

/// What the terminal's ICPC marks mean.
const TEXT_LEGEND: &str = "+ solved (minute of the AC), +N solved after N rejected tries, -N N rejected tries, 0 only compile errors, * first to solve the problem";

/// The mark of a first solve in the page, besides its darker colour (which
/// a projector or a colour-blind reader may not tell from the others).
const FIRST_MARK: &str = "\u{2605}";

const CSS: &str = "
body{font:15px/1.4 system-ui,-apple-system,'Segoe UI',sans-serif;margin:1.5em;color:#222}
h1{font-size:1.6em;margin-bottom:.2em}
p.how{color:#555;margin-top:0}
table{border-collapse:collapse}
th,td{border:1px solid #bbb;padding:.35em .7em;text-align:center}
thead th{background:#263238;color:#fff}
td.name{text-align:left;font-weight:600}
td.num{text-align:right}
.solved{background:#81c784;color:#0b3d0b}
.first{background:#2e7d32;color:#fff;font-weight:bold}
.failed{background:#ef9a9a;color:#7f0000}
.untried{background:#fafafa;color:#999}
.full{background:#81c784;color:#0b3d0b}
.partial{background:#fff176;color:#5d4300}
.zero{background:#ef9a9a;color:#7f0000}
small{display:block;font-size:.75em;opacity:.85}
.legend{margin-top:1em;color:#444}
.legend span{display:inline-block;margin-right:1em}
.legend span i{display:inline-block;min-width:2.2em;padding:.1em .3em;margin-right:.35em;text-align:center;font-style:normal;border:1px solid #bbb}
";

/// The scoreboard page.
pub fn scoreboard_html(s: &Standings) -> String {
    let mut h = String::new();
    let how = match s.scoring {
        Scoring::Icpc => format!(
            "ICPC scoring: problems solved, then penalty minutes (time of each first AC plus {} per rejected try before it; compile errors do not count).",
            s.penalty_minutes
        ),
        Scoring::Ioi => "IOI scoring: the sum of the best score on each problem.".into(),
    };
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{0}</title>\n<style>{CSS}</style>\n</head>\n<body>\n<h1>{0}</h1>\n<p class=\"how\">{1}</p>\n",
        escape(&s.title),
        escape(&how)
    );
    h.push_str("<table id=\"scoreboard\">\n<thead><tr><th>rank</th><th>contestant</th>");
    match s.scoring {
        Scoring::Icpc => h.push_str("<th>solved</th><th>penalty</th>"),
        Scoring::Ioi => h.push_str("<th>total</th>"),
    }
    for p in &s.problems {
        let _ = write!(
            h,
            "<th title=\"{}\">{}<small>{}</small></th>",
            escape(p.id.as_str()),
            escape(&p.label),
            escape(p.id.as_str())
        );
    }
    h.push_str("</tr></thead>\n<tbody>\n");
    for r in &s.rows {
        let _ = write!(
            h,
            "<tr class=\"row\" data-rank=\"{}\" data-contestant=\"{}\"><td class=\"num\">{}</td><td class=\"name\">{}</td>",
            r.rank,
            escape(&r.contestant),
            r.rank,
            escape(&r.name)
        );
        match s.scoring {
            Scoring::Icpc => {
                let _ = write!(
                    h,
                    "<td class=\"num\">{}</td><td class=\"num\">{}</td>",
                    r.solved, r.penalty
                );
            }
            Scoring::Ioi => {
                let _ = write!(h, "<td class=\"num\">{}</td>", score_text(r.total));
            }
        }
        for (c, p) in r.cells.iter().zip(&s.problems) {
            let (class, text) = match s.scoring {
                Scoring::Icpc => match c.solved_minute {
                    Some(m) if c.first => (
                        "solved first",
                        format!(
                            "{}<span class=\"first-mark\" title=\"first to solve {}\">{FIRST_MARK}</span><small>{m} min</small>",
                            icpc_mark(c),
                            escape(&p.label)
                        ),
                    ),
                    Some(m) => ("solved", format!("{}<small>{m} min</small>", icpc_mark(c))),
                    None if c.submissions > 0 => ("failed", icpc_mark(c)),
                    None => ("untried", String::new()),
                },
                Scoring::Ioi => match c.best {
                    Some(b) if b >= 100.0 => ("full", score_text(b)),
                    Some(b) if b > 0.0 => ("partial", score_text(b)),
                    Some(b) => ("zero", score_text(b)),
                    None => ("untried", String::new()),
                },
            };
            let _ = write!(
                h,
                "<td class=\"{class}\" data-problem=\"{}\">{text}</td>",
                escape(p.id.as_str())
            );
        }
        h.push_str("</tr>\n");
    }
    h.push_str("</tbody>\n</table>\n");
    legend(&mut h, s.scoring);
    h.push_str("</body>\n</html>\n");
    h
}

/// What the colours and marks of the cells mean, one sample cell each.
fn legend(h: &mut String, scoring: Scoring) {
    let entries: Vec<(&str, String, &str)> = match scoring {
        Scoring::Icpc => vec![
            (
                "solved first",
                format!("+{FIRST_MARK}"),
                "first to solve the problem",
            ),
            ("solved", "+".into(), "solved at the first try"),
            ("solved", "+2".into(), "solved after 2 rejected tries"),
            ("failed", "-3".into(), "3 rejected tries, not solved"),
            (
                "failed",
                "0".into(),
                "only compile errors (they do not count)",
            ),
            ("untried", String::new(), "not tried"),
        ],
        Scoring::Ioi => vec![
            ("full", "100".into(), "full score"),
            ("partial", "40".into(), "part of the points"),
            ("zero", "0".into(), "no points"),
            ("untried", String::new(), "not tried"),
        ],
    };
    h.push_str("<p class=\"legend\" id=\"legend\">");
    for (class, text, meaning) in &entries {
        let _ = write!(
            h,
            "<span data-cell=\"{class}\"><i class=\"{class}\">{text}</i>{}</span>",
            escape(meaning)
        );
    }
    if scoring == Scoring::Icpc {
        h.push_str("<span>The minute under a mark is that of the AC.</span>");
    }
    h.push_str("</p>\n");
}
