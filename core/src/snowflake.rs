//! 64-bit Snowflake IDs: `0 | time | worker | sequence` (or Sonyflake's
//! `0 | time | sequence | machine`). The layout is data ([`Layout`]); the
//! presets are taken from the primary sources.
//!
//! A generator's whole state is one `u64`, the *next free slot*
//! `tick << sequence_bits | sequence`. Minting takes the larger of that slot
//! and the clock's first slot, so uniqueness and order follow from the slot
//! never going back, whatever the clock does. [`AtomicSnowflake`] keeps the
//! slot in one `AtomicU64` and is shared between threads without a lock;
//! [`Snowflake`] is the plain `&mut self` version for targets without 64-bit
//! atomics (or a single owner).

use crate::clock::Clock;
use crate::error::{Error, Kind, ParseError};

/// Which field sits right after the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldOrder {
    /// `time | worker | sequence` (Twitter, Discord, Instagram).
    WorkerThenSequence,
    /// `time | sequence | worker` (Sonyflake).
    SequenceThenWorker,
}

impl FieldOrder {
    /// Every order, in the order of the bindings' index encoding.
    pub const ALL: [FieldOrder; 2] = [
        FieldOrder::WorkerThenSequence,
        FieldOrder::SequenceThenWorker,
    ];

    /// The bindings' name: `"worker-sequence"` or `"sequence-worker"`.
    pub const fn name(self) -> &'static str {
        match self {
            FieldOrder::WorkerThenSequence => "worker-sequence",
            FieldOrder::SequenceThenWorker => "sequence-worker",
        }
    }

    /// Looks an order up by [`FieldOrder::name`].
    pub fn from_name(name: &str) -> Option<FieldOrder> {
        FieldOrder::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// Field widths of a custom layout, as the bindings take them
/// (see [`Layout::resolve`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CustomLayout {
    /// Width of the time field.
    pub time_bits: u8,
    /// Width of the worker field.
    pub worker_bits: u8,
    /// Width of the sequence field.
    pub sequence_bits: u8,
    /// Length of a tick in ms.
    pub unit_ms: u32,
    /// Which field follows the time.
    pub order: FieldOrder,
}

/// How a preset divides its worker field into two named parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WorkerSplit {
    /// Name of the high part (e.g. `"datacenter"`).
    pub high: &'static str,
    /// Name of the low part (e.g. `"worker"`).
    pub low: &'static str,
    /// Width of the low part; the high part takes the rest.
    pub low_bits: u8,
}

/// The shape of a Snowflake: field widths (summing to 63; the sign bit stays
/// 0), the length of one tick and the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    time_bits: u8,
    worker_bits: u8,
    sequence_bits: u8,
    unit_ms: u32,
    epoch_ms: u64,
    order: FieldOrder,
    split: Option<WorkerSplit>,
}

/// The named layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Twitter: 41 time / 10 worker (5 datacenter + 5 worker) / 12 sequence,
    /// 1 ms, epoch 1288834974657 (2010-11-04T01:42:54.657Z).
    Twitter,
    /// Discord: Twitter's widths, epoch 1420070400000 (2015-01-01); the
    /// worker field is 5 bits internal worker + 5 bits internal process.
    Discord,
    /// Instagram: 41 time / 13 shard / 10 sequence, 1 ms, epoch
    /// 1314220021721 (2011-08-24T21:07:01.721Z), the value in Instagram's
    /// published `next_id()` function. (Its prose mentions an example epoch
    /// of 2011-01-01, which articles often copy as the real one.)
    Instagram,
    /// Sonyflake: 39 bits of 10 ms units since 2014-09-01T00:00:00Z, then 8
    /// sequence bits, then 16 machine bits (sequence *before* machine, as in
    /// sony/sonyflake; many articles swap them).
    Sonyflake,
}

impl Preset {
    /// All presets, for listings and help texts.
    pub const ALL: [Preset; 4] = [
        Preset::Twitter,
        Preset::Discord,
        Preset::Instagram,
        Preset::Sonyflake,
    ];

