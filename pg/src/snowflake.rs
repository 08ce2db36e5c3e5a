//! `next_id()` and `next_id_at()`: Snowflakes of the session's layout and
//! worker ID (the GUCs `snowmint.preset`, `snowmint.epoch` and
//! `snowmint.worker_id`), from the generators in shared memory.

use std::ffi::{CStr, CString};

use pgrx::datum::TimestampWithTimeZone;
use pgrx::guc::GucSetting;
use pgrx::prelude::*;
use snowmint_core::snowflake::{AtomicSnowflake, Layout, Preset};

use crate::{
    EPOCH, Generator, PRESET, SHARED, SLOTS, SLOW, Slot, WORKER_ID, WallClock, bigint, cover,
    layout, ms_of, ok, preloaded, raise, stored, worker_id,
};

/// The next Snowflake of snowmint.worker_id in the session's layout,
/// monotonic across every session (needs shared_preload_libraries).
#[pg_extern(volatile, parallel_unsafe)]
fn next_id() -> i64 {
    let snowflake = &session_generator().snowflake;
    let id = ok(snowflake.next());
    let ms = snowflake
        .high_water_ms()
        .expect("a generator that minted has a tick");
    cover(ms);
    bigint(id)
}

/// The session's generator and the settings it was found for.
struct Resolved {
    /// snowmint.preset, snowmint.epoch and snowmint.worker_id, as text.
    settings: [Box<[u8]>; 3],
    generator: &'static Generator,
}

const SETTINGS: [&GucSetting<Option<CString>>; 3] = [&PRESET, &EPOCH, &WORKER_ID];

/// A setting's text ("" when unset).
fn text(s: &GucSetting<Option<CString>>) -> &[u8] {
    // SAFETY: the setting's current string, or null.
    let p = unsafe { *s.as_ptr() };
    if p.is_null() {
        b""
    } else {
        unsafe { CStr::from_ptr(p) }.to_bytes()
    }
}

/// Whether a setting reads `text`, compared in place (no copy, no `strlen`).
fn reads(s: &GucSetting<Option<CString>>, text: &[u8]) -> bool {
    // SAFETY: the setting's current string, or null; read up to its end.
    let p = unsafe { *s.as_ptr() }.cast::<u8>();
    if p.is_null() {
        return text.is_empty();
    }
    for (i, &b) in text.iter().enumerate() {
        if unsafe { *p.add(i) } != b {
            return false;
        }
    }
    unsafe { *p.add(text.len()) == 0 }
}

/// next_id()'s generator for the session's settings, kept until they
/// change: parsing them and finding the generator, per ID, cost as much as
/// minting (strings allocated for each setting, the preset's name looked up).
static mut SESSION: Option<Resolved> = None;

fn session_generator() -> &'static Generator {
    // SAFETY: a backend runs one thread.
    let session: *mut Option<Resolved> = &raw mut SESSION;
    let session = unsafe { &mut *session };
    if let Some(r) = session
        && SETTINGS.iter().zip(&r.settings).all(|(s, t)| reads(s, t))
    {
        return r.generator;
    }
    let (preset, layout) = layout(None);
    let worker = worker_id(&layout);
    if !preloaded() {
        raise(
            "ERR_INVALID_OPTION",
            "next_id() needs snowmint in shared_preload_libraries: without one state in shared memory, two sessions on the same snowmint.worker_id could mint the same Snowflake. Add shared_preload_libraries = 'snowmint' to postgresql.conf and restart, or use the SQL pack (sql/snowmint.sql), whose next_id() shares its state through a sequence",
        );
    }
    let generator = find_generator(preset, layout, worker);
    *session = Some(Resolved {
        settings: SETTINGS.map(|s| Box::from(text(s))),
        generator,
    });
    generator
}

/// The shared generator of a layout and worker ID, set up at its first use.
fn find_generator(preset: Preset, layout: Layout, worker: u64) -> &'static Generator {
    let shared = SHARED.get();
    let fits = |g: &Generator| {
        g.preset == preset as u8 && g.epoch_ms == layout.epoch_ms() && g.worker_id == worker
    };
    if let Some(g) = shared.slots.iter().filter_map(Slot::get).find(|g| fits(g)) {
        return g;
    }
    let locked = SLOW.exclusive();
    // Again under the lock: another session may have set it up meanwhile.
    if let Some(g) = shared.slots.iter().filter_map(Slot::get).find(|g| fits(g)) {
        return g;
    }
    let Some(slot) = shared.slots.iter().find(|s| s.get().is_none()) else {
        raise(
            "ERR_INVALID_OPTION",
            format!("this server mints for at most {SLOTS} layouts and worker IDs at once"),
        )
    };
    let floor = stored(shared.bound.read_floor(&locked));
    let mut snowflake = ok(AtomicSnowflake::new(layout, worker, WallClock));
    if floor > 0 {
        snowflake = ok(snowflake.resume_after(floor - 1));
    }
    slot.set(
        &locked,
        Generator {
            preset: preset as u8,
            epoch_ms: layout.epoch_ms(),
            worker_id: worker,
            snowflake,
        },
    )
}

/// The Snowflake of snowmint.worker_id at `ts` with `seq` (JS: `new Snowflake(o).at(time, { sequence })`).
#[pg_extern(stable, parallel_safe)]
fn next_id_at(ts: TimestampWithTimeZone, seq: default!(i32, 0)) -> i64 {
    let (_, layout) = layout(None);
    let worker = worker_id(&layout);
    let max = layout.max_sequence();
    if seq < 0 {
        raise(
            "ERR_INVALID_ARG_VALUE",
            format!("sequence {seq} is out of range: this layout allows 0 to {max}"),
        );
    }
    bigint(ok(layout.id_at(ms_of(ts), worker, seq as u64)))
}
