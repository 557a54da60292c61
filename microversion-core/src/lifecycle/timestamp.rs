//! [`Timestamp`]: the instants of a version's life, written as literals in
//! a declaration and parsed by a small `const` parser, so that a malformed
//! date is a compile error where the `Api` is declared. Formatting for the
//! wire (HTTP-date, RFC 3339) and parsing what a server sends use the
//! `time` crate at run time.

use std::fmt;
use std::time::{SystemTime, UNIX_EPOCH};

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;

/// An instant, in whole seconds since the Unix epoch (UTC), written in a
/// declaration as `YYYY-MM-DD` (midnight UTC) or as an RFC 3339 timestamp
/// (`2026-07-01T12:00:00Z`, `2026-07-01T14:00:00+02:00`; fractions of a
/// second are dropped).
///
/// ```
/// use microversion_core::lifecycle::Timestamp;
///
/// const SUNSET: Timestamp = Timestamp::lit("2026-07-01");
/// assert_eq!(SUNSET.unix_seconds(), 1_782_864_000);
/// assert_eq!(SUNSET.http_date(), "Wed, 01 Jul 2026 00:00:00 GMT");
/// assert_eq!(Timestamp::lit("2026-07-01T02:00:00+02:00"), SUNSET);
/// assert!(Timestamp::parse("2026-02-30").is_err());
/// ```
///
/// ```compile_fail
/// // error[E0080]: a date must be YYYY-MM-DD or an RFC 3339 timestamp ...
/// const BAD: microversion_core::lifecycle::Timestamp = microversion_core::lifecycle::Timestamp::lit("2026-7-1");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    unix: i64,
}

/// Why a text is not a [`Timestamp`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimestampError {
    /// Not `YYYY-MM-DD` nor `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)`.
    Malformed,
    /// Well formed, but no such day or time (`2026-02-30`, `25:00:00`).
    OutOfRange,
}

impl TimestampError {
    /// A short explanation, usable in `const` panics.
    pub const fn message(self) -> &'static str {
        match self {
            TimestampError::Malformed => {
                "a date must be YYYY-MM-DD or an RFC 3339 timestamp such as 2026-07-01T00:00:00Z"
            }
            TimestampError::OutOfRange => {
                "no such date or time (a month, day, hour, minute or second out of range)"
            }
        }
    }
}

impl fmt::Display for TimestampError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for TimestampError {}

const fn digits(bytes: &[u8], at: usize, len: usize) -> Result<i64, TimestampError> {
    if at + len > bytes.len() {
        return Err(TimestampError::Malformed);
    }
    let mut value = 0i64;
    let mut i = 0;
    while i < len {
        let b = bytes[at + i];
        if !b.is_ascii_digit() {
            return Err(TimestampError::Malformed);
        }
        value = value * 10 + (b - b'0') as i64;
        i += 1;
    }
    Ok(value)
}

const fn expect(bytes: &[u8], at: usize, byte: u8) -> Result<(), TimestampError> {
    if at < bytes.len() && bytes[at] == byte { Ok(()) } else { Err(TimestampError::Malformed) }
}

const fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

const fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
const fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `?` for `const fn`.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}

impl Timestamp {
    /// The instant `unix` seconds after 1970-01-01T00:00:00Z.
    pub const fn from_unix(unix: i64) -> Timestamp {
        Timestamp { unix }
    }

    /// Seconds since the Unix epoch.
    pub const fn unix_seconds(self) -> i64 {
        self.unix
    }

    /// The current time, to the second.
    pub fn now() -> Timestamp {
        Timestamp::from(SystemTime::now())
    }

