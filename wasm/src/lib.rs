//! The browser's full module of snowmint: it implements the parsing,
//! decoding, layouts and conversions of the backend interface of
//! `npm/src/backend.d.ts` (the same one the napi-rs binding implements) and
//! only converts between the buffers JavaScript reads and core calls, like
//! `node/`. Its texts (ULID, UUIDs, KSUID, ObjectId), TypeIDs, Snowflake
//! generators, test clocks and name-based UUIDs are the minting modules'
//! of `wasm/mint/`, which `npm/src/wasm-backend.js` puts beside it. Built
//! for bytes, as those are:
//!
//! - no wasm-bindgen: numeric exports over buffers, read by
//!   `npm/src/wasm-backend.js`, and one import (`crypto.getRandomValues`,
//!   for `textAt`);
//! - no `core::fmt` and no message strings: an error crosses as the core's
//!   numbers and texts ([`Error::numbers`]), which the JavaScript words from
//!   templates written from the core's own `Display` (`npm/src/wasm-words.js`);
//! - no allocator: inputs are in [`input`]'s area, outputs in [`OUT`];
//! - a panic traps (`unreachable`); nothing here can panic on JS input.
// (Its test target, which clippy --all-targets checks, links std.)
#![cfg_attr(all(target_family = "wasm", target_os = "unknown", not(test)), no_std)]
// Only for this target: elsewhere (the workspace's host builds) it is empty.
#![cfg(all(target_family = "wasm", target_os = "unknown"))]

mod at;
mod convert;
mod decode;
mod snowflake;

use core::cell::{Cell, RefCell};

use snowmint::Error;
use snowmint::binding::ErrorSlot;
use snowmint::ulid::Ulid;
use snowmint::uuid::Uuid;

#[link(wasm_import_module = "m")]
unsafe extern "C" {
    /// `crypto.getRandomValues` over `len` bytes of this module's memory at `ptr`.
    #[link_name = "r"]
    fn get_random(ptr: *mut u8, len: usize);
}

#[cfg(not(test))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

/// State of a single-threaded instance.
struct One<T>(T);
// SAFETY: wasm32-unknown-unknown without the atomics feature has one thread.
unsafe impl<T> Sync for One<T> {}

/// Bytes of [`OUT`]: more than the longest text a call gives back (a
/// decoded ID's texts, an ID's bytes, an error's two texts).
const OUT_BYTES: usize = 256;
/// Bytes of [`IN`]: the inputs of most calls.
const IN_BYTES: usize = 1024;

/// The texts or bytes a call wrote.
static OUT: One<RefCell<[u8; OUT_BYTES]>> = One(RefCell::new([0; OUT_BYTES]));
/// The inputs that fit: apart from [`OUT`], as what a call writes there
/// may borrow from them (an error's texts: the name given).
static IN: One<RefCell<[u8; IN_BYTES]>> = One(RefCell::new([0; IN_BYTES]));
/// The numbers a call reports: a parsed ID's fields, a layout, an error's.
static NUMBERS: One<Cell<[f64; 16]>> = One(Cell::new([0.0; 16]));
/// The 64-bit numbers it reports: a Snowflake, an error's numbers.
static BIG: One<Cell<[u64; 2]>> = One(Cell::new([0; 2]));
/// Where the inputs longer than [`IN`] go: pages grown at the end of
/// memory (no allocator uses them), `(start, bytes)`.
static GROWN: One<Cell<(usize, usize)>> = One(Cell::new((0, 0)));
/// Where the last [`input`] was given.
static INPUT: One<Cell<*const u8>> = One(Cell::new(core::ptr::null()));

/// Where the texts and bytes are.
#[unsafe(no_mangle)]
pub extern "C" fn out() -> *const u8 {
    OUT.0.as_ptr().cast()
}

/// Where the reported numbers are.
#[unsafe(no_mangle)]
pub extern "C" fn numbers() -> *const f64 {
    NUMBERS.0.as_ptr().cast()
}

/// Where the 64-bit numbers are.
#[unsafe(no_mangle)]
pub extern "C" fn big() -> *const u64 {
    BIG.0.as_ptr().cast()
}

/// Where JS writes the `len` bytes of the next call's inputs: [`IN`], or
/// for more, memory grown for them (kept for the next).
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *const u8 {
    let at = if len <= IN_BYTES {
        IN.0.as_ptr().cast()
    } else {
        let (mut start, bytes) = GROWN.0.get();
        if len > bytes {
            let page = 65536;
            let more = (len - bytes).div_ceil(page);
            let end = core::arch::wasm32::memory_grow(0, more);
            if end == usize::MAX {
                core::arch::wasm32::unreachable()
            }
            if bytes == 0 {
                start = end * page;
            }
            GROWN.0.set((start, bytes + more * page));
        }
        start as *const u8
    };
    INPUT.0.set(at);
    at
}

