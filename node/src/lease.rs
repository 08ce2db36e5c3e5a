//! What `snowmint/lease` needs from the OS and cannot get from Node: an
//! exclusive, non-blocking file lock that the kernel drops when the process
//! dies (`flock(2)` through `File::try_lock`), and the core's monotonic clock
//! that the default generator reads. Conversion only: choosing a worker ID,
//! fencing and the high-water rules live in `npm/src/lease/`.
//!
//! A lock file holds one number, the lease's high-water bound in Unix ms, as
//! fixed-width text written in place with one `pwrite`: a process killed at
//! any moment leaves either the old or the new number, never a torn one.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::FileExt;
use std::sync::Mutex;

use napi_derive::napi;
use snowmint::clock::{Clock, MonotonicClock};

type Result<T> = napi::Result<T, &'static str>;

/// `u64::MAX` has 20 digits; a newline makes the file readable with `cat`.
const WIDTH: usize = 21;

fn io_err(what: &str, path: &str, e: std::io::Error) -> napi::Error<&'static str> {
    napi::Error::new(
        "ERR_LEASE_IO",
        format!("cannot {what} lease file {path}: {e}"),
    )
}

/// An exclusively locked lease file. The lock lasts until `unlock()`, the
/// object is garbage-collected, or the process ends (however it ends).
#[napi]
pub struct LeaseFile {
    path: String,
    /// `None` once unlocked; the mutex serialises worker threads of one process.
    file: Mutex<Option<File>>,
}

impl LeaseFile {
    fn with<T>(&self, f: impl FnOnce(&File) -> std::io::Result<T>, what: &str) -> Result<T> {
        let guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let file = guard.as_ref().ok_or_else(|| {
            napi::Error::new(
                "ERR_LEASE_RELEASED",
                format!("lease file {} is already unlocked", self.path),
            )
        })?;
        f(file).map_err(|e| io_err(what, &self.path, e))
    }

    fn read_bound(file: &File) -> std::io::Result<u64> {
        let mut buf = [0u8; WIDTH];
        let n = file.read_at(&mut buf, 0)?;
        let text = std::str::from_utf8(&buf[..n]).unwrap_or("").trim();
        if text.is_empty() {
            return Ok(0);
        }
        text.parse().map_err(|_| {
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("unreadable high-water mark {text:?}"),
            )
        })
    }

    fn write_bound(file: &File, ms: u64) -> std::io::Result<()> {
        file.write_all_at(format!("{ms:>20}\n").as_bytes(), 0)
    }
}

#[napi]
impl LeaseFile {
    /// The high-water bound stored in the file (0 for a new file).
    #[napi(catch_unwind)]
    pub fn read(&self) -> Result<f64> {
        self.with(|f| Self::read_bound(f).map(|ms| ms as f64), "read")
    }

    /// Stores `max(stored, ms)` and returns it: worker threads that extend
    /// the same lease concurrently can never lower the bound.
    #[napi(catch_unwind)]
    pub fn raise(&self, ms: f64) -> Result<f64> {
        self.with(
            |f| {
                let stored = Self::read_bound(f)?;
                let ms = ms as u64;
                if ms > stored {
                    Self::write_bound(f, ms)?;
                }
                Ok(stored.max(ms) as f64)
            },
            "write",
        )
    }

    /// Stores exactly `ms` (at release: the holder's last minted tick, which
    /// may be lower than the bound it reserved).
    #[napi(catch_unwind)]
    pub fn set(&self, ms: f64) -> Result<()> {
        self.with(|f| Self::write_bound(f, ms as u64), "write")
    }

    /// Drops the lock (closing the file); later calls fail with ERR_LEASE_RELEASED.
    #[napi]
    pub fn unlock(&self) {
        self.file.lock().unwrap_or_else(|e| e.into_inner()).take();
    }
}

/// Opens (creating it if needed) and locks `path` without blocking; `None`
/// when another open handle (this process or another) holds the lock.
#[napi(catch_unwind)]
pub fn lease_file_lock(path: String) -> Result<Option<LeaseFile>> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&path)
        .map_err(|e| io_err("open", &path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(LeaseFile {
            path,
            file: Mutex::new(Some(file)),
        })),
        Err(TryLockError::WouldBlock) => Ok(None),
        Err(TryLockError::Error(e)) => Err(io_err("lock", &path, e)),
    }
}

/// The clock the default generator reads (the core's `MonotonicClock`):
/// lease deadlines are computed on the generator's own time line.
#[napi]
pub fn monotonic_now_ms() -> f64 {
    MonotonicClock.now_ms() as f64
}
