//! A submission's verdict and score from its tests, and the weight of each
//! group: the one place these rules live (README.md, "Verdicts").

use super::Verdict;

/// The group name of the samples, worth nothing.
pub use crate::generate::SAMPLE_GROUP;

/// A submission's verdict: `IE` if the judge failed, `CE` if it did not
/// compile, else that of its first failing test (samples first), else AC.
pub fn submission_verdict(
    judge_failed: bool,
    compiled: bool,
    tests: impl IntoIterator<Item = Verdict>,
) -> Verdict {
    if judge_failed {
        Verdict::IE
    } else if !compiled {
        Verdict::CE
    } else {
        Verdict::first_failure(tests)
    }
}

/// Points of the groups whose every test is AC, over all points, scaled to
/// 100 (rounded to 1/1000). A group with no test in `tests` (not judged)
/// earns nothing. With no points at all, all tests AC is 100, else 0.
/// `groups` is (name, points); `tests` is (group, verdict).
pub fn score(groups: &[(&str, f64)], tests: &[(&str, Verdict)]) -> f64 {
    let full: Vec<(&str, Verdict, f64)> = tests.iter().map(|t| (t.0, t.1, 1.0)).collect();
    score_with_shares(groups, &full)
}

/// [`score`] where an accepted test may earn only a share of its credit
/// (an ICPC scoring package's `score.txt`): a group whose every test is AC
/// earns its points times the lowest share among them (a group of one
/// test: that test's share). `tests` is (group, verdict, share in 0..=1).
pub fn score_with_shares(groups: &[(&str, f64)], tests: &[(&str, Verdict, f64)]) -> f64 {
    let total: f64 = groups.iter().map(|g| g.1).sum();
    if total <= 0.0 {
        let all_ac = !tests.is_empty() && tests.iter().all(|t| t.1 == Verdict::AC);
        return if all_ac { 100.0 } else { 0.0 };
    }
    let earned: f64 = groups
        .iter()
        .filter(|g| g.0 != SAMPLE_GROUP)
        .filter_map(|g| {
            let mut in_group = tests.iter().filter(|t| t.0 == g.0).peekable();
            in_group.peek()?;
            let mut least = 1.0f64;
            for t in in_group {
                if t.1 != Verdict::AC {
                    return None;
                }
                least = least.min(t.2.clamp(0.0, 1.0));
            }
            Some(g.1 * least)
        })
        .sum::<f64>()
        + 0.0; // an empty sum is -0.0
    (earned / total * 100.0 * 1000.0).round() / 1000.0
}

/// Each group's share of 100 points, as the reports show it; with no points
/// given, every group weighs the same.
pub fn weights(points: &[f64]) -> Vec<f64> {
    let total: f64 = points.iter().sum();
    let even = if points.is_empty() {
        0.0
    } else {
        100.0 / points.len() as f64
    };
    points
        .iter()
        .map(|p| if total > 0.0 { p / total * 100.0 } else { even })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use Verdict::*;

    #[test]
    fn precedence_of_a_submission() {
        assert_eq!(submission_verdict(true, false, [AC]), IE);
        assert_eq!(submission_verdict(false, false, [AC]), CE);
        assert_eq!(submission_verdict(false, true, [AC, TLE, WA]), TLE);
        assert_eq!(submission_verdict(false, true, [AC, AC]), AC);
    }

    #[test]
    fn a_group_earns_its_tests_lowest_share() {
        let groups = [("sample", 0.0), ("a", 60.0), ("b", 40.0)];
        // a: shares 0.5 and 1; b: all of it.
        let tests = [
            ("sample", AC, 0.0),
            ("a", AC, 0.5),
            ("a", AC, 1.0),
            ("b", AC, 1.0),
        ];
        assert_eq!(score_with_shares(&groups, &tests), 70.0);
        // A share never lifts a failed group.
        let tests = [("a", WA, 1.0), ("b", AC, 0.25)];
        assert_eq!(score_with_shares(&groups, &tests), 10.0);
        // Whole shares are the plain score.
        assert_eq!(
            score_with_shares(&groups, &[("a", AC, 1.0), ("b", WA, 1.0)]),
            score(&groups, &[("a", AC), ("b", WA)])
        );
    }

    #[test]
    fn groups_score_all_or_nothing() {
        let groups = [("sample", 0.0), ("small", 30.0), ("large", 70.0)];
        let tests = [
            ("sample", WA),
            ("small", AC),
            ("small", AC),
            ("large", AC),
            ("large", TLE),
        ];
        assert_eq!(score(&groups, &tests), 30.0);
        assert_eq!(score(&groups, &[("small", AC)]), 30.0, "large not judged");
        assert_eq!(score(&groups, &[]), 0.0);
        assert!(score(&groups, &[("small", WA)]).is_sign_positive());
        assert_eq!(score(&[("a", 1.0), ("b", 2.0)], &[("a", AC)]), 33.333);
    }

    #[test]
    fn without_points_all_or_nothing() {
        assert_eq!(score(&[("a", 0.0)], &[("a", AC)]), 100.0);
        assert_eq!(score(&[("a", 0.0)], &[("a", AC), ("a", WA)]), 0.0);
        assert_eq!(score(&[("a", 0.0)], &[]), 0.0);
    }

    #[test]
    fn weights_share_100() {
        assert_eq!(weights(&[1.0, 3.0]), vec![25.0, 75.0]);
        assert_eq!(weights(&[0.0, 0.0]), vec![50.0, 50.0]);
        assert!(weights(&[]).is_empty());
    }
}
