//! The contest's clock: when it starts, ends and freezes, written in the
//! contest file as absolute times or relative to the moment the server
//! first started (`now`, `now+10m`, `now-1h`), so that a test or a class
//! can start a contest without editing dates.
//!
//! A relative time is resolved once and kept in the database, so that a
//! server restarted mid-contest keeps the same start and deadlines.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::batch::contest::time::{parse_clock, parse_span};

/// Milliseconds since the Unix epoch: every instant the server stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Millis(pub i64);

impl Millis {
    pub fn now() -> Millis {
        let d = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or(Duration::ZERO);
        Millis(i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
    }

    pub fn plus(self, d: Duration) -> Millis {
        Millis(
            self.0
                .saturating_add(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        )
    }

    pub fn minus(self, d: Duration) -> Millis {
        Millis(
            self.0
                .saturating_sub(i64::try_from(d.as_millis()).unwrap_or(i64::MAX)),
        )
    }

    /// RFC 3339 in UTC with milliseconds: `2025-03-01T10:00:00.000Z`.
    pub fn rfc3339(self) -> String {
        let secs = self.0.div_euclid(1000);
        let ms = self.0.rem_euclid(1000);
        let days = secs.div_euclid(86_400);
        let rest = secs.rem_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        format!(
            "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{ms:03}Z",
            rest / 3600,
            rest % 3600 / 60,
            rest % 60
        )
    }
}

/// A contest-relative duration as the Contest API writes it: `h:mm:ss.sss`
/// (negative before the start).
pub fn contest_time(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    format!(
        "{sign}{}:{:02}:{:02}.{:03}",
        ms / 3_600_000,
        ms / 60_000 % 60,
        ms / 1000 % 60,
        ms % 1000
    )
}

/// `1:05:03` for people (no milliseconds).
pub fn hms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let s = ms.unsigned_abs() / 1000;
    format!("{sign}{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// Civil date of a day count since 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// A time as the contest file writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TimeSpec {
    /// An absolute time.
    At(Millis),
    /// `now`, `now+10m`, `now-1h`: an offset in milliseconds from when the
    /// server first resolves it.
    FromNow(i64),
}

impl TimeSpec {
    /// Reads `2025-03-01T10:00:00Z`, `now`, `now+1h30m` or `now-5m`.
    pub fn parse(s: &str) -> Option<TimeSpec> {
        let s = s.trim();
        if let Some(rest) = s.strip_prefix("now") {
            let rest = rest.trim();
            if rest.is_empty() {
                return Some(TimeSpec::FromNow(0));
            }
            let (sign, span) = if let Some(r) = rest.strip_prefix('+') {
                (1, r)
            } else if let Some(r) = rest.strip_prefix('-') {
                (-1, r)
            } else {
                return None;
            };
            let d = parse_span(span)?;
            return Some(TimeSpec::FromNow(sign * i64::try_from(d.as_millis()).ok()?));
        }
        parse_clock(s).map(|secs| TimeSpec::At(Millis(secs.saturating_mul(1000))))
    }

    /// The text kept beside a resolved relative time: a changed contest
    /// file resolves it again.
    pub fn text(&self) -> String {
        match self {
            TimeSpec::At(m) => m.rfc3339(),
            TimeSpec::FromNow(ms) => format!("now{ms:+}ms"),
        }
    }
}

/// The contest's times, resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub start: Millis,
    /// `None`: no end (a class open until its deadlines).
    pub end: Option<Millis>,
    /// When the scoreboard freezes for the public and the teams.
    pub freeze: Option<Millis>,
}

/// Where the contest stands at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Before,
    Running,
    Over,
}

impl Clock {
    pub fn phase(&self, at: Millis) -> Phase {
        if at < self.start {
            Phase::Before
        } else if self.end.is_some_and(|e| at >= e) {
            Phase::Over
        } else {
            Phase::Running
        }
    }

    /// Milliseconds since the start (negative before it).
    pub fn elapsed(&self, at: Millis) -> i64 {
        at.0 - self.start.0
    }

    /// Whether a submission made at `at` is hidden from the public and the
    /// teams' scoreboard while the scoreboard is frozen.
    pub fn after_freeze(&self, at: Millis) -> bool {
        self.freeze.is_some_and(|f| at >= f)
    }
}

/// `1h30m`-style spans for config values.
pub fn span(s: &str) -> Option<Duration> {
    parse_span(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_offsets_parse() {
        assert_eq!(
            TimeSpec::parse("2025-03-01T10:00:00Z"),
            Some(TimeSpec::At(Millis(1_740_823_200_000)))
        );
        assert_eq!(TimeSpec::parse("now"), Some(TimeSpec::FromNow(0)));
        assert_eq!(
            TimeSpec::parse("now+1h30m"),
            Some(TimeSpec::FromNow(5_400_000))
        );
        assert_eq!(
            TimeSpec::parse("now - 5m"),
            Some(TimeSpec::FromNow(-300_000))
        );
        assert_eq!(TimeSpec::parse("now*2"), None);
        assert_eq!(TimeSpec::parse("tomorrow"), None);
    }

    #[test]
    fn instants_print_as_rfc3339_and_contest_times() {
        assert_eq!(
            Millis(1_740_823_200_123).rfc3339(),
            "2025-03-01T10:00:00.123Z"
        );
        assert_eq!(Millis(0).rfc3339(), "1970-01-01T00:00:00.000Z");
        assert_eq!(contest_time(3_723_004), "1:02:03.004");
        assert_eq!(contest_time(-1500), "-0:00:01.500");
        assert_eq!(hms(3_723_004), "1:02:03");
    }

    #[test]
    fn phases_follow_the_clock() {
        let c = Clock {
            start: Millis(1000),
            end: Some(Millis(5000)),
            freeze: Some(Millis(4000)),
        };
        assert_eq!(c.phase(Millis(999)), Phase::Before);
        assert_eq!(c.phase(Millis(1000)), Phase::Running);
        assert_eq!(c.phase(Millis(5000)), Phase::Over);
        assert!(!c.after_freeze(Millis(3999)) && c.after_freeze(Millis(4000)));
    }
}
