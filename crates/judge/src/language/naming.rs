//! How a program's messages name its source: by the name the student gave
//! the file, and never by a folder of the judge's.
//!
//! A program is compiled under the name its language wants (`main.c`) and
//! runs from the cache, so the compiler's messages, a failed `assert`'s or
//! a Python traceback would name `main.c`, or a path inside the cache: not
//! the student's file, and another text with another cache (a report would
//! change between a run and its resume). A compile command is given the
//! source's path relative to the compiler's folder (so `__FILE__` is the
//! bare name), and what a program or a compiler says is rewritten here:
//! the cache's folder taken out, the language's name for the file replaced
//! by the submitted one.

use std::path::Path;

/// The rewriting of one program's messages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Naming {
    /// Folder prefixes (ending in `/`) taken out wherever they appear.
    strip: Vec<String>,
    /// The source's name in the artefact (`main.c`, or `src/` for the files
    /// of a folder) and what it becomes.
    rename: Option<(String, String)>,
}

impl Naming {
    /// Messages of a program whose artefact folder is `dir`, compiled from
    /// `source_name` there, shown as `shown`.
    pub fn new(dir: &Path, source_name: &str, shown: &str) -> Naming {
        let dir = dir.display().to_string();
        let strip = vec![format!("{}/", dir.trim_end_matches('/'))];
        let rename = (source_name != shown && !source_name.is_empty())
            .then(|| (source_name.to_string(), shown.to_string()));
        Naming { strip, rename }
    }

    /// The same, shown under another name.
    pub fn shown_as(&self, shown: &str) -> Naming {
        Naming {
            strip: self.strip.clone(),
            rename: self
                .rename
                .as_ref()
                .map(|(from, _)| (from.clone(), shown.to_string()))
                .filter(|(from, to)| from != to),
        }
    }

    /// `text` with the judge's folders taken out and the source named as
    /// submitted.
    pub fn apply(&self, text: &str) -> String {
        let mut out = text.to_string();
        for prefix in &self.strip {
            if prefix.len() > 1 && out.contains(prefix.as_str()) {
                out = out.replace(prefix.as_str(), "");
            }
        }
        match &self.rename {
            Some((from, to)) => replace_name(&out, from, to),
            None => out,
        }
    }
}

/// A character that continues a file name (so `main.c` in `xmain.c`,
/// `main.cpp` or `lib/main.c` is not the source's name).
fn in_name(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/')
}

/// `text` with each whole occurrence of the file name `from` replaced by
/// `to`: not one inside a longer name or path. A name ending in `/` (a
/// folder) only needs its start to be whole.
pub fn replace_name(text: &str, from: &str, to: &str) -> String {
    if from.is_empty() || from == to || !text.contains(from) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for (at, _) in text.match_indices(from) {
        if at < last {
            continue;
        }
        let before = text[..at].chars().next_back();
        let end = at + from.len();
        let after = text[end..].chars().next();
        let whole_start = !before.is_some_and(in_name);
        // A name ends where no name character follows; a `.` followed by
        // more of a name (`main.c.o`) continues it, one that ends a
        // sentence does not.
        let continues = match after {
            Some('.') => text[end + 1..]
                .chars()
                .next()
                .is_some_and(char::is_alphanumeric),
            Some(c) => c.is_alphanumeric() || c == '_',
            None => false,
        };
        let whole_end = from.ends_with('/') || !continues;
        if whole_start && whole_end {
            out.push_str(&text[last..at]);
            out.push_str(to);
            last = end;
        }
    }
    out.push_str(&text[last..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_folder_goes_and_the_file_is_named_as_submitted() {
        let n = Naming::new(
            Path::new("/var/cache/grundy/bin/ab/cd"),
            "main.py",
            "nim.py",
        );
        assert_eq!(
            n.apply("  File \"/var/cache/grundy/bin/ab/cd/main.py\", line 3, in <module>"),
            "  File \"nim.py\", line 3, in <module>"
        );
        let c = Naming::new(Path::new("/c/bin/x"), "main.c", "nim.c");
        assert_eq!(
            c.apply("main: main.c:7: main: Assertion `n <= 100' failed."),
            "main: nim.c:7: main: Assertion `n <= 100' failed."
        );
        assert_eq!(
            c.apply("main.c: In function 'main':\nmain.c:3:5: error: x"),
            "nim.c: In function 'main':\nnim.c:3:5: error: x"
        );
        // Other files and longer names are left alone.
        assert_eq!(
            c.apply("/usr/include/main.c main.cpp xmain.c main.c.o"),
            "/usr/include/main.c main.cpp xmain.c main.c.o"
        );
        assert_eq!(c.apply("ends in main.c."), "ends in nim.c.");
        assert_eq!(c.shown_as("other.c").apply("main.c:1"), "other.c:1");
    }

    #[test]
    fn a_folder_s_files_keep_their_names() {
        let n = Naming::new(Path::new("/c/bin/x"), "src/", "");
        assert_eq!(
            n.apply("src/util.c:3: error\n/c/bin/x/src/a.c:1"),
            "util.c:3: error\na.c:1"
        );
    }
}
