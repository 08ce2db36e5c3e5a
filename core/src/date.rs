//! Dates as JavaScript's `Date#toISOString()` writes them: the `date` of a
//! decode record where a binding gives it as text (the PostgreSQL and
//! SQLite extensions, the ID service), so that every surface writes the
//! same text for the same ID.

use core::fmt;

/// The longest text: a sign, the year of `i64::MAX` ms (9 digits), and
/// `-MM-DDTHH:MM:SS.mmmZ`.
const MAX: usize = 1 + 9 + 20;

/// `new Date(ms).toISOString()` of Unix ms, held inline (no allocation).
#[derive(Clone, Copy)]
pub struct IsoDate {
    buf: [u8; MAX],
    len: u8,
}

impl IsoDate {
    /// The text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and punctuation are written.
        core::str::from_utf8(&self.buf[..self.len as usize]).unwrap_or_default()
    }
}

impl fmt::Display for IsoDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for IsoDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// `new Date(ms).toISOString()`: `YYYY-MM-DDTHH:MM:SS.mmmZ` in the
/// proleptic Gregorian calendar, UTC; a year outside 0 to 9999 as a sign
/// and six digits (`+010889`), as JavaScript writes it (and more digits
/// past JavaScript's range, where it would throw).
pub fn iso(ms: i64) -> IsoDate {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000) as u64;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u64;
    let m = (if mp < 10 { mp + 3 } else { mp - 9 }) as u64;
    let y = yoe + era * 400 + i64::from(m <= 2);
    let mut out = IsoDate {
        buf: [0; MAX],
        len: 0,
    };
    if (0..=9999).contains(&y) {
        out.digits(y as u64, 4);
    } else {
        out.push(if y < 0 { b'-' } else { b'+' });
        out.digits(y.unsigned_abs(), 6);
    }
    for (sep, value, width) in [
        (b'-', m, 2),
        (b'-', d, 2),
        (b'T', rem / 3_600_000, 2),
        (b':', rem / 60_000 % 60, 2),
        (b':', rem / 1000 % 60, 2),
        (b'.', rem % 1000, 3),
    ] {
        out.push(sep);
        out.digits(value, width);
    }
    out.push(b'Z');
    out
}

impl IsoDate {
    fn push(&mut self, b: u8) {
        self.buf[self.len as usize] = b;
        self.len += 1;
    }

    /// `value` in decimal, zero-padded to at least `width` digits.
    fn digits(&mut self, value: u64, width: usize) {
        let mut tmp = [0u8; 20];
        let mut n = 0;
        let mut v = value;
        while v > 0 || n < width {
            tmp[n] = b'0' + (v % 10) as u8;
            v /= 10;
            n += 1;
        }
        for &b in tmp[..n].iter().rev() {
            self.push(b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::iso;

    #[test]
    fn dates_are_javascripts() {
        for (ms, text) in [
            (0, "1970-01-01T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (951_782_400_000, "2000-02-29T00:00:00.000Z"),
            (1_288_834_974_657, "2010-11-04T01:42:54.657Z"),
            (1_469_922_850_259, "2016-07-30T23:54:10.259Z"),
            // The last ULID ms: past 9999, JavaScript writes a sign and six digits.
            (281_474_976_710_655, "+010889-08-02T05:31:50.655Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
            (253_402_300_800_000, "+010000-01-01T00:00:00.000Z"),
            (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
            (-62_167_219_200_001, "-000001-12-31T23:59:59.999Z"),
            // JavaScript's limits, new Date(+-8.64e15).
            (8_640_000_000_000_000, "+275760-09-13T00:00:00.000Z"),
            (-8_640_000_000_000_000, "-271821-04-20T00:00:00.000Z"),
        ] {
            assert_eq!(iso(ms).as_str(), text, "{ms}");
        }
        // Past JavaScript's range: no panic, more digits.
        assert!(iso(i64::MAX).as_str().starts_with("+292278994-"));
        assert!(iso(i64::MIN).as_str().starts_with("-292275055-"));
    }
}
