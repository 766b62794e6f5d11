//! Our Markdown statements as the LaTeX the ICPC `legacy` format expects
//! (`problem_statement/problem.en.tex`), typeset by the format's tools
//! (problemtools' `problem2pdf` with LuaLaTeX, `problem2html` with plasTeX
//! and MathJax) as the statement reads in grundy's own HTML page.
//!
//! Markdown is read by pulldown-cmark, as for that page, so both see the
//! same document: math between `$…$` and `$$…$$` stays TeX (it is TeX
//! already), everything else is text whose LaTeX specials are escaped, with
//! the plain-text habits of our statements (`10^9`, `≤`) typeset as math.
//!
//! The format's tools print the samples (`data/sample/`) after the
//! statement, so the statement's own copies of them are left out when the
//! package has samples; what the samples section says about them stays, in
//! a section of its own naming each sample by its number. A problem without
//! sample files (a played one shows a dialogue) keeps the section as it is.

use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};

/// Converts a statement; `title` becomes `\problemname`. `samples_shown`:
/// the package has sample files, which the format's tools print.
pub fn markdown_to_latex(title: &str, markdown: &str, samples_shown: bool) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let mut w = Writer {
        out: format!("\\problemname{{{}}}\n\n", text(title)),
        samples_shown,
        ..Writer::default()
    };
    let mut events = Parser::new_ext(markdown, options).peekable();
    while let Some(event) = events.next() {
        let next_is_code = matches!(events.peek(), Some(Event::Start(Tag::CodeBlock(_))));
        w.event(event, next_is_code);
    }
    w.flush();
    w.close_samples();
    w.out
}

#[derive(Default)]
struct Writer {
    out: String,
    /// Text not yet written: consecutive text events are converted as one
    /// run, so that `10^9` split by the parser still becomes one power.
    pending: String,
    samples_shown: bool,
    /// Inside a code block (its text is written as it is).
    in_code: bool,
    /// Open lists: ordered or not.
    lists: Vec<bool>,
    /// Cells written in the current table row.
    cells: usize,
    /// Depth of open block elements (0: between top-level blocks).
    depth: usize,
    /// Where the current top-level block starts in `out`.
    block_start: usize,
    /// The heading being written: its level, where it starts, its words.
    heading: Option<(HeadingLevel, usize, String)>,
    /// Inside the samples section of a package that has sample files.
    samples: Option<Samples>,
}

/// A samples section whose samples the format's tools print.
struct Samples {
    level: HeadingLevel,
    /// Code blocks seen: an input and an output per sample.
    blocks: usize,
    /// What the section says, block by block, with the number of the
    /// sample it follows (0: before the first).
    notes: Vec<(usize, String)>,
}

