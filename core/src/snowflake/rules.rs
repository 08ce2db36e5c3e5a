//! The rules every generator applies, as pure steps from the state (the
//! next free slot) and the clock's reading.

use super::{FieldOrder, Layout, OnBackwards, OnExhausted};
use crate::clock::Clock;
use crate::error::Error;

/// A run of IDs taken in one step: all in one tick, `first + i * stride`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Claim {
    /// The first (smallest) ID.
    pub first: u64,
    /// How many IDs (at least 1).
    pub count: u64,
    /// Distance between consecutive IDs (1, or `2^worker_bits` for Sonyflake's order).
    pub stride: u64,
    /// The tick every ID of the run falls in.
    pub tick: u64,
}

impl Claim {
    /// The claimed IDs in increasing order.
    pub fn ids(&self) -> impl Iterator<Item = u64> + use<> {
        let Claim {
            first,
            count,
            stride,
            ..
        } = *self;
        (0..count).map(move |i| first + i * stride)
    }
}

pub(super) enum Step {
    Take { slot: u64, count: u64 },
    Wait,
}

/// The rules every generator applies; the state is the next free slot.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rules {
    pub(super) layout: Layout,
    pub(super) worker_id: u64,
    pub(super) on_backwards: OnBackwards,
    pub(super) on_exhausted: OnExhausted,
}

impl Rules {
    pub(super) fn new<C: Clock>(layout: Layout, worker_id: u64, clock: &C) -> Result<Rules, Error> {
        layout.check_worker(worker_id)?;
        let now_ms = clock.now_ms();
        if layout.epoch_ms > now_ms {
            return Err(Error::EpochInFuture {
                epoch_ms: layout.epoch_ms,
                now_ms,
            });
        }
        layout.tick_of(now_ms)?;
        Ok(Rules {
            layout,
            worker_id,
            on_backwards: OnBackwards::default(),
            on_exhausted: OnExhausted::default(),
        })
    }

    /// Decides the next step from the state and the clock; pure. The
    /// common cases (a new tick, room left in the clock's tick) are decided
    /// here, the rest in [`Rules::step_ahead`].
    #[inline]
    pub(super) fn step(&self, state: u64, now_ms: u64, want: u64) -> Result<Step, Error> {
        let sb = self.layout.sequence_bits;
        let now_tick = match self.layout.tick_of(now_ms) {
            Ok(tick) => tick,
            Err(Error::TimeBeforeEpoch { .. }) if state > 0 => {
                // IDs exist, so a clock reset to before the epoch (a dead RTC
                // reading 1970) is a step back like any other.
                let last_ms = self.layout.ms_of_tick((state - 1) >> sb);
                return self.behind(last_ms - now_ms, state, want);
            }
            Err(e) => return Err(e),
        };
        let now_slot = now_tick << sb;
        if state <= now_slot {
            return self.take(now_slot, want);
        }
        if state >> sb == now_tick {
            // Room left in the clock's tick, which `tick_of` checked.
            return self.take(state, want);
        }
        self.step_ahead(state, now_tick, want)
    }

    /// [`Rules::step`] when the next free slot lies in a later tick than
    /// the clock's: a used-up tick, borrowed ticks, or a clock gone back.
    #[cold]
    fn step_ahead(&self, state: u64, now_tick: u64, want: u64) -> Result<Step, Error> {
        let sb = self.layout.sequence_bits;
        let next_tick = state >> sb;
        let borrow = match self.on_exhausted {
            OnExhausted::Wait => 0,
            OnExhausted::BorrowAhead { max_ticks } => max_ticks as u64,
        };
        if next_tick - now_tick <= borrow {
            return self.take_state(state, want);
        }
        let last_tick = (state - 1) >> sb;
        if last_tick <= now_tick + borrow {
            // Sequence used up (including borrowed ticks): wait for a tick.
            return Ok(Step::Wait);
        }
        self.behind(
            (last_tick - now_tick) * self.layout.unit_ms as u64,
            state,
            want,
        )
    }

