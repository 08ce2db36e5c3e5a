//! A lease with a coordinator, for Rust (feature `driver`, on with `redis`,
//! `etcd` or `zookeeper`): [`Lease`] drives the [`Machine`] against a [`Store`] on tokio,
//! as Node's `snowmint/lease` drives the same machine against its stores.
//!
//! **Async, on tokio.** A lease with a TTL must renew in the background
//! whatever its holder does, and the store clients are async (the `redis`
//! crate's multiplexed connection, hyper's for etcd); an ID service is a
//! tokio server. So claiming ([`Lease::acquire`]) and releasing
//! ([`Lease::release`]) are `async`, the renewals run in a task spawned on
//! the current runtime, and the one call on the minting path,
//! [`Lease::check`], is synchronous and does no I/O (a mutex and a compare),
//! so a generator may call it from any thread.
//!
//! ```no_run
//! # async fn run() -> Result<(), snowmint_lease::LeaseError> {
//! use snowmint_lease::driver::{Lease, LeaseConfig};
//! use snowmint_lease::redis::RedisStore;
//!
//! let client = redis::Client::open("redis://127.0.0.1:6379/").unwrap();
//! let store = RedisStore::connect(client, "snowmint").await?;
//! let lease = Lease::acquire(store, LeaseConfig::default()).await?;
//! println!("worker {} from {}", lease.worker_id(), lease.resume_after_ms());
//! // Before handing out IDs whose last tick is `tick`:
//! # let tick = 0;
//! lease.check(tick)?;
//! lease.release(Some(tick)).await?;
//! # Ok(()) }
//! ```

use std::collections::HashMap;
use std::future::Future;
use std::ops::RangeInclusive;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use snowmint::clock::{Clock, SystemClock};

use crate::error::{Code, LeaseError};
use crate::machine::{
    Check, Claim, Machine, Mode, Readings, Refusal, SkewFault, SkewLimit, State, Timing,
};

/// A boxed future of a [`Store`]'s step.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, LeaseError>> + Send + 'a>>;

/// What a store did with a renewal.
#[derive(Debug, Clone, PartialEq)]
pub enum Extended {
    /// The token no longer holds the worker ID (expired, taken, data lost).
    NotOurs,
    /// Extended and the bound recorded; with the other clocks the store saw, if it knows any.
    Held(Option<Readings>),
}

/// What a coordinator implements: the I/O of a lease, each step atomic in
/// the store. The rules are the [`Machine`]'s.
pub trait Store: Send + Sync + 'static {
    /// `"redis"`, `"etcd"`: for messages.
    fn kind(&self) -> &'static str;
    /// Names the place (a key prefix), for messages.
    fn place(&self) -> String;
    /// The recorded high-water bound of every worker ID that has one.
    fn bounds(&self) -> StoreFuture<'_, HashMap<u32, u64>>;
    /// Claims the first of `order` that is free, with `token` and a TTL of
    /// `ttl_ms`; `None` if none is.
    fn claim<'a>(
        &'a self,
        order: &'a [u32],
        token: &'a str,
        ttl_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>>;
    /// If `token` still holds `worker_id`: extends it by `ttl_ms`, records
    /// `bound`, reports `clock_ms` (the holder's clock as sent).
    fn extend<'a>(
        &'a self,
        worker_id: u32,
        token: &'a str,
        bound: u64,
        clock_ms: u64,
        ttl_ms: u64,
    ) -> StoreFuture<'a, Extended>;
    /// If `token` still holds `worker_id`: records `hwm` as its exact mark and frees it.
    fn release<'a>(
        &'a self,
        worker_id: u32,
        token: &'a str,
        hwm: Option<u64>,
    ) -> StoreFuture<'a, ()>;
    /// Learns the lease's timing before the first claim (etcd bounds the
    /// age of its clock reports by the renewal period); most stores ignore it.
    fn set_timing(&mut self, _timing: Timing) {}
}

/// How a [`Lease`] claims and keeps its worker ID.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseConfig {
    /// The worker IDs it may claim (default 0..=1023, the Twitter layout's).
    pub range: RangeInclusive<u32>,
    /// TTL, renewal period and margin (default 10 s, 1/3, 1/5).
    pub timing: Timing,
    /// The clock-skew limit (default 1000 ms, report only).
    pub skew: SkewLimit,
}

impl Default for LeaseConfig {
    fn default() -> Self {
        LeaseConfig {
            range: 0..=1023,
            timing: Timing::default(),
            skew: SkewLimit::default(),
        }
    }
}

/// A clock the lease computes deadlines on: shared with its renewal task.
pub type SharedClock = Arc<dyn Clock + Send + Sync>;

/// What a lease has been through, for metrics and readiness.
#[derive(Debug, Clone, PartialEq)]
pub struct Status {
    /// Where it is in its life.
    pub state: State,
    /// The worker ID (`None` before the first claim).
    pub worker_id: Option<u32>,
    /// Counts the times it became held.
    pub epoch: u64,
    /// Ticks below this are covered (0: none): with the clock, the time left
    /// before the lease fences itself.
    pub covered_ms: u64,
    /// Renewals that could not reach the store, since the start.
    pub renew_failures: u64,
    /// Times the store said the worker ID was no longer ours.
    pub losses: u64,
    /// The last skew beyond the limit (cleared when a renewal finds it within).
    pub skew: Option<SkewFault>,
}

