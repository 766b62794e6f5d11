//! A statement as one HTML page, to read in a browser or hand out beside
//! the reports. Markdown is read by pulldown-cmark (CommonMark, tables,
//! `$…$` and `$$…$$` math) rather than by hand: statements are written by
//! setters, who use more of Markdown than our own statements do. Math is
//! left as TeX between `\(…\)` and `\[…\]`, which KaTeX's auto-render
//! typesets when the page can load it, and which reads plainly when not.

use pulldown_cmark::{CowStr, Event, Options, Parser, html};

/// KaTeX from a CDN, loaded only by a browser that can: the page is whole
/// without it.
const KATEX: &str = r#"<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/katex.min.css">
<script defer src="https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/katex.min.js"></script>
<script defer src="https://cdn.jsdelivr.net/npm/katex@0.16.11/dist/contrib/auto-render.min.js"
  onload="renderMathInElement(document.body, {delimiters: [{left: '\\[', right: '\\]', display: true}, {left: '\\(', right: '\\)', display: false}]})"></script>"#;

/// The HTML body of a Markdown statement, math kept as TeX.
pub fn markdown_to_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_MATH | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|e| match e {
        Event::InlineMath(tex) => Event::InlineHtml(CowStr::from(format!(
            "<span class=\"math\">\\({}\\)</span>",
            escape(&tex)
        ))),
        Event::DisplayMath(tex) => Event::InlineHtml(CowStr::from(format!(
            "<span class=\"math display\">\\[{}\\]</span>",
            escape(&tex)
        ))),
        other => other,
    });
    let mut out = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut out, events);
    out
}

/// A whole page: `title`, a line of limits, and the statement.
pub fn statement_page(title: &str, limits: &str, markdown: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>{}</title>\n{KATEX}\n<style>\n\
         body {{ max-width: 46em; margin: 2em auto; padding: 0 1em; font: 16px/1.5 sans-serif; }}\n\
         pre {{ background: #f4f4f4; padding: .5em; overflow-x: auto; }}\n\
         .limits {{ color: #555; }}\n</style>\n</head>\n<body>\n\
         <p class=\"limits\">{}</p>\n{}</body>\n</html>\n",
        escape(title),
        escape(limits),
        markdown_to_html(markdown)
    )
}

use crate::markup::escape;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_and_math_become_html_with_tex_kept() {
        let html = markdown_to_html(
            "# Nim\n\nTake from $1 \\le a_i < 10^9$ piles.\n\n$$x \\oplus y$$\n\n\
             | a | b |\n|---|---|\n| 1 | 2 |\n\n```\n3\n1 2 3\n```\n",
        );
        assert!(html.contains("<h1>Nim</h1>"), "{html}");
        assert!(
            html.contains(r#"<span class="math">\(1 \le a_i &lt; 10^9\)</span>"#),
            "{html}"
        );
        assert!(html.contains(r"\[x \oplus y\]"), "{html}");
        assert!(html.contains("<table>"), "{html}");
        assert!(
            html.contains("<pre><code>3\n1 2 3\n</code></pre>"),
            "{html}"
        );
    }

    #[test]
    fn the_page_escapes_its_title() {
        let page = statement_page("A <b> & c", "1 s", "text");
        assert!(
            page.contains("<title>A &lt;b&gt; &amp; c</title>"),
            "{page}"
        );
        assert!(page.contains("<p>text</p>"), "{page}");
    }
}
