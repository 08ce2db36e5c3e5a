//! The primary keys under test, minted ahead of the timed inserts.
//!
//! Every kind is minted in a tight loop, so thousands of time-ordered IDs
//! share a millisecond. That is deliberate: it is exactly where a v7 or ULID
//! generator that is not monotonic inside a millisecond scatters its keys,
//! and where snowmint's monotonic ones must not.

use anyhow::Result;
use clap::ValueEnum;
use rand::Rng;
use snowmint::clock::{Clock, MonotonicClock};
use snowmint::snowflake::{AtomicSnowflake, Layout};
use snowmint::uuid::Uuid;

/// One kind of primary key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum KeyKind {
    /// Random UUIDv4: the baseline every ratio is taken against.
    UuidV4,
    /// A UUIDv7 with fresh random bits per ID, as a generator that ignores
    /// RFC 9562's monotonicity methods mints them: in order across
    /// milliseconds, random inside one.
    UuidV7Random,
    /// snowmint's monotonic UUIDv7.
    UuidV7,
    /// snowmint's monotonic ULID, stored as 16 bytes.
    Ulid,
    /// snowmint's 64-bit Snowflake (Twitter layout).
    Snowflake,
    /// 1, 2, 3, ...: what a database sequence hands out.
    Sequence,
}

impl KeyKind {
    /// Every kind, in the order the reports list them.
    pub const ALL: [KeyKind; 6] = [
        KeyKind::UuidV4,
        KeyKind::UuidV7Random,
        KeyKind::UuidV7,
        KeyKind::Ulid,
        KeyKind::Snowflake,
        KeyKind::Sequence,
    ];

    /// The name in tables and legends.
    pub fn label(self) -> &'static str {
        match self {
            KeyKind::UuidV4 => "UUIDv4 (random)",
            KeyKind::UuidV7Random => "UUIDv7, NOT monotonic",
            KeyKind::UuidV7 => "UUIDv7 (snowmint)",
            KeyKind::Ulid => "ULID (snowmint)",
            KeyKind::Snowflake => "Snowflake (snowmint)",
            KeyKind::Sequence => "bigint sequence",
        }
    }

    /// True for the 64-bit kinds (a `bigint` column), false for the
    /// 16-byte ones.
    pub fn is_integer(self) -> bool {
        matches!(self, KeyKind::Snowflake | KeyKind::Sequence)
    }

    /// `rows` keys of this kind, in minting order.
    pub fn mint(self, rows: usize) -> Result<Keys> {
        match self {
            KeyKind::UuidV4 => uuids(rows, || Ok(snowmint::new_uuid_v4().0)),
            KeyKind::UuidV7 => uuids(rows, || Ok(snowmint::new_uuid_v7()?.0)),
            KeyKind::Ulid => uuids(rows, || Ok(snowmint::new_ulid()?.0)),
            KeyKind::UuidV7Random => {
                let mut rng = rand::rng();
                uuids(rows, || {
                    let (rand_a, rand_b) = (rng.next_u32() as u16, rng.next_u64());
                    Ok(Uuid::v7_from_parts(MonotonicClock.now_ms(), rand_a, rand_b).0)
                })
            }
            KeyKind::Snowflake => {
                let ids = AtomicSnowflake::new(Layout::TWITTER, 1, MonotonicClock)?;
                let mut out = vec![0u64; rows];
                ids.next_batch(&mut out)?;
                // The sign bit of every layout is 0, so the cast is lossless.
                Ok(Keys::Integer(out.into_iter().map(|id| id as i64).collect()))
            }
            KeyKind::Sequence => Ok(Keys::Integer((1..=rows as i64).collect())),
        }
    }
}

/// `rows` 16-byte keys from `next`.
fn uuids(rows: usize, mut next: impl FnMut() -> Result<u128, snowmint::Error>) -> Result<Keys> {
    let keys = (0..rows)
        .map(|_| next().map(uuid::Uuid::from_u128))
        .collect::<Result<_, _>>()?;
    Ok(Keys::Uuid(keys))
}

/// Keys minted for one run, in insertion order.
pub enum Keys {
    /// 64-bit keys.
    Integer(Vec<i64>),
    /// 16-byte keys (UUIDs, and ULIDs in their UUID byte form).
    Uuid(Vec<uuid::Uuid>),
}

/// One transaction's worth of keys.
#[derive(Clone, Copy)]
pub enum Batch<'a> {
    /// 64-bit keys.
    Integer(&'a [i64]),
    /// 16-byte keys.
    Uuid(&'a [uuid::Uuid]),
}

impl Keys {
    /// The keys cut into batches of at most `size`.
    pub fn batches(&self, size: usize) -> Vec<Batch<'_>> {
        match self {
            Keys::Integer(k) => k.chunks(size).map(Batch::Integer).collect(),
            Keys::Uuid(k) => k.chunks(size).map(Batch::Uuid).collect(),
        }
    }
}

impl Batch<'_> {
    /// How many keys the batch holds.
    pub fn len(&self) -> usize {
        match self {
            Batch::Integer(k) => k.len(),
            Batch::Uuid(k) => k.len(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uuids(kind: KeyKind) -> Vec<uuid::Uuid> {
        match kind.mint(5000).unwrap() {
            Keys::Uuid(k) => k,
            Keys::Integer(_) => panic!("{kind:?} is not a 16-byte kind"),
        }
    }

    #[test]
    fn snowmint_time_ordered_keys_come_out_strictly_increasing() {
        for kind in [KeyKind::UuidV7, KeyKind::Ulid] {
            assert!(uuids(kind).windows(2).all(|w| w[0] < w[1]), "{kind:?}");
        }
        for kind in [KeyKind::Snowflake, KeyKind::Sequence] {
            let Keys::Integer(k) = kind.mint(5000).unwrap() else {
                panic!("{kind:?} is a 64-bit kind")
            };
            assert!(k.windows(2).all(|w| w[0] < w[1]), "{kind:?}");
        }
    }

    #[test]
    fn non_monotonic_v7_is_valid_v7_and_out_of_order_inside_a_millisecond() {
        let keys = uuids(KeyKind::UuidV7Random);
        assert!(keys.iter().all(|k| k.get_version_num() == 7));
        let ms = |k: &uuid::Uuid| k.as_u128() >> 80;
        let descents = keys.windows(2).filter(|w| w[1] < w[0]).count();
        assert!(descents > keys.len() / 4, "{descents} steps back");
        assert!(keys.windows(2).all(|w| ms(&w[0]) <= ms(&w[1])));
    }

    #[test]
    fn batches_cover_every_key_once() {
        let keys = KeyKind::Sequence.mint(25).unwrap();
        let sizes: Vec<usize> = keys.batches(10).iter().map(Batch::len).collect();
        assert_eq!(sizes, [10, 10, 5]);
    }
}
