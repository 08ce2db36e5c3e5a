//! ULID (<https://github.com/ulid/spec>): 48-bit Unix milliseconds and 80
//! random bits, written as 26 Crockford base32 characters.
//!
//! [`UlidGenerator`] is monotonic as the spec describes: within one
//! millisecond (or while the clock stands or steps back) the random part is
//! incremented by one. Where the spec would fail on overflow of the random
//! part, the generator moves to the next millisecond with fresh randomness,
//! which keeps every ID unique and increasing, and panics never.

use crate::base32::{self, Alphabet};
use crate::error::{Error, Kind, ParseError};
use crate::text::IdText;
use crate::uuid::Uuid;

const RANDOM_BITS: u32 = 80;
const RANDOM_MASK: u128 = (1 << RANDOM_BITS) - 1;
/// Last Unix millisecond a ULID can hold (year 10889).
pub const MAX_MS: u64 = (1 << 48) - 1;

/// A ULID as one 128-bit integer (timestamp in the high 48 bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ulid(pub u128);

impl Ulid {
    /// `00000000000000000000000000`.
    pub const NIL: Ulid = Ulid(0);
    /// `7ZZZZZZZZZZZZZZZZZZZZZZZZZ`.
    pub const MAX: Ulid = Ulid(u128::MAX);

    /// A ULID from a Unix millisecond (low 48 bits) and 80 random bits.
    pub const fn from_parts(timestamp_ms: u64, random: u128) -> Ulid {
        Ulid(((timestamp_ms as u128 & MAX_MS as u128) << RANDOM_BITS) | (random & RANDOM_MASK))
    }

    /// The Unix millisecond it was minted in.
    pub const fn timestamp_ms(&self) -> u64 {
        (self.0 >> RANDOM_BITS) as u64
    }

    /// The 80 random bits.
    pub const fn random(&self) -> u128 {
        self.0 & RANDOM_MASK
    }

    /// Big-endian bytes (the binary form, identical to the UUID bytes).
    pub const fn to_bytes(&self) -> [u8; 16] {
        self.0.to_be_bytes()
    }

    /// From big-endian bytes.
    pub const fn from_bytes(bytes: [u8; 16]) -> Ulid {
        Ulid(u128::from_be_bytes(bytes))
    }

    /// The canonical 26-character uppercase text.
    pub fn to_text(&self) -> IdText<26> {
        IdText::full(base32::encode::<26>(self.0, base32::UPPER))
    }

    /// Parses 26 Crockford base32 characters in any case.
    pub fn parse(text: &str) -> Result<Ulid, ParseError> {
        crate::text::per_char(text, Ulid::parse_bytes)
    }

    /// [`Ulid::parse`] over bytes.
    pub fn parse_bytes(text: &[u8]) -> Result<Ulid, ParseError> {
        base32::decode_128(text, Alphabet::AnyCase, Kind::Ulid).map(Ulid)
    }

    /// The same 128 bits as a UUID (which is then not a valid v7; its
    /// version nibble is whatever the ULID holds).
    pub const fn to_uuid(&self) -> Uuid {
        Uuid(self.0)
    }

    /// The same 128 bits read as a ULID.
    pub const fn from_uuid(uuid: Uuid) -> Ulid {
        Ulid(uuid.0)
    }
}

crate::text::impl_text_traits!(Ulid);

/// A monotonic ULID generator (see the module docs).
#[derive(Debug, Clone, Default)]
pub struct UlidGenerator {
    last: u128,
    /// Whether `last` holds a minted ULID: 0 is a valid ULID too (Unix ms 0,
    /// random 0), so it cannot double as "nothing minted yet".
    started: bool,
}

impl UlidGenerator {
    /// A generator that has minted nothing yet.
    pub const fn new() -> Self {
        UlidGenerator {
            last: 0,
            started: false,
        }
    }

    /// Its state, for a thread's generator kept in a `Cell` (per_thread.rs:
    /// a borrow flag written per ID costs a quarter of a ULID).
    #[cfg(feature = "std")]
    pub(crate) const fn state(&self) -> (u128, bool) {
        (self.last, self.started)
    }

    /// The generator whose [`state`](Self::state) that was.
    #[cfg(feature = "std")]
    pub(crate) const fn from_state((last, started): (u128, bool)) -> Self {
        UlidGenerator { last, started }
    }

    /// The next ULID at `now_ms`: greater than every ULID this generator
    /// returned before.
    #[inline]
    pub fn generate<R: rand_core::Rng + ?Sized>(
        &mut self,
        now_ms: u64,
        rng: &mut R,
    ) -> Result<Ulid, Error> {
        // Within the last ULID's ms (so within MAX_MS): the increment, all
        // a run does, first.
        if self.started
            && now_ms <= (self.last >> RANDOM_BITS) as u64
            && self.last & RANDOM_MASK != RANDOM_MASK
        {
            self.last += 1;
            return Ok(Ulid(self.last));
        }
        self.generate_new(now_ms, rng)
    }

    /// [`generate`](Self::generate) past the increment: a new ms, the
    /// first ULID, a used-up random part, or a time past MAX_MS.
    #[inline]
    fn generate_new<R: rand_core::Rng + ?Sized>(
        &mut self,
        now_ms: u64,
        rng: &mut R,
    ) -> Result<Ulid, Error> {
        if now_ms > MAX_MS {
            return Err(Error::TimeOverflow {
                max_ms: MAX_MS,
                now_ms,
            });
        }
        let last_ms = (self.last >> RANDOM_BITS) as u64;
        // Otherwise the random part is used up (generate() did the increment).
        let next = if now_ms > last_ms || !self.started {
            Ulid::from_parts(now_ms, random80(rng)).0
        } else if last_ms < MAX_MS {
            Ulid::from_parts(last_ms + 1, random80(rng)).0
        } else {
            return Err(Error::TimeOverflow {
                max_ms: MAX_MS,
                now_ms: last_ms + 1,
            });
        };
        self.last = next;
        self.started = true;
        Ok(Ulid(next))
    }
}

fn random80<R: rand_core::Rng + ?Sized>(rng: &mut R) -> u128 {
    ((rng.next_u64() as u128) << 16 | (rng.next_u32() & 0xFFFF) as u128) & RANDOM_MASK
}
