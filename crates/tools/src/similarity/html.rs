//! `similarity.html`: one self-contained page (inline CSS, no script,
//! nothing fetched): the groups of copies (identical files, the same
//! program renamed or reformatted), the reported pairs with their scores,
//! then each pair's two files side by side, the matching regions coloured
//! alike and numbered in both. Everything from a submission is
//! HTML-escaped.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::{Copies, Pair, Report, Source};

const COLOURS: usize = 6;

/// [`crate::markup::escape`], and control characters (a source may hold
/// any byte) shown as U+FFFD rather than passed to the browser.
fn escape(s: &str) -> String {
    let visible: String = s
        .chars()
        .map(|c| {
            if c.is_control() && c != '\n' && c != '\t' {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect();
    crate::markup::escape(&visible)
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:left}\
.pair{margin-top:2em}.cols{display:grid;grid-template-columns:1fr 1fr;gap:1em}\
pre{font-size:12px;line-height:1.35;background:#fafafa;border:1px solid #ddd;padding:.4em;overflow-x:auto;margin:0}\
.l{display:block;white-space:pre}.n{color:#999;display:inline-block;width:3.5em;user-select:none}\
.m{font-weight:bold;display:inline-block;width:2em;color:#333}\
.r0{background:#ffe0e0}.r1{background:#e0f0ff}.r2{background:#e2f7e2}.r3{background:#fff3c8}.r4{background:#eee0ff}.r5{background:#dff7f7}";

/// The page.
pub fn page(report: &Report, sources: &[Source]) -> String {
    let text: HashMap<(&str, &str), &str> = sources
        .iter()
        .map(|s| ((s.problem.as_str(), s.file.as_str()), s.text.as_str()))
        .collect();
    let mut h = String::new();
    h.push_str("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Similar submissions</title><style>");
    h.push_str(STYLE);
    h.push_str("</style></head><body><h1>Similar submissions</h1>");
    let o = &report.options;
    h.push_str("<h2>Copies</h2>");
    h.push_str("<p>Files with the same bytes, and files with the same program once names, literals, comments and layout are set aside, however short.</p>");
    if report.copies.is_empty() {
        h.push_str("<p>No two files are copies of each other.</p>");
    } else {
        h.push_str("<table class=\"copies\"><tr><th>problem</th><th>how alike</th><th>files</th><th>tokens</th></tr>");
        for c in &report.copies {
            copies(&mut h, c);
        }
        h.push_str("</table>");
    }
    h.push_str("<h2>Similar pairs</h2>");
    let _ = write!(
        h,
        "<p>Pairs whose files are a few tokens apart (near-identical), and pairs whose files share at least {:.0} % of the smaller file's fingerprints and at least {}, after names, literals, comments and layout are normalised away and the problem's accepted solutions and idioms common to many students are taken out ({}-token k-grams, window {}).</p>",
        o.threshold * 100.0,
        crate::markup::count(o.min_matches, "fingerprint", "fingerprints"),
        o.k,
        o.window
    );
    if report.pairs.is_empty() {
        h.push_str("<p>No pair is near-identical or above the threshold.</p>");
    } else {
        h.push_str("<table class=\"pairs\"><tr><th>#</th><th>problem</th><th>score</th><th>first</th><th>second</th><th>in common</th></tr>");
        for (i, p) in report.pairs.iter().enumerate() {
            let common = match p.near_identical {
                Some(n) => format!(
                    "near-identical: {n} {} apart",
                    if n == 1 { "token" } else { "tokens" }
                ),
                None => crate::markup::count(p.matched, "fingerprint", "fingerprints"),
            };
            let _ = write!(
                h,
                "<tr><td><a href=\"#pair-{n}\">{n}</a></td><td>{}</td><td>{:.0} %</td><td>{} ({:.0} %)</td><td>{} ({:.0} %)</td><td>{}</td></tr>",
                escape(p.problem.as_str()),
                p.score * 100.0,
                escape(&p.a.student),
                p.a.share * 100.0,
                escape(&p.b.student),
                p.b.share * 100.0,
                common,
                n = i + 1
            );
        }
        h.push_str("</table>");
    }
    h.push_str("<h2>Per problem</h2><table><tr><th>problem</th><th>submissions</th><th>pairs compared</th><th>base code</th><th>common fingerprints left out</th></tr>");
    for p in &report.problems {
        let _ = write!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(p.problem.as_str()),
            p.submissions,
            p.pairs_compared,
            escape(&p.base_files.join(", ")),
            p.common_fingerprints
        );
    }
    h.push_str("</table>");
    for (i, p) in report.pairs.iter().enumerate() {
        pair(&mut h, i + 1, p, &text);
    }
    if !report.skipped.is_empty() {
        h.push_str("<h2>Not compared</h2><ul>");
        for s in &report.skipped {
            let _ = write!(h, "<li>{}: {}</li>", escape(&s.file), escape(&s.reason));
        }
        h.push_str("</ul>");
    }
    h.push_str("</body></html>\n");
    h
}

fn copies(h: &mut String, c: &Copies) {
    let files: Vec<String> = c
        .files
        .iter()
        .map(|m| format!("{} ({})", escape(&m.student), escape(&m.file)))
        .collect();
    let base = match &c.base {
        Some(b) => format!(
            "; the same program as the problem's own <code>{}</code>",
            escape(b)
        ),
        None => String::new(),
    };
    let _ = write!(
        h,
        "<tr class=\"copy\" data-kind=\"{}\"><td>{}</td><td>{}{base}</td><td>{}</td><td>{}</td></tr>",
        match c.kind {
            super::CopyKind::Identical => "identical",
            super::CopyKind::SameTokens => "same-tokens",
        },
        escape(c.problem.as_str()),
        c.kind.label(),
        files.join(", "),
        c.tokens
    );
}

fn pair(h: &mut String, n: usize, p: &Pair, text: &HashMap<(&str, &str), &str>) {
    let _ = write!(
        h,
        "<section class=\"pair\" id=\"pair-{n}\"><h2>{n}. {}: {} ~ {} — {:.0} %</h2><div class=\"cols\">",
        escape(p.problem.as_str()),
        escape(&p.a.student),
        escape(&p.b.student),
        p.score * 100.0
    );
    let sides = [
        (&p.a, p.regions.iter().map(|r| r.a).collect::<Vec<_>>()),
        (&p.b, p.regions.iter().map(|r| r.b).collect::<Vec<_>>()),
    ];
    for (side, ranges) in sides {
        let src = text
            .get(&(p.problem.as_str(), side.file.as_str()))
            .copied()
            .unwrap_or("");
        let _ = write!(h, "<div><h3>{}</h3><pre>", escape(&side.file));
        for (i, l) in src.lines().enumerate() {
            let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let region = ranges.iter().position(|r| r[0] <= no && no <= r[1]);
            match region {
                Some(r) => {
                    let _ = write!(
                        h,
                        "<span class=\"l r{}\"><span class=\"n\">{no}</span><span class=\"m\">{}</span>{}</span>",
                        r % COLOURS,
                        r + 1,
                        escape(l)
                    );
                }
                None => {
                    let _ = write!(
                        h,
                        "<span class=\"l\"><span class=\"n\">{no}</span><span class=\"m\"></span>{}</span>",
                        escape(l)
                    );
                }
            }
        }
        h.push_str("</pre></div>");
    }
    h.push_str("</div></section>");
}
