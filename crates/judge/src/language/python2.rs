//! Telling Python 2 from Python 3. problemtools' rule: a `.py2` file, or a
//! `.py` whose `#!` line names `python2`, is Python 2; any other `.py` is
//! Python 3. Packages older than Python 3 hold `.py` files in Python 2
//! with no such line: Python 3's syntax check fails on them with errors
//! that only Python 2 code gives, which [`python2_only`] recognises so
//! that the judge can say so rather than show a traceback as a compile
//! error.

use std::path::Path;

/// A Python file whose `#!` line names Python 2.
pub fn declares_python2(path: &Path) -> bool {
    let Some(head) = crate::beneath::head(path, 256) else {
        return false;
    };
    let first = String::from_utf8_lossy(&head);
    let first = first.lines().next().unwrap_or_default();
    first.starts_with("#!") && first.contains("python2")
}

/// Python 3's words for syntax that was valid Python 2 (CPython 3.8 to
/// 3.13), and what each means.
const PYTHON2_SYNTAX: [(&str, &str); 5] = [
    (
        "Missing parentheses in call to 'print'",
        "a print statement",
    ),
    ("Missing parentheses in call to 'exec'", "an exec statement"),
    (
        "multiple exception types must be parenthesized",
        "`except E, e:`",
    ),
    (
        "leading zeros in decimal integer literals are not permitted",
        "an octal literal like 0777",
    ),
    ("Did you mean print(", "a print statement"),
];

/// When a Python 3 syntax check's `log` fails on Python 2 syntax: what in
/// the code is Python 2, and the line Python 3 gave.
pub fn python2_only(log: &str) -> Option<String> {
    let error = log
        .lines()
        .rev()
        .find(|l| l.contains("SyntaxError") || l.contains("TabError"))?;
    PYTHON2_SYNTAX
        .iter()
        .find(|(words, _)| log.contains(words))
        .map(|(_, what)| format!("{what} ({})", error.trim()))
}

/// The line of a compile log that says what is wrong: the first, or for
/// a Python traceback (whose first line is only its heading) the last.
pub fn compile_summary(log: &str) -> &str {
    let mut lines = log.lines().filter(|l| !l.trim().is_empty());
    match lines.next() {
        Some(first) if first.starts_with("Traceback (most recent call last)") => {
            lines.next_back().unwrap_or(first)
        }
        first => first.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python2_syntax_is_told_from_other_errors() {
        let log = "Traceback (most recent call last):\n  File \"<string>\", line 2, in <module>\n  File \"main.py\", line 1\n    print n\n    ^^^^^^^\nSyntaxError: Missing parentheses in call to 'print'. Did you mean print(...)?\n";
        let said = python2_only(log).expect("Python 2");
        assert!(
            said.starts_with("a print statement (SyntaxError: Missing"),
            "{said}"
        );
        let other = "Traceback (most recent call last):\n  File \"main.py\", line 1\n    x = = 2\nSyntaxError: invalid syntax\n";
        assert_eq!(python2_only(other), None);
        assert_eq!(compile_summary(other), "SyntaxError: invalid syntax");
        assert_eq!(compile_summary("main.c:1: error\nmore"), "main.c:1: error");
    }
}
