//! One-call minting with `std`: each thread keeps its own monotonic
//! generators, reads the process-wide [`MonotonicClock`] and draws from
//! the thread's OS-seeded CSPRNG ([`crate::random`]). IDs from one thread are strictly increasing; across
//! threads they are unique through their random bits. Each returns an error
//! only for a clock past the kind's last representable time.
//!
//! With the feature `expiry` (Linux), a thread whose run of [`new_ulid`] and
//! [`new_uuid_v7`] calls reaches [`WORD_MIN_RUN`](crate::expiry::WORD_MIN_RUN) IDs in
//! one tick claims an expiry word that the kernel clears when the tick ends;
//! while it is set, the thread mints at that tick without reading the clock,
//! which would read the same ms ([`crate::expiry`]).

use core::cell::{Cell, RefCell};
use std::string::String;
use std::thread_local;
use std::vec::Vec;

use crate::clock::{Clock, MonotonicClock};
use crate::error::Error;
use crate::ksuid::Ksuid;
use crate::objectid::{ObjectId, ObjectIdGenerator};
use crate::random::{EachDraw, ThreadRng, thread_rng};
use crate::texts::{TextKind, TextMint, write_texts};
use crate::typeid::TypeId;
use crate::ulid::{Ulid, UlidGenerator};
use crate::uuid::{self, TimeUuidGenerator, Uuid, V7Generator};

/// A thread's generators and clock readings.
struct PerThread {
    /// The ULID generator's state, in a `Cell`: a `RefCell`'s borrow flag,
    /// written twice per ID, would cost a quarter of a ULID in a run.
    ulid: Cell<(u128, bool)>,
    tick: Tick,
    generators: RefCell<Generators>,
}

struct Generators {
    v7: V7Generator,
    time: TimeUuidGenerator,
    object_id: ObjectIdGenerator,
    /// The thread's generator, held: a handle per ID costs a TLS lookup.
    rng: ThreadRng,
}

thread_local! {
    static THREAD: PerThread = {
        let mut rng = thread_rng();
        PerThread {
            ulid: Cell::new(UlidGenerator::new().state()),
            tick: Tick::new(),
            generators: RefCell::new(Generators {
                v7: V7Generator::new(),
                time: TimeUuidGenerator::new(&mut rng),
                object_id: ObjectIdGenerator::new(&mut rng),
                rng,
            }),
        }
    };
}

impl PerThread {
    /// The thread's next ULID at `now`.
    #[inline]
    fn ulid<R: rand_core::Rng + ?Sized>(&self, now: u64, rng: &mut R) -> Result<Ulid, Error> {
        let mut g = UlidGenerator::from_state(self.ulid.get());
        let id = g.generate(now, rng);
        self.ulid.set(g.state());
        id
    }
}

/// The thread's clock readings.
struct Tick {
    /// The last reading (ms).
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    ms: Cell<u64>,
    /// One-call IDs minted at `ms`.
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    run: Cell<u32>,
    /// Set while the clock still reads `ms` (a slot taken at the thread's first run).
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    word: crate::expiry::Word,
    /// Clock reads so far ([`thread_clock_reads`]).
    #[cfg(feature = "expiry")]
    reads: Cell<u64>,
}

impl Tick {
    const fn new() -> Tick {
        Tick {
            #[cfg(all(feature = "expiry", target_os = "linux"))]
            ms: Cell::new(0),
            #[cfg(all(feature = "expiry", target_os = "linux"))]
            run: Cell::new(0),
            #[cfg(all(feature = "expiry", target_os = "linux"))]
            word: crate::expiry::Word::new(),
            #[cfg(feature = "expiry")]
            reads: Cell::new(0),
        }
    }

    /// The clock's reading for one ID (`one`) or a batch.
    #[inline]
    fn now(&self, one: bool) -> u64 {
        #[cfg(all(feature = "expiry", target_os = "linux"))]
        if self.word.is_set() {
            return self.ms.get();
        }
        self.read(one)
    }

    #[cfg(not(all(feature = "expiry", target_os = "linux")))]
    #[inline]
    fn read(&self, _one: bool) -> u64 {
        #[cfg(feature = "expiry")]
        self.reads.set(self.reads.get() + 1);
        MonotonicClock.now_ms()
    }

