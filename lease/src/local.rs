//! The one-host lease for Rust: a worker ID held with a lock file
//! ([`LockFile`]) among the processes of the machine, Rust and Node alike,
//! and a generator ([`LeasedSnowflake`]) that mints only what the lease
//! covers.
//!
//! The rules are those of `snowmint/lease`'s local lease (npm/src/lease/):
//! - **High water.** Every ID lies in a tick below the bound recorded in the
//!   lock file, and the bound is written before any ID uses it (at most once
//!   per [`RESERVE_MS`] of minting; the exact last tick at release). A new
//!   holder starts after the bound it read under the lock, and after the
//!   moment of its claim.
//! - **Claim order.** Free worker IDs whose bound has passed, lowest first
//!   (no wait), then the rest by bound (the shortest wait).
//! - **Deleted lock files.** A holder checks that the path still names its
//!   locked file (one `lstat`) before handing out an ID of a tick it has not
//!   checked yet, reading the clock before the check: an ID whose tick is at
//!   most that reading was minted before the check, so before any deletion a
//!   later check finds, and a newcomer starts after its claim, which follows
//!   the deletion. So one `lstat` per tick, not per ID. A holder that finds
//!   its file gone fails that call with [`Code::Lost`] and claims its worker
//!   ID again (retried on every call while another process holds it); the
//!   generator then resumes after the new claim. A Rust lease keeps its
//!   worker ID rather than switching: the generator's ID is fixed.
//!
//! The options are in `options`, the generator in `snowflake`.

use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::SeqCst};
use std::sync::{Mutex, Once};

use snowmint::clock::{Clock, MonotonicClock};
use snowmint::snowflake::{AtomicSnowflake, Layout};

use crate::error::{Code, Error, LeaseError};
use crate::lock::{self, LockFile, lock};
use crate::machine::{RESERVE_MS, claim_order};
use crate::platform;

mod options;
mod snowflake;

pub use options::{DEFAULT_MAX_SKEW_MS, DEFAULT_WORKER_IDS, LeaseOptions, OnSkew};
pub use snowflake::LeasedSnowflake;

/// A worker ID held among the processes of this machine with a lock file
/// in the lease directory. The kernel frees the lock when the process dies,
/// however it dies; dropping the lease (or [`release`](Self::release)) frees
/// it at once and records the exact high-water mark.
///
/// ```
/// use snowmint::snowflake::Layout;
/// use snowmint_lease::{LeaseOptions, LocalLease};
/// # let dir = std::env::temp_dir().join(format!("snowmint-doc-{}", std::process::id()));
///
/// // LeaseOptions::new() is the zero-config directory shared with Node.
/// let lease = LocalLease::acquire(LeaseOptions::new().dir(&dir))?;
/// let worker_id = lease.worker_id();
/// let ids = lease.snowflake(Layout::TWITTER)?;
/// let id = ids.next()?;
/// assert_eq!(ids.decode(id)?.worker_id, u64::from(worker_id));
/// # drop(ids); std::fs::remove_dir_all(&dir).unwrap();
/// # Ok::<(), snowmint_lease::Error>(())
/// ```
#[derive(Debug)]
pub struct LocalLease<C: Clock + Clone = MonotonicClock> {
    clock: C,
    dir: PathBuf,
    worker_id: u32,
    max_skew_ms: u64,
    on_skew: OnSkew,
    /// IDs in ticks below this are recorded in the lock file (0: none are).
    covered: AtomicU64,
    /// IDs in ticks at or below this were minted before a passing `held()` check.
    checked: AtomicU64,
    /// This claim's start: IDs in ticks at or below it are not this claim's.
    floor: AtomicU64,
    /// The held lock (`None` after a loss until re-claimed, and after release).
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    file: Option<LockFile>,
    released: bool,
}

impl LocalLease<MonotonicClock> {
    /// Claims a free worker ID on the machine's clock (the core's
    /// [`MonotonicClock`], which Node's default generator reads too).
    pub fn acquire(options: LeaseOptions) -> Result<Self, LeaseError> {
        LocalLease::acquire_with_clock(options, MonotonicClock)
    }
}

impl<C: Clock + Clone> LocalLease<C> {
    /// Claims a free worker ID, computing bounds on `clock` (a
    /// [`ManualClock`](snowmint::clock::ManualClock) in tests; the generator
    /// built by [`snowflake`](Self::snowflake) reads the same clock).
    pub fn acquire_with_clock(options: LeaseOptions, clock: C) -> Result<Self, LeaseError> {
        let dir = lock::resolve_dir(options.dir.as_deref())?;
        let file = match options.worker_id {
            Some(id) => {
                LockFile::claim_first(&dir, &[id])?.ok_or_else(|| lock::in_use(&dir, id))?
            }
            None => {
                if let Some(evidence) = platform::zero_config(options.trust_local)? {
                    static WARNED: Once = Once::new();
                    WARNED.call_once(|| eprintln!("{}", platform::container_warning(evidence)));
                }
                Self::claim_range(&dir, options.worker_ids.clone(), &clock)?
            }
        };
        let lease = LocalLease {
            worker_id: file.worker_id(),
            max_skew_ms: options.max_skew_ms,
            on_skew: options.on_skew,
            clock,
            dir,
            covered: AtomicU64::new(0),
            checked: AtomicU64::new(0),
            floor: AtomicU64::new(0),
            state: Mutex::new(State {
                file: None,
                released: false,
            }),
        };
        lease.take(file)?;
        Ok(lease)
    }

