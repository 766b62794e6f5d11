//! Colour on a terminal only, and never when NO_COLOR is set.

use std::io::IsTerminal;

use crate::verdict::Verdict;

/// Whether to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
}

impl Style {
    /// Colour when stdout is a terminal and NO_COLOR is unset or empty
    /// (https://no-color.org).
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Style {
            color: !no_color && std::io::stdout().is_terminal(),
        }
    }

    pub fn plain() -> Style {
        Style { color: false }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn verdict(&self, v: Verdict) -> String {
        let code = match v {
            Verdict::AC => "32;1",
            Verdict::WA | Verdict::PE => "31;1",
            Verdict::TLE | Verdict::MLE | Verdict::OLE => "33;1",
            Verdict::RE | Verdict::CE => "35;1",
            Verdict::IE => "41;37;1",
        };
        self.paint(code, v.code())
    }

    /// One character per test in the progress row.
    pub fn mark(&self, v: Verdict) -> String {
        match v {
            Verdict::AC => self.paint("32", "."),
            other => self.paint("31;1", &other.code()[..1]),
        }
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }
}
