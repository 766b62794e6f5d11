//! How a verdict looks on an HTML page: its CSS class and the colours of
//! each, one place for every page that shows verdicts.

use crate::verdict::Verdict;

/// Colours shared by the grade report and the scoreboard, one class per verdict.
pub(crate) const VERDICT_CSS: &str = "
.v-AC{background:#c8e6c9;color:#1b5e20}
.v-WA{background:#ffcdd2;color:#b71c1c}
.v-PE{background:#ffe0b2;color:#e65100}
.v-TLE,.v-MLE,.v-OLE{background:#fff59d;color:#6d4c00}
.v-RE{background:#e1bee7;color:#4a148c}
.v-CE{background:#d7ccc8;color:#3e2723}
.v-IE{background:#37474f;color:#fff}
.v-none{background:#f2f2f2;color:#888}
";

/// The verdict's CSS class.
pub(crate) fn class_of(v: Verdict) -> String {
    format!("v-{}", v.code())
}