struct Inner {
    store: Box<dyn Store>,
    clock: SharedClock,
    timing: Timing,
    token: String,
    m: Mutex<Machine>,
    renew_failures: AtomicU64,
    losses: AtomicU64,
    last_skew: Mutex<Option<SkewFault>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Inner {
    fn now(&self) -> u64 {
        self.clock.now_ms()
    }

    /// Claims a worker ID: the store's bounds, the machine's order, the
    /// store's claim, then the first renewal (whose answer says whether the
    /// claim stands). `own_hwm`: the holder's last tick, if any.
    async fn claim(&self, own_hwm: Option<u64>) -> Result<(), LeaseError> {
        let bounds = self.store.bounds().await?;
        let order = lock(&self.m).claim_order(&bounds, self.now());
        let got = self
            .store
            .claim(&order, &self.token, self.timing.ttl_ms)
            .await?;
        lock(&self.m).claimed(got, self.now(), own_hwm)?;
        match self.renew().await {
            Some(true) => Ok(()),
            outcome => {
                let mut m = lock(&self.m);
                let e = m.lose();
                Err(if outcome.is_none() {
                    m.expired(self.now())
                } else {
                    e
                })
            }
        }
    }

    /// One compare-and-extend: `Some(true)` extended, `Some(false)` not
    /// ours, `None` the store could not be reached in time.
    async fn renew(&self) -> Option<bool> {
        let sent = self.now();
        let (id, bound) = {
            let m = lock(&self.m);
            (m.worker_id()?, m.renew_bound(sent))
        };
        let step = self
            .store
            .extend(id, &self.token, bound, sent, self.timing.ttl_ms);
        let fence = Duration::from_millis(self.timing.fence_ms());
        match tokio::time::timeout(fence, step).await {
            Ok(Ok(Extended::Held(readings))) => {
                let done = self.now();
                let mut m = lock(&self.m);
                let fault = m.renewed(bound, readings.as_ref(), sent, done);
                let mut last = lock(&self.last_skew);
                if fault.is_some() {
                    *last = fault;
                } else if !m.skewed() {
                    *last = None;
                }
                Some(true)
            }
            Ok(Ok(Extended::NotOurs)) => Some(false),
            Ok(Err(e)) => {
                self.renew_failures.fetch_add(1, Ordering::Relaxed);
                lock(&self.m).failed(e.message());
                None
            }
            Err(_) => {
                self.renew_failures.fetch_add(1, Ordering::Relaxed);
                lock(&self.m).failed(format!(
                    "lease renewal took longer than {} ms",
                    self.timing.fence_ms()
                ));
                None
            }
        }
    }

    /// The renewal loop: renews when due, claims again when lost, promotes
    /// a pending lease at its start. Ends when the lease is released.
    async fn keep(self: Arc<Self>, own_hwm: Arc<AtomicU64>) {
        let mut delay = self.timing.renew_ms;
        loop {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            if lock(&self.m).state() == State::Released {
                return;
            }
            let due = lock(&self.m).renew_due(self.now());
            if due {
                lock(&self.m).attempting(self.now());
                if self.renew().await == Some(false) {
                    let mut m = lock(&self.m);
                    if matches!(m.state(), State::Held | State::Pending) {
                        m.lose();
                        self.losses.fetch_add(1, Ordering::Relaxed);
                    }
                }
            }
            if lock(&self.m).state() == State::Lost {
                let hwm = own_hwm.load(Ordering::Relaxed);
                match self.claim((hwm > 0).then_some(hwm)).await {
                    Ok(()) => lock(&self.m).attempting(self.now()),
                    Err(e) => lock(&self.m).failed(e.message()),
                }
            }
            let mut m = lock(&self.m);
            m.promote(self.now());
            if m.state() == State::Released {
                return;
            }
            delay = m.next_delay(self.now());
        }
    }
}

/// A worker ID leased from a coordinator, kept by a renewal task until
/// [`release`](Self::release)d (or dropped: the task stops and the key
/// expires after its TTL).
pub struct Lease {
    inner: Arc<Inner>,
    /// The generator's last tick, as [`note_minted`](Self::note_minted) gives it (0: none).
    own_hwm: Arc<AtomicU64>,
    task: tokio::task::JoinHandle<()>,
}

impl std::fmt::Debug for Lease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Lease")
            .field("status", &self.status())
            .finish()
    }
}

impl Lease {
    /// Claims a worker ID from `store` on the system clock, starts renewing,
    /// and resolves once the lease is held (a claim on a young store, or
    /// after a bound ahead, waits: [`Machine`] docs).
    pub async fn acquire(store: impl Store, config: LeaseConfig) -> Result<Lease, LeaseError> {
        Lease::acquire_with_clock(store, config, Arc::new(SystemClock)).await
    }

