//! KSUID (<https://github.com/segmentio/ksuid>): a 32-bit count of seconds
//! since 2014-05-13T16:53:20Z (Unix 1400000000) and 128 random bits,
//! written as 27 base62 digits.

use crate::base62;
use crate::error::{Error, Kind, ParseError};
use crate::text::IdText;

/// KSUID's epoch in Unix seconds.
pub const EPOCH_SECONDS: u64 = 1_400_000_000;

/// A KSUID as its 20 big-endian bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Ksuid(pub [u8; 20]);

impl Ksuid {
    /// All zeros (`000000000000000000000000000`).
    pub const NIL: Ksuid = Ksuid([0; 20]);
    /// All ones (`aWgEPTl1tmebfsQzFP4bxwgy80V`).
    pub const MAX: Ksuid = Ksuid([0xFF; 20]);

    /// A KSUID from its 32-bit KSUID-epoch timestamp and 16-byte payload.
    pub fn from_parts(timestamp: u32, payload: [u8; 16]) -> Ksuid {
        let mut b = [0u8; 20];
        b[..4].copy_from_slice(&timestamp.to_be_bytes());
        b[4..].copy_from_slice(&payload);
        Ksuid(b)
    }

    /// A new KSUID at `now_ms` with a random payload.
    pub fn generate<R: rand_core::Rng + ?Sized>(now_ms: u64, rng: &mut R) -> Result<Ksuid, Error> {
        let mut payload = [0u8; 16];
        rng.fill_bytes(&mut payload);
        Ksuid::at(now_ms, u128::from_be_bytes(payload))
    }

    /// The raw timestamp (seconds since the KSUID epoch).
    pub fn timestamp(&self) -> u32 {
        u32::from_be_bytes([self.0[0], self.0[1], self.0[2], self.0[3]])
    }

    /// The time in Unix milliseconds (whole seconds).
    pub fn timestamp_ms(&self) -> u64 {
        (self.timestamp() as u64 + EPOCH_SECONDS) * 1000
    }

    /// The 16-byte payload.
    pub fn payload(&self) -> [u8; 16] {
        let mut p = [0u8; 16];
        p.copy_from_slice(&self.0[4..]);
        p
    }

    /// The 27-character base62 text.
    pub fn to_text(&self) -> IdText<27> {
        IdText::full(base62::encode(&self.0))
    }

    /// Parses 27 base62 digits (at most `aWgEPTl1tmebfsQzFP4bxwgy80V`).
    pub fn parse(text: &str) -> Result<Ksuid, ParseError> {
        crate::text::per_char(text, Ksuid::parse_bytes)
    }

    /// [`Ksuid::parse`] over bytes.
    pub fn parse_bytes(text: &[u8]) -> Result<Ksuid, ParseError> {
        base62::decode(text, Kind::Ksuid).map(Ksuid)
    }
}

crate::text::impl_text_traits!(Ksuid);
