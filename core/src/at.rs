//! IDs for a given time instead of the clock's: an ID for a backfill of a
//! past time ([`Ulid::at`], [`Uuid::v7_at`], ... and
//! [`Layout::id_at`](crate::snowflake::Layout::id_at)), and the smallest and
//! largest ID of a time, the bounds of a range query over IDs:
//! `WHERE id >= min AND id <= max` selects exactly the IDs whose time lies
//! in the range, at the kind's resolution (a second for KSUIDs and
//! ObjectIds, a tick for Snowflakes).
//!
//! Each function takes the bits besides the time as one `u128` (`random`):
//! fresh CSPRNG output for an ID, all zeros for the smallest, all ones for
//! the largest. An ID minted this way is not part of any generator's
//! monotonic stream: it is unique through its random bits only.

use crate::error::{Error, by_name};
use crate::ksuid::{self, Ksuid};
use crate::objectid::ObjectId;
use crate::snowflake::Spec;
use crate::text::IdText;
use crate::texts::TextKind;
use crate::typeid::TypeId;
use crate::ulid::{self, Ulid};
use crate::uuid::{GREGORIAN_OFFSET, Uuid, V1_MAX_TICKS, V7_MAX_MS};

/// Which ID of a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// An ID of that time: the random part fresh from the CSPRNG (a
    /// Snowflake's worker and sequence as given).
    Any,
    /// The smallest ID of that time.
    Min,
    /// The largest ID of that time.
    Max,
}

impl Pick {
    /// The bits besides the time for [`Pick::Min`] and [`Pick::Max`], else `random`.
    pub const fn bits(self, random: u128) -> u128 {
        match self {
            Pick::Any => random,
            Pick::Min => 0,
            Pick::Max => u128::MAX,
        }
    }
}

fn overflow(max_ms: u64, ms: u64) -> Result<(), Error> {
    if ms > max_ms {
        return Err(Error::TimeOverflow { max_ms, now_ms: ms });
    }
    Ok(())
}

impl Ulid {
    /// The ULID of Unix millisecond `ms` with the low 80 bits of `random`.
    pub fn at(ms: u64, random: u128) -> Result<Ulid, Error> {
        overflow(ulid::MAX_MS, ms)?;
        Ok(Ulid::from_parts(ms, random))
    }
}

impl Uuid {
    /// The UUIDv7 of Unix millisecond `ms`: `rand_a` from bits 64..76 of
    /// `random`, `rand_b` from its low 62 bits.
    pub fn v7_at(ms: u64, random: u128) -> Result<Uuid, Error> {
        overflow(V7_MAX_MS, ms)?;
        Ok(Uuid::v7_from_parts(
            ms,
            (random >> 64) as u16,
            random as u64,
        ))
    }

    /// The UUIDv1 of Unix millisecond `ms`; see [`Uuid::v6_at`].
    pub fn v1_at(ms: u64, random: u128) -> Result<Uuid, Error> {
        let (ticks, clock_seq, node) = time_fields(ms, random)?;
        Ok(Uuid::v1_from_parts(ticks, clock_seq, node))
    }

    /// The UUIDv6 of Unix millisecond `ms`: the 100 ns tick within the
    /// millisecond scaled from the high 32 bits of `random` (0 to 9,999),
    /// the clock sequence and node from its low bits.
    pub fn v6_at(ms: u64, random: u128) -> Result<Uuid, Error> {
        let (ticks, clock_seq, node) = time_fields(ms, random)?;
        Ok(Uuid::v6_from_parts(ticks, clock_seq, node))
    }
}

/// The 100 ns tick, clock sequence and node of a v1/v6 UUID of `ms`.
fn time_fields(ms: u64, random: u128) -> Result<(u64, u16, u64), Error> {
    overflow((V1_MAX_TICKS - GREGORIAN_OFFSET) / 10_000, ms)?;
    // 0..=9999 from 32 high bits: all ones give the last tick of the ms.
    let within = ((random >> 96) as u64 * 10_000) >> 32;
    let ticks = (ms * 10_000 + GREGORIAN_OFFSET + within).min(V1_MAX_TICKS);
    Ok((ticks, (random >> 48) as u16, random as u64))
}

