//! Our Markdown statements as the LaTeX the ICPC `legacy` format expects
//! (`problem_statement/problem.en.tex`).
//!
//! The statements use a small part of Markdown (headings, paragraphs, lists,
//! code spans and blocks, `**bold**`, `*emphasis*`, `10^9`, `≤`), so a small
//! converter is enough and needs no tool on the machine. The samples section
//! is left out: in that format the samples are `data/sample/`, which the
//! format's tools typeset after the statement.

/// Converts a statement; `title` becomes `\problemname`.
pub fn markdown_to_latex(title: &str, markdown: &str) -> String {
    let mut out = format!("\\problemname{{{}}}\n\n", text(title));
    let mut in_code = false;
    let mut in_list = false;
    let mut skipping = false;
    for line in markdown.lines() {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") {
            if !skipping {
                out.push_str(if in_code {
                    "\\end{verbatim}\n"
                } else {
                    "\\begin{verbatim}\n"
                });
            }
            in_code = !in_code;
            continue;
        }
        if in_code {
            if !skipping {
                out.push_str(trimmed);
                out.push('\n');
            }
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("# ") {
            // The title is \problemname already.
            let _ = h;
            continue;
        }
        let heading = trimmed
            .strip_prefix("## ")
            .or_else(|| trimmed.strip_prefix("### "));
        if let Some(h) = heading {
            let lower = h.to_ascii_lowercase();
            skipping = lower.starts_with("sample") || lower.starts_with("example");
            if in_list {
                out.push_str("\\end{itemize}\n");
                in_list = false;
            }
            if !skipping {
                let kind = if trimmed.starts_with("### ") {
                    "subsection"
                } else {
                    "section"
                };
                out.push_str(&format!("\\{kind}*{{{}}}\n", text(h)));
            }
            continue;
        }
        if skipping {
            continue;
        }
        let item = trimmed
            .trim_start()
            .strip_prefix("- ")
            .or_else(|| trimmed.trim_start().strip_prefix("* "));
        match item {
            Some(body) => {
                if !in_list {
                    out.push_str("\\begin{itemize}\n");
                    in_list = true;
                }
                out.push_str(&format!("\\item {}\n", text(body)));
            }
            None if in_list && !trimmed.is_empty() && line.starts_with(' ') => {
                // A list item continued on the next line.
                out.push_str(&text(trimmed.trim_start()));
                out.push('\n');
            }
            None => {
                if in_list {
                    out.push_str("\\end{itemize}\n");
                    in_list = false;
                }
                out.push_str(&text(trimmed));
                out.push('\n');
            }
        }
    }
    if in_code && !skipping {
        out.push_str("\\end{verbatim}\n");
    }
    if in_list {
        out.push_str("\\end{itemize}\n");
    }
    out
}

/// One line of Markdown text as LaTeX: code spans, emphasis, powers and
/// the few symbols the statements use; everything else escaped.
fn text(line: &str) -> String {
    let mut out = String::new();
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '`' => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&d| d == '`')
                    .map(|p| i + 1 + p);
                match end {
                    Some(e) => {
                        let code: String = chars[i + 1..e].iter().collect();
                        out.push_str(&format!("\\texttt{{{}}}", plain(&code)));
                        i = e + 1;
                        continue;
                    }
                    None => out.push_str("\\`{}"),
                }
            }
            '*' if chars.get(i + 1) == Some(&'*') => {
                let rest: String = chars[i + 2..].iter().collect();
                if let Some(e) = rest.find("**") {
                    out.push_str(&format!("\\textbf{{{}}}", text(&rest[..e])));
                    i += 2 + rest[..e].chars().count() + 2;
                    continue;
                }
                out.push_str("**");
                i += 2;
                continue;
            }
            '*' | '_' if is_emphasis_start(&chars, i) => {
                let end = chars[i + 1..]
                    .iter()
                    .position(|&d| d == c)
                    .map(|p| i + 1 + p);
                if let Some(e) = end {
                    let inner: String = chars[i + 1..e].iter().collect();
                    out.push_str(&format!("\\emph{{{}}}", text(&inner)));
                    i = e + 1;
                    continue;
                }
                out.push_str(&plain(&c.to_string()));
            }
            '^' if i > 0 && chars[i - 1].is_ascii_digit() => {
                let digits: String = chars[i + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .collect();
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
            _ => out.push_str(&plain(&c.to_string())),
        }
        i += 1;
    }
    out
}

fn is_emphasis_start(chars: &[char], i: usize) -> bool {
    let before_ok = i == 0 || !chars[i - 1].is_alphanumeric();
    let after_ok = chars.get(i + 1).is_some_and(|c| !c.is_whitespace());
    before_ok && after_ok && chars[i + 1..].contains(&chars[i])
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
            '…' => out.push_str("\\ldots{}"),
            '−' => out.push_str("$-$"),
            '—' => out.push_str("---"),
            '–' => out.push_str("--"),
            '⌊' => out.push_str("$\\lfloor$"),
            '⌋' => out.push_str("$\\rfloor$"),
            'φ' => out.push_str("$\\varphi$"),
            '√' => out.push_str("$\\sqrt{}$"),
            c if c.is_ascii() => out.push(c),
            // Anything else outside ASCII: the nearest ASCII, so that
            // pdflatex never meets a character it has no glyph for.
            _ => out.push('?'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_the_parts_our_statements_use() {
        let md = "# Nim\n\nTake `A[1] … A[N]` stones, **always**.\n\n## Input\n\n- 1 ≤ N ≤ 10^4\n- a_i\n\n## Samples\n\n```\n3\n1 2 3\n```\n\n## Notes\n\n50% of *all* cases & more.\n";
        let tex = markdown_to_latex("Nim", md);
        assert_eq!(
            tex,
            "\\problemname{Nim}\n\n\nTake \\texttt{A[1] \\ldots{} A[N]} stones, \\textbf{always}.\n\n\\section*{Input}\n\n\\begin{itemize}\n\\item 1 $\\le$ N $\\le$ $10^{4}$\n\\item a\\_i\n\\end{itemize}\n\n\\section*{Notes}\n\n50\\% of \\emph{all} cases \\& more.\n"
        );
    }
}