    /// Locks a free worker ID of `range` (default [`DEFAULT_WORKER_IDS`]),
    /// in [`claim_order`] (the rule every lease shares).
    fn claim_range(
        dir: &Path,
        range: Option<RangeInclusive<u32>>,
        clock: &C,
    ) -> Result<LockFile, LeaseError> {
        let range = range.unwrap_or(DEFAULT_WORKER_IDS);
        if range.is_empty() {
            return Err(LeaseError::new(
                Code::Unavailable,
                format!(
                    "the worker ID range {}..={} is empty: give min <= max",
                    range.start(),
                    range.end()
                ),
            ));
        }
        let now = clock.now_ms();
        let bounds: std::collections::HashMap<u32, u64> =
            lock::bounds(dir, range.clone())?.into_iter().collect();
        let order = claim_order(&range, &bounds, now, None);
        LockFile::claim_first(dir, &order)?.ok_or_else(|| {
            LeaseError::new(
                Code::Unavailable,
                format!(
                    "all {} worker IDs ({}..{}) of the local lease at {} are leased by live generators; none is shared, so this generator cannot start. Free one (stop a generator) or widen the worker ID range.",
                    u64::from(range.end() - range.start()) + 1,
                    range.start(),
                    range.end(),
                    dir.display()
                ),
            )
        })
    }

    /// Starts on a freshly locked `file`: after the bound it holds and after
    /// the moment of the claim (a file that a cleaner deleted took its
    /// holder's bound with it, but that holder hands out nothing minted after
    /// its last check, which preceded the deletion, which preceded this
    /// claim), and records the first reserve before any ID uses it. A clock
    /// too far off frees the file again (when refusing).
    fn take(&self, file: LockFile) -> Result<u64, LeaseError> {
        let now = self.clock.now_ms();
        let start = file.claimed_bound().max(now);
        // First only the report (a refused claim leaves the bound as it was).
        if let Err(e) = file
            .raise(file.claimed_bound(), now)
            .and_then(|_| self.check_skew(&file))
        {
            file.unlock();
            return Err(e);
        }
        let covered = file.raise(start + RESERVE_MS, now)?;
        self.floor.store(start, SeqCst);
        self.covered.store(covered, SeqCst);
        lock(&self.state).file = Some(file);
        Ok(start)
    }

    /// The leased worker ID.
    pub fn worker_id(&self) -> u32 {
        self.worker_id
    }

    /// The lease directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The Unix ms this claim starts after: IDs fall in later ticks.
    pub fn resume_after_ms(&self) -> u64 {
        self.floor.load(SeqCst)
    }

    /// A generator on the leased worker ID under `layout`, which mints only
    /// what the lease covers and starts after its start. It owns the lease:
    /// dropping it records its exact high-water mark and frees the worker ID.
    /// Fails with the core's `ERR_WORKER_ID_RANGE` when the worker ID does
    /// not fit `layout`.
    pub fn snowflake(self, layout: Layout) -> Result<LeasedSnowflake<C>, Error> {
        self.snowflake_with(layout, |generator| generator)
    }

    /// [`snowflake`](Self::snowflake) with the generator's policies set by
    /// `configure`, e.g. `|g| g.on_backwards(OnBackwards::Fail)`.
    pub fn snowflake_with(
        self,
        layout: Layout,
        configure: impl FnOnce(AtomicSnowflake<C>) -> AtomicSnowflake<C>,
    ) -> Result<LeasedSnowflake<C>, Error> {
        let generator = AtomicSnowflake::new(layout, self.worker_id.into(), self.clock.clone())?;
        let generator = configure(generator).resume_after(self.resume_after_ms())?;
        Ok(LeasedSnowflake {
            generator,
            lease: self,
        })
    }

    /// Frees the worker ID at once, recording the claim's start as its
    /// high-water mark (a lease without a generator minted nothing).
    pub fn release(self) -> Result<(), LeaseError> {
        self.finish(None)
    }

    /// Stops minting, records `max(hwm, start)` (when the file is still
    /// ours) and unlocks. Idempotent.
    fn finish(&self, hwm: Option<u64>) -> Result<(), LeaseError> {
        let mut state = lock(&self.state);
        if state.released {
            return Ok(());
        }
        state.released = true;
        self.covered.store(0, SeqCst);
        self.checked.store(0, SeqCst);
        let Some(file) = state.file.take() else {
            return Ok(());
        };
        let mark = hwm.unwrap_or(0).max(self.floor.load(SeqCst));
        // A lost file is no one's lease any more: nothing to record in it.
        let recorded = if file.held() {
            file.set(mark, self.clock.now_ms())
        } else {
            Ok(())
        };
        file.unlock();
        recorded
    }

