//! Clock skew between lock-file holders: each write's report (the holder's
//! clock) against the kernel's stamp on the file (the host's), for
//! [`LockFile::skew`](super::LockFile::skew).

use std::fs::{self, Metadata};
use std::path::Path;

use super::{Result, lock_files, mtime_ms, open_lease_file, read_file};

/// How recently a peer must have written its lock file to count as live:
/// a holder that mints writes about once per [`RESERVE_MS`](crate::RESERVE_MS).
pub const LIVE_MS: u64 = 10_000;

/// Each live peer's clock minus the host's at its last write: the lock files
/// in `dir` but `own`'s written in the last [`LIVE_MS`] with a report.
pub(super) fn peer_offsets(dir: &Path, own: u32) -> Result<Vec<i64>> {
    let now = mtime_ms_now();
    let mut out = Vec::new();
    for (id, path) in lock_files(dir)? {
        if id == own {
            continue;
        }
        // Cheap first: only recent files are opened.
        let recent = |m: &Metadata| mtime_ms(m).is_some_and(|t| now - t <= LIVE_MS as i64);
        if !fs::symlink_metadata(&path).is_ok_and(|m| recent(&m)) {
            continue;
        }
        let Ok((file, meta)) = open_lease_file(&path, false) else {
            continue; // removed meanwhile, or not a lock file of ours
        };
        if let (Ok((_, Some(report))), Some(at)) = (read_file(&file), mtime_ms(&meta)) {
            out.push(report as i64 - at);
        }
    }
    Ok(out)
}

/// The host's wall clock (what the kernel stamps on files), in Unix ms.
pub(super) fn mtime_ms_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A holder's clock too far from the host's or its live peers' (see
/// [`LockFile::skew`](super::LockFile::skew)); its `Display` is the error message and the warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Skew {
    /// The holder's clock minus the reference (ms): positive when ahead.
    pub skew_ms: i64,
    /// 0: measured against the host's clock; else against the mean of this many live peers.
    pub peers: usize,
    /// The limit it exceeds.
    pub max_skew_ms: u64,
}

impl Skew {
    /// What the clock was compared with: `"host"` or `"peers"`.
    pub fn against(&self) -> &'static str {
        if self.peers == 0 { "host" } else { "peers" }
    }
}

impl std::fmt::Display for Skew {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let side = if self.skew_ms > 0 {
            "ahead of"
        } else {
            "behind"
        };
        let (ms, max) = (self.skew_ms.unsigned_abs(), self.max_skew_ms);
        match self.peers {
            0 => write!(
                f,
                "this lease's clock is {ms} ms {side} the host's clock (the kernel's time of its lock-file write)"
            )?,
            n => write!(
                f,
                "this lease's clock is {ms} ms {side} the mean of {n} live peers' clocks (their last lock-file reports)"
            )?,
        }
        write!(
            f,
            ", more than maxSkewMs ({max} ms): its IDs would be out of order with other processes' by that much. Fix the clock (or the injected one), or raise maxSkewMs"
        )
    }
}