    /// The error for a wait on a clock that cannot move while the generator
    /// waits ([`Clock::can_wait`]): minting resumes once the clock reaches
    /// the state's next tick, less the ticks the policy may borrow.
    #[cold]
    pub(super) fn would_wait(&self, state: u64, now_ms: u64) -> Error {
        let borrow = match self.on_exhausted {
            OnExhausted::Wait => 0,
            OnExhausted::BorrowAhead { max_ticks } => max_ticks as u64,
        };
        let resume_tick = (state >> self.layout.sequence_bits).saturating_sub(borrow);
        Error::ClockWouldWait {
            now_ms,
            until_ms: self.layout.ms_of_tick(resume_tick),
        }
    }

    /// Applies the backwards policy to a clock `by_ms` behind the last minted tick.
    #[cold]
    fn behind(&self, by_ms: u64, state: u64, want: u64) -> Result<Step, Error> {
        match self.on_backwards {
            OnBackwards::Wait { max_ms } if by_ms <= max_ms => Ok(Step::Wait),
            OnBackwards::Wait { max_ms } => Err(Error::ClockMovedBackwards {
                by_ms,
                allowed_ms: max_ms,
            }),
            OnBackwards::KeepLastTick => self.take_state(state, want),
            OnBackwards::Fail => Err(Error::ClockMovedBackwards {
                by_ms,
                allowed_ms: 0,
            }),
        }
    }

    /// [`Rules::take`], after checking that the state's tick is representable.
    #[inline]
    fn take_state(&self, state: u64, want: u64) -> Result<Step, Error> {
        let sb = self.layout.sequence_bits;
        let next_tick = state >> sb;
        if next_tick > self.layout.max_tick() {
            return Err(Error::TimeOverflow {
                max_ms: self.layout.max_ms(),
                now_ms: self.layout.ms_of_tick(next_tick),
            });
        }
        self.take(state, want)
    }

    /// Up to `want` slots from `state` on, within its tick. The state after
    /// them must fit a `u64`: only a layout whose time and sequence take all
    /// 64 bits (Mastodon's) reaches its end, in its last tick (year 10889),
    /// whose last slot is therefore never minted.
    #[inline]
    fn take(&self, state: u64, want: u64) -> Result<Step, Error> {
        let per_tick = 1u64 << self.layout.sequence_bits;
        let count = want
            .min(per_tick - (state & (per_tick - 1)))
            .min(u64::MAX - state);
        if count == 0 {
            return Err(Error::TimeOverflow {
                max_ms: self.layout.max_ms(),
                now_ms: self.layout.ms_of_tick(state >> self.layout.sequence_bits),
            });
        }
        Ok(Step::Take { slot: state, count })
    }

    #[inline]
    pub(super) fn claim(&self, slot: u64, count: u64) -> Claim {
        // The slot's tick was checked by `step`, the worker at construction.
        let sb = self.layout.sequence_bits;
        let sequence = slot & self.layout.max_sequence();
        let first = self.layout.place(slot >> sb, self.worker_id, sequence);
        let stride = match self.layout.order {
            FieldOrder::WorkerThenSequence => 1,
            FieldOrder::SequenceThenWorker => 1 << self.layout.worker_bits,
        };
        Claim {
            first,
            count,
            stride,
            tick: slot >> sb,
        }
    }

    #[inline]
    pub(super) fn check_count(&self, want: u64) -> Result<(), Error> {
        let max = 1u64 << self.layout.sequence_bits;
        if want == 0 || want > max {
            return Err(Error::InvalidCount { count: want, max });
        }
        Ok(())
    }

    /// The state that makes the first ID fall after `ms` (a lease's
    /// high-water mark), or the error naming `ms` if no tick after it fits.
    pub(super) fn state_after(&self, ms: u64) -> Result<u64, Error> {
        let overflow = Error::TimeOverflow {
            max_ms: self.layout.max_ms(),
            now_ms: ms,
        };
        match self.layout.tick_of(ms) {
            Ok(tick) if tick < self.layout.max_tick() => {
                Ok((tick + 1) << self.layout.sequence_bits)
            }
            Err(Error::TimeBeforeEpoch { .. }) => Ok(0),
            _ => Err(overflow),
        }
    }
}
