//! One way to report a YAML file that does not parse: `file:line:col:
//! message`, with serde's own " at line L column C" taken off the message so
//! the location is printed once, up front, where editors look for it.

use std::fmt;
use std::path::{Path, PathBuf};

/// A YAML error located in its file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    pub path: PathBuf,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl YamlError {
    /// Locates `e` in `path`; an error without a location is put at 1:1.
    pub fn new(path: &Path, e: &serde_yaml::Error) -> YamlError {
        let text = e.to_string();
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        let message = match text.rfind(" at line ") {
            Some(i) => text[..i].to_string(),
            None => text,
        };
        YamlError {
            path: path.to_path_buf(),
            line,
            column,
            message,
        }
    }
}

impl fmt::Display for YamlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for YamlError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_location_is_printed_once() {
        let e = serde_yaml::from_str::<std::collections::BTreeMap<String, u32>>("a: 1\nb: [x\n")
            .expect_err("bad YAML");
        let y = YamlError::new(Path::new("c.yaml"), &e);
        let shown = y.to_string();
        assert!(shown.starts_with("c.yaml:"), "{shown}");
        assert!(!shown.contains(" at line "), "{shown}");
        assert_eq!(
            shown.matches(&format!(":{}:", y.line)).count(),
            1,
            "{shown}"
        );
    }
}
