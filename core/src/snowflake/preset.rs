//! The presets: the named layouts, taken from the primary sources.

use super::{FieldOrder, Layout, WorkerSplit};
use crate::error::{Error, by_index, by_name};

/// The named layouts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Preset {
    /// Twitter: 41 time / 10 worker (5 datacenter + 5 worker) / 12 sequence,
    /// 1 ms, epoch 1288834974657 (2010-11-04T01:42:54.657Z).
    Twitter,
    /// Discord: 42 time / 10 worker / 12 sequence, 1 ms, epoch
    /// 1420070400000 (2015-01-01); the worker field is 5 bits internal
    /// worker + 5 bits internal process. Discord documents its IDs as
    /// unsigned 64-bit with a 42-bit timestamp (bits 63 to 22), so IDs
    /// reach 2^63 in 2084 and go on to 2^64 - 1.
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
    /// Mastodon: 48 bits of Unix milliseconds and 16 low bits
    /// (`lib/mastodon/snowflake.rb`: 6 bytes of millisecond timestamp and 2
    /// bytes of "sequence data"), no worker field: a generator of this
    /// layout is the only one minting for its table.
    Mastodon,
}

impl Preset {
    /// All presets, for listings and help texts.
    pub const ALL: [Preset; 5] = [
        Preset::Twitter,
        Preset::Discord,
        Preset::Instagram,
        Preset::Sonyflake,
        Preset::Mastodon,
    ];

    /// The presets' names, in the order of [`Preset::ALL`] (the default,
    /// Twitter, first).
    pub const NAMES: [&'static str; 5] =
        ["twitter", "discord", "instagram", "sonyflake", "mastodon"];

    /// The preset's lowercase name.
    pub const fn name(self) -> &'static str {
        Preset::NAMES[self as usize]
    }

    /// Looks a preset up by [`Preset::name`].
    pub fn from_name(name: &str) -> Result<Preset, Error> {
        by_name("preset", &Preset::NAMES, &Preset::ALL, name)
    }

    /// The preset at a binding's `index` into [`Preset::ALL`].
    pub fn from_index(index: f64) -> Result<Preset, Error> {
        by_index("preset", &Preset::NAMES, &Preset::ALL, index)
    }

    /// The preset's layout.
    pub const fn layout(self) -> Layout {
        match self {
            Preset::Twitter => Layout::TWITTER,
            Preset::Discord => Layout::DISCORD,
            Preset::Instagram => Layout::INSTAGRAM,
            Preset::Sonyflake => Layout::SONYFLAKE,
            Preset::Mastodon => Layout::MASTODON,
        }
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
        time_bits: 42,
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
    /// Mastodon's layout, see [`Preset::Mastodon`].
    pub const MASTODON: Layout = Layout {
        time_bits: 48,
        worker_bits: 0,
        sequence_bits: 16,
        unit_ms: 1,
        epoch_ms: 0,
        order: FieldOrder::WorkerThenSequence,
        split: None,
    };
}