    /// Reads the clock; the run's [`WORD_MIN_RUN`](crate::expiry::WORD_MIN_RUN)th
    /// one-call ID in a tick claims the word for the rest of the tick. Out
    /// of line: the path with a word set then needs no stack frame.
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    #[inline(never)]
    fn read(&self, one: bool) -> u64 {
        self.reads.set(self.reads.get() + 1);
        let now = MonotonicClock.now_ms();
        if now != self.ms.get() {
            self.ms.set(now);
            self.run.set(0);
        }
        if one {
            self.run.set(self.run.get() + 1);
            if self.run.get() == crate::expiry::WORD_MIN_RUN {
                self.claim();
            }
        }
        now
    }

    /// Sets the word until the tick of `ms` ends, if the clock still reads it.
    #[cfg(all(feature = "expiry", target_os = "linux"))]
    #[cold]
    fn claim(&self) {
        if !self.word.take() {
            return;
        }
        // Read before the clock, so the deadline is never later than the tick's end.
        let start = crate::expiry::now_ns();
        let (ms, left) = crate::clock::now_ms_and_left_ns();
        if ms == self.ms.get() {
            self.word.set(start, left);
        }
    }
}

/// Clock reads by this thread's one-call functions so far (feature
/// `expiry`): for tests that runs really skip the clock where they have words.
#[cfg(feature = "expiry")]
pub fn thread_clock_reads() -> u64 {
    THREAD.with(|t| t.tick.reads.get())
}

/// Fails only on a clock past the kind's last representable time: year
/// 10889 for ULID and v7, 5236 for v1/v6, 2106 for ObjectId and KSUID.
#[inline]
fn with<T>(
    one: bool,
    f: impl FnOnce(&PerThread, &mut Generators, u64) -> Result<T, Error>,
) -> Result<T, Error> {
    THREAD.with(|t| {
        let now = t.tick.now(one);
        f(t, &mut t.generators.borrow_mut(), now)
    })
}

/// A monotonic ULID.
#[inline]
pub fn new_ulid() -> Result<Ulid, Error> {
    // Within a run a ULID draws nothing: the thread's generator is looked up only to draw.
    THREAD.with(|t| t.ulid(t.tick.now(true), &mut EachDraw))
}

/// A monotonic UUIDv7 (RFC 9562 §6.2 Method 1).
#[inline]
pub fn new_uuid_v7() -> Result<Uuid, Error> {
    with(true, |_, g, now| g.v7.generate(now, &mut g.rng))
}

/// Mints `count` IDs at one clock reading with `generate`, handing each to
/// `each`: a batch pays for the clock once (in a browser that is a call out
/// to `performance.now()`).
fn batch<T>(
    count: usize,
    generate: impl Fn(&PerThread, &mut Generators, u64, &mut ThreadRng) -> Result<T, Error>,
    mut each: impl FnMut(T),
) -> Result<(), Error> {
    with(false, |t, g, now| {
        // A handle of its own: `generate` borrows `g` (a clone of `g.rng` is a
        // copy in a browser, where clippy refuses the clone).
        let mut rng = thread_rng();
        for _ in 0..count {
            each(generate(t, g, now, &mut rng)?);
        }
        Ok(())
    })
}

/// Monotonic ULIDs for all of `out` at one clock reading.
pub fn new_ulids(out: &mut [Ulid]) -> Result<(), Error> {
    let mut slots = out.iter_mut();
    batch(
        slots.len(),
        |t, _, now, rng| t.ulid(now, rng),
        |id| {
            if let Some(slot) = slots.next() {
                *slot = id;
            }
        },
    )
}

/// Monotonic UUIDv7s for all of `out` at one clock reading, like [`new_ulids`].
pub fn new_uuid_v7s(out: &mut [Uuid]) -> Result<(), Error> {
    let mut slots = out.iter_mut();
    batch(
        slots.len(),
        |_, g, now, rng| g.v7.generate(now, rng),
        |id| {
            if let Some(slot) = slots.next() {
                *slot = id;
            }
        },
    )
}