impl Ksuid {
    /// The KSUID of the second `ms` falls in, payload `random`.
    pub fn at(ms: u64, random: u128) -> Result<Ksuid, Error> {
        let secs = (ms / 1000).checked_sub(ksuid::EPOCH_SECONDS);
        let max_ms = (ksuid::EPOCH_SECONDS + u32::MAX as u64) * 1000 + 999;
        let Some(secs) = secs else {
            return Err(Error::TimeBeforeEpoch {
                epoch_ms: ksuid::EPOCH_SECONDS * 1000,
                now_ms: ms,
            });
        };
        overflow(max_ms, ms)?;
        Ok(Ksuid::from_parts(secs as u32, random.to_be_bytes()))
    }
}

impl ObjectId {
    /// The ObjectId of the second `ms` falls in: the 5 random bytes and the
    /// 3-byte counter from the low 64 bits of `random`.
    pub fn at(ms: u64, random: u128) -> Result<ObjectId, Error> {
        overflow(u32::MAX as u64 * 1000 + 999, ms)?;
        let b = (random as u64).to_be_bytes();
        let counter = u32::from_be_bytes([0, b[5], b[6], b[7]]);
        Ok(ObjectId::from_parts(
            (ms / 1000) as u32,
            [b[0], b[1], b[2], b[3], b[4]],
            counter,
        ))
    }
}

/// The kinds of ID with a time, as the bindings name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimedKind {
    /// `'ulid'`
    Ulid,
    /// `'uuidv7'`
    UuidV7,
    /// `'uuidv1'`: not ordered by time, so it has no range bounds.
    UuidV1,
    /// `'uuidv6'`
    UuidV6,
    /// `'ksuid'`
    Ksuid,
    /// `'objectid'`
    ObjectId,
    /// `'typeid'`, with a UUIDv7.
    TypeId,
}

impl TimedKind {
    /// Every kind, in the order of [`TimedKind::NAMES`].
    pub const ALL: [TimedKind; 7] = [
        TimedKind::Ulid,
        TimedKind::UuidV7,
        TimedKind::UuidV1,
        TimedKind::UuidV6,
        TimedKind::Ksuid,
        TimedKind::ObjectId,
        TimedKind::TypeId,
    ];

    /// The bindings' names of the kinds.
    pub const NAMES: [&'static str; 7] = [
        "ulid", "uuidv7", "uuidv1", "uuidv6", "ksuid", "objectid", "typeid",
    ];

