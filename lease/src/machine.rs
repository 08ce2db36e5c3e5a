//! The lease rules, once, without I/O: a [`Machine`] decides, a driver does
//! the I/O. Node's `snowmint/lease` (Redis, etcd, ZooKeeper and the local
//! lock files, through the addon) and this crate's store drivers drive the
//! same machine, so their holders of one store follow one rule book.
//!
//! The machine reads no clock: every call that needs the time takes it
//! (Unix ms, on the clock the holder's generator mints on).
//!
//! # The rule that keeps IDs unique across holders of one worker ID
//!
//! Every ID a holder hands out lies in a tick below `covered`, and `covered`
//! is written to the store (the *high-water bound*) before any ID uses it; a
//! new holder's generator starts after the bound it read when claiming. So
//! uniqueness never depends on timers firing, TTLs, or two hosts' clocks
//! agreeing: a holder that cannot extend its bound stops minting
//! ([`check`](Machine::check) fails), and a successor whose clock is behind
//! the bound waits until its own clock has passed it. TTLs only decide how
//! soon a dead holder's worker ID becomes free again.
//!
//! Except when the store loses its data (a Redis `FLUSHALL`, a restart
//! without persistence, an etcd rebuilt from nothing): the bound is gone,
//! and the holder mints on until its next renewal finds its key gone. A
//! store with a TTL therefore reports, with each claim, how long its data
//! may still hide such a holder ([`Claim::wait_ms`]): for a worker ID
//! without a recorded bound, what is left of the first TTL after the store's
//! data began. The claimant starts only after `now + wait_ms`, and stays
//! [`State::Pending`] (renewing, but failing every check) until then. Every
//! holder that minted before the loss renewed before it, so its IDs lie
//! below that renewal + `ttl_ms - margin_ms`, and the claimant's above the
//! loss + `ttl_ms`: apart by `margin_ms`, which is how far the two hosts'
//! clocks may disagree.
//!
//! # Driving it
//!
//! A store with a TTL ([`Mode::Ttl`]):
//! 1. `bounds` ← the store's recorded bounds; [`claim_order`](Machine::claim_order)
//!    at `now`; the store claims the first free ID of that order;
//!    [`claimed`](Machine::claimed) with what it got.
//! 2. Renew: `sent` = now, `bound` = [`renew_bound`](Machine::renew_bound)`(sent)`;
//!    the store extends the key if the token still holds it and records
//!    `bound`, within [`Timing::fence_ms`]; then
//!    [`renewed`](Machine::renewed), or [`lose`](Machine::lose) if the key
//!    was not ours, or [`failed`](Machine::failed) if the store
//!    could not be reached.
//! 3. [`promote`](Machine::promote) after each renewal and whenever
//!    [`next_delay`](Machine::next_delay) says; renew when
//!    [`renew_due`](Machine::renew_due); claim again when [`State::Lost`].
//! 4. [`check`](Machine::check) with the generator's last tick before any ID
//!    is handed out; [`release`](Machine::release) gives the exact mark to
//!    record as the key is freed.
//!
//! A synchronous store ([`Mode::Sync`], the lock files) records the bound
//! itself as it mints: [`check`](Machine::check) answers
//! [`Check::Record`] when the tick is past what is covered.

use std::collections::HashMap;
use std::ops::RangeInclusive;

use crate::error::{Code, LeaseError};

mod errors;
mod order;
mod skew;
mod skew_limit;
mod timing;

pub use order::{RESERVE_MS, claim_order};
pub use skew::{Against, Measure, PeerReading, Readings, measure_skew};
pub use skew_limit::{SkewFault, SkewLimit};
pub use timing::Timing;

/// How the store keeps the lease.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// A store written synchronously as the holder mints (lock files): each
    /// write reserves `reserve_ms` past the tick (see [`RESERVE_MS`]).
    Sync {
        /// How far past the current tick one write reaches.
        reserve_ms: u64,
    },
    /// A store that forgets a holder a TTL after its last renewal (Redis,
    /// etcd, ZooKeeper).
    Ttl(Timing),
}

/// Where a lease is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    /// Not claimed yet.
    New,
    /// Claimed and renewed, but its start ([`Machine::resume_after_ms`])
    /// lies ahead: no check passes yet.
    Pending,
    /// Held: checks pass for ticks the store covers.
    Held,
    /// The store says the worker ID is no longer ours (or it never became
    /// ours): claim again.
    Lost,
    /// Released: no check passes ever again.
    Released,
}