    /// Parses `YYYY-MM-DD` (midnight UTC) or an RFC 3339 timestamp
    /// (`T` or `t` between date and time, `Z`, `z` or `±HH:MM` after it,
    /// an optional fraction of a second, which is dropped). Leap seconds
    /// (`:60`) are refused. Usable in `const` context.
    pub const fn parse(text: &str) -> Result<Timestamp, TimestampError> {
        let b = text.as_bytes();
        let year = tri!(digits(b, 0, 4));
        tri!(expect(b, 4, b'-'));
        let month = tri!(digits(b, 5, 2));
        tri!(expect(b, 7, b'-'));
        let day = tri!(digits(b, 8, 2));
        if month < 1 || month > 12 || day < 1 || day > days_in_month(year, month) {
            // Still malformed if more follows that is not a time.
            return Err(TimestampError::OutOfRange);
        }
        let days = days_from_civil(year, month, day);
        if b.len() == 10 {
            return Ok(Timestamp { unix: days * 86_400 });
        }
        if b.len() < 20 || !(b[10] == b'T' || b[10] == b't') {
            return Err(TimestampError::Malformed);
        }
        let hour = tri!(digits(b, 11, 2));
        tri!(expect(b, 13, b':'));
        let minute = tri!(digits(b, 14, 2));
        tri!(expect(b, 16, b':'));
        let second = tri!(digits(b, 17, 2));
        let mut at = 19;
        if b[at] == b'.' {
            at += 1;
            let start = at;
            while at < b.len() && b[at].is_ascii_digit() {
                at += 1;
            }
            if at == start {
                return Err(TimestampError::Malformed);
            }
        }
        if at >= b.len() {
            return Err(TimestampError::Malformed);
        }
        let offset = match b[at] {
            b'Z' | b'z' if at + 1 == b.len() => 0,
            sign @ (b'+' | b'-') if at + 6 == b.len() => {
                let oh = tri!(digits(b, at + 1, 2));
                tri!(expect(b, at + 3, b':'));
                let om = tri!(digits(b, at + 4, 2));
                if oh > 23 || om > 59 {
                    return Err(TimestampError::OutOfRange);
                }
                let minutes = oh * 60 + om;
                if sign == b'+' { minutes * 60 } else { -minutes * 60 }
            }
            _ => return Err(TimestampError::Malformed),
        };
        if hour > 23 || minute > 59 || second > 59 {
            return Err(TimestampError::OutOfRange);
        }
        Ok(Timestamp { unix: days * 86_400 + hour * 3600 + minute * 60 + second - offset })
    }

    /// Parses a literal; an invalid one is a compile error in a `const`
    /// and a panic otherwise.
    pub const fn lit(text: &str) -> Timestamp {
        match Timestamp::parse(text) {
            Ok(t) => t,
            Err(e) => panic!("{}", e.message()),
        }
    }

    /// `self <= other`, usable in `const` context.
    pub const fn le(self, other: Timestamp) -> bool {
        self.unix <= other.unix
    }

    fn date_time(self) -> Option<OffsetDateTime> {
        OffsetDateTime::from_unix_timestamp(self.unix).ok()
    }