    /// The preset's lowercase name.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Twitter => "twitter",
            Preset::Discord => "discord",
            Preset::Instagram => "instagram",
            Preset::Sonyflake => "sonyflake",
        }
    }

    /// Looks a preset up by [`Preset::name`].
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The preset's layout.
    pub const fn layout(self) -> Layout {
        match self {
            Preset::Twitter => Layout::TWITTER,
            Preset::Discord => Layout::DISCORD,
            Preset::Instagram => Layout::INSTAGRAM,
            Preset::Sonyflake => Layout::SONYFLAKE,
        }
    }
}

/// The fields of a decoded Snowflake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Parts {
    /// Ticks since the epoch.
    pub tick: u64,
    /// Start of the tick, in Unix milliseconds.
    pub timestamp_ms: u64,
    /// The whole worker (machine, shard) field.
    pub worker_id: u64,
    /// The sequence within the tick.
    pub sequence: u64,
    /// The worker field's named parts, for presets that split it:
    /// `(high name, high value, low name, low value)`.
    pub worker_parts: Option<(&'static str, u64, &'static str, u64)>,
}

const fn mask(bits: u8) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

impl Layout {
    /// Twitter's layout, see [`Preset::Twitter`].
    pub const TWITTER: Layout = Layout {
        time_bits: 41,
        worker_bits: 10,
        sequence_bits: 12,
        unit_ms: 1,
        epoch_ms: 1_288_834_974_657,
        order: FieldOrder::WorkerThenSequence,
        split: Some(WorkerSplit {
            high: "datacenter",
            low: "worker",
            low_bits: 5,
        }),
    };
    /// Discord's layout, see [`Preset::Discord`].
    pub const DISCORD: Layout = Layout {
        epoch_ms: 1_420_070_400_000,
        split: Some(WorkerSplit {
            high: "worker",
            low: "process",
            low_bits: 5,
        }),
        ..Layout::TWITTER
    };
    /// Instagram's layout, see [`Preset::Instagram`].
    pub const INSTAGRAM: Layout = Layout {
        time_bits: 41,
        worker_bits: 13,
        sequence_bits: 10,
        unit_ms: 1,
        epoch_ms: 1_314_220_021_721,
        order: FieldOrder::WorkerThenSequence,
        split: None,
    };
    /// Sonyflake's layout, see [`Preset::Sonyflake`].
    pub const SONYFLAKE: Layout = Layout {
        time_bits: 39,
        worker_bits: 16,
        sequence_bits: 8,
        unit_ms: 10,
        epoch_ms: 1_409_529_600_000,
        order: FieldOrder::SequenceThenWorker,
        split: None,
    };

    /// A custom `time | worker | sequence` layout. The three widths must add
    /// up to 63, time and sequence need at least one bit each, and a tick
    /// lasts `unit_ms` >= 1 milliseconds from `epoch_ms` (Unix ms).
    pub const fn new(
        time_bits: u8,
        worker_bits: u8,
        sequence_bits: u8,
        unit_ms: u32,
        epoch_ms: u64,
    ) -> Result<Layout, Error> {
        let sum = time_bits as u32 + worker_bits as u32 + sequence_bits as u32;
        if sum != 63 {
            return Err(Error::InvalidLayout {
                reason: "time, worker and sequence bits must add up to 63 (the sign bit stays 0)",
            });
        }
        if time_bits == 0 {
            return Err(Error::InvalidLayout {
                reason: "time needs at least 1 bit",
            });
        }
        if sequence_bits == 0 {
            return Err(Error::InvalidLayout {
                reason: "sequence needs at least 1 bit",
            });
        }
        if unit_ms == 0 {
            return Err(Error::InvalidLayout {
                reason: "the time unit must be at least 1 ms",
            });
        }
        Ok(Layout {
            time_bits,
            worker_bits,
            sequence_bits,
            unit_ms,
            epoch_ms,
            order: FieldOrder::WorkerThenSequence,
            split: None,
        })
    }

