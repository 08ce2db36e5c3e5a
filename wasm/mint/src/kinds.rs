//! Batches of ULID, UUIDv7, v4, v1, v6, KSUID and ObjectId texts, and one
//! such ID for a given time: the kinds of the module's features.

use snowmint::Error;
use snowmint::clock::{Clock, fresh_after};
use snowmint::ksuid::Ksuid;
use snowmint::objectid::{ObjectId, ObjectIdGenerator};
use snowmint::texts::{TextKind, TextMint, write_texts};
use snowmint::ulid::Ulid;
use snowmint::uuid::{self, TimeUuidGenerator, Uuid};

use crate::clock::{CLOCK, perf_now};
use crate::texts::{GENERATORS, Generators, PageRng};
use crate::{OUT, OUT_BYTES, failed, internal};

/// The generators at one clock reading.
struct Batch<'a> {
    g: &'a mut Generators,
    now: u64,
}

impl TextMint for Batch<'_> {
    fn ulid(&mut self) -> Result<Ulid, Error> {
        self.g.ulid.generate(self.now, &mut PageRng)
    }
    fn uuid_v7(&mut self) -> Result<Uuid, Error> {
        self.g.v7.generate(self.now, &mut PageRng)
    }
    fn uuid_v4(&mut self) -> Uuid {
        uuid::new_v4(&mut PageRng)
    }
    fn uuid_v1(&mut self) -> Result<Uuid, Error> {
        let now = self.now;
        self.time().v1(now)
    }
    fn uuid_v6(&mut self) -> Result<Uuid, Error> {
        let now = self.now;
        self.time().v6(now)
    }
    fn ksuid(&mut self) -> Result<Ksuid, Error> {
        Ksuid::generate(self.now, &mut PageRng)
    }
    fn object_id(&mut self) -> Result<ObjectId, Error> {
        let g = self
            .g
            .object_id
            .get_or_insert_with(|| ObjectIdGenerator::new(&mut PageRng));
        g.generate(self.now)
    }
}

impl Batch<'_> {
    fn time(&mut self) -> &mut TimeUuidGenerator {
        self.g
            .time
            .get_or_insert_with(|| TimeUuidGenerator::new(&mut PageRng))
    }
}

/// Calls `f` with the kind at `index` of the core's `TextKind::NAMES` as
/// a constant, if this module mints it (its features), else gives
/// [`internal`]. Each arm is its own call with a constant kind, so the
/// compiler links, for each kind the module mints, only that kind's code.
macro_rules! by_kind {
    ($index:expr, $f:ident($($arg:expr),*)) => {
        match $index {
            #[cfg(feature = "ulid")]
            0 => $f(TextKind::Ulid, $($arg),*),
            #[cfg(feature = "uuidv7")]
            1 => $f(TextKind::UuidV7, $($arg),*),
            #[cfg(feature = "uuidv4")]
            2 => $f(TextKind::UuidV4, $($arg),*),
            #[cfg(feature = "uuidv1")]
            3 => $f(TextKind::UuidV1, $($arg),*),
            #[cfg(feature = "uuidv6")]
            4 => $f(TextKind::UuidV6, $($arg),*),
            #[cfg(feature = "ksuid")]
            5 => $f(TextKind::Ksuid, $($arg),*),
            #[cfg(feature = "objectid")]
            6 => $f(TextKind::ObjectId, $($arg),*),
            _ => internal(),
        }
    };
}

/// Writes `count` texts of the kind at `kind` (core `TextKind::NAMES`) to
/// [`out`], at most what it holds. Returns how many ms after the call
/// began the clock still read the first ID's ms (ULID and v7; 0 for the
/// other kinds, always a safe answer; the API hands the batch out only
/// until its own reading before the call plus that plus 1 ms), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn texts(kind: u32, count: u32) -> f64 {
    by_kind!(kind, texts_of(count))
}

#[inline(always)]
fn texts_of(kind: TextKind, count: u32) -> f64 {
    let count = (count as usize).min(OUT_BYTES / kind.width());
    // SAFETY: an import of plain numbers.
    let start = unsafe { perf_now() };
    let now = CLOCK.now_ms();
    let mut out = OUT.0.borrow_mut();
    let mut at = 0;
    let mut g = GENERATORS.0.borrow_mut();
    let written = write_texts(kind, count, &mut Batch { g: &mut g, now }, |text| {
        out[at..at + text.len()].copy_from_slice(text);
        at += text.len();
    });
    match written {
        // SAFETY: an import of plain numbers.
        Ok(Some(first_ms)) => {
            fresh_after(unsafe { perf_now() } - start, &CLOCK, |now| now <= first_ms)
        }
        Ok(None) => 0.0,
        Err(e) => failed(e),
    }
}

/// Writes the text of an ID of the kind at `kind` for Unix ms `ms`, with
/// fresh random bits, to [`out`]: not part of the monotonic stream, unique
/// by its random bits. Returns its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn text_at(kind: u32, ms: f64) -> f64 {
    by_kind!(kind, text_at_of(ms))
}

#[inline(always)]
fn text_at_of(kind: TextKind, ms: f64) -> f64 {
    match kind.text_at(ms as u64, u128::from_le_bytes(PageRng::bytes())) {
        Ok(text) => {
            // (As bytes: the text as a `str` would link a UTF-8 check.)
            let text = text.as_bytes();
            OUT.0.borrow_mut()[..text.len()].copy_from_slice(text);
            text.len() as f64
        }
        Err(e) => failed(e),
    }
}
