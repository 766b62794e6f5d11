//! Where a value sits in the contest file's text, so that a value that
//! reads as YAML but means nothing is reported at its line and column like
//! every YAML error (serde gives the place of syntax errors only).

/// The line and column (from 1) of the `nth` (from 0) occurrence of
/// `needle` in `text`; 1:1 when it is not there.
pub(super) fn locate(text: &str, needle: &str, nth: usize) -> (usize, usize) {
    let Some((offset, _)) = text.match_indices(needle).nth(nth) else {
        return (1, 1);
    };
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

/// The place of `value` written after `key:` (the first such key whose
/// value follows); the key's place when the value is not found after it.
pub(super) fn locate_value(text: &str, key: &str, value: &str) -> (usize, usize) {
    let pattern = format!("{key}:");
    for (at, _) in text.match_indices(&pattern) {
        let rest = &text[at..];
        if let Some(off) = rest.find(value) {
            return locate(text, value, text[..at + off].matches(value).count());
        }
    }
    locate(text, &pattern, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_count_lines_and_characters_from_one() {
        let text = "a: 1\nname: 'é x'\nb: x\n";
        assert_eq!(locate(text, "x", 0), (2, 10));
        assert_eq!(locate(text, "x", 1), (3, 4));
        assert_eq!(locate(text, "absent", 0), (1, 1));
        assert_eq!(locate_value(text, "b", "x"), (3, 4));
        assert_eq!(locate_value(text, "c", "x"), (1, 1));
    }
}