    /// The kinds whose IDs sort by time (all but v1, whose text starts with
    /// the low bits of its time), which have range bounds.
    pub const ORDERED: [&'static str; 6] =
        ["ulid", "uuidv7", "uuidv6", "ksuid", "objectid", "typeid"];

    /// The kind named `name` (also `objectId`).
    pub fn from_name(name: &str) -> Result<TimedKind, Error> {
        let name = if name == "objectId" { "objectid" } else { name };
        by_name("kind", &TimedKind::NAMES, &TimedKind::ALL, name)
    }

    /// The text of the ID of this kind at `ms` that `pick` and `random`
    /// give ([`Pick::bits`]); `prefix` is a TypeID's (ignored by the other
    /// kinds). Bounds of a kind not ordered by time are an error.
    pub fn text_at(
        self,
        ms: u64,
        pick: Pick,
        random: u128,
        prefix: &str,
    ) -> Result<IdText<90>, Error> {
        if self == TimedKind::UuidV1 && pick != Pick::Any {
            return Err(Error::UnknownName {
                what: "kind ordered by time",
                given: Some(crate::error::GivenName::new("uuidv1")),
                allowed: &TimedKind::ORDERED,
            });
        }
        let r = pick.bits(random);
        let kind = match self {
            TimedKind::Ulid => TextKind::Ulid,
            TimedKind::UuidV7 => TextKind::UuidV7,
            TimedKind::UuidV1 => TextKind::UuidV1,
            TimedKind::UuidV6 => TextKind::UuidV6,
            TimedKind::Ksuid => TextKind::Ksuid,
            TimedKind::ObjectId => TextKind::ObjectId,
            TimedKind::TypeId => return Ok(TypeId::new(prefix, Uuid::v7_at(ms, r)?)?.to_text()),
        };
        Ok(IdText::ascii(kind.text_at(ms, r)?.as_bytes()))
    }
}

impl TextKind {
    /// The text of this kind's ID at Unix ms `ms` with the bits besides the
    /// time from `random` (a UUIDv4 has no time: all its bits are
    /// `random`'s). Apart from [`TimedKind::text_at`] so that a binding that
    /// mints no TypeID (the browser's minting module) links no TypeID code.
    pub fn text_at(self, ms: u64, random: u128) -> Result<IdText<36>, Error> {
        Ok(match self {
            TextKind::Ulid => IdText::ascii(Ulid::at(ms, random)?.to_text().as_bytes()),
            TextKind::UuidV7 => Uuid::v7_at(ms, random)?.to_text(),
            TextKind::UuidV4 => Uuid::v4_from_random(random.to_be_bytes()).to_text(),
            TextKind::UuidV1 => Uuid::v1_at(ms, random)?.to_text(),
            TextKind::UuidV6 => Uuid::v6_at(ms, random)?.to_text(),
            TextKind::Ksuid => IdText::ascii(Ksuid::at(ms, random)?.to_text().as_bytes()),
            TextKind::ObjectId => IdText::ascii(ObjectId::at(ms, random)?.to_text().as_bytes()),
        })
    }
}

impl Spec {
    /// The Snowflake of the options' layout at `ms`: with [`Pick::Any`], of
    /// the options' worker ID and `sequence`; else the smallest or largest
    /// ID of the tick, any worker.
    pub fn id_at(&self, ms: u64, pick: Pick, sequence: u64) -> Result<u64, Error> {
        let layout = self.layout()?;
        match pick {
            Pick::Any => layout.id_at(ms, self.worker_id()?, sequence),
            Pick::Min => layout.min_id_at(ms),
            Pick::Max => layout.max_id_at(ms),
        }
    }
}

/// [`TimedKind::text_at`] with the random bits of this thread's CSPRNG.
#[cfg(feature = "std")]
pub fn new_text_at(
    kind: TimedKind,
    ms: u64,
    pick: Pick,
    prefix: &str,
) -> Result<IdText<90>, Error> {
    let random = match pick {
        Pick::Any => {
            let mut rng = crate::random::thread_rng();
            (rand_core::Rng::next_u64(&mut rng) as u128) << 64
                | rand_core::Rng::next_u64(&mut rng) as u128
        }
        _ => 0,
    };
    kind.text_at(ms, pick, random, prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_hold_every_id_of_their_time() {
        let ms = 1_700_000_000_123;
        for kind in TimedKind::ALL {
            if kind == TimedKind::UuidV1 {
                assert!(matches!(
                    kind.text_at(ms, Pick::Min, 0, ""),
                    Err(Error::UnknownName { .. })
                ));
                continue;
            }
            let text = |pick, r| kind.text_at(ms, pick, r, "user").unwrap();
            let (min, max) = (text(Pick::Min, 7), text(Pick::Max, 7));
            for r in [0, 1, u128::MAX, u128::MAX / 3, 0x1234_5678_9abc_def0 << 40] {
                let id = text(Pick::Any, r);
                assert!(*min <= *id && *id <= *max, "{kind:?}: {min} {id} {max}");
            }
            // The next time unit's smallest ID is past this one's largest.
            let step = if matches!(kind, TimedKind::Ksuid | TimedKind::ObjectId) {
                1000
            } else {
                1
            };
            let next = kind.text_at(ms + step, Pick::Min, 0, "user").unwrap();
            assert!(*max < *next, "{kind:?}");
        }
    }

    #[test]
    fn times_outside_a_kind_are_typed_errors() {
        let at = |kind: TimedKind, ms| kind.text_at(ms, Pick::Any, 0, "");
        assert!(matches!(
            at(TimedKind::Ulid, 1 << 48),
            Err(Error::TimeOverflow { .. })
        ));
        assert!(matches!(
            at(TimedKind::Ksuid, 1_399_999_999_999),
            Err(Error::TimeBeforeEpoch { .. })
        ));
        assert!(matches!(
            at(TimedKind::ObjectId, 1 << 42),
            Err(Error::TimeOverflow { .. })
        ));
        assert!(at(TimedKind::UuidV6, 103_072_857_660_684).is_ok());
        assert!(matches!(
            at(TimedKind::UuidV6, 103_072_857_660_685),
            Err(Error::TimeOverflow { .. })
        ));
        assert!(matches!(
            TimedKind::TypeId.text_at(0, Pick::Any, 0, "Bad"),
            Err(Error::Parse(_))
        ));
    }
}