    /// The layout a binding's options describe: `custom` widths if given,
    /// else `preset`'s layout; `epoch_ms`, if given, replaces the epoch of
    /// either (a custom layout without one starts at the Unix epoch).
    pub fn resolve(
        preset: Preset,
        custom: Option<CustomLayout>,
        epoch_ms: Option<u64>,
    ) -> Result<Layout, Error> {
        let layout = match custom {
            Some(c) => Layout::new(c.time_bits, c.worker_bits, c.sequence_bits, c.unit_ms, 0)?
                .with_order(c.order),
            None => preset.layout(),
        };
        Ok(epoch_ms.map_or(layout, |ms| layout.with_epoch(ms)))
    }

    /// The same layout with the sequence placed before the worker field.
    pub const fn with_order(mut self, order: FieldOrder) -> Layout {
        self.order = order;
        self
    }

    /// The same layout with another epoch (Unix ms).
    pub const fn with_epoch(mut self, epoch_ms: u64) -> Layout {
        self.epoch_ms = epoch_ms;
        self
    }

    /// Width of the time field.
    pub const fn time_bits(&self) -> u8 {
        self.time_bits
    }
    /// Width of the worker field.
    pub const fn worker_bits(&self) -> u8 {
        self.worker_bits
    }
    /// Width of the sequence field.
    pub const fn sequence_bits(&self) -> u8 {
        self.sequence_bits
    }
    /// Length of one tick in milliseconds.
    pub const fn unit_ms(&self) -> u32 {
        self.unit_ms
    }
    /// The epoch in Unix milliseconds.
    pub const fn epoch_ms(&self) -> u64 {
        self.epoch_ms
    }
    /// Field order.
    pub const fn order(&self) -> FieldOrder {
        self.order
    }
    /// Named parts of the worker field, if the preset has them.
    pub const fn split(&self) -> Option<WorkerSplit> {
        self.split
    }
    /// Largest worker ID.
    pub const fn max_worker(&self) -> u64 {
        mask(self.worker_bits)
    }
    /// Largest sequence number (IDs per tick minus one).
    pub const fn max_sequence(&self) -> u64 {
        mask(self.sequence_bits)
    }
    /// Largest tick.
    pub const fn max_tick(&self) -> u64 {
        mask(self.time_bits)
    }
    /// Last representable time, in Unix milliseconds (saturating).
    pub const fn max_ms(&self) -> u64 {
        self.epoch_ms
            .saturating_add(self.max_tick().saturating_mul(self.unit_ms as u64))
            .saturating_add(self.unit_ms as u64 - 1)
    }

    /// The tick a Unix millisecond falls in.
    #[inline]
    pub fn tick_of(&self, now_ms: u64) -> Result<u64, Error> {
        let Some(since) = now_ms.checked_sub(self.epoch_ms) else {
            return Err(Error::TimeBeforeEpoch {
                epoch_ms: self.epoch_ms,
                now_ms,
            });
        };
        let tick = if self.unit_ms == 1 {
            since
        } else {
            since / self.unit_ms as u64
        };
        if tick > self.max_tick() {
            return Err(Error::TimeOverflow {
                max_ms: self.max_ms(),
                now_ms,
            });
        }
        Ok(tick)
    }

    /// The Unix millisecond at which a tick starts.
    pub const fn ms_of_tick(&self, tick: u64) -> u64 {
        self.epoch_ms
            .saturating_add(tick.saturating_mul(self.unit_ms as u64))
    }

    /// Checks a worker ID against the worker field.
    pub const fn check_worker(&self, worker_id: u64) -> Result<u64, Error> {
        if worker_id > self.max_worker() {
            Err(Error::WorkerIdOutOfRange {
                worker_id,
                max: self.max_worker(),
            })
        } else {
            Ok(worker_id)
        }
    }

