//! MongoDB ObjectId (<https://www.mongodb.com/docs/manual/reference/bson-types/#objectid>):
//! 4 bytes of Unix seconds, 5 random bytes per process (here: per
//! generator), and a 3-byte counter starting at a random value, written as
//! 24 lowercase hex digits.

use crate::error::{Error, Kind, ParseError};
use crate::text::{IdText, hex_digit};

const COUNTER_MASK: u32 = 0xFF_FFFF;

/// An ObjectId as its 12 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct ObjectId(pub [u8; 12]);

impl ObjectId {
    /// An ObjectId from its fields.
    pub fn from_parts(seconds: u32, random: [u8; 5], counter: u32) -> ObjectId {
        let mut b = [0u8; 12];
        b[..4].copy_from_slice(&seconds.to_be_bytes());
        b[4..9].copy_from_slice(&random);
        b[9..].copy_from_slice(&counter.to_be_bytes()[1..]);
        ObjectId(b)
    }

    /// Unix seconds.
    pub fn timestamp(&self) -> u32 {
        u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]])
    }

    /// Unix milliseconds (whole seconds).
    pub fn timestamp_ms(&self) -> u64 {
        self.timestamp() as u64 * 1000
    }

    /// The 3-byte counter.
    pub fn counter(&self) -> u32 {
        u32::from_be_bytes([0, self.0[9], self.0[10], self.0[11]])
    }

    /// 24 lowercase hex digits.
    pub fn to_text(&self) -> IdText<24> {
        let mut v: u128 = 0;
        for b in self.0 {
            v = v << 8 | b as u128;
        }
        IdText::hex(v)
    }

    /// Parses 24 hex digits (any case).
    pub fn parse(text: &str) -> Result<ObjectId, ParseError> {
        crate::text::per_char(text, ObjectId::parse_bytes)
    }

    /// [`ObjectId::parse`] over bytes.
    pub fn parse_bytes(text: &[u8]) -> Result<ObjectId, ParseError> {
        if text.len() != 24 {
            return Err(ParseError::Length {
                kind: Kind::ObjectId,
                expected: "24",
                found: text.len(),
            });
        }
        let mut out = [0u8; 12];
        for (i, &c) in text.iter().enumerate() {
            let d = hex_digit(c).ok_or(ParseError::Character {
                kind: Kind::ObjectId,
                position: i,
                found: c,
                allowed: "hex digits 0-9, a-f",
            })?;
            out[i / 2] |= d << (4 * (1 - i % 2));
        }
        Ok(ObjectId(out))
    }
}

crate::text::impl_text_traits!(ObjectId);

/// An ObjectId generator. Unlike drivers that let the 24-bit counter wrap,
/// it moves to the next second when one second's 16,777,216 values are
/// used up, so it never repeats an ID and never goes back.
#[derive(Debug, Clone)]
pub struct ObjectIdGenerator {
    random: [u8; 5],
    seconds: u32,
    counter: u32,
    /// Counter value of the first ID in `seconds`.
    first: u32,
}

impl ObjectIdGenerator {
    /// A generator with a random 5-byte value and counter start.
    pub fn new<R: rand_core::Rng + ?Sized>(rng: &mut R) -> Self {
        let mut random = [0u8; 5];
        rng.fill_bytes(&mut random);
        let counter = rng.next_u32() & COUNTER_MASK;
        ObjectIdGenerator {
            random,
            seconds: 0,
            counter,
            first: counter,
        }
    }

    /// The next ObjectId at `now_ms`.
    pub fn generate(&mut self, now_ms: u64) -> Result<ObjectId, Error> {
        let now = now_ms / 1000;
        if now > u32::MAX as u64 {
            return Err(Error::TimeOverflow {
                max_ms: u32::MAX as u64 * 1000 + 999,
                now_ms,
            });
        }
        let counter = (self.counter + 1) & COUNTER_MASK;
        if now as u32 > self.seconds {
            self.seconds = now as u32;
            self.first = counter;
        } else if counter == self.first {
            // A whole second's counter space is used: borrow the next second.
            if self.seconds == u32::MAX {
                return Err(Error::TimeOverflow {
                    max_ms: u32::MAX as u64 * 1000 + 999,
                    now_ms,
                });
            }
            self.seconds += 1;
            self.first = counter;
        }
        self.counter = counter;
        Ok(ObjectId::from_parts(self.seconds, self.random, counter))
    }
}
