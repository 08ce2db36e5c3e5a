//! What `snowmint/lease` needs from the OS and cannot get from Node: the
//! lock files of the `snowmint-lease` crate (exclusive `flock`s the kernel
//! drops when the process dies, in a directory no other user can steer; the
//! same files a Rust service on the host locks) and the core's monotonic
//! clock that the default generator reads. This file only converts; choosing
//! the order of worker IDs, fencing and the high-water rules for Node live in
//! `npm/src/lease/`.
//!
//! The default generator is a process-wide static (snowflake.rs) that every
//! `worker_thread` mints from, so its zero-config lease is process-wide too:
//! one lock, held here in `DEFAULT_LEASE`, that every JS thread's lease
//! object shares. A per-thread lock would spend a worker ID per thread and
//! record the bounds of the threads' worker IDs, not the generator's.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, Weak};

use napi_derive::napi;
use snowmint::clock::{Clock, MonotonicClock};
use snowmint_lease::{LeaseError, LockFile, platform};

type Result<T> = napi::Result<T, &'static str>;

fn js_err(e: LeaseError) -> napi::Error<&'static str> {
    napi::Error::new(e.code().as_str(), e.message().to_string())
}

/// Poison only means another thread panicked mid-claim; the lock stays usable.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The lock of the process-wide default generator's lease, once claimed.
/// Kept until the process ends, whichever JS thread claimed it, unless its
/// file is deleted or replaced: then the next claim replaces it.
static DEFAULT_LEASE: Mutex<Option<Arc<LockFile>>> = Mutex::new(None);

/// The locks of explicit worker IDs, by directory and worker ID: every
/// generator of this process given one worker ID (the default generator in
/// every thread, and generators of their own) shares one lock, so a second
/// *process* with that ID is refused, while this process may build and drop
/// generators on its own ID at will. An entry lives while a handle does.
static EXPLICIT: Mutex<Vec<Explicit>> = Mutex::new(Vec::new());

struct Explicit {
    dir: PathBuf,
    worker_id: u32,
    lock: Weak<LockFile>,
    share: Arc<Mutex<Share>>,
}

/// How the handles of one shared lock end: the exact high-water mark is
/// written only once every handle has settled (a handle dropped without
/// settling, or a thread still minting, leaves the reserved bound).
#[derive(Default)]
struct Share {
    handles: u32,
    settled: u32,
    /// The highest mark a settled handle gave (`None`: none gave one).
    hwm: Option<u64>,
}

/// How far past the current tick one write of a lock file's bound reaches
/// (the lease crate's `RESERVE_MS`): local leases in JS reserve the same.
#[napi]
pub const LEASE_RESERVE_MS: u32 = snowmint_lease::RESERVE_MS as u32;

/// An exclusively locked lease file. The lock lasts until `unlock()`, the
/// last handle to it is garbage-collected, or the process ends (however it
/// ends); the default lease's lock lasts until the process ends or its file
/// is deleted.
#[napi]
pub struct LeaseFile {
    inner: Arc<LockFile>,
    /// For the shared lock of an explicit worker ID.
    share: Option<Arc<Mutex<Share>>>,
}

#[napi]
impl LeaseFile {
    /// The worker ID whose file this is.
    #[napi(getter)]
    pub fn worker_id(&self) -> u32 {
        self.inner.worker_id()
    }

    /// The high-water bound the file held when it was locked (0 for a new file).
    #[napi(getter)]
    pub fn claimed_bound(&self) -> f64 {
        self.inner.claimed_bound() as f64
    }

    /// Whether the lease still holds: locked by us and its path still names
    /// the locked file (one `lstat`, once per claimed run).
    #[napi]
    pub fn held(&self) -> bool {
        self.inner.held()
    }