    /// Builds an ID from its fields; each is masked to its width.
    #[inline]
    pub const fn compose(&self, tick: u64, worker_id: u64, sequence: u64) -> u64 {
        self.place(
            tick & self.max_tick(),
            worker_id & self.max_worker(),
            sequence & self.max_sequence(),
        )
    }

    /// [`Layout::compose`] of fields already within their widths.
    #[inline]
    const fn place(&self, t: u64, w: u64, s: u64) -> u64 {
        match self.order {
            FieldOrder::WorkerThenSequence => {
                t << (self.worker_bits + self.sequence_bits) | w << self.sequence_bits | s
            }
            FieldOrder::SequenceThenWorker => {
                t << (self.worker_bits + self.sequence_bits) | s << self.worker_bits | w
            }
        }
    }

    /// Splits an ID into its fields. IDs with the sign bit set are rejected.
    pub fn decode(&self, id: u64) -> Result<Parts, Error> {
        if id >> 63 != 0 {
            return Err(Error::Parse(ParseError::Overflow {
                kind: Kind::Snowflake,
                max: "9223372036854775807",
            }));
        }
        let tick = id >> (self.worker_bits + self.sequence_bits);
        let (worker_id, sequence) = match self.order {
            FieldOrder::WorkerThenSequence => (
                (id >> self.sequence_bits) & self.max_worker(),
                id & self.max_sequence(),
            ),
            FieldOrder::SequenceThenWorker => (
                id & self.max_worker(),
                (id >> self.worker_bits) & self.max_sequence(),
            ),
        };
        let worker_parts = self.split.map(|s| {
            (
                s.high,
                worker_id >> s.low_bits,
                s.low,
                worker_id & mask(s.low_bits),
            )
        });
        Ok(Parts {
            tick,
            timestamp_ms: self.ms_of_tick(tick),
            worker_id,
            sequence,
            worker_parts,
        })
    }

    /// The smallest ID minted at or after a Unix millisecond (any worker):
    /// for range queries over time.
    pub fn min_id_at(&self, ms: u64) -> Result<u64, Error> {
        Ok(self.compose(self.tick_of(ms)?, 0, 0))
    }
}

/// Parses a Snowflake in decimal: 1 to 19 ASCII digits, at most 2^63 - 1.
pub fn parse_decimal(text: &str) -> Result<u64, ParseError> {
    crate::text::per_char(text, decimal)
}

/// [`parse_decimal`] over bytes.
fn decimal(b: &[u8]) -> Result<u64, ParseError> {
    if b.is_empty() || b.len() > 19 {
        return Err(ParseError::Length {
            kind: Kind::Snowflake,
            expected: "1 to 19",
            found: b.len(),
        });
    }
    let mut v: u64 = 0;
    for (i, &c) in b.iter().enumerate() {
        if !c.is_ascii_digit() {
            return Err(ParseError::Character {
                kind: Kind::Snowflake,
                position: i,
                found: c,
                allowed: "decimal digits 0-9",
            });
        }
        // 19 digits fit u64; only the sign bit needs checking.
        v = v * 10 + (c - b'0') as u64;
    }
    if v >> 63 != 0 {
        return Err(ParseError::Overflow {
            kind: Kind::Snowflake,
            max: "9223372036854775807",
        });
    }
    Ok(v)
}

/// What to do when the clock reads earlier than the last minted tick.
/// Only raw wall clocks need this: the default [`MonotonicClock`](crate::clock::MonotonicClock)
/// never goes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnBackwards {
    /// Wait for the clock to catch up if the step is at most `max_ms`,
    /// otherwise fail with [`Error::ClockMovedBackwards`].
    Wait {
        /// The largest step back that is waited out.
        max_ms: u64,
    },
    /// Keep minting after the last slot: the sequence runs on into later
    /// ticks until the clock catches up. Never fails, but IDs carry a time
    /// ahead of the clock meanwhile.
    KeepLastTick,
    /// Fail at once with [`Error::ClockMovedBackwards`].
    Fail,
}

