//! A class's homework rules: whose score counts (the best or the last
//! submission's) and what happens to work handed in after a deadline.
//! The contest file's `homework:` section reads into these.

use std::fmt;

use serde::Deserialize;

/// Whose score counts in a class: the best submission's or the last one's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Count {
    #[default]
    Best,
    Last,
}

/// What happens to a submission after its problem's deadline.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub enum Late {
    /// Refused with a message (the default).
    #[default]
    Refuse,
    /// Taken and counted in full.
    Accept,
    /// Taken, its score multiplied by `1 - share`.
    Penalty(f64),
}

/// A `late:` value: refuse, accept, or a share taken off like 25%.
pub(super) fn late(s: &str) -> Result<Late, String> {
    let t = s.trim();
    match t {
        "refuse" => Ok(Late::Refuse),
        "accept" => Ok(Late::Accept),
        _ => t
            .strip_suffix('%')
            .and_then(|n| n.trim().parse::<f64>().ok())
            .filter(|p| (0.0..=100.0).contains(p))
            .map(|p| Late::Penalty(p / 100.0))
            .ok_or_else(|| {
                format!(
                    "`{s}` is none of refuse, accept, or a share taken off late scores like 25%"
                )
            }),
    }
}

impl fmt::Display for Late {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Late::Refuse => f.write_str("late submissions are refused"),
            Late::Accept => f.write_str("late submissions count in full"),
            Late::Penalty(p) => write!(f, "late submissions lose {}% of their score", p * 100.0),
        }
    }
}

#[derive(Debug, Clone)]
pub struct Homework {
    pub count: Count,
    pub late: Late,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HomeworkFile {
    #[serde(default)]
    pub(super) count: Count,
    pub(super) late: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn late_rules_read_and_refuse_what_is_none_of_them() {
        assert_eq!(late("refuse"), Ok(Late::Refuse));
        assert_eq!(late(" accept "), Ok(Late::Accept));
        assert_eq!(late("25%"), Ok(Late::Penalty(0.25)));
        for bad in ["sometimes", "125%", "-5%", "25"] {
            assert!(late(bad).is_err(), "{bad}");
        }
    }
}
