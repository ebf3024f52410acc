//! The UTC date and time of day that stamp a benchmark (file names and table headers),
//! without a date-time dependency.

use std::time::{SystemTime, UNIX_EPOCH};

/// A UTC time of day, without a date-time dependency.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Utc {
    year: i64,
    month: u32,
    day: u32,
    hour: u32,
    minute: u32,
}

impl Utc {
    pub(super) fn now() -> Self {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Self::from_unix(i64::try_from(secs).unwrap_or(0))
    }

    /// Howard Hinnant's `civil_from_days`.
    fn from_unix(secs: i64) -> Self {
        let days = secs.div_euclid(86_400);
        let in_day = secs.rem_euclid(86_400);
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        let year = yoe + era * 400 + i64::from(month <= 2);
        let small = |v: i64| u32::try_from(v).unwrap_or(0);
        Self {
            year,
            month: small(month),
            day: small(day),
            hour: small(in_day / 3600),
            minute: small(in_day % 3600 / 60),
        }
    }

    pub(super) fn date(self) -> String {
        format!("{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }

    pub(super) fn minute(self) -> String {
        format!("{} {:02}:{:02} UTC", self.date(), self.hour, self.minute)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_unix_time_to_utc() {
        assert_eq!(Utc::from_unix(0).minute(), "1970-01-01 00:00 UTC");
        assert_eq!(Utc::from_unix(951_782_400).date(), "2000-02-29");
        assert_eq!(
            Utc::from_unix(1_764_689_400).minute(),
            "2025-12-02 15:30 UTC"
        );
        assert_eq!(Utc::from_unix(-1).minute(), "1969-12-31 23:59 UTC");
    }
}