impl Writer {
    fn event(&mut self, event: Event, next_is_code: bool) {
        if let Event::Text(t) = &event {
            if self.in_code {
                self.out.push_str(t);
            } else {
                self.pending.push_str(t);
            }
            if let Some((_, _, words)) = &mut self.heading {
                words.push_str(t);
            }
            return;
        }
        self.flush();
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag, next_is_code),
            Event::Code(code) => {
                if let Some((_, _, words)) = &mut self.heading {
                    words.push_str(&code);
                }
                self.out.push_str(&format!("\\texttt{{{}}}", plain(&code)));
            }
            Event::InlineMath(tex) => self.out.push_str(&format!("${}$", tex.trim())),
            Event::DisplayMath(tex) => self.out.push_str(&format!("\\[{}\\]", tex.trim())),
            Event::SoftBreak => self.out.push('\n'),
            Event::HardBreak => self.out.push_str("\\\\\n"),
            Event::Rule => self.out.push_str("\\medskip\\hrule\\medskip\n\n"),
            // Raw HTML has no LaTeX meaning; footnotes and task lists are
            // not enabled.
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag) {
        if is_block(&tag) {
            if self.depth == 0 {
                self.block_start = self.out.len();
            }
            self.depth += 1;
        }
        match tag {
            Tag::Heading { level, .. } => {
                if let Some(s) = &self.samples
                    && level <= s.level
                {
                    self.close_samples();
                    self.block_start = self.out.len();
                }
                self.heading = Some((level, self.out.len(), String::new()));
                match level {
                    HeadingLevel::H1 => {}
                    HeadingLevel::H2 => self.out.push_str("\\section*{"),
                    _ => self.out.push_str("\\subsection*{"),
                }
            }
            Tag::CodeBlock(_) => {
                self.in_code = true;
                self.out.push_str("\\begin{verbatim}\n");
            }
            Tag::List(first) => {
                self.lists.push(first.is_some());
                match first {
                    Some(n) => {
                        self.out.push_str("\\begin{enumerate}\n");
                        if n != 1 {
                            self.out.push_str(&format!(
                                "\\setcounter{{enumi}}{{{}}}\n",
                                n.saturating_sub(1)
                            ));
                        }
                    }
                    None => self.out.push_str("\\begin{itemize}\n"),
                }
            }
            Tag::Item => self.out.push_str("\\item "),
            Tag::BlockQuote(_) => self.out.push_str("\\begin{quote}\n"),
            Tag::Table(aligns) => {
                let columns: String = aligns
                    .iter()
                    .map(|a| match a {
                        pulldown_cmark::Alignment::Center => "c|",
                        pulldown_cmark::Alignment::Right => "r|",
                        _ => "l|",
                    })
                    .collect();
                self.out
                    .push_str(&format!("\\begin{{tabular}}{{|{columns}}}\n\\hline\n"));
            }
            Tag::TableHead | Tag::TableRow => self.cells = 0,
            Tag::TableCell => {
                if self.cells > 0 {
                    self.out.push_str(" & ");
                }
                self.cells += 1;
            }
            Tag::Emphasis => self.out.push_str("\\emph{"),
            Tag::Strong => self.out.push_str("\\textbf{"),
            Tag::Strikethrough => self.out.push_str("\\sout{"),
            Tag::Link { dest_url, .. } => {
                self.out
                    .push_str(&format!("\\href{{{}}}{{", url(&dest_url)));
            }
            // An image's description stands in for it: the format's
            // statement folder would need the file beside it.
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd, next_is_code: bool) {
        match tag {
            TagEnd::Paragraph => self.out.push_str("\n\n"),
            TagEnd::Heading(level) => {
                let Some((_, start, words)) = self.heading.take() else {
                    return;
                };
                let lower = words.trim().to_lowercase();
                let samples = lower.starts_with("sample") || lower.starts_with("example");
                if level == HeadingLevel::H1 || self.samples.is_some() {
                    // The title is \problemname already; a sample's own
                    // heading gives way to its number.
                    self.out.truncate(start);
                } else if samples && self.samples_shown {
                    self.out.truncate(start);
                    self.samples = Some(Samples {
                        level,
                        blocks: 0,
                        notes: Vec::new(),
                    });
                } else {
                    self.out.push_str("}\n");
                }
            }
            TagEnd::CodeBlock => {
                self.in_code = false;
                if !self.out.ends_with('\n') {
                    self.out.push('\n');
                }
                self.out.push_str("\\end{verbatim}\n");
            }
            TagEnd::List(_) => {
                let ordered = self.lists.pop().unwrap_or(false);
                self.out.push_str(if ordered {
                    "\\end{enumerate}\n"
                } else {
                    "\\end{itemize}\n"
                });
            }
            TagEnd::Item => self.out.push('\n'),
            TagEnd::BlockQuote(_) => self.out.push_str("\\end{quote}\n"),
            TagEnd::Table => self.out.push_str("\\end{tabular}\n"),
            TagEnd::TableHead | TagEnd::TableRow => self.out.push_str(" \\\\\n\\hline\n"),
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough | TagEnd::Link => {
                self.out.push('}')
            }
            _ => {}
        }
        if is_block_end(&tag) {
            self.depth = self.depth.saturating_sub(1);
            if self.depth == 0 {
                while !self.out.ends_with("\n\n") {
                    self.out.push('\n');
                }
                self.top_level_block_ended(&tag, next_is_code);
            }
        }
    }

    /// In a samples section: a sample's input or output is left to the
    /// format's tools, as is its label (a short paragraph ending in `:`
    /// just before it); anything else is kept for the explanations.
    fn top_level_block_ended(&mut self, tag: &TagEnd, next_is_code: bool) {
        let Some(s) = &mut self.samples else {
            return;
        };
        let block = self.out.split_off(self.block_start.min(self.out.len()));
        match tag {
            TagEnd::CodeBlock => s.blocks += 1,
            TagEnd::Paragraph if next_is_code && block.trim_end().ends_with(':') => {}
            TagEnd::Heading(_) => self.out.push_str(&block),
            _ => s.notes.push((s.blocks.div_ceil(2), block)),
        }
    }

    /// Ends a samples section: what it said about the samples, each part
    /// headed by the number the format's tools give that sample.
    fn close_samples(&mut self) {
        let Some(s) = self.samples.take() else {
            return;
        };
        if s.notes.is_empty() {
            return;
        }
        let count = s.blocks.div_ceil(2);
        self.out.push_str(if count > 1 {
            "\\section*{Explanation of the samples}\n\n"
        } else {
            "\\section*{Explanation of the sample}\n\n"
        });
        let mut last = None;
        for (sample, block) in s.notes {
            if count > 1 && sample > 0 && last != Some(sample) {
                self.out.push_str(&format!("\\textbf{{Sample {sample}.}} "));
            }
            last = Some(sample);
            self.out.push_str(&block);
        }
    }

    fn flush(&mut self) {
        if !self.pending.is_empty() {
            let run = std::mem::take(&mut self.pending);
            self.out.push_str(&text(&run));
        }
    }
}

