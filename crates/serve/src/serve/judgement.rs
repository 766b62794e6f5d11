//! grundy's verdicts as the ICPC Contest API's judgement types, in one
//! place: the event log, the pages' legend and any exporter read them here.

use serde::Serialize;

use crate::verdict::Verdict;

/// A judgement type of the Contest API (`judgement-types` endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JudgementType {
    pub id: &'static str,
    pub name: &'static str,
    /// Whether it costs penalty time when the problem is solved later.
    pub penalty: bool,
    pub solved: bool,
}

/// The judgement type of a verdict. A run-time error is `RTE` and the
/// judge's own failure `JE` (as DOMjudge names it); neither a compile
/// error nor the judge's failure costs penalty time (grundy's ICPC rule,
/// `batch/contest/score.rs`).
pub fn of(v: Verdict) -> JudgementType {
    let (id, penalty) = match v {
        Verdict::AC => ("AC", false),
        Verdict::WA => ("WA", true),
        Verdict::PE => ("PE", true),
        Verdict::TLE => ("TLE", true),
        Verdict::MLE => ("MLE", true),
        Verdict::OLE => ("OLE", true),
        Verdict::RE => ("RTE", true),
        Verdict::CE => ("CE", false),
        Verdict::IE => ("JE", false),
    };
    JudgementType {
        id,
        name: v.meaning(),
        penalty,
        solved: v == Verdict::AC,
    }
}

/// The verdict of a judgement type id.
pub fn verdict(id: &str) -> Option<Verdict> {
    Verdict::ALL.into_iter().find(|v| of(*v).id == id)
}

/// Every judgement type, in verdict order.
pub fn all() -> Vec<JudgementType> {
    Verdict::ALL.into_iter().map(of).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_verdict_has_its_own_type_and_back() {
        let ids: Vec<&str> = all().iter().map(|t| t.id).collect();
        let mut unique = ids.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ids.len());
        for v in Verdict::ALL {
            assert_eq!(verdict(of(v).id), Some(v));
        }
        assert!(!of(Verdict::CE).penalty && of(Verdict::WA).penalty);
        assert_eq!(of(Verdict::RE).id, "RTE");
    }
}