    /// The IMF-fixdate of RFC 9110 (`Wed, 01 Jul 2026 00:00:00 GMT`), the
    /// `Sunset` header's format (RFC 8594).
    pub fn http_date(self) -> String {
        let format = format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
        );
        self.date_time().and_then(|t| t.format(&format).ok()).unwrap_or_default()
    }

    /// The structured-field date of RFC 9651 (`@1782864000`), the
    /// `Deprecation` header's format (RFC 9745).
    pub fn structured_field_date(self) -> String {
        format!("@{}", self.unix)
    }

    /// `YYYY-MM-DD` at midnight UTC, an RFC 3339 timestamp in UTC otherwise:
    /// how discovery documents and messages write it.
    pub fn iso8601(self) -> String {
        if self.unix.rem_euclid(86_400) == 0 {
            let format = format_description!("[year]-[month]-[day]");
            return self.date_time().and_then(|t| t.format(&format).ok()).unwrap_or_default();
        }
        self.date_time().and_then(|t| t.format(&Rfc3339).ok()).unwrap_or_default()
    }

    /// Reads an HTTP-date: the IMF-fixdate, and the obsolete RFC 850 and
    /// asctime forms that RFC 9110 asks recipients to accept.
    pub fn parse_http_date(text: &str) -> Option<Timestamp> {
        let text = text.trim();
        let imf = format_description!(
            "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
        );
        let rfc850 = format_description!(
            "[weekday repr:long], [day]-[month repr:short]-[year repr:last_two] [hour]:[minute]:[second] GMT"
        );
        let asctime = format_description!(
            "[weekday repr:short] [month repr:short] [day padding:space] [hour]:[minute]:[second] [year]"
        );
        if let Ok(t) = time::PrimitiveDateTime::parse(text, &imf) {
            return Some(Timestamp::from_unix(t.assume_utc().unix_timestamp()));
        }
        if let Ok(t) = time::PrimitiveDateTime::parse(text, &asctime) {
            return Some(Timestamp::from_unix(t.assume_utc().unix_timestamp()));
        }
        // Two-digit years: `time` reads them as 20YY at most 50 years ahead (RFC 9110 §5.6.7).
        let parsed = time::parsing::Parsed::new();
        let mut parsed = parsed;
        parsed.parse_items(text.as_bytes(), rfc850).ok().filter(|rest| rest.is_empty())?;
        let (Some(yy), Some(month), Some(day), Some(h), Some(m), Some(s)) = (
            parsed.year_last_two(),
            parsed.month(),
            parsed.day(),
            parsed.hour_24(),
            parsed.minute(),
            parsed.second(),
        ) else {
            return None;
        };
        let this_year = OffsetDateTime::now_utc().year();
        let mut year = this_year - this_year.rem_euclid(100) + i32::from(yy);
        if year > this_year + 50 {
            year -= 100;
        }
        let date = time::Date::from_calendar_date(year, month, day.get()).ok()?;
        let t = date.with_hms(h, m, s).ok()?;
        Some(Timestamp::from_unix(t.assume_utc().unix_timestamp()))
    }

    /// Reads a structured-field date (`@1782864000`, RFC 9651 §3.3.7):
    /// an `@` and an integer of at most 15 digits, with an optional `-`.
    pub fn parse_structured_field_date(text: &str) -> Option<Timestamp> {
        let rest = text.trim().strip_prefix('@')?;
        let digits = rest.strip_prefix('-').unwrap_or(rest);
        if digits.is_empty() || digits.len() > 15 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        rest.parse().ok().map(Timestamp::from_unix)
    }
}

impl From<SystemTime> for Timestamp {
    fn from(at: SystemTime) -> Timestamp {
        match at.duration_since(UNIX_EPOCH) {
            Ok(after) => Timestamp::from_unix(after.as_secs() as i64),
            Err(before) => Timestamp::from_unix(-(before.duration().as_secs_f64().ceil() as i64)),
        }
    }
}

impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.iso8601())
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Timestamp({})", self.iso8601())
    }
}

/// `YYYY-MM-DD`, an RFC 3339 timestamp, or a structured-field date.
impl std::str::FromStr for Timestamp {
    type Err = TimestampError;