fn is_block(tag: &Tag) -> bool {
    matches!(
        tag,
        Tag::Paragraph
            | Tag::Heading { .. }
            | Tag::BlockQuote(_)
            | Tag::CodeBlock(_)
            | Tag::HtmlBlock
            | Tag::List(_)
            | Tag::Item
            | Tag::Table(_)
            | Tag::FootnoteDefinition(_)
            | Tag::MetadataBlock(_)
    )
}

fn is_block_end(tag: &TagEnd) -> bool {
    matches!(
        tag,
        TagEnd::Paragraph
            | TagEnd::Heading(_)
            | TagEnd::BlockQuote(_)
            | TagEnd::CodeBlock
            | TagEnd::HtmlBlock
            | TagEnd::List(_)
            | TagEnd::Item
            | TagEnd::Table
            | TagEnd::FootnoteDefinition
            | TagEnd::MetadataBlock(_)
    )
}

/// A run of Markdown text as LaTeX: specials escaped, symbols spelled out,
/// and a power written in plain text (`10^9`) as math.
fn text(run: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = run.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '^' && i > 0 && chars[i - 1].is_ascii_digit() {
            let digits: String = chars[i + 1..]
                .iter()
                .take_while(|d| d.is_ascii_digit())
                .collect();
            if !digits.is_empty() {
                // Move the base's digits into the formula.
                let base_len = out.chars().rev().take_while(|d| d.is_ascii_digit()).count();
                let base: String = out.chars().skip(out.chars().count() - base_len).collect();
                for _ in 0..base_len {
                    out.pop();
                }
                out.push_str(&format!("${base}^{{{digits}}}$"));
                i += 1 + digits.chars().count();
                continue;
            }
        }
        out.push_str(&plain(&c.to_string()));
        i += 1;
    }
    out
}

/// Escapes LaTeX's special characters and spells out the symbols.
fn plain(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '#' | '$' | '%' | '&' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            '<' => out.push_str("$<$"),
            '>' => out.push_str("$>$"),
            '≤' => out.push_str("$\\le$"),
            '≥' => out.push_str("$\\ge$"),
            '≠' => out.push_str("$\\ne$"),
            '×' => out.push_str("$\\times$"),
            '·' => out.push_str("$\\cdot$"),
            '⊕' => out.push_str("$\\oplus$"),
            '∞' => out.push_str("$\\infty$"),
            '→' => out.push_str("$\\to$"),
            '…' => out.push_str("\\ldots{}"),
            '−' => out.push_str("$-$"),
            '—' => out.push_str("---"),
            '–' => out.push_str("--"),
            '“' => out.push_str("``"),
            '”' => out.push_str("''"),
            '‘' => out.push('`'),
            '’' => out.push('\''),
            '\u{a0}' => out.push('~'),
            '⌊' => out.push_str("$\\lfloor$"),
            '⌋' => out.push_str("$\\rfloor$"),
            'φ' => out.push_str("$\\varphi$"),
            '√' => out.push_str("$\\sqrt{}$"),
            c if c.is_ascii() => out.push(c),
            // Accented Latin letters (misère) are in every LaTeX's fonts.
            c if ('\u{c0}'..='\u{24f}').contains(&c) && c.is_alphabetic() => out.push(c),
            // Anything else: a mark no LaTeX engine stumbles on.
            _ => out.push('?'),
        }
    }
    out
}