impl State {
    /// `"new"`, `"pending"`, `"held"`, `"lost"` or `"released"` (Node's `lease.state`).
    pub const fn as_str(self) -> &'static str {
        match self {
            State::New => "new",
            State::Pending => "pending",
            State::Held => "held",
            State::Lost => "lost",
            State::Released => "released",
        }
    }
}

/// What a store's claim got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// The worker ID now held with the lease's token.
    pub worker_id: u32,
    /// Its recorded high-water bound (0: none).
    pub bound: u64,
    /// Stores with a TTL: start no earlier than this long after the claim,
    /// because the store has no bound for the ID and its data is younger
    /// than one TTL.
    pub wait_ms: u64,
}

/// What [`Machine::check`] answers when the tick may be handed out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// The tick lies below the recorded bound.
    Covered,
    /// A synchronous store: write this bound (then [`Machine::recorded`]) before
    /// handing the tick out.
    Record(u64),
}

/// Why [`Machine::check`] refuses a tick.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// A synchronous store's worker ID is no longer ours (the driver found its
    /// lock gone): drop the IDs, [`lose`](Machine::lose) and claim again.
    LostSync,
    /// The clock is beyond the skew limit and the limit refuses.
    Skewed(SkewFault),
    /// The lease was released.
    Released(LeaseError),
    /// Not covered: pending, lost, or not renewed in time. The error is
    /// [`Machine::expired`] at the time the driver reads.
    Expired,
}

/// A worker-ID lease's rules, without I/O. See the [module](self) docs for
/// how a driver uses it.
#[derive(Debug, Clone)]
pub struct Machine {
    kind: String,
    place: String,
    range: RangeInclusive<u32>,
    mode: Mode,
    skew: SkewLimit,
    worker_id: Option<u32>,
    resume_after_ms: u64,
    /// Ticks below this are recorded in the store (0: none are).
    covered: u64,
    epoch: u64,
    state: State,
    /// When the last successful renewal was sent.
    renewed_at: Option<u64>,
    /// When the last renewal (or claim) was attempted: paces a pending lease.
    attempted_at: u64,
    last_error: Option<String>,
    skew_fault: Option<SkewFault>,
    /// Whether the last renewal found the clock beyond the limit (one report per episode).
    skewed: bool,
}

impl Machine {
    /// A lease of `kind` (`"redis"`, `"local"`, … for messages) at `place`
    /// (a key prefix, a directory) on the worker IDs of `range`.
    pub fn new(
        kind: impl Into<String>,
        place: impl Into<String>,
        range: RangeInclusive<u32>,
        mode: Mode,
        skew: SkewLimit,
    ) -> Self {
        Machine {
            kind: kind.into(),
            place: place.into(),
            range,
            mode,
            skew,
            worker_id: None,
            resume_after_ms: 0,
            covered: 0,
            epoch: 0,
            state: State::New,
            renewed_at: None,
            attempted_at: 0,
            last_error: None,
            skew_fault: None,
            skewed: false,
        }
    }

    /// The leased worker ID (`None` before the first claim); it can change
    /// when a lost lease is claimed again (see [`epoch`](Self::epoch)).
    pub fn worker_id(&self) -> Option<u32> {
        self.worker_id
    }
    /// The claim's start: mint only in ticks after it.
    pub fn resume_after_ms(&self) -> u64 {
        self.resume_after_ms
    }
    /// Counts the times the lease became held: a generator rebuilds itself when it changes.
    pub fn epoch(&self) -> u64 {
        self.epoch
    }
    /// Where the lease is in its life.
    pub fn state(&self) -> State {
        self.state
    }
    /// The worker IDs it may claim.
    pub fn range(&self) -> &RangeInclusive<u32> {
        &self.range
    }
    /// How the store keeps it.
    pub fn mode(&self) -> Mode {
        self.mode
    }
    /// Ticks below this are covered by the recorded bound (0: none).
    pub fn covered_ms(&self) -> u64 {
        self.covered
    }
    /// Whether the driver must probe a synchronous store's lock before each
    /// [`check`](Self::check) (it is held and could have been taken away).
    pub fn probes(&self) -> bool {
        matches!(self.mode, Mode::Sync { .. }) && self.state == State::Held
    }

