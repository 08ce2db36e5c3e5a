//! snowmint's PostgreSQL extension: the core's IDs minted by the server,
//! in schema `snowmint`, with the JS API's names and results. A binding:
//! it converts arguments and results and calls the core; every ID, rule and
//! error message is the core's.
//!
//! Types: Snowflakes are `bigint`; UUIDs and ULIDs are `uuid` (a ULID is the
//! same 128 bits as a UUID, so it sorts, indexes and hashes like one, in 16
//! bytes, with no type of ours to install; `uuid_to_ulid()` gives its text);
//! KSUIDs and TypeIDs are text.
//!
//! Order: with `shared_preload_libraries = 'snowmint'`, `ulid()`,
//! `uuidv7()`, `typeid()` and `next_id()` are monotonic across every
//! session of the server: one state of each in shared memory (ULIDs and
//! UUIDv7s: the core's generator under a spin lock, `spin.rs`; Snowflakes:
//! the core's lock-free `AtomicSnowflake`, one per layout and worker ID).
//! Without it, `ulid()`, `uuidv7()`
//! and `typeid()` are monotonic per session (the core's per-thread
//! generators), and `next_id()` refuses to mint: sessions sharing a worker
//! ID could mint the same Snowflake.
//!
//! Restarts: those streams go on after every ID minted before a restart
//! or a crash, even with the clock stepped back across it (`bound.rs`).
//!
//! Errors: SQLSTATE 22023 (22P02 for a malformed ID, 22008 for a time
//! outside the ID's range), message "<the core's code>: <the core's message>".

use std::cell::UnsafeCell;
use std::ffi::CString;
use std::fmt::Display;
use std::sync::atomic::{AtomicBool, Ordering};

use pgrx::atomics::PgAtomic;
use pgrx::datum::{TimestampWithTimeZone, Uuid as PgUuid};
use pgrx::guc::{GucContext, GucFlags, GucRegistry, GucSetting};
use pgrx::lwlock::{PgLwLock, PgLwLockExclusiveGuard};
use pgrx::pg_shmem_init;
use pgrx::prelude::*;
use pgrx::shmem::PGRXSharedMemory;
use rand_core::Rng;
use snowmint_core::Error;
use snowmint_core::at::{Pick, TimedKind};
use snowmint_core::clock::Clock;
use snowmint_core::random::PooledOsRng;
use snowmint_core::snowflake::{AtomicSnowflake, Layout, Preset};
use snowmint_core::ulid::{Ulid, UlidGenerator};
use snowmint_core::uuid::{Uuid, V7Generator};

mod bound;
mod decode;
mod snowflake;
mod spin;

::pgrx::pg_module_magic!(name, version);

static WORKER_ID: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);
static PRESET: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);
static EPOCH: GucSetting<Option<CString>> = GucSetting::<Option<CString>>::new(None);

/// The wall clock in Unix ms, one `clock_gettime` per read (the core's
/// `SystemClock` goes through `SystemTime`: 5 to 14 ns more per ID, as
/// measured in docs/database.md#speed). Before
/// 1970 it reads 0, as `SystemClock` does, and the generators refuse.
#[derive(Clone, Copy)]
struct WallClock;

impl Clock for WallClock {
    #[inline]
    fn now_ms(&self) -> u64 {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: a valid timespec to write; CLOCK_REALTIME always exists.
        unsafe { libc::clock_gettime(libc::CLOCK_REALTIME, &mut t) };
        (t.tv_sec.max(0) as u64) * 1000 + t.tv_nsec as u64 / 1_000_000
    }

    fn relax(&self) {
        std::thread::yield_now();
    }
}

/// How many Snowflake generators (layout and worker ID pairs) shared memory holds.
const SLOTS: usize = 64;

/// One Snowflake generator in shared memory, for one layout and worker ID.
struct Generator {
    preset: u8,
    epoch_ms: u64,
    worker_id: u64,
    snowflake: AtomicSnowflake<WallClock>,
}

/// A place for a [`Generator`], written once (under [`SLOW`]) and then only
/// read, by every session without a lock.
#[derive(Default)]
struct Slot {
    /// Set (Release) once `generator` is written; never unset.
    used: AtomicBool,
    generator: UnsafeCell<Option<Generator>>,
}