    /// Stores `max(stored, ms)` and returns it; `now_ms` is the holder's
    /// clock, written as its report.
    #[napi(catch_unwind)]
    pub fn raise(&self, ms: f64, now_ms: f64) -> Result<f64> {
        let bound = self.inner.raise(ms as u64, now_ms as u64);
        bound.map(|b| b as f64).map_err(js_err)
    }

    /// Stores exactly `ms` (at release: the holder's last minted tick).
    #[napi(catch_unwind)]
    pub fn set(&self, ms: f64, now_ms: f64) -> Result<()> {
        self.inner.set(ms as u64, now_ms as u64).map_err(js_err)
    }

    /// The holder's clock too far from the host's or its live peers' in
    /// `dir`, as of its last write (`LockFile::skew`); `null` if it is not.
    #[napi(catch_unwind)]
    pub fn skew(&self, dir: String, max_skew_ms: f64) -> Result<Option<SkewInfo>> {
        let skew = self.inner.skew(Path::new(&dir), max_skew_ms as u64);
        Ok(skew.map_err(js_err)?.map(|s| SkewInfo {
            skew_ms: s.skew_ms as f64,
            against: s.against().to_string(),
            peers: s.peers as u32,
            message: s.to_string(),
        }))
    }

    /// Drops the lock (closing the file); later calls fail with ERR_LEASE_RELEASED.
    #[napi]
    pub fn unlock(&self) {
        self.inner.unlock();
    }

    /// At release: this handle's last minted tick (`None`: no exact mark to
    /// record). Alone, or the last of a shared lock's handles to settle, it
    /// stores the exact high-water mark (the maximum of every handle's) and
    /// unlocks; before that, a shared lock's handle only counts, so one
    /// handle's release never unlocks the others.
    #[napi(catch_unwind)]
    pub fn settle(&self, hwm: Option<f64>, now_ms: f64) -> Result<()> {
        let hwm = hwm.map(|ms| ms as u64);
        let mark = match &self.share {
            None => hwm,
            Some(share) => {
                let mut s = lock(share);
                s.settled += 1;
                s.hwm = s.hwm.max(hwm);
                if s.settled < s.handles {
                    return Ok(());
                }
                s.hwm
            }
        };
        if let Some(mark) = mark {
            self.inner.set(mark, now_ms as u64).map_err(js_err)?;
        }
        self.inner.unlock();
        Ok(())
    }
}

/// What `LeaseFile::skew` found.
#[napi(object)]
pub struct SkewInfo {
    /// The holder's clock minus the reference (ms): positive when ahead.
    pub skew_ms: f64,
    /// `'host'` or `'peers'`.
    pub against: String,
    /// How many live peers' mean it was compared with (0 for the host).
    pub peers: u32,
    /// The sentence the error or warning carries.
    pub message: String,
}

/// Locks the first of `ids` (in that order) whose file `dir/worker-<id>.lock`
/// no open handle holds; `None` if every one is held. With `process_wide`
/// (the default generator's lease), the first call of the process claims and
/// every later call, from any thread, gets that same lock (one worker ID and
/// one bound for the one generator), until its file is found deleted or
/// replaced: then the next call drops it and claims anew.
#[napi(catch_unwind)]
pub fn lease_lock(dir: String, ids: Vec<u32>, process_wide: bool) -> Result<Option<LeaseFile>> {
    let claim = || LockFile::claim_first(Path::new(&dir), &ids).map_err(js_err);
    let wrap = |inner| LeaseFile { inner, share: None };
    if !process_wide {
        return Ok(claim()?.map(|l| wrap(Arc::new(l))));
    }
    // Held across the claim, so that threads racing to claim take one lock.
    let mut shared = lock(&DEFAULT_LEASE);
    if !shared.as_ref().is_some_and(|l| l.held()) {
        if let Some(lost) = shared.take() {
            lost.unlock();
        }
        *shared = claim()?.map(Arc::new);
    }
    Ok(shared.clone().map(wrap))
}

