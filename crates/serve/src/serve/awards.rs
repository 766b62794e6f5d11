//! What the contest file says about awards beyond the winner and the
//! first to solve each problem: how many teams get each medal, and the
//! teams' groups (each group's best team is its winner).
//!
//! ```yaml
//! medals: {gold: 4, silver: 4, bronze: 4}     # the defaults
//! teams: [{id: ana, group: europe}, {id: ben, group: asia}]
//! ```

use serde::Deserialize;

/// How many teams get each medal, by rank: the first `gold` ranks gold,
/// the next `silver` silver, the next `bronze` bronze. Teams tied on a
/// rank share its medal, so more teams than the count may get one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Medals {
    #[serde(default = "four")]
    pub gold: u32,
    #[serde(default = "four")]
    pub silver: u32,
    #[serde(default = "four")]
    pub bronze: u32,
}

/// Four of each, as at the ICPC World Finals.
fn four() -> u32 {
    4
}

impl Default for Medals {
    fn default() -> Self {
        Medals {
            gold: four(),
            silver: four(),
            bronze: four(),
        }
    }
}

/// A medal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Medal {
    Gold,
    Silver,
    Bronze,
}

impl Medal {
    pub const ALL: [Medal; 3] = [Medal::Gold, Medal::Silver, Medal::Bronze];

    /// The Contest API's award id.
    pub fn award_id(self) -> &'static str {
        match self {
            Medal::Gold => "gold-medal",
            Medal::Silver => "silver-medal",
            Medal::Bronze => "bronze-medal",
        }
    }

    pub fn citation(self) -> &'static str {
        match self {
            Medal::Gold => "Gold medal winner",
            Medal::Silver => "Silver medal winner",
            Medal::Bronze => "Bronze medal winner",
        }
    }
}

impl Medals {
    /// The medal of a team ranked `rank` (1 for the first), if any.
    pub fn of_rank(self, rank: usize) -> Option<Medal> {
        let gold = self.gold as usize;
        let silver = gold + self.silver as usize;
        let bronze = silver + self.bronze as usize;
        match rank {
            0 => None,
            r if r <= gold => Some(Medal::Gold),
            r if r <= silver => Some(Medal::Silver),
            r if r <= bronze => Some(Medal::Bronze),
            _ => None,
        }
    }
}

/// Why a group's id is not usable: the Contest API's ids are letters,
/// digits, `_`, `.` and `-`, 1 to 36 of them, not starting with `.` or `-`.
pub fn check_group(id: &str) -> Result<(), String> {
    let ok = !id.is_empty()
        && id.len() <= 36
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        && !id.starts_with(['.', '-']);
    if ok {
        Ok(())
    } else {
        Err(format!(
            "`{id}` is not a group id: use 1 to 36 letters, digits, `_`, `.` or `-`, not starting with `.` or `-`"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_earn_medals_in_order_and_none_past_the_last_bronze() {
        let m = Medals {
            gold: 1,
            silver: 2,
            bronze: 0,
        };
        assert_eq!(m.of_rank(1), Some(Medal::Gold));
        assert_eq!(m.of_rank(2), Some(Medal::Silver));
        assert_eq!(m.of_rank(3), Some(Medal::Silver));
        assert_eq!(m.of_rank(4), None);
        let d = Medals::default();
        assert_eq!(d.of_rank(12), Some(Medal::Bronze));
        assert_eq!(d.of_rank(13), None);
    }

    #[test]
    fn group_ids_follow_the_contest_apis_ids() {
        assert!(check_group("europe").is_ok());
        assert!(check_group("north-america_2").is_ok());
        assert!(check_group("").is_err());
        assert!(check_group("-x").is_err());
        assert!(check_group("a b").is_err());
        assert!(check_group(&"x".repeat(37)).is_err());
    }
}