/// A thread's generators at one clock reading, for a batch of texts.
struct Batch<'a> {
    t: &'a PerThread,
    g: &'a mut Generators,
    now: u64,
    /// A handle of its own: the generators borrow `g` (a clone of `g.rng`
    /// is a copy in a browser, where clippy refuses the clone).
    rng: ThreadRng,
}

impl TextMint for Batch<'_> {
    fn ulid(&mut self) -> Result<Ulid, Error> {
        self.t.ulid(self.now, &mut self.rng)
    }
    fn uuid_v7(&mut self) -> Result<Uuid, Error> {
        self.g.v7.generate(self.now, &mut self.rng)
    }
    fn uuid_v4(&mut self) -> Uuid {
        uuid::new_v4(&mut self.rng)
    }
    fn uuid_v1(&mut self) -> Result<Uuid, Error> {
        self.g.time.v1(self.now)
    }
    fn uuid_v6(&mut self) -> Result<Uuid, Error> {
        self.g.time.v6(self.now)
    }
    fn ksuid(&mut self) -> Result<Ksuid, Error> {
        Ksuid::generate(self.now, &mut self.rng)
    }
    fn object_id(&mut self) -> Result<ObjectId, Error> {
        self.g.object_id.generate(self.now)
    }
}

/// Appends the texts of `count` new IDs of `kind` to `out` (each
/// [`TextKind::width`] characters): the bindings hand them out one by one
/// from one call. ULIDs and UUIDv7s take one clock reading per batch and
/// return the Unix ms of the first, so a binding can hand them out only
/// while that millisecond lasts (they are monotonic within it); the other
/// kinds return `None`.
pub fn mint_texts(kind: TextKind, count: usize, out: &mut String) -> Result<Option<u64>, Error> {
    // Bytes, checked as UTF-8 once per batch rather than once per ID (a
    // third of the time per UUID in the wasm build).
    let mut text = Vec::new();
    let first_ms = mint_text_bytes(kind, count, &mut text)?;
    // Every encoder writes ASCII.
    out.push_str(core::str::from_utf8(&text).unwrap_or_default());
    Ok(first_ms)
}

/// [`mint_texts`] into bytes (ASCII), appended to `text`: the wasm build
/// reuses one buffer and the page decodes it, with no string built in wasm.
pub fn mint_text_bytes(
    kind: TextKind,
    count: usize,
    text: &mut Vec<u8>,
) -> Result<Option<u64>, Error> {
    text.reserve(count * kind.width());
    with(false, |t, g, now| {
        let mut batch = Batch {
            t,
            g,
            now,
            rng: thread_rng(),
        };
        write_texts(kind, count, &mut batch, |b| text.extend_from_slice(b))
    })
}

/// [`mint_texts`] for a binding that buffers the texts: returns how many ms
/// after the call began the clock still read the first ID's millisecond (0
/// for kinds without time, and always a safe answer), so the batch is handed
/// out only until `start + that + 1 ms`.
pub fn mint_texts_fresh(kind: TextKind, count: usize, out: &mut String) -> Result<f64, Error> {
    let start = crate::clock::Instant::now();
    let first_ms = mint_texts(kind, count, out)?;
    Ok(fresh_after(start, first_ms))
}

/// [`mint_texts_fresh`] into bytes, like [`mint_text_bytes`].
pub fn mint_text_bytes_fresh(
    kind: TextKind,
    count: usize,
    out: &mut Vec<u8>,
) -> Result<f64, Error> {
    let start = crate::clock::Instant::now();
    let first_ms = mint_text_bytes(kind, count, out)?;
    Ok(fresh_after(start, first_ms))
}

fn fresh_after(start: crate::clock::Instant, first_ms: Option<u64>) -> f64 {
    first_ms.map_or(0.0, |ms| {
        crate::clock::fresh_ms(start, &MonotonicClock, |now| now <= ms)
    })
}

/// A random UUIDv4.
#[inline]
pub fn new_uuid_v4() -> Uuid {
    uuid::new_v4(&mut thread_rng())
}

