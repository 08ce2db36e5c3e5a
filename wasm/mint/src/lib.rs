//! The browser's minting modules: batches of ULID, UUIDv7, v4, v1, v6,
//! KSUID or ObjectId texts, and one such ID for a given time, from the
//! core's generators. Built once per kind (a cargo feature each, see
//! Cargo.toml), so a page that imports only `ulid()` downloads the ULID
//! module and not the other kinds, the parser, the decoder or the message
//! texts of the full module (`wasm/`). Built for bytes:
//!
//! - no wasm-bindgen: four numeric exports over one buffer, read by
//!   `npm/src/web/mint.js`, and three imports (`performance.now()`,
//!   `Date.now()`, `crypto.getRandomValues`);
//! - no `core::fmt` and no message strings: an error crosses as the core's
//!   [`Error::numbered`] index and numbers, which the JavaScript words from
//!   templates written from the core's own `Display`;
//! - a panic traps (`unreachable`); nothing here can panic on JS input.
//!
//! The clock is the core's [`FollowingClock`] over `performance.now()` and
//! `Date.now()`, as the full module's `MonotonicClock`: a wall-clock change
//! under the page never reaches the IDs. A wasm instance has one thread,
//! so the state is plain cells behind a `Sync` wrapper.
#![cfg_attr(all(target_family = "wasm", target_os = "unknown"), no_std)]
// Only for this target: elsewhere (the workspace's host builds) it is empty.
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

use core::cell::{Cell, RefCell};
use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};
use snowmint::Error;
use snowmint::clock::{Clock, FollowingClock, fresh_after};
use snowmint::ksuid::Ksuid;
use snowmint::objectid::{ObjectId, ObjectIdGenerator};
use snowmint::texts::{TextKind, TextMint, write_texts};
use snowmint::ulid::{Ulid, UlidGenerator};
use snowmint::uuid::{self, TimeUuidGenerator, Uuid, V7Generator};

#[link(wasm_import_module = "m")]
unsafe extern "C" {
    /// `performance.now()`: ms since the page or worker started.
    #[link_name = "m"]
    fn perf_now() -> f64;
    /// `Date.now()`.
    #[link_name = "w"]
    fn date_now() -> f64;
    /// `crypto.getRandomValues` over `len` bytes of this module's memory at `ptr`.
    #[link_name = "r"]
    fn get_random(ptr: *mut u8, len: usize);
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// State of a single-threaded instance.
struct One<T>(T);
// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
unsafe impl<T> Sync for One<T> {}

struct Mono;
impl Clock for Mono {
    fn now_ms(&self) -> u64 {
        // SAFETY: an import of plain numbers.
        unsafe { perf_now() as u64 }
    }
}

struct Wall;
impl Clock for Wall {
    fn now_ms(&self) -> u64 {
        // Before 1970 reads as 0 (`as` saturates), as on other targets.
        // SAFETY: an import of plain numbers.
        unsafe { date_now() as u64 }
    }
}

static CLOCK: FollowingClock<Mono, Wall> = FollowingClock::new(Mono, Wall);

/// Bytes of the pool: `crypto.getRandomValues` is called once per 4 KiB,
/// as the core's `PooledOsRng` does (each call crosses into JS; it refuses
/// more than 65,536 bytes at once).
const POOL_BYTES: usize = 4096;

/// `crypto.getRandomValues` output not handed out yet: the last `left` bytes.
struct Pool {
    bytes: [u8; POOL_BYTES],
    left: usize,
}

static POOL: One<RefCell<Pool>> = One(RefCell::new(Pool {
    bytes: [0; POOL_BYTES],
    left: 0,
}));

/// The page's CSPRNG through [`POOL`]; each byte is handed out once and zeroed.
struct PageRng;

impl PageRng {
    /// The next `N` (at most [`POOL_BYTES`]) bytes: a fixed-size copy, as
    /// a UUIDv7 takes 8 per ID.
    fn bytes<const N: usize>() -> [u8; N] {
        let mut pool = POOL.0.borrow_mut();
        if pool.left < N {
            // SAFETY: the pool's bytes are this module's memory, valid for POOL_BYTES bytes.
            unsafe { get_random(pool.bytes.as_mut_ptr(), POOL_BYTES) };
            pool.left = POOL_BYTES;
        }
        let start = POOL_BYTES - pool.left;
        pool.left -= N;
        let mut out = [0; N];
        let served = &mut pool.bytes[start..start + N];
        out.copy_from_slice(served);
        served.fill(0);
        out
    }

    fn take(dst: &mut [u8]) {
        for b in dst {
            [*b] = PageRng::bytes::<1>();
        }
    }
}

impl TryRng for PageRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(u32::from_le_bytes(PageRng::bytes()))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from_le_bytes(PageRng::bytes()))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        PageRng::take(dst);
        Ok(())
    }
}

impl TryCryptoRng for PageRng {}

/// The monotonic generators, one of each kind per instance.
struct Generators {
    ulid: UlidGenerator,
    v7: V7Generator,
    /// Made at the first v1/v6 and ObjectId (each draws its random node or counter start).
    time: Option<TimeUuidGenerator>,
    object_id: Option<ObjectIdGenerator>,
}

static GENERATORS: One<RefCell<Generators>> = One(RefCell::new(Generators {
    ulid: UlidGenerator::new(),
    v7: V7Generator::new(),
    time: None,
    object_id: None,
}));

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

/// The largest batch: `maxTextRun` (core `binding::MAX_TEXT_RUN`) UUIDs.
const OUT_BYTES: usize = 1024 * 36;

/// The texts a call wrote, and the numbers it reports: an error's index
/// and numbers (core `Error::numbered`).
static OUT: One<RefCell<[u8; OUT_BYTES]>> = One(RefCell::new([0; OUT_BYTES]));
static NUMBERS: One<Cell<[f64; 3]>> = One(Cell::new([0.0; 3]));

/// Where the texts are: `OUT_BYTES` bytes of ASCII.
#[unsafe(no_mangle)]
pub extern "C" fn out() -> *const u8 {
    OUT.0.as_ptr().cast()
}

/// Where an error's numbers are: its index, then two numbers.
#[unsafe(no_mangle)]
pub extern "C" fn numbers() -> *const f64 {
    NUMBERS.0.as_ptr().cast()
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

/// `-1` after an error: its numbers are at [`numbers`].
fn failed(e: Error) -> f64 {
    // Every error a minting call can return is all numbers.
    match e.numbered() {
        Some((index, [a, b])) => NUMBERS.0.set([index as f64, a as f64, b as f64]),
        None => return internal(),
    }
    -1.0
}

/// `-1` with the index -1: a call this module cannot answer (a kind it
/// does not mint), which the JavaScript never makes.
fn internal() -> f64 {
    NUMBERS.0.set([-1.0, 0.0, 0.0]);
    -1.0
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