    /// Whether IDs in the tick starting at `tick_ms` may be handed out:
    /// covered by the recorded bound, minted before a passing check of the
    /// lock file, and this claim's. Else the slow path: checks the lock file
    /// (`generator` is moved past a re-claim) and extends the bound.
    #[inline]
    fn check(&self, tick_ms: u64, generator: &AtomicSnowflake<C>) -> Result<(), LeaseError> {
        // Loaded in the reverse order of their stores in `lost`, so that a
        // reader that sees a new `covered` also sees the new `floor`.
        let covered = self.covered.load(SeqCst);
        let checked = self.checked.load(SeqCst);
        let floor = self.floor.load(SeqCst);
        if tick_ms < covered && tick_ms <= checked && tick_ms > floor {
            return Ok(());
        }
        self.check_slow(tick_ms, generator)
    }

    #[cold]
    fn check_slow(&self, tick_ms: u64, generator: &AtomicSnowflake<C>) -> Result<(), LeaseError> {
        let mut state = lock(&self.state);
        if state.released {
            return Err(LeaseError::new(
                Code::Released,
                format!(
                    "the lease on worker ID {} was released: acquire a new lease to mint again",
                    self.worker_id
                ),
            ));
        }
        let now = self.clock.now_ms();
        let Some(file) = state.file.as_ref().filter(|f| f.held()) else {
            return Err(self.lost(&mut state, generator));
        };
        if tick_ms <= self.floor.load(SeqCst) {
            // Claimed from the generator before it was moved past a re-claim.
            return Err(LeaseError::new(
                Code::Lost,
                format!(
                    "worker ID {} was re-claimed while this ID was minted: it was dropped; the next call mints after the new claim",
                    self.worker_id
                ),
            ));
        }
        self.checked.fetch_max(now, SeqCst);
        if tick_ms >= self.covered.load(SeqCst) {
            let bound = file.raise(tick_ms + RESERVE_MS, now)?;
            self.check_skew(file)?;
            self.covered.fetch_max(bound, SeqCst);
        }
        Ok(())
    }

    /// After a write of the bound: refuses (or warns) if this clock is too
    /// far from the host's or its live peers' ([`LockFile::skew`]).
    fn check_skew(&self, file: &LockFile) -> Result<(), LeaseError> {
        if self.max_skew_ms == u64::MAX {
            return Ok(());
        }
        match (file.skew(&self.dir, self.max_skew_ms)?, self.on_skew) {
            (None, _) => Ok(()),
            (Some(skew), OnSkew::Warn(warn)) => {
                warn(&skew);
                Ok(())
            }
            (Some(skew), OnSkew::Refuse) => Err(LeaseError::new(
                Code::ClockSkew,
                format!("worker ID {}: {skew}.", self.worker_id),
            )),
        }
    }

    /// The lock file was deleted or replaced: no ID passes until the worker
    /// ID is claimed again, which is tried at once (and on every later call).
    fn lost(&self, state: &mut State, generator: &AtomicSnowflake<C>) -> LeaseError {
        self.covered.store(0, SeqCst);
        self.checked.store(0, SeqCst);
        let id = self.worker_id;
        let dir = self.dir.display();
        let what = format!(
            "the lock file of worker ID {id} in {dir} was deleted or replaced (by a temp-file cleaner?): another process may hold worker ID {id} now. The IDs of this call were dropped"
        );
        if let Some(old) = state.file.take() {
            old.unlock();
        }
        let next = match LockFile::claim_first(&self.dir, &[id]) {
            Ok(Some(file)) => {
                // After the new file's bound and the claim, and after every
                // ID this generator handed out (a re-created file holds none).
                let start = file
                    .claimed_bound()
                    .max(self.clock.now_ms())
                    .max(generator.high_water_ms().unwrap_or(0));
                match generator
                    .advance_past(start)
                    .map_err(|e| LeaseError::new(Code::Io, e.to_string()))
                    .and_then(|()| file.raise(start + RESERVE_MS, self.clock.now_ms()))
                {
                    Ok(covered) => {
                        self.floor.store(start, SeqCst);
                        self.covered.store(covered, SeqCst);
                        state.file = Some(file);
                        format!("re-acquired worker ID {id}; the next call mints on it")
                    }
                    Err(e) => format!("re-acquiring failed (retried on the next call): {e}"),
                }
            }
            Ok(None) => format!(
                "worker ID {id} is held by another process now (retried on the next call; or drop this generator and acquire a new lease)"
            ),
            Err(e) => format!("re-acquiring failed (retried on the next call): {e}"),
        };
        LeaseError::new(Code::Lost, format!("{what}; {next}."))
    }
}

impl<C: Clock + Clone> Drop for LocalLease<C> {
    fn drop(&mut self) {
        let _ = self.finish(None);
    }
}
