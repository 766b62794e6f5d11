//! Sharding: `--shard K/N` judges the items whose stable hash falls in
//! share K of N (K from 0, as Slurm's `--array=0-(N-1)` and Kubernetes'
//! `JOB_COMPLETION_INDEX` count).
//!
//! The hash is SHA-256 of the student and the problem, so an item's shard
//! depends on nothing else: not on the order of the walk, not on the other
//! students, not on the machine. Every shard walks the whole folder and
//! writes the whole plan, so `grundy merge` can check that the shards saw
//! the same class.

use std::str::FromStr;

use sha2::{Digest, Sha256};

use super::model::{Item, Shard};

/// A `--shard` that is not `K/N` with `0 ≤ K < N`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad shard `{0}`: expected K/N with 0 ≤ K < N, e.g. 0/4")]
pub struct BadShard(pub String);

impl FromStr for Shard {
    type Err = BadShard;
    fn from_str(s: &str) -> Result<Self, BadShard> {
        let bad = || BadShard(s.to_string());
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let index: u32 = k.trim().parse().map_err(|_| bad())?;
        let count: u32 = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl Shard {
    /// Whether `item` belongs to this shard.
    pub fn owns(&self, item: &Item) -> bool {
        shard_of(&item.student, item.problem.as_str(), self.count) == self.index
    }
}

/// The shard (of `count`) that judges `student`'s `problem`.
pub fn shard_of(student: &str, problem: &str, count: u32) -> u32 {
    let mut h = Sha256::new();
    h.update((student.len() as u64).to_le_bytes());
    h.update(student.as_bytes());
    h.update(problem.as_bytes());
    let d = h.finalize();
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    (u64::from_le_bytes(first) % u64::from(count.max(1))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_rejects() {
        assert_eq!("1/4".parse::<Shard>(), Ok(Shard { index: 1, count: 4 }));
        assert!("4/4".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
    }

    #[test]
    fn every_item_has_exactly_one_shard_and_shares_are_fair() {
        let mut counts = [0usize; 4];
        for s in 0..400 {
            let item = Item {
                student: format!("student{s}"),
                problem: crate::problem::ProblemId("nim".into()),
                file: String::new(),
                sha: String::new(),
            };
            let owners: Vec<u32> = (0..4)
                .filter(|&k| Shard { index: k, count: 4 }.owns(&item))
                .collect();
            assert_eq!(owners.len(), 1);
            counts[owners[0] as usize] += 1;
        }
        assert!(counts.iter().all(|&c| (60..140).contains(&c)), "{counts:?}");
    }
}