    fn from_str(s: &str) -> Result<Timestamp, TimestampError> {
        Timestamp::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_timestamps_parse_to_unix_seconds() {
        assert_eq!(Timestamp::lit("1970-01-01").unix_seconds(), 0);
        assert_eq!(Timestamp::lit("2026-01-01").unix_seconds(), 1_767_225_600);
        assert_eq!(Timestamp::lit("2024-02-29").unix_seconds(), 1_709_164_800);
        assert_eq!(Timestamp::lit("2026-07-01T00:00:01Z").unix_seconds(), 1_782_864_001);
        assert_eq!(Timestamp::lit("2026-07-01t00:00:01.999z").unix_seconds(), 1_782_864_001);
        assert_eq!(Timestamp::lit("2026-07-01T01:30:00+01:30"), Timestamp::lit("2026-07-01"));
        assert_eq!(Timestamp::lit("2026-06-30T22:00:00-02:00"), Timestamp::lit("2026-07-01"));
        assert_eq!(Timestamp::lit("1969-12-31T23:59:59Z").unix_seconds(), -1);
    }
    #[test]
    fn malformed_and_impossible_dates_are_refused() {
        for bad in [
            "",
            "2026",
            "2026-1-01",
            "2026-01-1",
            "26-01-01",
            "2026/01/01",
            "2026-01-01 ",
            " 2026-01-01",
            "2026-01-01T",
            "2026-01-01T00:00Z",
            "2026-01-01T00:00:00",
            "2026-01-01T00:00:00.Z",
            "2026-01-01T00:00:00+0100",
            "2026-01-01T00:00:00ZZ",
            "２026-01-01",
            "2026-01-01X00:00:00Z",
        ] {
            assert_eq!(Timestamp::parse(bad), Err(TimestampError::Malformed), "{bad:?}");
        }
        for impossible in [
            "2026-02-29",
            "2025-13-01",
            "2025-00-10",
            "2025-04-31",
            "2025-01-00",
            "2100-02-29",
            "2026-01-01T24:00:00Z",
            "2026-01-01T23:60:00Z",
            "2026-01-01T23:59:60Z",
            "2026-01-01T00:00:00+24:00",
        ] {
            assert_eq!(Timestamp::parse(impossible), Err(TimestampError::OutOfRange), "{impossible:?}");
        }
        assert!(Timestamp::parse("2000-02-29").is_ok());
    }
    #[test]
    fn the_const_parser_agrees_with_the_time_crate() {
        // Every day of four years around a leap year, and times across a day.
        let start = Timestamp::lit("2023-01-01").unix_seconds();
        for day in 0..(4 * 366) {
            let unix = start + day * 86_400 + (day * 3_607) % 86_400;
            let t = OffsetDateTime::from_unix_timestamp(unix).unwrap();
            let text = t.format(&Rfc3339).unwrap();
            assert_eq!(Timestamp::parse(&text).unwrap().unix_seconds(), unix, "{text}");
            let date = &text[..10];
            let midnight = time::Date::parse(date, format_description!("[year]-[month]-[day]")).unwrap();
            assert_eq!(
                Timestamp::parse(date).unwrap().unix_seconds(),
                midnight.midnight().assume_utc().unix_timestamp(),
                "{date}"
            );
        }
    }
    #[test]
    fn http_dates_round_trip_in_every_form() {
        let t = Timestamp::lit("1994-11-06T08:49:37Z");
        assert_eq!(t.http_date(), "Sun, 06 Nov 1994 08:49:37 GMT");
        assert_eq!(Timestamp::parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), Some(t));
        assert_eq!(Timestamp::parse_http_date("Sun Nov  6 08:49:37 1994"), Some(t));
        assert_eq!(
            Timestamp::parse_http_date("Wednesday, 01-Jul-26 00:00:00 GMT"),
            Some(Timestamp::lit("2026-07-01"))
        );
        for bad in ["", "yesterday", "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Nov 1994 08:49:37 GMT"] {
            assert_eq!(Timestamp::parse_http_date(bad), None, "{bad:?}");
        }
        assert_eq!(t.structured_field_date(), "@784111777");
        assert_eq!(Timestamp::parse_structured_field_date("@784111777"), Some(t));
        assert_eq!(Timestamp::parse_structured_field_date("@-1"), Some(Timestamp::from_unix(-1)));
        for bad in ["784111777", "@", "@1.5", "@1234567890123456", "@+1", "@ 1"] {
            assert_eq!(Timestamp::parse_structured_field_date(bad), None, "{bad:?}");
        }
        assert_eq!(Timestamp::lit("2026-07-01").iso8601(), "2026-07-01");
        assert_eq!(Timestamp::lit("2026-07-01T12:00:00+02:00").iso8601(), "2026-07-01T10:00:00Z");
    }
}