impl Slot {
    fn get(&self) -> Option<&Generator> {
        if !self.used.load(Ordering::Acquire) {
            return None;
        }
        // SAFETY: written before `used` was set, never after.
        unsafe { (*self.generator.get()).as_ref() }
    }

    /// Fills an unused slot; `SLOW` held, so no one else writes one.
    fn set(&self, _locked: &PgLwLockExclusiveGuard<'_, ()>, generator: Generator) -> &Generator {
        debug_assert!(!self.used.load(Ordering::Relaxed));
        // SAFETY: no session reads it before `used` is set.
        unsafe { *self.generator.get() = Some(generator) };
        self.used.store(true, Ordering::Release);
        self.get().expect("just set")
    }
}

/// The state every session shares when the library is preloaded, used
/// without the LWLock: per ID a spin lock (ULIDs, UUIDv7s) or none
/// (Snowflakes), and two atomic loads of the bound.
struct Shared {
    ulid: spin::SpinLock<UlidGenerator>,
    v7: spin::SpinLock<V7Generator>,
    slots: [Slot; SLOTS],
    bound: bound::Bound,
}

impl Default for Shared {
    fn default() -> Self {
        Shared {
            ulid: Default::default(),
            v7: Default::default(),
            slots: std::array::from_fn(|_| Slot::default()),
            bound: Default::default(),
        }
    }
}

// SAFETY: plain data (integers, atomics and pointers to the library's own
// static strings, which every backend forked from the postmaster maps at
// the same address).
unsafe impl PGRXSharedMemory for Shared {}
// SAFETY: `generator` is written once, before `used` is set (Release), and
// read only once `used` is seen set (Acquire).
unsafe impl Sync for Slot {}

static SHARED: PgAtomic<Shared> = unsafe { PgAtomic::new(c"snowmint state") };
/// Taken only for what is rare and slow: reading or moving the bound file
/// (about once a second), setting up a Snowflake generator.
static SLOW: PgLwLock<()> = unsafe { PgLwLock::new(c"snowmint") };
static mut PRELOADED: bool = false;

#[pg_guard]
pub extern "C-unwind" fn _PG_init() {
    let guc = |name, text, setting| {
        GucRegistry::define_string_guc(
            name,
            text,
            c"",
            setting,
            GucContext::Userset,
            GucFlags::default(),
        )
    };
    guc(
        c"snowmint.worker_id",
        c"The Snowflake worker ID of next_id(): one no application process holds.",
        &WORKER_ID,
    );
    guc(
        c"snowmint.preset",
        c"The Snowflake preset (default 'twitter').",
        &PRESET,
    );
    guc(
        c"snowmint.epoch",
        c"The Snowflake epoch in Unix ms (default the preset's).",
        &EPOCH,
    );
    if unsafe { pg_sys::process_shared_preload_libraries_in_progress } {
        pg_shmem_init!(SHARED);
        pg_shmem_init!(SLOW);
        unsafe { PRELOADED = true };
    }
}

fn preloaded() -> bool {
    unsafe { PRELOADED }
}

// ----------------------------------------------------------------- errors

/// Raises `code: message` with the SQLSTATE of the code's kind.
fn raise(code: &str, message: impl Display) -> ! {
    let state = match code {
        "ERR_PARSE" => PgSqlErrorCode::ERRCODE_INVALID_TEXT_REPRESENTATION,
        "ERR_TIME_OVERFLOW" | "ERR_TIME_BEFORE_EPOCH" => {
            PgSqlErrorCode::ERRCODE_DATETIME_FIELD_OVERFLOW
        }
        _ => PgSqlErrorCode::ERRCODE_INVALID_PARAMETER_VALUE,
    };
    ereport!(ERROR, state, format!("{code}: {message}"));
}

/// The value, or the bound file's error raised (`bound.rs`): an ID is
/// handed out only once the bound on disk lies past it.
fn stored<T>(r: Result<T, String>) -> T {
    r.unwrap_or_else(|e| raise("ERR_BOUND_FILE", e))
}

/// The value, or the core's error raised.
fn ok<T>(r: Result<T, impl Into<Error>>) -> T {
    r.unwrap_or_else(|e| {
        let e: Error = e.into();
        raise(e.code(), e)
    })
}

// ------------------------------------------------------------- arguments