    fn sync(&self) -> bool {
        matches!(self.mode, Mode::Sync { .. })
    }
    fn id_text(&self) -> String {
        self.worker_id.map_or("-1".into(), |id| id.to_string())
    }
    fn active(&self) -> bool {
        matches!(self.state, State::Held | State::Pending)
    }

    /// The order in which to try the free worker IDs, given the store's
    /// recorded `bounds` at `now_ms`: [`claim_order`], preferring the worker
    /// ID held before.
    pub fn claim_order(&self, bounds: &HashMap<u32, u64>, now_ms: u64) -> Vec<u32> {
        claim_order(&self.range, bounds, now_ms, self.worker_id)
    }

    /// What a claim at `now_ms` got (`None`: every ID is taken). `own_hwm`:
    /// the last tick this lease's generator minted, if any (our own worker
    /// ID again after a loss: our IDs may lie above the stored bound, so the
    /// new claim starts after them). The lease is then [`State::Pending`];
    /// a synchronous store gets the bound to write at once (then
    /// [`recorded`](Self::recorded) and [`promote`](Self::promote)); a store
    /// with a TTL renews first.
    pub fn claimed(
        &mut self,
        got: Option<Claim>,
        now_ms: u64,
        own_hwm: Option<u64>,
    ) -> Result<Option<u64>, LeaseError> {
        let got = got.ok_or_else(|| self.unavailable())?;
        let ours = if self.worker_id == Some(got.worker_id) {
            own_hwm.unwrap_or(0)
        } else {
            0
        };
        self.worker_id = Some(got.worker_id);
        self.covered = 0;
        self.attempted_at = now_ms;
        self.state = State::Pending;
        match self.mode {
            Mode::Sync { reserve_ms } => {
                self.resume_after_ms = got.bound.max(ours);
                Ok(Some(self.resume_after_ms.max(now_ms) + reserve_ms))
            }
            Mode::Ttl(_) => {
                let wait = if got.wait_ms > 0 {
                    now_ms.saturating_add(got.wait_ms)
                } else {
                    0
                };
                self.resume_after_ms = got.bound.max(ours).max(wait);
                Ok(None)
            }
        }
    }

    /// A synchronous store wrote `bound` (whose write was sent at `sent_ms`
    /// and done at `done_ms`, with the clocks it read, if any): ticks below
    /// it are covered.
    pub fn recorded(
        &mut self,
        bound: u64,
        readings: Option<&Readings>,
        sent_ms: u64,
        done_ms: u64,
    ) -> Option<SkewFault> {
        let fault = readings.and_then(|r| self.judge_skew(r, sent_ms, done_ms));
        self.covered = self.covered.max(bound);
        fault
    }

    /// The bound a renewal sent at `sent_ms` records: its fence, never
    /// below what was recorded (IDs up to it may be out) nor below the
    /// claim's start (so a successor, should this holder die before
    /// starting, starts after it and need not wait for the store's age).
    pub fn renew_bound(&self, sent_ms: u64) -> u64 {
        let fence = match self.mode {
            Mode::Ttl(t) => sent_ms + t.fence_ms(),
            Mode::Sync { reserve_ms } => sent_ms + reserve_ms,
        };
        self.covered.max(self.resume_after_ms).max(fence)
    }

    /// A renewal sent at `sent_ms` (answered at `done_ms`) extended the key
    /// and recorded `bound` (from [`renew_bound`](Self::renew_bound)): the
    /// lease covers up to it. Returns a skew beyond the limit that this
    /// renewal found first in its episode (to report once).
    pub fn renewed(
        &mut self,
        bound: u64,
        readings: Option<&Readings>,
        sent_ms: u64,
        done_ms: u64,
    ) -> Option<SkewFault> {
        if !self.active() {
            return None;
        }
        let fault = readings.and_then(|r| self.judge_skew(r, sent_ms, done_ms));
        self.covered = bound;
        self.renewed_at = Some(sent_ms);
        self.last_error = None;
        fault
    }

    /// A renewal could not reach the store, or a claim again failed (`why`,
    /// for messages: [`expired`](Self::expired) names the last error). The
    /// lease may still recover before its fence.
    pub fn failed(&mut self, why: impl Into<String>) {
        self.last_error = Some(why.into());
    }