impl OnBackwards {
    /// The bindings' names of the policies, in the order of their index encoding.
    pub const NAMES: [&'static str; 3] = ["wait", "keep", "fail"];

    /// The policy named `name` (one of [`OnBackwards::NAMES`]); `"wait"`
    /// waits out at most `max_ms`.
    pub fn from_name(name: &str, max_ms: u64) -> Option<OnBackwards> {
        Some(match name {
            "wait" => OnBackwards::Wait { max_ms },
            "keep" => OnBackwards::KeepLastTick,
            "fail" => OnBackwards::Fail,
            _ => return None,
        })
    }
}

impl Default for OnBackwards {
    fn default() -> Self {
        OnBackwards::Wait { max_ms: 1_000 }
    }
}

/// What to do when a tick's sequence is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnExhausted {
    /// Wait for the next tick (the default).
    #[default]
    Wait,
    /// Mint into up to `max_ticks` future ticks before waiting. A backwards
    /// step smaller than that is absorbed the same way.
    BorrowAhead {
        /// How many ticks ahead of the clock IDs may be minted.
        max_ticks: u32,
    },
}

impl OnExhausted {
    /// The bindings' names of the policies, in the order of their index encoding.
    pub const NAMES: [&'static str; 2] = ["wait", "borrow"];

    /// The policy named `name` (one of [`OnExhausted::NAMES`]); `"borrow"`
    /// borrows at most `max_ticks` ahead.
    pub fn from_name(name: &str, max_ticks: u32) -> Option<OnExhausted> {
        Some(match name {
            "wait" => OnExhausted::Wait,
            "borrow" => OnExhausted::BorrowAhead { max_ticks },
            _ => return None,
        })
    }
}

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

enum Step {
    Take { slot: u64, count: u64 },
    Wait,
}

/// The rules every generator applies; the state is the next free slot.
#[derive(Debug, Clone, Copy)]
struct Rules {
    layout: Layout,
    worker_id: u64,
    on_backwards: OnBackwards,
    on_exhausted: OnExhausted,
}

impl Rules {
    fn new<C: Clock>(layout: Layout, worker_id: u64, clock: &C) -> Result<Rules, Error> {
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
    fn step(&self, state: u64, now_ms: u64, want: u64) -> Result<Step, Error> {
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
            return Ok(Self::take(now_slot, want, sb));
        }
        if state >> sb == now_tick {
            // Room left in the clock's tick, which `tick_of` checked.
            return Ok(Self::take(state, want, sb));
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
    fn would_wait(&self, state: u64, now_ms: u64) -> Error {
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
        Ok(Self::take(state, want, sb))
    }

    /// Up to `want` slots from `state` on, within its tick.
    #[inline]
    fn take(state: u64, want: u64, sequence_bits: u8) -> Step {
        let per_tick = 1u64 << sequence_bits;
        Step::Take {
            slot: state,
            count: want.min(per_tick - (state & (per_tick - 1))),
        }
    }

    #[inline]
    fn claim(&self, slot: u64, count: u64) -> Claim {
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
    fn check_count(&self, want: u64) -> Result<(), Error> {
        let max = 1u64 << self.layout.sequence_bits;
        if want == 0 || want > max {
            return Err(Error::InvalidCount { count: want, max });
        }
        Ok(())
    }

    /// The state that makes the first ID fall after `ms` (a lease's high-water mark).
    fn state_after(&self, ms: u64) -> u64 {
        match self.layout.tick_of(ms) {
            Ok(tick) => (tick + 1) << self.layout.sequence_bits,
            Err(Error::TimeBeforeEpoch { .. }) => 0,
            Err(_) => u64::MAX,
        }
    }
}

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
        pub fn decode(&self, id: u64) -> Result<Parts, Error> {
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
    /// ID taken over from a holder that minted up to `ms`.
    pub fn resume_after(self, ms: u64) -> Self {
        let s = self.rules.state_after(ms);
        self.state
            .fetch_max(s, core::sync::atomic::Ordering::AcqRel);
        self
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
        use core::sync::atomic::Ordering;
        self.rules.check_count(max)?;
        let mut cur = self.state.load(Ordering::Acquire);
        loop {
            let now_ms = self.clock.now_ms();
            match self.rules.step(cur, now_ms, max)? {
                Step::Wait if !self.clock.can_wait() => {
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
    #[cfg(feature = "std")]
    pub fn claim_into(&self, out: &mut [u64]) -> Result<Run, Error> {
        let start = crate::clock::Instant::now();
        let per_tick = 1 << self.rules.layout.sequence_bits;
        let claim = self.claim((out.len() as u64).min(per_tick))?;
        for (slot, id) in out.iter_mut().zip(claim.ids()) {
            *slot = id;
        }
        let layout = &self.rules.layout;
        Ok(Run {
            count: claim.count,
            fresh_ms: crate::clock::fresh_ms(start, &self.clock, |now| {
                layout.tick_of(now).is_ok_and(|n| n <= claim.tick)
            }),
            high_water_ms: self
                .high_water_ms()
                .unwrap_or(layout.ms_of_tick(claim.tick)),
        })
    }
}

/// What [`AtomicSnowflake::claim_into`] took.
#[cfg(feature = "std")]
#[derive(Debug, Clone, Copy, PartialEq)]
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
    pub fn resume_after(mut self, ms: u64) -> Self {
        self.state = self.state.max(self.rules.state_after(ms));
        self
    }

    /// See [`AtomicSnowflake::claim`].
    #[inline]
    pub fn claim(&mut self, max: u64) -> Result<Claim, Error> {
        self.rules.check_count(max)?;
        loop {
            let now_ms = self.clock.now_ms();
            match self.rules.step(self.state, now_ms, max)? {
                Step::Wait if !self.clock.can_wait() => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_takes_custom_widths_or_the_preset_and_the_epoch_override() {
        let custom = CustomLayout {
            time_bits: 39,
            worker_bits: 16,
            sequence_bits: 8,
            unit_ms: 10,
            order: FieldOrder::SequenceThenWorker,
        };
        let l = Layout::resolve(Preset::Discord, Some(custom), None).unwrap();
        assert_eq!((l.time_bits(), l.unit_ms(), l.epoch_ms()), (39, 10, 0));
        assert_eq!(l.order(), FieldOrder::SequenceThenWorker);
        assert_eq!(
            Layout::resolve(Preset::Discord, None, None),
            Ok(Layout::DISCORD)
        );
        let l = Layout::resolve(Preset::Discord, None, Some(7)).unwrap();
        assert_eq!((l.epoch_ms(), l.split()), (7, Layout::DISCORD.split()));
        let bad = CustomLayout {
            time_bits: 40,
            ..custom
        };
        assert!(matches!(
            Layout::resolve(Preset::Twitter, Some(bad), None),
            Err(Error::InvalidLayout { .. })
        ));
    }

    #[test]
    fn names_round_trip() {
        for o in FieldOrder::ALL {
            assert_eq!(FieldOrder::from_name(o.name()), Some(o));
        }
        assert_eq!(
            OnBackwards::NAMES.map(|n| OnBackwards::from_name(n, 5)),
            [
                Some(OnBackwards::Wait { max_ms: 5 }),
                Some(OnBackwards::KeepLastTick),
                Some(OnBackwards::Fail)
            ]
        );
        assert_eq!(
            OnExhausted::NAMES.map(|n| OnExhausted::from_name(n, 3)),
            [
                Some(OnExhausted::Wait),
                Some(OnExhausted::BorrowAhead { max_ticks: 3 })
            ]
        );
        assert_eq!(FieldOrder::from_name("worker"), None);
        assert_eq!(OnBackwards::from_name("skip", 1), None);
    }
}