/// Why a call failed: the core's error, or one the JavaScript never causes.
pub(crate) enum Failed {
    Core(Error),
    Internal,
}

impl<E: Into<Error>> From<E> for Failed {
    fn from(e: E) -> Failed {
        Failed::Core(e.into())
    }
}

/// The inputs JS wrote at [`input`], taken in order by their lengths.
pub(crate) struct Args(usize);

impl Args {
    pub(crate) fn new() -> Args {
        Args(0)
    }

    /// The next `len` bytes.
    pub(crate) fn bytes(&mut self, len: usize) -> &'static [u8] {
        // SAFETY: JS wrote the inputs there before the call, in the area
        // `input` gave (IN or grown pages), which nothing in this module
        // writes.
        let bytes = unsafe { core::slice::from_raw_parts(INPUT.0.get().add(self.0), len) };
        self.0 += len;
        bytes
    }

    /// The next text of `len` bytes (UTF-8 from JS's TextEncoder).
    pub(crate) fn text(&mut self, len: usize) -> Result<&'static str, Failed> {
        core::str::from_utf8(self.bytes(len)).map_err(|_| Failed::Internal)
    }

    /// The next text, or none for a length of -1.
    pub(crate) fn option(&mut self, len: i32) -> Result<Option<&'static str>, Failed> {
        usize::try_from(len)
            .ok()
            .map(|len| self.text(len))
            .transpose()
    }
}

/// Writes `parts` one after another in [`OUT`]: the length of each.
pub(crate) fn write<const N: usize>(parts: [&[u8]; N]) -> [usize; N] {
    let mut out = OUT.0.borrow_mut();
    let mut at = 0;
    parts.map(|part| {
        out[at..at + part.len()].copy_from_slice(part);
        at += part.len();
        part.len()
    })
}

/// A text given back: its length in [`OUT`].
pub(crate) fn text(t: &str) -> Result<f64, Failed> {
    Ok(write([t.as_bytes()])[0] as f64)
}

/// A Snowflake given back: at [`big`] (`-2`, as no length is).
pub(crate) fn bigint(v: u64) -> Result<f64, Failed> {
    BIG.0.set([v, 0]);
    Ok(-2.0)
}

pub(crate) fn set_numbers<const N: usize>(numbers: [f64; N]) {
    let mut all = NUMBERS.0.get();
    all[..N].copy_from_slice(&numbers);
    NUMBERS.0.set(all);
}

/// A call's result as JS reads it: `-1` after an error, whose index and
/// texts' lengths are at [`numbers`] (`ErrorSlot`), its numbers at
/// [`big`], its texts in [`OUT`]. Every error this build can return has a
/// number (the core's tests check it); the sequence errors, left out of
/// it, would come out as index -1 (`ERR_INTERNAL`).
pub(crate) fn done(result: Result<f64, Failed>) -> f64 {
    let e = match result {
        Ok(v) => return v,
        Err(Failed::Core(e)) => e,
        Err(Failed::Internal) => return internal(),
    };
    let Some(n) = e.numbers() else {
        return internal();
    };
    let [s, t] = n.texts;
    let [s, t] = write([s.as_bytes(), t.as_bytes()]);
    let mut slots = [0.0; 3];
    slots[ErrorSlot::INDEX] = n.index.into();
    slots[ErrorSlot::S_LENGTH] = s as f64;
    slots[ErrorSlot::T_LENGTH] = t as f64;
    set_numbers(slots);
    let mut big = [0; 2];
    big[ErrorSlot::A] = n.numbers[0];
    big[ErrorSlot::B] = n.numbers[1];
    BIG.0.set(big);
    -1.0
}

/// `-1` with the index -1: an error of no number, or a call the
/// JavaScript never makes.
fn internal() -> f64 {
    let mut slots = [0.0; 3];
    slots[ErrorSlot::INDEX] = -1.0;
    set_numbers(slots);
    -1.0
}

/// The index of the name (text `name_len`) in the core's name list (text
/// `list_len`), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn name_index(list_len: usize, name_len: usize) -> f64 {
    let mut args = Args::new();
    done((|| {
        let (list, name) = (args.text(list_len)?, args.text(name_len)?);
        Ok(snowmint::binding::name_index(list, name)?.into())
    })())
}

/// The same 128 bits as a hyphenated UUID: its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn ulid_to_uuid(len: usize) -> f64 {
    done(
        Args::new()
            .text(len)
            .and_then(|t| text(&Ulid::parse(t)?.to_uuid().to_text())),
    )
}

/// The same 128 bits as a ULID: its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn uuid_to_ulid(len: usize) -> f64 {
    done(
        Args::new()
            .text(len)
            .and_then(|t| text(&Ulid::from_uuid(Uuid::parse(t)?).to_text())),
    )
}