/// A time-based UUIDv1 with a random node.
pub fn new_uuid_v1() -> Result<Uuid, Error> {
    with(false, |_, g, now| g.time.v1(now))
}

/// A time-based UUIDv6 with a random node.
pub fn new_uuid_v6() -> Result<Uuid, Error> {
    with(false, |_, g, now| g.time.v6(now))
}

/// A KSUID with a random payload.
pub fn new_ksuid() -> Result<Ksuid, Error> {
    with(false, |_, g, now| Ksuid::generate(now, &mut g.rng))
}

/// A MongoDB ObjectId.
pub fn new_object_id() -> Result<ObjectId, Error> {
    with(false, |_, g, now| g.object_id.generate(now))
}

/// A TypeID with a monotonic UUIDv7; fails on an invalid prefix.
pub fn new_typeid(prefix: &str) -> Result<TypeId, Error> {
    crate::typeid::check_prefix(prefix.as_bytes())?;
    Ok(TypeId::new(prefix, new_uuid_v7()?)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Id, Kind};

    #[test]
    fn batches_continue_the_thread_sequence() {
        let mut ulids = [Ulid::NIL; 100];
        let first = new_ulid().unwrap();
        new_ulids(&mut ulids).unwrap();
        assert!(first < ulids[0] && ulids.windows(2).all(|w| w[0] < w[1]));
        assert!(ulids[99] < new_ulid().unwrap());
        let mut v7s = [Uuid::NIL; 100];
        let first = new_uuid_v7().unwrap();
        new_uuid_v7s(&mut v7s).unwrap();
        assert!(first < v7s[0] && v7s.windows(2).all(|w| w[0] < w[1]));
        assert!(v7s[99] < new_uuid_v7().unwrap());
    }

    #[test]
    fn texts_are_fixed_width_and_ordered() {
        for name in [
            "ulid", "uuidv7", "uuidv4", "uuidv1", "uuidv6", "ksuid", "objectid",
        ] {
            let kind = TextKind::from_name(name).unwrap();
            let mut text = String::new();
            let first_ms = mint_texts(kind, 50, &mut text).unwrap();
            assert_eq!(text.len(), 50 * kind.width(), "{name}");
            let ids: std::vec::Vec<&str> = (0..50)
                .map(|i| &text[i * kind.width()..(i + 1) * kind.width()])
                .collect();
            let want = match kind {
                TextKind::Ulid => Kind::Ulid,
                TextKind::Ksuid => Kind::Ksuid,
                TextKind::ObjectId => Kind::ObjectId,
                _ => Kind::Uuid,
            };
            for id in &ids {
                assert_eq!(Id::parse(id, None).map(|id| id.kind()), Ok(want), "{name}");
            }
            // Canonical texts (a run's texts are rewritten from the one before).
            match kind {
                TextKind::Ulid => ids
                    .iter()
                    .for_each(|t| assert_eq!(*Ulid::parse(t).unwrap().to_text(), **t)),
                TextKind::UuidV7 => ids
                    .iter()
                    .for_each(|t| assert_eq!(*Uuid::parse(t).unwrap().to_text(), **t)),
                _ => {}
            }
            if matches!(kind, TextKind::Ulid | TextKind::UuidV7) {
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "{name}");
                assert!(first_ms.is_some_and(|ms| ms.abs_diff(MonotonicClock.now_ms()) < 1_000));
            } else {
                assert_eq!(first_ms, None);
            }
        }
        assert!(TextKind::from_name("snowflake").is_err());
    }

    #[test]
    fn run_texts_stay_canonical_across_carries() {
        let mut text = String::from("x");
        mint_texts(TextKind::Ulid, 2000, &mut text).unwrap();
        for t in text.as_bytes()[1..].chunks(26) {
            let t = core::str::from_utf8(t).unwrap();
            assert_eq!(*Ulid::parse(t).unwrap().to_text(), *t);
        }
        let mut text = String::from("x");
        mint_texts(TextKind::UuidV7, 2000, &mut text).unwrap();
        for t in text.as_bytes()[1..].chunks(36) {
            let t = core::str::from_utf8(t).unwrap();
            assert_eq!(*Uuid::parse(t).unwrap().to_text(), *t);
        }
    }
}
