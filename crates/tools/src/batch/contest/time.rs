//! Times in a contest: clock times (RFC 3339), elapsed times since the
//! start, and durations. Small parsers, so no date library is needed.

use std::time::Duration;

/// When a submission was made, as written in a log.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum When {
    /// Unix seconds (a clock time, or a file's modification time).
    Clock(i64),
    /// Seconds since the contest start.
    Elapsed(u64),
}

/// A log's time: a clock time `2025-03-01T10:17:00Z` (UTC when it has no
/// offset), or the time since the start as `H:MM:SS`, `H:MM`, or a bare
/// number of minutes.
pub fn parse_when(s: &str) -> Option<When> {
    let s = s.trim();
    if s.contains('-') {
        return parse_clock(s).map(When::Clock);
    }
    let parts: Vec<&str> = s.split(':').collect();
    let num = |p: &str| p.trim().parse::<u64>().ok();
    match parts.as_slice() {
        [m] => num(m).map(|m| When::Elapsed(m * 60)),
        [h, m] => Some(When::Elapsed(num(h)? * 3600 + num(m)? * 60)),
        [h, m, sec] => Some(When::Elapsed(num(h)? * 3600 + num(m)? * 60 + num(sec)?)),
        _ => None,
    }
}

/// `YYYY-MM-DD[T ]HH:MM[:SS[.fff]][Z|±HH:MM]` → Unix seconds.
pub fn parse_clock(s: &str) -> Option<i64> {
    let s = s.trim();
    let (date, rest) = s.split_at(s.find(['T', 't', ' '])?);
    let rest = &rest[1..];
    let mut d = date.split('-');
    let year: i64 = d.next()?.parse().ok()?;
    let month: u32 = d.next()?.parse().ok()?;
    let day: u32 = d.next()?.parse().ok()?;
    if d.next().is_some() || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let (clock, offset) = match rest.find(['Z', 'z', '+', '-']) {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    let mut c = clock.split(':');
    let hour: i64 = c.next()?.parse().ok()?;
    let minute: i64 = c.next()?.parse().ok()?;
    let second: i64 = match c.next() {
        Some(sec) => sec.split('.').next()?.parse().ok()?,
        None => 0,
    };
    if c.next().is_some() || hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let offset_secs = match offset {
        "" | "Z" | "z" => 0,
        o => {
            let sign = if o.starts_with('-') { -1 } else { 1 };
            let (h, m) = o[1..].split_once(':').unwrap_or((&o[1..], "0"));
            sign * (h.parse::<i64>().ok()? * 3600 + m.parse::<i64>().ok()? * 60)
        }
    };
    Some(
        days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second
            - offset_secs,
    )
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let m = i64::from(m);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `5h`, `90m`, `1h30m`, `45min`, `300s`.
pub fn parse_span(s: &str) -> Option<Duration> {
    let mut total = 0u64;
    let mut num = String::new();
    let mut rest = s.trim();
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let c = rest.chars().next()?;
        if c.is_ascii_digit() {
            num.push(c);
            rest = &rest[1..];
            continue;
        }
        let n: u64 = num.parse().ok()?;
        num.clear();
        let (scale, len) = if rest.starts_with("min") {
            (60, 3)
        } else if rest.starts_with('h') {
            (3600, 1)
        } else if rest.starts_with('m') {
            (60, 1)
        } else if rest.starts_with('s') {
            (1, 1)
        } else {
            return None;
        };
        total += n * scale;
        rest = rest[len..].trim_start();
    }
    if !num.is_empty() {
        return None;
    }
    Some(Duration::from_secs(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_times() {
        assert_eq!(parse_clock("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_clock("2025-03-01T10:00:00Z"), Some(1_740_823_200));
        assert_eq!(
            parse_clock("2025-03-01 11:00:00+01:00"),
            Some(1_740_823_200)
        );
        assert_eq!(parse_clock("2025-03-01T10:00"), Some(1_740_823_200));
        assert_eq!(parse_clock("2025-13-01T10:00"), None);
    }

    #[test]
    fn elapsed_and_spans() {
        assert_eq!(parse_when("17"), Some(When::Elapsed(17 * 60)));
        assert_eq!(parse_when("1:05"), Some(When::Elapsed(3900)));
        assert_eq!(parse_when("0:01:30"), Some(When::Elapsed(90)));
        assert_eq!(
            parse_when("2025-03-01T10:00:00Z"),
            Some(When::Clock(1_740_823_200))
        );
        assert_eq!(parse_span("1h30m"), Some(Duration::from_secs(5400)));
        assert_eq!(parse_span("45min"), Some(Duration::from_secs(2700)));
        assert_eq!(parse_span("5"), None);
    }
}
