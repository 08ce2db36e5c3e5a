//! The bound that keeps the shared streams (`next_id()`, `ulid()`,
//! `uuidv7()`, `typeid()`) after every ID the server minted before a
//! restart or a crash, whatever its clock did meanwhile. Shared memory dies
//! with the server, and a clock stepped back across the restart would
//! otherwise mint the same Snowflakes again (and ULIDs and UUIDv7s out of
//! order).
//!
//! The rule is the lock-file lease's: a Unix ms that no ID has reached is
//! written to `snowmint.bound` in the data directory before any ID reaches
//! it, reaching [`RESERVE_MS`] past the ID that needed it (so a server that
//! mints without pause writes it about once a second). The first ID after
//! a start reads it: the ULID and UUIDv7 streams go on at that millisecond
//! if the clock is behind it, and the Snowflake generators start in a tick
//! after it (waiting for the clock as the core's policy allows, else
//! refusing with ERR_CLOCK_BACKWARDS).
//!
//! Per ID this costs two atomic loads: the floor once read, and whether the
//! bound on disk lies past the ID. Only reading or moving the file takes
//! a lock (the LWLock the caller passes a guard of), about once a second.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use pgrx::lwlock::PgLwLockExclusiveGuard;
use pgrx::pg_sys;

/// How far past the ID that needed it one write of the bound reaches.
const RESERVE_MS: u64 = 1000;

const FILE: &str = "snowmint.bound";

/// `floor_ms` before the file is read.
const UNREAD: u64 = u64::MAX;

/// The bound, as this server knows it (in shared memory). Read without a
/// lock; changed only under the LWLock whose guard the writers take.
pub struct Bound {
    /// The bound the file held at the start (every ID minted before lies
    /// below it), or [`UNREAD`].
    floor_ms: AtomicU64,
    /// The bound on disk: no ID has reached it. Stored only once the file
    /// holding it is synced.
    covered_ms: AtomicU64,
}

impl Default for Bound {
    fn default() -> Self {
        Bound {
            floor_ms: AtomicU64::new(UNREAD),
            covered_ms: AtomicU64::new(0),
        }
    }
}

impl Bound {
    /// The first Unix ms IDs may use since the start, once read.
    #[inline]
    pub fn floor_ms(&self) -> Option<u64> {
        let floor = self.floor_ms.load(Ordering::Acquire);
        (floor != UNREAD).then_some(floor)
    }

    /// [`floor_ms`](Self::floor_ms), reading the file (0 with no file yet)
    /// if no session has since the start.
    pub fn read_floor(&self, _locked: &PgLwLockExclusiveGuard<'_, ()>) -> Result<u64, String> {
        if let Some(floor) = self.floor_ms() {
            return Ok(floor);
        }
        let floor = match std::fs::read_to_string(path()) {
            Ok(text) => text.trim().parse().map_err(|_| {
                format!(
                    "{} does not hold a Unix ms but {text:?}: remove it only if no ID minted before this start can be newer than the clock",
                    path().display()
                )
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0,
            Err(e) => return Err(format!("cannot read {}: {e}", path().display())),
        };
        self.covered_ms.store(floor, Ordering::Release);
        self.floor_ms.store(floor, Ordering::Release);
        Ok(floor)
    }

    /// Whether the bound on disk lies past `ms`: an ID of that time may be
    /// handed out.
    #[inline]
    pub fn covers(&self, ms: u64) -> bool {
        ms < self.covered_ms.load(Ordering::Acquire)
    }

    /// Makes the bound on disk lie past `ms`, the time of an ID about to
    /// be handed out; writes it (and syncs it) only when it does not.
    pub fn cover(&self, _locked: &PgLwLockExclusiveGuard<'_, ()>, ms: u64) -> Result<(), String> {
        if self.covers(ms) {
            return Ok(());
        }
        let next = ms + RESERVE_MS;
        write(next).map_err(|e| format!("cannot write {}: {e}", path().display()))?;
        self.covered_ms.store(next, Ordering::Release);
        Ok(())
    }
}

/// `$PGDATA/snowmint.bound`.
fn path() -> PathBuf {
    // SAFETY: DataDir is set by the postmaster before any library loads, and
    // never changes.
    let dir = unsafe { std::ffi::CStr::from_ptr(pg_sys::DataDir) };
    PathBuf::from(dir.to_string_lossy().as_ref()).join(FILE)
}

/// Writes `ms` whole or not at all: a new file, synced, renamed over the
/// old one, and the directory synced, so a crash leaves one bound or the other.
fn write(ms: u64) -> std::io::Result<()> {
    let path = path();
    let tmp = path.with_extension("tmp");
    let mut f = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)?;
    writeln!(f, "{ms}")?;
    f.sync_all()?;
    std::fs::rename(&tmp, &path)?;
    if let Some(dir) = path.parent() {
        File::open(dir)?.sync_all()?;
    }
    Ok(())
}