/// Unix ms of a time, refused as the JS API refuses a time argument.
fn ms_of(ts: TimestampWithTimeZone) -> u64 {
    if !ts.is_finite() {
        raise(
            "ERR_INVALID_ARG_VALUE",
            format!("time must be an integer number of Unix milliseconds, got {ts}"),
        );
    }
    // Microseconds since 2000-01-01 -> Unix ms, rounded down.
    let ms = (ts.into_inner() + 946_684_800_000_000).div_euclid(1000);
    if ms < 0 {
        raise(
            "ERR_TIME_BEFORE_EPOCH",
            format!(
                "time {ms} (Unix ms) is before 1970-01-01, the earliest time snowmint mints an ID for"
            ),
        );
    }
    ms as u64
}

fn setting(s: &GucSetting<Option<CString>>) -> Option<String> {
    s.get()
        .map(|c| c.to_string_lossy().into_owned())
        .filter(|s| !s.is_empty())
}

/// The session's layout: `preset` or snowmint.preset (default 'twitter'), snowmint.epoch if set.
fn layout(preset: Option<&str>) -> (Preset, Layout) {
    let name = preset.map(str::to_string).or_else(|| setting(&PRESET));
    let preset = ok(Preset::from_name(name.as_deref().unwrap_or("twitter")));
    let mut layout = preset.layout();
    if let Some(e) = setting(&EPOCH) {
        let epoch_ms = e.parse::<u64>().unwrap_or_else(|_| {
            raise(
                "ERR_INVALID_ARG_VALUE",
                format!("snowmint.epoch must be an integer number of Unix milliseconds, got '{e}'"),
            )
        });
        let now_ms = WallClock.now_ms();
        if epoch_ms > now_ms {
            raise(
                "ERR_EPOCH_IN_FUTURE",
                Error::EpochInFuture { epoch_ms, now_ms },
            );
        }
        layout = layout.with_epoch(epoch_ms);
    }
    (preset, layout)
}

/// snowmint.worker_id, checked against `layout`.
fn worker_id(layout: &Layout) -> u64 {
    let Some(w) = setting(&WORKER_ID) else {
        raise(
            "ERR_NO_WORKER_ID",
            "snowmint.worker_id is not set: give this database a worker ID no application process holds (SET snowmint.worker_id = N, or ALTER DATABASE ... SET snowmint.worker_id = N); see docs/database.md",
        )
    };
    let Ok(id) = w.parse::<u64>() else {
        raise(
            "ERR_INVALID_ARG_VALUE",
            format!("snowmint.worker_id must be a whole number, got '{w}'"),
        )
    };
    ok(layout.check_worker(id))
}

fn bigint(id: u64) -> i64 {
    i64::try_from(id).unwrap_or_else(|_| {
        raise(
            "ERR_TIME_OVERFLOW",
            format!("Snowflake {id} does not fit a bigint (2^63 - 1): the layout's IDs of this time need an unsigned 64-bit column"),
        )
    })
}

fn pg_uuid(u: Uuid) -> PgUuid {
    PgUuid::from_bytes(u.to_bytes())
}

fn core_uuid(u: PgUuid) -> Uuid {
    Uuid::from_bytes(*u.as_bytes())
}

/// Fresh random bits for an ID of a given time (the core's pooled OS source).
fn random() -> u128 {
    let mut rng = PooledOsRng;
    (rng.next_u64() as u128) << 64 | rng.next_u64() as u128
}

// ------------------------------------------------------ 128-bit IDs

/// The first Unix ms the shared streams may use: the bound file's at the
/// start, read by the first ID since (`bound.rs`).
fn floor_ms() -> u64 {
    let bound = &SHARED.get().bound;
    match bound.floor_ms() {
        Some(floor) => floor,
        None => stored(bound.read_floor(&SLOW.exclusive())),
    }
}

/// Returns once the bound on disk lies past `ms`, the time of an ID about
/// to be handed out: at once but about once a second, when it moves.
fn cover(ms: u64) {
    let bound = &SHARED.get().bound;
    if !bound.covers(ms) {
        stored(bound.cover(&SLOW.exclusive(), ms));
    }
}

fn ulid_now() -> Ulid {
    if preloaded() {
        let now = WallClock.now_ms().max(floor_ms());
        let id = SHARED
            .get()
            .ulid
            .with(|g| g.generate(now, &mut PooledOsRng));
        let id = ok(id);
        cover(id.timestamp_ms());
        return id;
    }
    ok(snowmint_core::new_ulid())
}

