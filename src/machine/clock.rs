//! The time, and `expiresAt` read as a date (rule I5): an interrupt whose
//! `expiresAt` is now or earlier can no longer be resolved. The core stays
//! pure: the wasm binding hands over the host's `Date`, whose reading of a
//! date is the reference's; native builds read ISO 8601 themselves.

/// How the tracker reads the time and a date (both in milliseconds since
/// the Unix epoch).
///
/// ```
/// use agui_tool_calls::{Clock, Options, Tracker};
///
/// fn noon() -> f64 { 1_767_268_800_000.0 } // 2026-01-01T12:00:00Z
/// let mut t = Tracker::new(Options::default());
/// t.set_clock(Clock { now_ms: noon, ..Clock::default() });
/// assert!(t.expired("2026-01-01T12:00:00Z"));
/// assert!(!t.expired("2026-01-01T12:00:01Z"));
/// assert!(!t.expired("not a date")); // never judged expired
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Clock {
    /// The time now.
    pub now_ms: fn() -> f64,
    /// A date, or `None` when the text is not one.
    pub parse_date: fn(&str) -> Option<f64>,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            now_ms: system_now,
            parse_date: iso8601,
        }
    }
}

impl super::Tracker {
    /// Whether an interrupt with this `expiresAt` has expired: the text
    /// reads as a date that is now or earlier. Text that is no date never
    /// expires.
    pub fn expired(&self, expires_at: &str) -> bool {
        (self.clock.parse_date)(expires_at).is_some_and(|at| at <= (self.clock.now_ms)())
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn system_now() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64)
}

/// The wasm module has no clock of its own: the binding sets the host's.
#[cfg(target_arch = "wasm32")]
fn system_now() -> f64 {
    f64::NAN
}

#[cfg(target_arch = "wasm32")]
fn iso8601(_: &str) -> Option<f64> {
    None
}

/// `YYYY-MM-DD`, optionally `THH:MM`, `:SS`, `.fraction`, and `Z` or
/// `±HH:MM` (UTC when absent), as ECMAScript's date-time string format.
#[cfg(not(target_arch = "wasm32"))]
fn iso8601(text: &str) -> Option<f64> {
    let b = text.as_bytes();
    let num = |at: usize, len: usize| -> Option<i64> {
        let digits = b.get(at..at + len)?;
        digits.iter().try_fold(0i64, |n, &d| {
            d.is_ascii_digit().then(|| n * 10 + i64::from(d - b'0'))
        })
    };
    let sep = |at: usize, c: u8| b.get(at) == Some(&c);
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    if !sep(4, b'-') || !sep(7, b'-') || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * 86_400_000;
    let mut at = 10;
    if at < b.len() {
        if !sep(at, b'T') && !sep(at, b't') && !sep(at, b' ') {
            return None;
        }
        let (hour, minute) = (num(at + 1, 2)?, num(at + 4, 2)?);
        if !sep(at + 3, b':') || hour > 23 || minute > 59 {
            return None;
        }
        ms += (hour * 60 + minute) * 60_000;
        at += 6;
        if sep(at, b':') {
            let second = num(at + 1, 2)?;
            if second > 59 {
                return None;
            }
            ms += second * 1000;
            at += 3;
            if sep(at, b'.') {
                let digits = b[at + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .count();
                if digits == 0 {
                    return None;
                }
                let millis = num(at + 1, digits.min(3))?;
                ms += millis * 10i64.pow(3 - digits.min(3) as u32);
                at += 1 + digits;
            }
        }
        match b.get(at) {
            None => {}
            Some(b'Z' | b'z') if at + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) if at + 6 == b.len() && sep(at + 3, b':') => {
                let offset = (num(at + 1, 2)? * 60 + num(at + 4, 2)?) * 60_000;
                ms += if sign == b'+' { -offset } else { offset };
            }
            _ => return None,
        }
    }
    Some(ms as f64)
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
#[cfg(not(target_arch = "wasm32"))]
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::iso8601;

    #[test]
    fn i5_expires_at_reads_as_ecmascript_reads_iso_dates() {
        assert_eq!(iso8601("1970-01-01"), Some(0.0));
        assert_eq!(iso8601("2026-01-01T12:00:00Z"), Some(1_767_268_800_000.0));
        assert_eq!(iso8601("2026-01-01T12:00:00.5Z"), Some(1_767_268_800_500.0));
        assert_eq!(
            iso8601("2026-01-01T13:00:00+01:00"),
            Some(1_767_268_800_000.0)
        );
        assert_eq!(iso8601("2026-01-01T12:00"), Some(1_767_268_800_000.0));
        assert_eq!(iso8601("2000-02-29T00:00:00Z"), Some(951_782_400_000.0));
        for bad in [
            "",
            "soon",
            "2026-13-01",
            "2026-01-01T25:00Z",
            "2026-01-01Tx",
            "2026-01-01T12:00:00Zjunk",
        ] {
            assert_eq!(iso8601(bad), None, "{bad}");
        }
    }
}
