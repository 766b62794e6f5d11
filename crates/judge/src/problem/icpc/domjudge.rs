//! `domjudge-problem.ini`: the settings file of packages exported from
//! DOMjudge (`timelimit = 4.0`, `name = '…'`, `color = …` for balloons).
//!
//! DOMjudge reads `problem.yaml`'s limit first and this file after it; a
//! package exported from DOMjudge often carries its time limit here
//! only. grundy reads it in the same order: `problem.yaml`'s
//! `limits.time_limit`, then the `.timelimit` file, then this file's
//! `timelimit`; `name` is the title when `problem.yaml` has none; the
//! balloon colour and DOMjudge's own keys change no verdict and are noted.

use std::path::{Path, PathBuf};

/// The file's name, at the package's root.
pub const FILE: &str = "domjudge-problem.ini";

/// What grundy takes from the file.
#[derive(Debug, Default, PartialEq)]
pub struct Ini {
    pub path: PathBuf,
    /// `timelimit`, in seconds.
    pub timelimit: Option<f64>,
    pub name: Option<String>,
    /// Keys read and not used (`color`, `probid`, `allow_submit`, …).
    pub unused: Vec<String>,
}

/// Why the file is refused: the line and the value (the loader names the
/// file).
#[derive(Debug, thiserror::Error)]
pub enum IniError {
    #[error("cannot read: {0}")]
    Read(std::io::Error),
    #[error("line {line}: `timelimit` must be a number of seconds, found `{found}`")]
    Timelimit { line: usize, found: String },
}

/// The file in `dir`, when there is one.
pub fn read(dir: &Path) -> Result<Option<Ini>, IniError> {
    let path = dir.join(FILE);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    let text = crate::problem::file::read_text(&path).map_err(IniError::Read)?;
    parse(path, &text).map(Some)
}

/// `key = value` lines as DOMjudge writes them (PHP's `parse_ini_string`):
/// `;` and `#` start a comment line, a value may be quoted with `'` or `"`.
fn parse(path: PathBuf, text: &str) -> Result<Ini, IniError> {
    let mut ini = Ini {
        path,
        ..Ini::default()
    };
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with([';', '#', '[']) {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = unquote(value.trim());
        match key.as_str() {
            "timelimit" => {
                let t = value
                    .parse::<f64>()
                    .ok()
                    .filter(|t| t.is_finite())
                    .ok_or_else(|| IniError::Timelimit {
                        line: i + 1,
                        found: value.to_string(),
                    })?;
                ini.timelimit = Some(t);
            }
            "name" if !value.is_empty() => ini.name = Some(value.to_string()),
            _ => ini.unused.push(key),
        }
    }
    Ok(ini)
}

fn unquote(v: &str) -> &str {
    for q in ['\'', '"'] {
        if let Some(inner) = v.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domjudges_keys_are_read_as_it_writes_them() {
        let ini = parse(
            PathBuf::from("p/domjudge-problem.ini"),
            "probid = 'A'\nname = \"Jewels\"\n; a comment\ntimelimit = 4.0\ncolor = '#ff0000'\n",
        )
        .expect("parse");
        assert_eq!(ini.timelimit, Some(4.0));
        assert_eq!(ini.name.as_deref(), Some("Jewels"));
        assert_eq!(ini.unused, ["probid", "color"]);
        let e = parse(
            PathBuf::from("p/domjudge-problem.ini"),
            "timelimit = fast\n",
        )
        .expect_err("not a number");
        assert_eq!(
            e.to_string(),
            "line 1: `timelimit` must be a number of seconds, found `fast`"
        );
    }
}