/// Locks explicit worker ID `id` in `dir` without waiting, sharing the lock
/// of this process's other generators on it (see `EXPLICIT`); fails with
/// `ERR_WORKER_ID_IN_USE`, naming the holder's pid, when another process
/// (or this process's zero-config lease) holds it.
#[napi(catch_unwind)]
pub fn lease_lock_worker(dir: String, id: u32) -> Result<LeaseFile> {
    let dir = PathBuf::from(dir);
    let mut all = lock(&EXPLICIT);
    all.retain(|e| e.lock.strong_count() > 0);
    let live = all.iter().find(|e| e.dir == dir && e.worker_id == id);
    let held = live.and_then(|e| {
        e.lock
            .upgrade()
            .filter(|l| l.held())
            .map(|l| (l, e.share.clone()))
    });
    let (inner, share) = match held {
        Some(found) => found,
        None => {
            let file = LockFile::claim_first(&dir, &[id]).map_err(js_err)?;
            let file = Arc::new(file.ok_or_else(|| js_err(snowmint_lease::in_use(&dir, id)))?);
            let share = Arc::new(Mutex::new(Share::default()));
            all.retain(|e| !(e.dir == dir && e.worker_id == id));
            all.push(Explicit {
                dir,
                worker_id: id,
                lock: Arc::downgrade(&file),
                share: share.clone(),
            });
            (file, share)
        }
    };
    lock(&share).handles += 1;
    Ok(LeaseFile {
        inner,
        share: Some(share),
    })
}

/// What a zero-config local lease may do here (`snowmint_lease::platform`):
/// throws `ERR_NO_WORKER_ID` on a platform that runs replicas (or
/// `ERR_INVALID_OPTION` for a `SNOWMINT_LEASE` it does not know); else the
/// one-time warning to print in a container, or `null`. `trust_local`:
/// `lease: 'local'` was given.
#[napi(catch_unwind)]
pub fn zero_config_check(trust_local: bool) -> Result<Option<String>> {
    let evidence = platform::zero_config(trust_local).map_err(js_err)?;
    Ok(evidence.map(platform::container_warning))
}

/// The high-water bounds recorded in `dir` for worker IDs `min..=max`, as
/// `[workerId, bound, ...]`.
#[napi(catch_unwind)]
pub fn lease_bounds(dir: String, min: u32, max: u32) -> Result<Vec<f64>> {
    let bounds = snowmint_lease::bounds(Path::new(&dir), min..=max).map_err(js_err)?;
    Ok(bounds
        .into_iter()
        .flat_map(|(id, bound)| [f64::from(id), bound as f64])
        .collect())
}

/// The lease directory for the option `dir` (absent: `SNOWMINT_LEASE_DIR`,
/// else the per-user default, the same for Rust and Node); refuses a
/// relative path.
#[napi(catch_unwind)]
pub fn lease_dir(dir: Option<String>) -> Result<String> {
    let dir = snowmint_lease::resolve_dir(dir.as_deref().map(Path::new)).map_err(js_err)?;
    Ok(dir.to_string_lossy().into_owned())
}

/// The clock the default generator reads (the core's `MonotonicClock`):
/// lease deadlines are computed on the generator's own time line.
#[napi]
pub fn monotonic_now_ms() -> f64 {
    MonotonicClock.now_ms() as f64
}

/// The zero-configuration lease directory, `<tmpdir>/snowmint-leases-<user>`:
/// the one a Rust service's zero-config lease uses too.
#[napi]
pub fn default_lease_dir() -> String {
    snowmint_lease::default_dir().to_string_lossy().into_owned()
}

/// The worker-field width of the preset `name`: a local lease given
/// `layout: name` claims among all of that field's worker IDs.
#[napi(catch_unwind)]
pub fn preset_worker_bits(name: String) -> Result<u32> {
    let preset = snowmint::snowflake::Preset::from_name(&name)
        .map_err(|e| napi::Error::new(e.code(), e.to_string()))?;
    Ok(preset.layout().worker_bits().into())
}
