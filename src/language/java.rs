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

/// The top-level class in `dir` whose class file declares
/// `main(String[])`, preferring `preferred` when several do.
pub fn main_class(dir: &Path, preferred: Option<&str>) -> Option<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let class = name.strip_suffix(".class")?.to_string();
            if class.contains('$') {
                return None;
            }
            let bytes = std::fs::read(e.path()).ok()?;
            declares_main(&bytes).then_some(class)
        })
        .collect();
    found.sort();
    match preferred {
        Some(p) if found.iter().any(|c| c == p) => Some(p.to_string()),
        _ => found.into_iter().next(),
    }
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
        assert_eq!(public_class("class Main { }"), None);
        assert_eq!(public_class("public static class X {}"), None);
        assert_eq!(
            public_class("String s = \"public class Q\"; public class R {}"),
            Some("R".into())
        );
    }
}