/// A link target for `\href`: its specials escaped.
fn url(u: &str) -> String {
    let mut out = String::with_capacity(u.len());
    for c in u.chars() {
        if matches!(c, '#' | '%' | '&' | '_' | '{' | '}' | '~' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_the_parts_our_statements_use() {
        let md = "# Nim\n\nTake `A[1] … A[N]` stones, **always**.\n\n## Input\n\n- 1 ≤ N ≤ 10^4\n- a_i\n\n## Notes\n\n50% of *all* cases & more.\n";
        let tex = markdown_to_latex("Nim", md, true);
        assert_eq!(
            tex,
            "\\problemname{Nim}\n\nTake \\texttt{A[1] \\ldots{} A[N]} stones, \\textbf{always}.\n\n\\section*{Input}\n\n\\begin{itemize}\n\\item 1 $\\le$ N $\\le$ $10^{4}$\n\\item a\\_i\n\\end{itemize}\n\n\\section*{Notes}\n\n50\\% of \\emph{all} cases \\& more.\n\n"
        );
    }

    #[test]
    fn math_stays_tex() {
        let tex = markdown_to_latex(
            "T",
            "A pile of $n$ stones ($1 \\le n \\le 10^9$), a \\$5 fee.\n\n$$x \\oplus y = 0$$\n",
            true,
        );
        assert!(
            tex.contains("A pile of $n$ stones ($1 \\le n \\le 10^9$), a \\$5 fee."),
            "{tex}"
        );
        assert!(tex.contains("\\[x \\oplus y = 0\\]"), "{tex}");
        assert!(!tex.contains("textbackslash"), "{tex}");
    }

    #[test]
    fn the_samples_are_left_to_the_format_but_not_what_is_said_of_them() {
        let md = "# T\n\nText.\n\n## Samples\n\nInput:\n\n```\n3\n```\n\nOutput:\n\n```\nBob\n```\n\nWith $3$ stones Bob wins.\n\nInput:\n\n```\n1\n```\n\nOutput:\n\n```\nAlice\n```\n\n## Notes\n\nMore.\n";
        let tex = markdown_to_latex("T", md, true);
        assert!(!tex.contains("verbatim"), "{tex}");
        assert!(!tex.contains("Input:"), "{tex}");
        assert!(
            tex.contains(
                "\\section*{Explanation of the samples}\n\n\\textbf{Sample 1.} With $3$ stones Bob wins.\n\n\\section*{Notes}"
            ),
            "{tex}"
        );
        // With no sample files (a played problem), the section stays.
        let kept = markdown_to_latex("T", md, false);
        assert!(kept.contains("\\section*{Samples}"), "{kept}");
        assert!(
            kept.contains("\\begin{verbatim}\n3\n\\end{verbatim}"),
            "{kept}"
        );
    }

    #[test]
    fn lists_tables_and_links() {
        let md = "1. one\n2. two `i x`\n\n| a | b |\n|---|--:|\n| 1 | 2 |\n\nSee [the rules](https://example.org/a_b#c).\n";
        let tex = markdown_to_latex("T", md, true);
        assert!(
            tex.contains(
                "\\begin{enumerate}\n\\item one\n\\item two \\texttt{i x}\n\\end{enumerate}"
            ),
            "{tex}"
        );
        assert!(
            tex.contains("\\begin{tabular}{|l|r|}\n\\hline\na & b \\\\\n\\hline\n1 & 2 \\\\\n\\hline\n\\end{tabular}"),
            "{tex}"
        );
        assert!(
            tex.contains("\\href{https://example.org/a\\_b\\#c}{the rules}"),
            "{tex}"
        );
    }
}
