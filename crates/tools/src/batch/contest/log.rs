//! Where a contest's submissions come from: a CSV log, or a folder whose
//! files' modification times are the submission times.

use std::path::Path;

use super::time::When;
use crate::batch::BatchError;
use crate::judge::Because;
use crate::problem::ProblemId;

/// One submission as the log or the folder tells it.
#[derive(Debug, Clone, PartialEq)]
pub struct Logged {
    pub contestant: String,
    /// As written: not yet known to be a problem of the contest.
    pub problem: ProblemId,
    /// Relative to the contest file's folder, with `/` separators.
    pub file: String,
    pub when: When,
    /// Where it was read from, for messages (`log.csv:7`).
    pub origin: String,
}

/// Reads a CSV log with a header naming (in any order) the columns `time`,
/// `contestant`, `problem` and `file`; other columns are ignored.
pub fn read_log(path: &Path) -> Result<Vec<Logged>, BatchError> {
    let text = crate::beneath::read_text(path, crate::beneath::DATA_CAP).map_err(|e| {
        BatchError::Usage(Because::of(
            format!("{}: cannot read the submissions log", path.display()),
            e,
        ))
    })?;
    let mut rows = parse_csv(&text).into_iter();
    let Some((_, header)) = rows.next() else {
        return Err(BatchError::Usage(Because::new(format!(
            "{}: empty; expected a header time,contestant,problem,file",
            path.display()
        ))));
    };
    let column = |name: &str| {
        header.iter().position(|h| h.trim().eq_ignore_ascii_case(name)).ok_or_else(|| {
            BatchError::Usage(Because::new(format!(
                "{}:1: no `{name}` column; the header must name time, contestant, problem and file",
                path.display()
            )))
        })
    };
    let (t, c, p, f) = (
        column("time")?,
        column("contestant")?,
        column("problem")?,
        column("file")?,
    );
    let mut out = Vec::new();
    for (line, row) in rows {
        if row.iter().all(|x| x.trim().is_empty()) {
            continue;
        }
        let field = |i: usize| row.get(i).map(|s| s.trim().to_string()).unwrap_or_default();
        let at = format!("{}:{line}", path.display());
        let when = super::time::parse_when(&field(t)).ok_or_else(|| {
            BatchError::Usage(Because::new(format!(
                "{at}: time `{}` is neither a date and time (2025-03-01T10:17:00Z) nor a time since the start (1:02:03, 1:02, or minutes)",
                field(t)
            )))
        })?;
        let (contestant, problem, file) = (field(c), field(p), field(f));
        if contestant.is_empty() || problem.is_empty() || file.is_empty() {
            return Err(BatchError::Usage(Because::new(format!(
                "{at}: contestant, problem and file must all be given"
            ))));
        }
        out.push(Logged {
            contestant,
            problem: ProblemId(problem),
            file,
            when,
            origin: at,
        });
    }
    Ok(out)
}

/// `dir/<contestant>/<problem>.<ext>` or `dir/<contestant>/<problem>/<any>.<ext>`,
/// timed by modification time. Hidden files are skipped.
pub fn read_folder(dir: &Path, base: &Path) -> Result<Vec<Logged>, BatchError> {
    let mut out = Vec::new();
    let walker = walkdir::WalkDir::new(dir)
        .min_depth(2)
        .max_depth(3)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| !e.file_name().to_string_lossy().starts_with('.'));
    for entry in walker {
        let entry = entry.map_err(|e| {
            BatchError::Usage(Because::of(format!("{}: cannot read", dir.display()), e))
        })?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel_to_dir = entry.path().strip_prefix(dir).unwrap_or(entry.path());
        let parts: Vec<String> = rel_to_dir
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let (contestant, problem) = match parts.as_slice() {
            [who, file] => (who.clone(), stem(file).to_string()),
            [who, problem, _] => (who.clone(), problem.clone()),
            _ => continue,
        };
        let modified = entry
            .metadata()
            .ok()
            .and_then(|m| m.modified().ok())
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_secs() as i64);
        let rel = entry.path().strip_prefix(base).unwrap_or(entry.path());
        out.push(Logged {
            contestant,
            problem: ProblemId(problem),
            file: rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/"),
            when: When::Clock(modified),
            origin: entry.path().display().to_string(),
        });
    }
    Ok(out)
}

fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

/// RFC 4180 rows with their line numbers (from 1): commas, double quotes
/// (`""` inside quotes), line breaks inside quotes, CRLF or LF.
pub fn parse_csv(text: &str) -> Vec<(usize, Vec<String>)> {
    let mut rows = Vec::new();
    let mut row = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut line = 1;
    let mut row_line = 1;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            ('"', true) => quoted = false,
            ('"', false) if field.is_empty() => quoted = true,
            (',', false) => row.push(std::mem::take(&mut field)),
            ('\r', false) if chars.peek() == Some(&'\n') => {}
            ('\n', false) => {
                row.push(std::mem::take(&mut field));
                rows.push((row_line, std::mem::take(&mut row)));
                line += 1;
                row_line = line;
            }
            ('\n', true) => {
                field.push(c);
                line += 1;
            }
            _ => field.push(c),
        }
    }
    if !field.is_empty() || !row.is_empty() {
        row.push(field);
        rows.push((row_line, row));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_with_quotes() {
        let rows = parse_csv("a,b\r\n\"x, y\",\"say \"\"hi\"\"\"\nlast,row");
        assert_eq!(rows[0], (1, vec!["a".to_string(), "b".to_string()]));
        assert_eq!(
            rows[1],
            (2, vec!["x, y".to_string(), "say \"hi\"".to_string()])
        );
        assert_eq!(rows[2], (3, vec!["last".to_string(), "row".to_string()]));
    }
}
