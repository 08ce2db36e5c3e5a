//! The two generators: [`AtomicSnowflake`] (one `AtomicU64`, shared between
//! threads without a lock) and [`Snowflake`] (`&mut self`).

use super::rules::{Rules, Step};
use super::{Claim, Decoded, Layout, OnBackwards, OnExhausted};
use crate::clock::Clock;
use crate::error::Error;

macro_rules! shared_api {
    () => {
        /// What to do when the clock steps back (default: wait up to 1 s).
        pub fn on_backwards(mut self, policy: OnBackwards) -> Self {
            self.rules.on_backwards = policy;
            self
        }

        /// What to do when a tick's sequence is used up (default: wait).
        pub fn on_exhausted(mut self, policy: OnExhausted) -> Self {
            self.rules.on_exhausted = policy;
            self
        }

        /// The layout.
        pub fn layout(&self) -> &Layout {
            &self.rules.layout
        }

        /// The worker ID.
        pub fn worker_id(&self) -> u64 {
            self.rules.worker_id
        }

        /// The clock.
        pub fn clock(&self) -> &C {
            &self.clock
        }

        /// Splits an ID of this generator's layout into its fields.
        pub fn decode(&self, id: u64) -> Result<Decoded, Error> {
            self.rules.layout.decode(id)
        }
    };
}

/// A Snowflake generator shared between threads without a lock: its state
/// is one `AtomicU64` updated by compare-and-swap.
#[cfg(target_has_atomic = "64")]
#[derive(Debug)]
pub struct AtomicSnowflake<C> {
    rules: Rules,
    clock: C,
    state: core::sync::atomic::AtomicU64,
}

#[cfg(target_has_atomic = "64")]
impl<C: Clock> AtomicSnowflake<C> {
    /// A generator for `worker_id` under `layout`. Fails if the worker ID does
    /// not fit, or the epoch is after the clock's time or too long ago.
    pub fn new(layout: Layout, worker_id: u64, clock: C) -> Result<Self, Error> {
        Ok(AtomicSnowflake {
            rules: Rules::new(layout, worker_id, &clock)?,
            clock,
            state: core::sync::atomic::AtomicU64::new(0),
        })
    }

    shared_api!();

    /// The first ID will fall in a tick after `ms` (Unix ms): for a worker
    /// ID taken over from a holder that minted up to `ms`. Fails with
    /// [`Error::TimeOverflow`], naming `ms`, when no tick after it fits the
    /// layout.
    pub fn resume_after(self, ms: u64) -> Result<Self, Error> {
        self.advance_past(ms)?;
        Ok(self)
    }

    /// [`resume_after`](Self::resume_after) on a generator already in use
    /// (and maybe shared): IDs claimed from now on fall in a tick after `ms`.
    /// For a lease that re-claimed its worker ID under a running generator.
    pub fn advance_past(&self, ms: u64) -> Result<(), Error> {
        let s = self.rules.state_after(ms)?;
        self.state
            .fetch_max(s, core::sync::atomic::Ordering::AcqRel);
        Ok(())
    }

    /// The last tick this generator minted in, as Unix ms (`None` before the first ID).
    pub fn high_water_ms(&self) -> Option<u64> {
        let s = self.state.load(core::sync::atomic::Ordering::Acquire);
        (s > 0).then(|| {
            self.rules
                .layout
                .ms_of_tick((s - 1) >> self.rules.layout.sequence_bits)
        })
    }

    /// Takes up to `max` consecutive IDs (1 to `2^sequence_bits`) in one step;
    /// all of them in one tick. Waits as the policies say.
    #[inline]
    pub fn claim(&self, max: u64) -> Result<Claim, Error> {
        self.claim_or_wait(max, true)
    }

    /// [`AtomicSnowflake::claim`] that never waits: where it would wait, it
    /// fails with [`Error::ClockWouldWait`], saying until when, so that an
    /// asynchronous caller can wait on a timer instead of a thread.
    #[inline]
    pub fn try_claim(&self, max: u64) -> Result<Claim, Error> {
        self.claim_or_wait(max, false)
    }

    #[inline]
    fn claim_or_wait(&self, max: u64, wait: bool) -> Result<Claim, Error> {
        use core::sync::atomic::Ordering;
        self.rules.check_count(max)?;
        let mut cur = self.state.load(Ordering::Acquire);
        loop {
            let now_ms = self.clock.now_ms();
            match self.rules.step(cur, now_ms, max)? {
                Step::Wait if !wait || !self.clock.can_wait() => {
                    return Err(self.rules.would_wait(cur, now_ms));
                }
                Step::Wait => {
                    self.clock.relax();
                    cur = self.state.load(Ordering::Acquire);
                }
                Step::Take { slot, count } => {
                    match self.state.compare_exchange_weak(
                        cur,
                        slot + count,
                        Ordering::AcqRel,
                        Ordering::Acquire,
                    ) {
                        Ok(_) => return Ok(self.rules.claim(slot, count)),
                        Err(now) => cur = now,
                    }
                }
            }
        }
    }

    /// The next ID.
    #[inline]
    pub fn next(&self) -> Result<u64, Error> {
        self.claim(1).map(|c| c.first)
    }

    /// Fills `out` with increasing IDs.
    pub fn next_batch(&self, out: &mut [u64]) -> Result<(), Error> {
        let per_tick = 1 << self.rules.layout.sequence_bits;
        fill(out, per_tick, |max| self.claim(max))
    }
    /// A binding's refill: claims up to `out.len()` IDs of one tick (fewer
    /// when the tick has fewer left; `out` may be longer than a tick, as a
    /// caller sharing this generator with other threads may not know its
    /// current layout) into `out`, and says how long they stay fresh.
    /// Where the generator must wait, it waits if `wait` is true, else it
    /// claims nothing and says how long to wait ([`Run::wait_ms`]).
    #[cfg(feature = "std")]
    pub fn claim_into(&self, out: &mut [u64], wait: bool) -> Result<Run, Error> {
        let start = crate::clock::Instant::now();
        self.claim_into_timed(out, wait, || start.elapsed().as_secs_f64() * 1e3)
    }

