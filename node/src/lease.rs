//! What `snowmint/lease` needs from the OS and cannot get from Node: an
//! exclusive, non-blocking file lock that the kernel drops when the process
//! dies (`flock(2)` through `File::try_lock`), and the core's monotonic clock
//! that the default generator reads. Choosing the order of worker IDs,
//! fencing and the high-water rules live in `npm/src/lease/`.
//!
//! A lock file holds one number, the lease's high-water bound in Unix ms, as
//! fixed-width text written in place with one `pwrite`: a process killed at
//! any moment leaves either the old or the new number, never a torn one.
//!
//! The default generator is a process-wide static (lib.rs) that every
//! `worker_thread` mints from, so its zero-config lease is process-wide too:
//! one lock, held here in `DEFAULT_LEASE`, that every JS thread's lease
//! object shares. A per-thread lock would spend a worker ID per thread and
//! record the bounds of the threads' worker IDs, not the generator's.

use std::fs::{File, OpenOptions, TryLockError};
use std::os::unix::fs::FileExt;
use std::sync::{Arc, Mutex, MutexGuard};

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

/// Poison only means another thread panicked mid-write; the file itself is
/// never torn (one `pwrite`), so the state stays usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The open, locked file and the bound it holds.
struct Held {
    file: File,
    /// What the file holds: every thread's extension goes through here, so
    /// the bound of a shared lock is the maximum over all its threads.
    bound: u64,
}

/// One locked lease file; shared by every thread when it is `DEFAULT_LEASE`.
struct Locked {
    path: String,
    worker_id: u32,
    /// The bound the file held when it was locked: the claimer mints after it.
    claimed_bound: u64,
    /// `None` once unlocked.
    held: Mutex<Option<Held>>,
}

/// The lock of the process-wide default generator's lease, once claimed.
/// Never unlocked: it lasts as long as the generator, that is until the
/// process ends, whichever JS thread claimed it.
static DEFAULT_LEASE: Mutex<Option<Arc<Locked>>> = Mutex::new(None);

impl Locked {
    /// Opens (creating it if needed) and locks `path` without blocking;
    /// `None` when another open handle (this process or another) holds it.
    fn try_lock(path: String, worker_id: u32) -> Result<Option<Locked>> {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| io_err("open", &path, e))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(None),
            Err(TryLockError::Error(e)) => return Err(io_err("lock", &path, e)),
        }
        // Read under the lock: whatever the caller saw before may be stale.
        let bound = read_bound(&file).map_err(|e| io_err("read", &path, e))?;
        Ok(Some(Locked {
            path,
            worker_id,
            claimed_bound: bound,
            held: Mutex::new(Some(Held { file, bound })),
        }))
    }

    /// Locks the first of `ids` whose file in `dir` is free.
    fn first_free(dir: &str, ids: &[u32]) -> Result<Option<Locked>> {
        for &id in ids {
            if let Some(locked) = Self::try_lock(format!("{dir}/worker-{id}.lock"), id)? {
                return Ok(Some(locked));
            }
        }
        Ok(None)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Held) -> std::io::Result<T>) -> Result<T> {
        let mut guard = lock(&self.held);
        let held = guard.as_mut().ok_or_else(|| {
            napi::Error::new(
                "ERR_LEASE_RELEASED",
                format!("lease file {} is already unlocked", self.path),
            )
        })?;
        f(held).map_err(|e| io_err("write", &self.path, e))
    }
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

fn write_bound(held: &mut Held, ms: u64) -> std::io::Result<()> {
    held.file
        .write_all_at(format!("{ms:>20}\n").as_bytes(), 0)?;
    held.bound = ms;
    Ok(())
}

/// An exclusively locked lease file. The lock lasts until `unlock()`, the
/// last handle to it is garbage-collected, or the process ends (however it
/// ends); the default lease's lock lasts until the process ends.
#[napi]
pub struct LeaseFile {
    inner: Arc<Locked>,
}

#[napi]
impl LeaseFile {
    /// The worker ID whose file this is.
    #[napi(getter)]
    pub fn worker_id(&self) -> u32 {
        self.inner.worker_id
    }

    /// The high-water bound the file held when it was locked (0 for a new file).
    #[napi(getter)]
    pub fn claimed_bound(&self) -> f64 {
        self.inner.claimed_bound as f64
    }

    /// Stores `max(stored, ms)` and returns it: threads that extend one
    /// shared lease can never lower its bound, whatever order they write in.
    #[napi(catch_unwind)]
    pub fn raise(&self, ms: f64) -> Result<f64> {
        self.inner.with(|held| {
            let ms = ms as u64;
            if ms > held.bound {
                write_bound(held, ms)?;
            }
            Ok(held.bound as f64)
        })
    }

    /// Stores exactly `ms` (at release: the holder's last minted tick, which
    /// may be lower than the bound it reserved).
    #[napi(catch_unwind)]
    pub fn set(&self, ms: f64) -> Result<()> {
        self.inner.with(|held| write_bound(held, ms as u64))
    }

    /// Drops the lock (closing the file); later calls fail with ERR_LEASE_RELEASED.
    #[napi]
    pub fn unlock(&self) {
        lock(&self.inner.held).take();
    }
}

/// Locks the first of `ids` (in that order) whose file `dir/worker-<id>.lock`
/// no open handle holds; `None` if every one is held. With `process_wide`
/// (the default generator's lease), the first call of the process claims and
/// every later call, from any thread, gets that same lock: one worker ID and
/// one bound for the one generator.
#[napi(catch_unwind)]
pub fn lease_lock(dir: String, ids: Vec<u32>, process_wide: bool) -> Result<Option<LeaseFile>> {
    let wrap = |inner| LeaseFile { inner };
    if !process_wide {
        return Ok(Locked::first_free(&dir, &ids)?.map(|l| wrap(Arc::new(l))));
    }
    // Held across the claim, so that threads racing to claim take one lock.
    let mut shared = lock(&DEFAULT_LEASE);
    if shared.is_none() {
        *shared = Locked::first_free(&dir, &ids)?.map(Arc::new);
    }
    Ok(shared.clone().map(wrap))
}

/// The clock the default generator reads (the core's `MonotonicClock`):
/// lease deadlines are computed on the generator's own time line.
#[napi]
pub fn monotonic_now_ms() -> f64 {
    MonotonicClock.now_ms() as f64
}