fn uuidv7_now() -> Uuid {
    if preloaded() {
        let now = WallClock.now_ms().max(floor_ms());
        let id = SHARED.get().v7.with(|g| g.generate(now, &mut PooledOsRng));
        let id = ok(id);
        cover(id.timestamp_ms().expect("a UUIDv7 has a time") as u64);
        return id;
    }
    ok(snowmint_core::new_uuid_v7())
}

/// The next ULID, as the uuid of its 128 bits (uuid_to_ulid() gives its text).
#[pg_extern(volatile, parallel_unsafe)]
fn ulid() -> PgUuid {
    pg_uuid(ulid_now().to_uuid())
}

#[pg_extern(volatile, parallel_unsafe)]
fn uuidv7() -> PgUuid {
    pg_uuid(uuidv7_now())
}

#[pg_extern(volatile, parallel_safe)]
fn uuidv4() -> PgUuid {
    pg_uuid(snowmint_core::new_uuid_v4())
}

#[pg_extern(volatile, parallel_safe)]
fn ksuid() -> String {
    ok(snowmint_core::new_ksuid()).to_text().to_string()
}

/// The next TypeID of `prefix`, its UUIDv7 from uuidv7()'s stream.
#[pg_extern(volatile, parallel_unsafe)]
fn typeid(prefix: &str) -> String {
    ok(snowmint_core::typeid::check_prefix(prefix.as_bytes()));
    ok(snowmint_core::typeid::TypeId::new(prefix, uuidv7_now()))
        .to_text()
        .to_string()
}

fn text_at(kind: TimedKind, ts: TimestampWithTimeZone, prefix: &str) -> String {
    ok(kind.text_at(ms_of(ts), Pick::Any, random(), prefix)).to_string()
}

#[pg_extern(volatile, parallel_safe)]
fn ulid_at(ts: TimestampWithTimeZone) -> PgUuid {
    pg_uuid(ok(Ulid::at(ms_of(ts), random())).to_uuid())
}

#[pg_extern(volatile, parallel_safe)]
fn uuidv7_at(ts: TimestampWithTimeZone) -> PgUuid {
    pg_uuid(ok(Uuid::v7_at(ms_of(ts), random())))
}

#[pg_extern(volatile, parallel_safe)]
fn ksuid_at(ts: TimestampWithTimeZone) -> String {
    text_at(TimedKind::Ksuid, ts, "")
}

#[pg_extern(volatile, parallel_safe)]
fn typeid_at(prefix: &str, ts: TimestampWithTimeZone) -> String {
    text_at(TimedKind::TypeId, ts, prefix)
}

// ------------------------------------------------------------ bounds

fn bound(pick: Pick, kind: &str, ts: TimestampWithTimeZone, opt: Option<&str>) -> String {
    if kind == "snowflake" {
        let (_, layout) = layout(opt);
        let ms = ms_of(ts);
        let id = if pick == Pick::Max {
            layout.max_id_at(ms)
        } else {
            layout.min_id_at(ms)
        };
        return ok(id).to_string();
    }
    let kind = ok(TimedKind::from_name(kind));
    ok(kind.text_at(ms_of(ts), pick, 0, opt.unwrap_or(""))).to_string()
}

/// The smallest ID of `kind` whose time is `ts` (text; a Snowflake in
/// decimal); `opt`: a TypeID's prefix or a Snowflake's preset.
#[pg_extern(stable, parallel_safe)]
fn min_id(kind: &str, ts: TimestampWithTimeZone, opt: default!(Option<&str>, "NULL")) -> String {
    bound(Pick::Min, kind, ts, opt)
}

/// The largest ID of `kind` whose time is `ts`.
#[pg_extern(stable, parallel_safe)]
fn max_id(kind: &str, ts: TimestampWithTimeZone, opt: default!(Option<&str>, "NULL")) -> String {
    bound(Pick::Max, kind, ts, opt)
}

// ------------------------------------------------------- conversions

#[pg_extern(immutable, parallel_safe, strict)]
fn ulid_to_uuid(id: &str) -> PgUuid {
    pg_uuid(ok(Ulid::parse(id)).to_uuid())
}

#[pg_extern(immutable, parallel_safe, strict)]
fn uuid_to_ulid(id: PgUuid) -> String {
    Ulid::from_uuid(core_uuid(id)).to_text().to_string()
}
