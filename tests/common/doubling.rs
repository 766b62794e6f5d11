//! The "doubling" problem the scoring-package tests build: each test's
//! answer is twice its input, so a package needs no reference solution.

use super::Project;

/// Doubles its input.
pub const FULL: &str = "print(2 * int(input()))\n";
/// Right for small inputs only.
pub const SMALL_ONLY: &str = "n = int(input())\nprint(2 * n if n <= 10 else 0)\n";

/// Writes `1.in`/`1.ans`, `2.in`/`2.ans`… in `folder`, one per input.
pub fn tests(p: &Project, folder: &str, inputs: &[u64]) {
    for (k, n) in inputs.iter().enumerate() {
        p.write(&format!("{folder}/{}.in", k + 1), &format!("{n}\n"));
        p.write(&format!("{folder}/{}.ans", k + 1), &format!("{}\n", 2 * n));
    }
}
