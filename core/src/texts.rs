//! Batches of ID texts for the bindings: one call writes many fixed-width
//! texts, which the binding hands out one by one. The writer is generic over
//! where the IDs come from ([`TextMint`]): the `std` one-call functions'
//! per-thread generators, or the browser's minting module with its own
//! clock and randomness, so both write the same texts the same way.

use crate::error::Error;
use crate::ksuid::Ksuid;
use crate::objectid::ObjectId;
use crate::ulid::Ulid;
use crate::uuid::Uuid;

/// The kinds of ID [`write_texts`] writes, named as the bindings name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TextKind {
    /// `'ulid'`
    Ulid,
    /// `'uuidv7'`
    UuidV7,
    /// `'uuidv4'`
    UuidV4,
    /// `'uuidv1'`
    UuidV1,
    /// `'uuidv6'`
    UuidV6,
    /// `'ksuid'`
    Ksuid,
    /// `'objectid'`
    ObjectId,
}

impl TextKind {
    /// Every kind, in the order of [`TextKind::NAMES`].
    pub const ALL: [TextKind; 7] = [
        TextKind::Ulid,
        TextKind::UuidV7,
        TextKind::UuidV4,
        TextKind::UuidV1,
        TextKind::UuidV6,
        TextKind::Ksuid,
        TextKind::ObjectId,
    ];

    /// The bindings' names of the kinds.
    pub const NAMES: [&'static str; 7] = [
        "ulid", "uuidv7", "uuidv4", "uuidv1", "uuidv6", "ksuid", "objectid",
    ];

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Result<TextKind, Error> {
        crate::error::by_name("kind", &TextKind::NAMES, &TextKind::ALL, name)
    }

    /// The kind at `index` of [`TextKind::NAMES`] (the bindings' index encoding).
    pub fn from_index(index: f64) -> Result<TextKind, Error> {
        crate::error::by_index("kind", &TextKind::NAMES, &TextKind::ALL, index)
    }

    /// Characters per ID.
    pub const fn width(self) -> usize {
        match self {
            TextKind::Ulid => 26,
            TextKind::Ksuid => 27,
            TextKind::ObjectId => 24,
            _ => 36,
        }
    }
}

/// The next ID of each kind, from monotonic generators read at one clock
/// reading for the whole batch (in a browser the clock is a call out to
/// `performance.now()`); each fails only on a clock past the kind's last
/// representable time.
#[allow(missing_docs)]
pub trait TextMint {
    fn ulid(&mut self) -> Result<Ulid, Error>;
    fn uuid_v7(&mut self) -> Result<Uuid, Error>;
    fn uuid_v4(&mut self) -> Uuid;
    fn uuid_v1(&mut self) -> Result<Uuid, Error>;
    fn uuid_v6(&mut self) -> Result<Uuid, Error>;
    fn ksuid(&mut self) -> Result<Ksuid, Error>;
    fn object_id(&mut self) -> Result<ObjectId, Error>;
}

/// Writes the texts of `count` new IDs of `kind` from `mint`, each
/// [`TextKind::width`] ASCII bytes, to `push`. For ULIDs and UUIDv7s it
/// returns the Unix ms of the first, so a binding can hand the batch out
/// only while that millisecond lasts (they are monotonic within it); the
/// other kinds return `None`.
pub fn write_texts(
    kind: TextKind,
    count: usize,
    mint: &mut impl TextMint,
    mut push: impl FnMut(&[u8]),
) -> Result<Option<u64>, Error> {
    let mut first_ms = None;
    match kind {
        // A run's next ULID is mostly the last one plus 1, which changes
        // its last digit only: then that digit is all there is to write.
        TextKind::Ulid => {
            let (mut prev, mut last) = (0, [0; 26]);
            for _ in 0..count {
                let id = mint.ulid()?;
                first_ms.get_or_insert(id.timestamp_ms());
                // (`prev` starts at 0, more than 31 away from any ULID minted now.)
                if prev ^ id.0 > 31 {
                    last.copy_from_slice(id.to_text().as_bytes());
                } else {
                    last[25] = crate::base32::UPPER[id.0 as usize & 31];
                }
                prev = id.0;
                push(&last);
            }
        }
        // Likewise a run's next v7 mostly keeps the high 64 bits (time,
        // version and the counter's top 12 bits): then only the text of
        // the low 64 is new ("vxxx-xxxxxxxxxxxx", after 19 characters).
        TextKind::UuidV7 => {
            let (mut prev, mut last) = (0, [0; 36]);
            for _ in 0..count {
                let id = mint.uuid_v7()?;
                first_ms.get_or_insert((id.0 >> 80) as u64);
                // (`prev` starts at 0, which no v7's high half is.)
                if prev != id.0 >> 64 {
                    last.copy_from_slice(id.to_text().as_bytes());
                } else {
                    let [c0, c1, c2, c3, c4, c5, c6, c7] =
                        crate::text::hex_u32((id.0 >> 32) as u32);
                    [last[19], last[20], last[21], last[22]] = [c0, c1, c2, c3];
                    [last[24], last[25], last[26], last[27]] = [c4, c5, c6, c7];
                    let [d0, d1, d2, d3, d4, d5, d6, d7] = crate::text::hex_u32(id.0 as u32);
                    [last[28], last[29], last[30], last[31]] = [d0, d1, d2, d3];
                    [last[32], last[33], last[34], last[35]] = [d4, d5, d6, d7];
                }
                prev = id.0 >> 64;
                push(&last);
            }
        }
        TextKind::UuidV4 => (0..count).for_each(|_| push(mint.uuid_v4().to_text().as_bytes())),
        TextKind::UuidV1 => {
            for _ in 0..count {
                push(mint.uuid_v1()?.to_text().as_bytes());
            }
        }
        TextKind::UuidV6 => {
            for _ in 0..count {
                push(mint.uuid_v6()?.to_text().as_bytes());
            }
        }
        TextKind::Ksuid => {
            for _ in 0..count {
                push(mint.ksuid()?.to_text().as_bytes());
            }
        }
        TextKind::ObjectId => {
            for _ in 0..count {
                push(mint.object_id()?.to_text().as_bytes());
            }
        }
    }
    Ok(first_ms)
}
