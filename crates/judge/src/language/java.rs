//! Java's two quirks: a public class must live in a file of its own name,
//! and the class holding `main` can be any class.

use std::path::Path;

/// The name of the top-level public class, if any, so the source can be
/// saved under the file name javac insists on.
pub fn public_class(source: &str) -> Option<String> {
    let tokens = tokens(&strip_comments_and_strings(source));
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "public" {
            let mut j = i + 1;
            while j < tokens.len()
                && matches!(tokens[j].as_str(), "final" | "abstract" | "strictfp")
            {
                j += 1;
            }
            if j + 1 < tokens.len()
                && matches!(
                    tokens[j].as_str(),
                    "class" | "record" | "enum" | "interface"
                )
            {
                return Some(tokens[j + 1].clone());
            }
        }
        i += 1;
    }
    None
}

/// The longest file name most file systems allow, in bytes.
const NAME_MAX: usize = 255;

/// A public class whose class file could not be written: the submission's
/// compile error, shown as its compile log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "the class name `{start}…` is {bytes} bytes long: with `.class` it exceeds the {NAME_MAX} bytes a file name may have"
)]
pub struct ClassNameTooLong {
    /// The name's first 32 characters.
    pub start: String,
    pub bytes: usize,
}

/// javac writes `Name.java`'s classes to `Name.class`: a class name longer
/// than a file name may be is the submission's problem (a compile error
/// saying so), not the judge's.
pub fn check_file_name(class: &str) -> Result<(), ClassNameTooLong> {
    let longest = class.len() + ".class".len();
    if longest > NAME_MAX {
        Err(ClassNameTooLong {
            start: class.chars().take(32).collect(),
            bytes: class.len(),
        })
    } else {
        Ok(())
    }
}

/// The top-level class under `dir` (in any package) whose class file
/// declares `main(String[])`, as the fully qualified name `java` runs;
/// `preferred` (a simple name) wins when several do, then `Main`.
/// Class files under `skip` (a folder submission's own files) are not
/// compiler output and do not count.
pub fn main_class(dir: &Path, preferred: Option<&str>, skip: Option<&Path>) -> Option<String> {
    let mut found: Vec<String> = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .into_iter()
        .filter_entry(|e| skip.is_none_or(|s| e.path() != s))
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .filter_map(|e| {
            let rel = e.path().strip_prefix(dir).ok()?.to_str()?.to_string();
            let class = rel.strip_suffix(".class")?.replace('/', ".");
            if class.contains('$') {
                return None;
            }
            let bytes = crate::beneath::read_file(e.path(), crate::beneath::SOURCE_CAP).ok()?;
            declares_main(&bytes).then_some(class)
        })
        .collect();
    found.sort();
    let simple = |c: &str| c.rsplit('.').next().unwrap_or(c).to_string();
    for want in preferred.into_iter().chain(["Main"]) {
        if let Some(c) = found.iter().find(|c| simple(c) == want) {
            return Some(c.clone());
        }
    }
    found.into_iter().next()
}

/// A class file declaring `main(String[])` holds both the name and the
/// descriptor in its constant pool.
fn declares_main(class_file: &[u8]) -> bool {
    contains(class_file, b"\x00\x04main") && contains(class_file, b"([Ljava/lang/String;)V")
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

fn strip_comments_and_strings(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            i += 2;
            while i < b.len() && !b[i..].starts_with(b"*/") {
                i += 1;
            }
            i += 2;
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            i += 1;
            while i < b.len() && b[i] != q {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push(' ');
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

fn tokens(src: &str) -> Vec<String> {
    src.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_public_class() {
        let src = "import java.util.*;\n// public class Fake\npublic final class Solver { static class Inner {} }";
        assert_eq!(public_class(src), Some("Solver".into()));
        assert_eq!(
            public_class("package com.example.nim;\npublic class Game {}"),
            Some("Game".into())
        );
        assert_eq!(public_class("class Main { }"), None);
        assert_eq!(public_class("public static class X {}"), None);
        assert_eq!(
            public_class("String s = \"public class Q\"; public class R {}"),
            Some("R".into())
        );
    }
}

#[cfg(test)]
mod more_tests {
    use super::*;

    #[test]
    fn a_class_name_too_long_for_a_file_is_named() {
        assert!(check_file_name("Main").is_ok());
        let long = "A".repeat(300);
        let why = check_file_name(&long).expect_err("too long");
        assert_eq!(why.bytes, 300);
        assert!(why.to_string().contains("300 bytes"), "{why}");
    }

    #[test]
    fn main_is_found_in_a_package_folder() {
        let d = tempfile::tempdir().expect("tempdir");
        let pkg = d.path().join("com/example");
        std::fs::create_dir_all(&pkg).expect("mkdir");
        let class = b"\x00\x04main ([Ljava/lang/String;)V";
        std::fs::write(pkg.join("Game.class"), class).expect("write");
        std::fs::write(pkg.join("Game$1.class"), class).expect("write");
        std::fs::write(pkg.join("Helper.class"), b"nothing").expect("write");
        assert_eq!(
            main_class(d.path(), None, None),
            Some("com.example.Game".into())
        );
        assert_eq!(main_class(d.path(), None, Some(&pkg)), None);
    }
}