    /// [`AtomicSnowflake::claim_into`] for a caller that times the call
    /// itself (a browser's Snowflake module, with `performance.now()`):
    /// `spent_ms()` gives the ms since the call began.
    pub fn claim_into_timed(
        &self,
        out: &mut [u64],
        wait: bool,
        spent_ms: impl FnOnce() -> f64,
    ) -> Result<Run, Error> {
        let per_tick = 1 << self.rules.layout.sequence_bits;
        let claim = match self.claim_or_wait((out.len() as u64).min(per_tick), wait) {
            Err(Error::ClockWouldWait { now_ms, until_ms }) if !wait => {
                return Ok(Run {
                    count: 0,
                    fresh_ms: 0.0,
                    high_water_ms: self.high_water_ms().unwrap_or(now_ms),
                    wait_ms: until_ms.saturating_sub(now_ms).max(1),
                });
            }
            claim => claim?,
        };
        for (slot, id) in out.iter_mut().zip(claim.ids()) {
            *slot = id;
        }
        let layout = &self.rules.layout;
        Ok(Run {
            count: claim.count,
            fresh_ms: crate::clock::fresh_after(spent_ms(), &self.clock, |now| {
                layout.tick_of(now).is_ok_and(|n| n <= claim.tick)
            }),
            high_water_ms: self
                .high_water_ms()
                .unwrap_or(layout.ms_of_tick(claim.tick)),
            wait_ms: 0,
        })
    }
}

/// What [`AtomicSnowflake::claim_into`] took, or how long it would have waited.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Run {
    /// How many IDs it wrote.
    pub count: u64,
    /// How many ms after the call began the clock still read the run's tick
    /// (or an earlier one; 0 is always a safe answer): hand the run out only
    /// until `start + fresh_ms + unit_ms`, so no ID is more than one tick
    /// older than the moment it is handed out.
    pub fresh_ms: f64,
    /// The generator's high-water mark after the claim (start, in Unix ms,
    /// of the last tick any caller minted in): what a worker-ID lease must
    /// cover before the run is handed out.
    pub high_water_ms: u64,
    /// 0 for a run; for a claim that would have waited (`count` 0), how
    /// many ms of the clock must pass before the generator mints again (at
    /// least 1): the wait ends when the clock reads
    /// [`Error::ClockWouldWait`]'s `until_ms`.
    pub wait_ms: u64,
}

/// A Snowflake generator owned by one caller (`&mut self`): for targets
/// without 64-bit atomics, or code that already serializes access.
#[derive(Debug, Clone)]
pub struct Snowflake<C> {
    rules: Rules,
    clock: C,
    state: u64,
}

impl<C: Clock> Snowflake<C> {
    /// A generator for `worker_id` under `layout`; see [`AtomicSnowflake::new`].
    pub fn new(layout: Layout, worker_id: u64, clock: C) -> Result<Self, Error> {
        Ok(Snowflake {
            rules: Rules::new(layout, worker_id, &clock)?,
            clock,
            state: 0,
        })
    }

    shared_api!();

    /// See [`AtomicSnowflake::resume_after`].
    pub fn resume_after(mut self, ms: u64) -> Result<Self, Error> {
        self.state = self.state.max(self.rules.state_after(ms)?);
        Ok(self)
    }

    /// See [`AtomicSnowflake::claim`].
    #[inline]
    pub fn claim(&mut self, max: u64) -> Result<Claim, Error> {
        self.claim_or_wait(max, true)
    }

    /// See [`AtomicSnowflake::try_claim`].
    #[inline]
    pub fn try_claim(&mut self, max: u64) -> Result<Claim, Error> {
        self.claim_or_wait(max, false)
    }

    #[inline]
    fn claim_or_wait(&mut self, max: u64, wait: bool) -> Result<Claim, Error> {
        self.rules.check_count(max)?;
        loop {
            let now_ms = self.clock.now_ms();
            match self.rules.step(self.state, now_ms, max)? {
                Step::Wait if !wait || !self.clock.can_wait() => {
                    return Err(self.rules.would_wait(self.state, now_ms));
                }
                Step::Wait => self.clock.relax(),
                Step::Take { slot, count } => {
                    self.state = slot + count;
                    return Ok(self.rules.claim(slot, count));
                }
            }
        }
    }

    /// The next ID.
    #[inline]
    #[allow(clippy::should_implement_trait)] // fallible, so not an Iterator
    pub fn next(&mut self) -> Result<u64, Error> {
        self.claim(1).map(|c| c.first)
    }

    /// Fills `out` with increasing IDs.
    pub fn next_batch(&mut self, out: &mut [u64]) -> Result<(), Error> {
        let per_tick = 1 << self.rules.layout.sequence_bits;
        fill(out, per_tick, |max| self.claim(max))
    }
}

fn fill(
    out: &mut [u64],
    per_tick: u64,
    mut claim: impl FnMut(u64) -> Result<Claim, Error>,
) -> Result<(), Error> {
    let mut rest = out;
    while !rest.is_empty() {
        let c = claim((rest.len() as u64).min(per_tick))?;
        let (head, tail) = rest.split_at_mut(c.count as usize);
        for (slot, id) in head.iter_mut().zip(c.ids()) {
            *slot = id;
        }
        rest = tail;
    }
    Ok(())
}