    /// [`acquire`](Self::acquire) on `clock` (a skewed or manual clock in tests).
    /// Must run within a tokio runtime (with its time driver).
    pub async fn acquire_with_clock(
        mut store: impl Store,
        config: LeaseConfig,
        clock: SharedClock,
    ) -> Result<Lease, LeaseError> {
        store.set_timing(config.timing);
        let m = Machine::new(
            store.kind(),
            store.place(),
            config.range.clone(),
            Mode::Ttl(config.timing),
            config.skew,
        );
        let inner = Arc::new(Inner {
            store: Box::new(store),
            clock,
            timing: config.timing,
            token: format!("{:032x}", snowmint::new_uuid_v4().0),
            m: Mutex::new(m),
            renew_failures: AtomicU64::new(0),
            losses: AtomicU64::new(0),
            last_skew: Mutex::new(None),
        });
        inner.claim(None).await?;
        let refused = lock(&inner.m).refuses_start().map(|f| f.error.clone());
        let own_hwm = Arc::new(AtomicU64::new(0));
        let lease = Lease {
            task: tokio::spawn(Arc::clone(&inner).keep(Arc::clone(&own_hwm))),
            inner,
            own_hwm,
        };
        if let Some(e) = refused {
            lease.release(None).await?;
            return Err(e);
        }
        lock(&lease.inner.m).promote(lease.inner.now());
        loop {
            let (state, wait) = {
                let m = lock(&lease.inner.m);
                (m.state(), m.wait_delay(lease.inner.now()))
            };
            match state {
                State::Held => return Ok(lease),
                State::Pending => {
                    tokio::time::sleep(Duration::from_millis(wait)).await;
                    lock(&lease.inner.m).promote(lease.inner.now());
                }
                _ => {
                    let e = lock(&lease.inner.m).expired(lease.inner.now());
                    lease.release(None).await?;
                    return Err(e);
                }
            }
        }
    }

    /// The leased worker ID. It can change when a lost lease is claimed
    /// again (then [`epoch`](Self::epoch) changes: rebuild the generator
    /// with the new ID, starting after [`resume_after_ms`](Self::resume_after_ms)).
    pub fn worker_id(&self) -> u32 {
        lock(&self.inner.m).worker_id().unwrap_or(0)
    }

    /// The claim's start: mint only in ticks after it.
    pub fn resume_after_ms(&self) -> u64 {
        lock(&self.inner.m).resume_after_ms()
    }

    /// Counts the times the lease became held.
    pub fn epoch(&self) -> u64 {
        lock(&self.inner.m).epoch()
    }

    /// The lease's state and counters.
    pub fn status(&self) -> Status {
        let m = lock(&self.inner.m);
        Status {
            state: m.state(),
            worker_id: m.worker_id(),
            epoch: m.epoch(),
            covered_ms: m.covered_ms(),
            renew_failures: self.inner.renew_failures.load(Ordering::Relaxed),
            losses: self.inner.losses.load(Ordering::Relaxed),
            skew: lock(&self.inner.last_skew).clone(),
        }
    }

    /// Before handing out IDs whose last tick is `tick_ms`: `Ok` if the
    /// lease covers it, else why not (`ERR_LEASE_EXPIRED` pending, lost or
    /// not renewed in time; `ERR_CLOCK_SKEW` beyond a refusing limit;
    /// `ERR_LEASE_RELEASED`). No I/O.
    pub fn check(&self, tick_ms: u64) -> Result<(), LeaseError> {
        let m = lock(&self.inner.m);
        match m.check(tick_ms, true) {
            Ok(Check::Covered) => Ok(()),
            Ok(Check::Record(_)) | Err(Refusal::LostSync) => Err(LeaseError::new(
                Code::Expired,
                "a TTL lease records no bound as it mints",
            )),
            Err(Refusal::Skewed(f)) => Err(f.error),
            Err(Refusal::Released(e)) => Err(e),
            Err(Refusal::Expired) => Err(m.expired(self.inner.now())),
        }
    }

    /// Tells the lease the generator's last minted tick: a re-claim of the
    /// same worker ID after a loss then starts after it.
    pub fn note_minted(&self, tick_ms: u64) {
        self.own_hwm.fetch_max(tick_ms, Ordering::Relaxed);
    }

    /// Stops renewing, records the exact high-water mark (`hwm`: the
    /// generator's last tick; `None`: the claim's start or the last
    /// [`note_minted`](Self::note_minted)) and frees the worker ID.
    pub async fn release(&self, hwm: Option<u64>) -> Result<(), LeaseError> {
        self.task.abort();
        let noted = self.own_hwm.load(Ordering::Relaxed);
        let hwm = hwm.or((noted > 0).then_some(noted));
        let freed = lock(&self.inner.m).release(hwm);
        match freed {
            Some((id, hwm)) => {
                self.inner
                    .store
                    .release(id, &self.inner.token, Some(hwm))
                    .await
            }
            None => Ok(()),
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        self.task.abort();
    }
}
