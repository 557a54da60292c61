//! UTC timestamps in Nova's formats.

use time::OffsetDateTime;
use time::macros::format_description;

/// Now as `2024-05-01T12:34:56.123456`, the shape Nova gives `created_at`.
pub(crate) fn now_iso8601() -> String {
    nova_timestamp(OffsetDateTime::now_utc())
}

fn nova_timestamp(at: OffsetDateTime) -> String {
    let format = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:6]");
    // Formatting a UTC date-time with this description cannot fail.
    at.format(&format).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use time::macros::datetime;

    #[test]
    fn nova_shape() {
        assert_eq!(
            super::nova_timestamp(datetime!(2000-02-29 23:59:07.25 UTC)),
            "2000-02-29T23:59:07.250000"
        );
        assert_eq!(super::now_iso8601().len(), "2024-05-01T12:34:56.123456".len());
    }
}