    /// The store says the worker ID is no longer ours (or, right after a
    /// claim, that it never became ours): no check passes from now on.
    /// Returns the `ERR_LEASE_LOST` to report.
    pub fn lose(&mut self) -> LeaseError {
        self.state = State::Lost;
        self.covered = 0;
        let e = LeaseError::new(
            Code::Lost,
            format!(
                "worker ID {} is no longer held by this lease (expired in the store, or the store lost its data)",
                self.id_text()
            ),
        );
        self.last_error = Some(e.message().to_string());
        e
    }

    /// A pending lease becomes held once `now_ms` has passed its start (a
    /// synchronous store's at once): `true` when it just did (report it).
    pub fn promote(&mut self, now_ms: u64) -> bool {
        if self.state == State::Pending && (self.sync() || now_ms > self.resume_after_ms) {
            self.state = State::Held;
            self.epoch += 1;
            true
        } else {
            false
        }
    }

    /// Whether a renewal is due at `now_ms`: a held lease renews at every
    /// turn of its loop; a pending one once per `renew_ms`.
    pub fn renew_due(&self, now_ms: u64) -> bool {
        match self.mode {
            Mode::Ttl(t) => {
                self.state == State::Held
                    || (self.state == State::Pending
                        && now_ms.saturating_sub(self.attempted_at) >= t.renew_ms)
            }
            Mode::Sync { .. } => false,
        }
    }

    /// A renewal (or claim) is attempted at `now_ms`.
    pub fn attempting(&mut self, now_ms: u64) {
        self.attempted_at = now_ms;
    }

    /// How long the renewal loop sleeps from `now_ms`: a renewal period, but
    /// a pending lease wakes up at its start.
    pub fn next_delay(&self, now_ms: u64) -> u64 {
        let renew = match self.mode {
            Mode::Ttl(t) => t.renew_ms,
            Mode::Sync { .. } => RESERVE_MS,
        };
        if self.state == State::Pending {
            renew.min(self.until_start(now_ms))
        } else {
            renew
        }
    }

    /// How long to wait from `now_ms` for a pending lease's start (at least
    /// 1 ms, at most 1 s: a waiter looks again).
    pub fn wait_delay(&self, now_ms: u64) -> u64 {
        self.until_start(now_ms).min(1000)
    }

    fn until_start(&self, now_ms: u64) -> u64 {
        (self.resume_after_ms + 1).saturating_sub(now_ms).max(1)
    }

    /// Before handing out IDs whose last tick is `tick_ms`: whether the lease
    /// covers it. `still_held`: a synchronous store's probe of its lock when
    /// [`probes`](Self::probes) (else `true`).
    pub fn check(&self, tick_ms: u64, still_held: bool) -> Result<Check, Refusal> {
        if self.sync()
            && self.state != State::Released
            && !(self.state == State::Held && still_held)
        {
            return Err(Refusal::LostSync);
        }
        if let Some(fault) = &self.skew_fault
            && self.state == State::Held
        {
            return Err(Refusal::Skewed(fault.clone()));
        }
        match self.state {
            State::Held if tick_ms < self.covered => Ok(Check::Covered),
            State::Released => Err(Refusal::Released(self.released())),
            State::Held => match self.mode {
                Mode::Sync { reserve_ms } => Ok(Check::Record(tick_ms + reserve_ms)),
                Mode::Ttl(_) => Err(Refusal::Expired),
            },
            _ => Err(Refusal::Expired),
        }
    }

    /// Frees the lease: no check passes from now on. Returns the worker ID
    /// and the exact high-water mark to record as the store frees it
    /// (`own_hwm`, the generator's last tick, else the claim's start: nothing
    /// minted lies above it), or `None` if there is nothing to free
    /// (released before, or never claimed).
    pub fn release(&mut self, own_hwm: Option<u64>) -> Option<(u32, u64)> {
        if self.state == State::Released {
            return None;
        }
        let claimed = self.state != State::New;
        self.state = State::Released;
        self.covered = 0;
        let id = self.worker_id.filter(|_| claimed)?;
        Some((id, own_hwm.unwrap_or(self.resume_after_ms)))
    }
}

#[cfg(test)]
mod tests;
