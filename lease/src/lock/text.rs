//! A lock file's text: three fixed-width lines (see the lock module), read
//! and written whole.

/// A lock file's text: the high-water bound and the holder's report (Unix
/// ms) and its process ID, each right-aligned in 20 columns and ended by a
/// newline (63 bytes).
pub fn format_lock_file(bound: u64, report: u64, pid: u32) -> String {
    format!("{bound:>20}\n{report:>20}\n{pid:>20}\n")
}

/// Reads a lock file's text: `(bound, report)`. An empty file has bound 0
/// and no report, and so does the report line of an older version's file
/// (the bound only); `None` when the first line is not a number.
pub fn parse_lock_file(bytes: &[u8]) -> Option<(u64, Option<u64>)> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut lines = text.lines().map(str::trim);
    let bound = match lines.next().unwrap_or("") {
        "" => 0,
        b => b.parse().ok()?,
    };
    Some((bound, lines.next().and_then(|r| r.parse().ok())))
}

/// The holder's process ID in a lock file's text (its third line), if any.
pub fn parse_holder(bytes: &[u8]) -> Option<u32> {
    let text = std::str::from_utf8(bytes).ok()?;
    text.lines().nth(2)?.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock::WIDTH;

    #[test]
    fn lock_file_text_round_trips_and_older_files_still_read() {
        let text = format_lock_file(1_750_000_001_000, 1_750_000_000_000, 4321);
        assert_eq!(text.len(), 3 * WIDTH);
        assert_eq!(
            parse_lock_file(text.as_bytes()),
            Some((1_750_000_001_000, Some(1_750_000_000_000)))
        );
        assert_eq!(parse_holder(text.as_bytes()), Some(4321));
        // Before the holder's pid: two lines.
        assert_eq!(parse_holder(&text.as_bytes()[..2 * WIDTH]), None);
        let max = format_lock_file(u64::MAX, u64::MAX, u32::MAX);
        assert_eq!(
            parse_lock_file(max.as_bytes()),
            Some((u64::MAX, Some(u64::MAX)))
        );
        // Before reports: one line; a new file: nothing.
        assert_eq!(
            parse_lock_file(b"       1750000001000\n"),
            Some((1_750_000_001_000, None))
        );
        assert_eq!(parse_lock_file(b""), Some((0, None)));
        assert_eq!(parse_lock_file(b"x\n"), None);
        assert_eq!(parse_lock_file(b"-1\n"), None);
        assert_eq!(parse_lock_file(&[0xff, b'\n']), None);
    }
}
