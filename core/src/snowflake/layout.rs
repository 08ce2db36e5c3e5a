//! The shape of a Snowflake: field widths and order, tick length and
//! epoch, and the arithmetic between IDs, ticks and fields.

use super::Preset;
use super::decimal::check_width;
use crate::error::{Error, ParseError, by_index, by_name};

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

    /// The bindings' names, in the order of [`FieldOrder::ALL`].
    pub const NAMES: [&'static str; 2] = ["worker-sequence", "sequence-worker"];

    /// The bindings' name: `"worker-sequence"` or `"sequence-worker"`.
    pub const fn name(self) -> &'static str {
        FieldOrder::NAMES[self as usize]
    }

    /// Looks an order up by [`FieldOrder::name`].
    pub fn from_name(name: &str) -> Result<FieldOrder, Error> {
        by_name("layout order", &FieldOrder::NAMES, &FieldOrder::ALL, name)
    }

    /// The order at a binding's `index` into [`FieldOrder::ALL`].
    pub fn from_index(index: f64) -> Result<FieldOrder, Error> {
        by_index("layout order", &FieldOrder::NAMES, &FieldOrder::ALL, index)
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

/// The shape of a Snowflake: field widths (summing to 63, so the sign bit
/// stays 0; or to 64 where the source defines all 64 bits, as Discord and
/// Mastodon do), the length of one tick and the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub(super) time_bits: u8,
    pub(super) worker_bits: u8,
    pub(super) sequence_bits: u8,
    pub(super) unit_ms: u32,
    pub(super) epoch_ms: u64,
    pub(super) order: FieldOrder,
    pub(super) split: Option<WorkerSplit>,
}

/// The fields of a decoded Snowflake.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decoded {
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

/// The rule a layout broke ([`Error::InvalidLayout`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LayoutRule {
    /// The three widths do not add up to 63.
    Widths,
    /// No time bit.
    TimeBits,
    /// No sequence bit.
    SequenceBits,
    /// A tick of 0 ms.
    Unit,
    /// Worker parts given for a layout whose worker field is not split.
    NotSplit,
}

impl LayoutRule {
    /// Every rule.
    pub const ALL: [LayoutRule; 5] = [
        LayoutRule::Widths,
        LayoutRule::TimeBits,
        LayoutRule::SequenceBits,
        LayoutRule::Unit,
        LayoutRule::NotSplit,
    ];

    /// The rule in words.
    pub const fn text(self) -> &'static str {
        match self {
            LayoutRule::Widths => {
                "time, worker and sequence bits must add up to 63 (the sign bit stays 0)"
            }
            LayoutRule::TimeBits => "time needs at least 1 bit",
            LayoutRule::SequenceBits => "sequence needs at least 1 bit",
            LayoutRule::Unit => "the time unit must be at least 1 ms",
            LayoutRule::NotSplit => {
                "this layout does not split its worker field: give the whole worker ID"
            }
        }
    }
}

impl Layout {
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
                reason: LayoutRule::Widths,
            });
        }
        if time_bits == 0 {
            return Err(Error::InvalidLayout {
                reason: LayoutRule::TimeBits,
            });
        }
        if sequence_bits == 0 {
            return Err(Error::InvalidLayout {
                reason: LayoutRule::SequenceBits,
            });
        }
        if unit_ms == 0 {
            return Err(Error::InvalidLayout {
                reason: LayoutRule::Unit,
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
    /// Largest ID: `2^63 - 1`, or `2^64 - 1` for the layouts that use all
    /// 64 bits.
    pub const fn max_id(&self) -> u64 {
        mask(self.time_bits + self.worker_bits + self.sequence_bits)
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
    pub(super) const fn place(&self, t: u64, w: u64, s: u64) -> u64 {
        match self.order {
            FieldOrder::WorkerThenSequence => {
                t << (self.worker_bits + self.sequence_bits) | w << self.sequence_bits | s
            }
            FieldOrder::SequenceThenWorker => {
                t << (self.worker_bits + self.sequence_bits) | s << self.worker_bits | w
            }
        }
    }

    /// Checks that `id` fits the layout: below 2^63 unless the layout uses
    /// all 64 bits.
    pub const fn check_id(&self, id: u64) -> Result<u64, ParseError> {
        check_width(id, self.time_bits + self.worker_bits + self.sequence_bits)
    }

    /// Splits an ID into its fields; see [`Layout::check_id`].
    pub fn decode(&self, id: u64) -> Result<Decoded, Error> {
        self.check_id(id)?;
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
        Ok(Decoded {
            tick,
            timestamp_ms: self.ms_of_tick(tick),
            worker_id,
            sequence,
            worker_parts,
        })
    }

    /// The smallest ID of the tick `ms` (Unix ms) falls in, any worker:
    /// with [`Layout::max_id_at`], the bounds of a range query over time
    /// (`id >= min_id_at(from) AND id <= max_id_at(to)`).
    pub fn min_id_at(&self, ms: u64) -> Result<u64, Error> {
        Ok(self.compose(self.tick_of(ms)?, 0, 0))
    }

    /// The largest ID of the tick `ms` falls in, any worker.
    pub fn max_id_at(&self, ms: u64) -> Result<u64, Error> {
        Ok(self.compose(self.tick_of(ms)?, u64::MAX, u64::MAX))
    }

    /// The ID of `worker_id` and `sequence` in the tick `ms` falls in: an ID
    /// for a given time (a backfill), outside any generator's monotonic
    /// stream. Fails on a time outside the layout and on a worker or
    /// sequence that does not fit.
    pub fn id_at(&self, ms: u64, worker_id: u64, sequence: u64) -> Result<u64, Error> {
        let tick = self.tick_of(ms)?;
        self.check_worker(worker_id)?;
        if sequence > self.max_sequence() {
            return Err(Error::SequenceOutOfRange {
                value: sequence,
                max: self.max_sequence(),
            });
        }
        Ok(self.place(tick, worker_id, sequence))
    }

    /// The worker ID of a preset's named worker parts (Twitter's
    /// `{ datacenter, worker }`, Discord's `{ worker, process }`), each
    /// checked against its width.
    pub fn worker_of_parts(&self, high: u64, low: u64) -> Result<u64, Error> {
        let Some(split) = self.split else {
            return Err(Error::InvalidLayout {
                reason: LayoutRule::NotSplit,
            });
        };
        let low_max = mask(split.low_bits);
        let high_max = self.max_worker() >> split.low_bits;
        for (field, value, max) in [(split.high, high, high_max), (split.low, low, low_max)] {
            if value > max {
                return Err(Error::FieldOutOfRange { field, value, max });
            }
        }
        Ok(high << split.low_bits | low)
    }
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
}
