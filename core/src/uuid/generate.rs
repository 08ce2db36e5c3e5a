//! The UUID generators: v4 from the CSPRNG, the monotonic v7 (RFC 9562
//! §6.2 Method 1, see the parent module), and v1/v6 from Gregorian ticks.

use super::{GREGORIAN_OFFSET, Uuid, V1_MAX_TICKS, V7_MAX_MS};
use crate::error::Error;

/// A random (v4) UUID.
#[inline]
pub fn new_v4<R: rand_core::Rng + ?Sized>(rng: &mut R) -> Uuid {
    let mut b = [0u8; 16];
    rng.fill_bytes(&mut b);
    Uuid::v4_from_random(b)
}

const COUNTER_BITS: u32 = 42;
const COUNTER_MAX: u64 = (1 << COUNTER_BITS) - 1;

/// A monotonic UUIDv7 generator (RFC 9562 §6.2 Method 1, see the module docs).
#[derive(Debug, Clone, Default)]
pub struct V7Generator {
    last_ms: u64,
    counter: u64,
}

impl V7Generator {
    /// A generator that has minted nothing yet.
    pub const fn new() -> Self {
        V7Generator {
            last_ms: 0,
            counter: 0,
        }
    }

    /// The next UUIDv7 at `now_ms`, greater than every one before it.
    ///
    /// The common case (the same millisecond, counter not exhausted) is kept
    /// small enough to inline, so the UUID stays in registers; the rest is
    /// out of line.
    #[inline]
    pub fn generate<R: rand_core::Rng + ?Sized>(
        &mut self,
        now_ms: u64,
        rng: &mut R,
    ) -> Result<Uuid, Error> {
        if now_ms <= self.last_ms && self.counter < COUNTER_MAX {
            self.counter += 1;
        } else {
            self.advance(now_ms, rng)?;
        }
        let rand_a = (self.counter >> 30) as u16;
        let rand_b = (self.counter & ((1 << 30) - 1)) << 32 | rng.next_u32() as u64;
        Ok(Uuid::v7_from_parts(self.last_ms, rand_a, rand_b))
    }

    /// A new millisecond (`now_ms`, or the next one when the counter is
    /// exhausted) with a fresh random counter.
    #[inline(never)]
    fn advance<R: rand_core::Rng + ?Sized>(
        &mut self,
        now_ms: u64,
        rng: &mut R,
    ) -> Result<(), Error> {
        if now_ms > V7_MAX_MS {
            return Err(Error::TimeOverflow {
                max_ms: V7_MAX_MS,
                now_ms,
            });
        }
        if now_ms > self.last_ms {
            self.last_ms = now_ms;
        } else if self.last_ms < V7_MAX_MS {
            self.last_ms += 1;
        } else {
            return Err(Error::TimeOverflow {
                max_ms: V7_MAX_MS,
                now_ms: self.last_ms + 1,
            });
        }
        self.counter = rng.next_u64() >> (64 - COUNTER_BITS + 1);
        Ok(())
    }
}

/// A generator of time-based v1 and v6 UUIDs (Cassandra's TimeUUID). The
/// node is random with the multicast bit set, as RFC 9562 §6.10 asks of
/// nodes that are not MAC addresses; the clock sequence is random. Each
/// UUID takes a 100 ns tick after the previous one, so IDs never repeat
/// and never go back, even past 10,000 per millisecond or when the clock
/// steps back.
#[derive(Debug, Clone)]
pub struct TimeUuidGenerator {
    last_ticks: u64,
    clock_seq: u16,
    node: u64,
}

impl TimeUuidGenerator {
    /// A generator with a random node and clock sequence.
    pub fn new<R: rand_core::Rng + ?Sized>(rng: &mut R) -> Self {
        let r = rng.next_u64();
        TimeUuidGenerator::with_node(r & 0xFFFF_FFFF_FFFF | 0x0100_0000_0000, (r >> 48) as u16)
    }

    /// A generator with a given 48-bit node and 14-bit clock sequence.
    pub const fn with_node(node: u64, clock_seq: u16) -> Self {
        TimeUuidGenerator {
            last_ticks: 0,
            clock_seq: clock_seq & 0x3FFF,
            node: node & 0xFFFF_FFFF_FFFF,
        }
    }

    fn next_ticks(&mut self, now_ms: u64) -> Result<u64, Error> {
        let now = now_ms
            .checked_mul(10_000)
            .and_then(|t| t.checked_add(GREGORIAN_OFFSET))
            .unwrap_or(u64::MAX);
        let ticks = now.max(self.last_ticks + 1);
        if ticks > V1_MAX_TICKS {
            return Err(Error::TimeOverflow {
                max_ms: (V1_MAX_TICKS - GREGORIAN_OFFSET) / 10_000,
                now_ms,
            });
        }
        self.last_ticks = ticks;
        Ok(ticks)
    }

    /// The next v1 UUID at `now_ms`.
    pub fn v1(&mut self, now_ms: u64) -> Result<Uuid, Error> {
        let t = self.next_ticks(now_ms)?;
        Ok(Uuid::v1_from_parts(t, self.clock_seq, self.node))
    }

    /// The next v6 UUID at `now_ms`.
    pub fn v6(&mut self, now_ms: u64) -> Result<Uuid, Error> {
        let t = self.next_ticks(now_ms)?;
        Ok(Uuid::v6_from_parts(t, self.clock_seq, self.node))
    }
}
