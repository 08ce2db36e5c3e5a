//! Snowflake generators, the default generator and test clocks, for the
//! browser entry's `configure()`, `nextId()`, `Snowflake` and `TestClock`
//! (`npm/src/web/snowflake.js` reads these exports): the handles of
//! `npm/src/backend.d.ts` as numbers into one table, a spec as the core's
//! numbers (`snowmint::binding::SpecSlot`) in [`spec`], and what a call
//! gives back in [`info`], [`ids`] and [`out`](crate::out). Errors cross as the
//! core's numbered errors, as the texts' do.

use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::{Cell, RefCell};

use snowmint::Error;
use snowmint::at::Pick;
use snowmint::binding::{LayoutSlot, MAX_ID_RUN, NAME_LISTS, Report, SpecSlot, spec_of_numbers};
use snowmint::clock::{Clock, ClockChoice, ManualClock};
use snowmint::snowflake::{AtomicSnowflake, Layout, Run, Spec, parse_decimal_of_width};

use crate::clock::{CLOCK, Wall, perf_now};
use crate::{OUT, One, failed, internal};

/// A generator's clock: the page's monotonic clock, `Date.now()`, or a
/// test clock shared with its JS `TestClock`.
struct Clocks(ClockChoice<Rc<ManualClock>>);

impl Clock for Clocks {
    fn now_ms(&self) -> u64 {
        match &self.0 {
            ClockChoice::Monotonic => CLOCK.now_ms(),
            ClockChoice::System => Wall.now_ms(),
            ClockChoice::Manual(c) => c.now_ms(),
        }
    }

    /// A test clock moves only when the page's one thread tells it to,
    /// and that thread is inside the call: a wait could never end.
    fn can_wait(&self) -> bool {
        !matches!(self.0, ClockChoice::Manual(_))
    }
}

type Generator = AtomicSnowflake<Clocks>;

/// What a handle (an index into [`HANDLES`]) stands for.
enum Handle {
    Free,
    Generator(Generator),
    Clock(Rc<ManualClock>),
}

/// The handles JS holds; 0 stands for the default generator.
static HANDLES: One<RefCell<Vec<Handle>>> = One(RefCell::new(Vec::new()));
/// The default generator, once installed, and how many times it was
/// installed or replaced (its runs report it; a run of an older one is dropped).
static DEFAULT: One<RefCell<Option<Generator>>> = One(RefCell::new(None));
static GENERATION: One<Cell<u32>> = One(Cell::new(0));

/// A spec's numbers, written by JS before a call that takes one.
static SPEC: One<Cell<[f64; SpecSlot::LEN]>> = One(Cell::new([0.0; SpecSlot::LEN]));
/// What a call gives back besides IDs: a layout ([`write_layout`]) or a
/// run's report (`snowmint::binding::Report`), whichever is longer.
const INFO_LEN: usize = if LayoutSlot::LEN > Report::LEN {
    LayoutSlot::LEN
} else {
    Report::LEN
};
static INFO: One<Cell<[f64; INFO_LEN]>> = One(Cell::new([0.0; INFO_LEN]));

/// Where JS writes a spec's numbers.
#[unsafe(no_mangle)]
pub extern "C" fn spec() -> *mut f64 {
    SPEC.0.as_ptr().cast()
}

/// Where a layout or a report is.
#[unsafe(no_mangle)]
pub extern "C" fn info() -> *const f64 {
    INFO.0.as_ptr().cast()
}

/// The generator or test clock at `handle`, by `f`; [`internal`] for a
/// handle that stands for nothing (never given out by this module).
fn with<T>(handle: f64, f: impl FnOnce(&Handle, &Option<Generator>) -> T) -> T {
    let handles = HANDLES.0.borrow();
    f(
        handles.get(handle as usize).unwrap_or(&Handle::Free),
        &DEFAULT.0.borrow(),
    )
}

/// The generator at `handle` (0: the default one) by `f`, else `-1`.
fn generator(handle: f64, f: impl FnOnce(&Generator, bool) -> f64) -> f64 {
    with(handle, |h, default| match (handle, h, default) {
        (0.0, _, Some(g)) => f(g, true),
        (_, Handle::Generator(g), _) if handle != 0.0 => f(g, false),
        _ => internal(),
    })
}

/// A new handle to `h`, in the first free place.
fn keep(h: Handle) -> f64 {
    let mut handles = HANDLES.0.borrow_mut();
    if handles.is_empty() {
        handles.push(Handle::Free);
    }
    let at = handles
        .iter()
        .skip(1)
        .position(|h| matches!(h, Handle::Free));
    match at {
        Some(i) => {
            handles[i + 1] = h;
            (i + 1) as f64
        }
        None => {
            handles.push(h);
            (handles.len() - 1) as f64
        }
    }
}

/// Lets a handle go (its JS object was collected).
#[unsafe(no_mangle)]
pub extern "C" fn free(handle: f64) {
    if let Some(h) = HANDLES.0.borrow_mut().get_mut(handle as usize) {
        *h = Handle::Free;
    }
}

/// The spec in [`SPEC`] and the clock it names (`clock`: a test clock's handle).
fn spec_and_clock(clock: f64) -> Result<(Spec, Clocks), Error> {
    let numbers = SPEC.0.get();
    let manual = with(clock, |h, _| match h {
        Handle::Clock(c) => Some(c.clone()),
        _ => None,
    });
    let choice = ClockChoice::from_index(numbers[SpecSlot::CLOCK], manual)?;
    Ok((spec_of_numbers(&numbers)?, Clocks(choice)))
}

/// Writes a layout into [`INFO`] (`snowmint::binding::LayoutSlot`) and its
/// split's names into [`OUT`] (high, then low).
fn write_layout(l: &Layout) -> f64 {
    let (slots, [high, low]) = LayoutSlot::of(l);
    let mut out = OUT.0.borrow_mut();
    out[..high.len()].copy_from_slice(high.as_bytes());
    out[high.len()..high.len() + low.len()].copy_from_slice(low.as_bytes());
    let mut info = [0.0; INFO_LEN];
    info[..LayoutSlot::LEN].copy_from_slice(&slots);
    INFO.0.set(info);
    0.0
}

/// Validates and describes the layout of the spec in [`SPEC`]: 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn layout_of() -> f64 {
    match spec_of_numbers(&SPEC.0.get()).and_then(|s| s.layout()) {
        Ok(l) => write_layout(&l),
        Err(e) => failed(e),
    }
}

/// A generator of its own for the spec in [`SPEC`] on clock `clock`
/// (a test clock's handle, or 0): its handle, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn snowflake_new(clock: f64) -> f64 {
    match spec_and_clock(clock).and_then(|(spec, clock)| spec.build(clock)) {
        Ok(g) => keep(Handle::Generator(g)),
        Err(e) => failed(e),
    }
}

/// Installs the default generator unless one is: 1 if this call did, 0
/// if one was installed, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn default_init(clock: f64) -> f64 {
    if DEFAULT.0.borrow().is_some() {
        return 0.0;
    }
    match spec_and_clock(clock).and_then(|(spec, clock)| spec.build(clock)) {
        Ok(g) => {
            *DEFAULT.0.borrow_mut() = Some(g);
            GENERATION.0.set(GENERATION.0.get() + 1);
            1.0
        }
        Err(e) => failed(e),
    }
}

/// Replaces the default generator (the new one resumes after the last
/// tick of the old one): 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn default_configure(clock: f64) -> f64 {
    let next = spec_and_clock(clock)
        .and_then(|(spec, clock)| spec.build_after(clock, DEFAULT.0.borrow().as_ref()));
    match next {
        Ok(g) => {
            *DEFAULT.0.borrow_mut() = Some(g);
            GENERATION.0.set(GENERATION.0.get() + 1);
            0.0
        }
        Err(e) => failed(e),
    }
}

/// How many times the default generator was installed or replaced (0:
/// never, so there is none).
#[unsafe(no_mangle)]
pub extern "C" fn generation() -> f64 {
    GENERATION.0.get().into()
}

/// Writes a run's report into [`INFO`] (`snowmint::binding::Report`).
fn report(run: &Run, high_water_ms: Option<u64>, default: bool) {
    let mut info = [0.0; INFO_LEN];
    let generation = if default { GENERATION.0.get() } else { 0 };
    info[..4].copy_from_slice(&Report::of_run(run, high_water_ms, generation));
    INFO.0.set(info);
}

/// The most IDs a call gives back: one Twitter tick.
const MAX_IDS: usize = MAX_ID_RUN as usize;

/// The IDs a call gave back.
static IDS: One<RefCell<[u64; MAX_IDS]>> = One(RefCell::new([0; MAX_IDS]));

/// Where the IDs are: `MAX_ID_RUN` u64s.
#[unsafe(no_mangle)]
pub extern "C" fn ids() -> *const u64 {
    IDS.0.as_ptr().cast()
}

/// One claim of generator `handle` (at most one tick, at most `max` IDs)
/// into [`OUT`], waiting where it must unless `wait` is 0; the report in
/// [`INFO`]. Returns how many, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn fill(handle: f64, max: f64, wait: f64) -> f64 {
    generator(handle, |g, default| {
        let mut ids = IDS.0.borrow_mut();
        let ids = &mut ids[..(max as usize).min(MAX_IDS)];
        // SAFETY (both): an import of plain numbers.
        let start = unsafe { perf_now() };
        match g.claim_into_timed(ids, wait != 0.0, || unsafe { perf_now() } - start) {
            Ok(run) => {
                report(&run, Some(run.high_water_ms), default);
                run.count as f64
            }
            Err(e) => failed(e),
        }
    })
}

/// `count` (at most `MAX_ID_RUN`) increasing IDs of generator `handle`
/// into [`IDS`], waiting for ticks as needed; the report in [`INFO`].
/// Returns 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn fill_all(handle: f64, count: f64) -> f64 {
    generator(handle, |g, default| {
        let mut ids = IDS.0.borrow_mut();
        match g.next_batch(&mut ids[..(count as usize).min(MAX_IDS)]) {
            Ok(()) => {
                report(&Run::default(), g.high_water_ms(), default);
                0.0
            }
            Err(e) => failed(e),
        }
    })
}

/// The layout of generator `handle`, as [`layout_of`] gives one.
#[unsafe(no_mangle)]
pub extern "C" fn snowflake_layout(handle: f64) -> f64 {
    generator(handle, |g, _| write_layout(g.layout()))
}

/// The worker ID of generator `handle`.
#[unsafe(no_mangle)]
pub extern "C" fn worker_id(handle: f64) -> f64 {
    generator(handle, |g, _| g.worker_id() as f64)
}

/// The index of the clock of generator `handle` in the core's clock names.
#[unsafe(no_mangle)]
pub extern "C" fn clock_kind(handle: f64) -> f64 {
    generator(handle, |g, _| match g.clock().0 {
        ClockChoice::Monotonic => 0.0,
        ClockChoice::System => 1.0,
        ClockChoice::Manual(_) => 2.0,
    })
}

/// Start (Unix ms) of the last tick generator `handle` minted in, or NaN.
#[unsafe(no_mangle)]
pub extern "C" fn high_water_ms(handle: f64) -> f64 {
    generator(handle, |g, _| {
        g.high_water_ms().map_or(f64::NAN, |ms| ms as f64)
    })
}

/// The ID of the spec in [`SPEC`] at Unix ms `ms` with `sequence`, or
/// (`bound` 0 or 1) the smallest or largest of that time, into [`IDS`]:
/// 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn snowflake_at(ms: f64, bound: f64, sequence: f64) -> f64 {
    let pick = match bound as i8 {
        0 => Pick::Min,
        1 => Pick::Max,
        _ => Pick::Any,
    };
    let spec = spec_of_numbers(&SPEC.0.get());
    match spec.and_then(|s| s.id_at(ms as u64, pick, sequence as u64)) {
        Ok(id) => {
            IDS.0.borrow_mut()[0] = id;
            0.0
        }
        Err(e) => failed(e),
    }
}

/// The decimal Snowflake of the `len` bytes of text in [`OUT`], of a
/// layout `bits` wide (63 or 64), into [`IDS`]: 0, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn parse_snowflake(len: f64, bits: f64) -> f64 {
    let parsed = {
        let out = OUT.0.borrow();
        let text = out.get(..len as usize).unwrap_or_default();
        // UTF-8 from JS's TextEncoder; a bad sequence is a non-ASCII character to the parser.
        match core::str::from_utf8(text) {
            Ok(text) => parse_decimal_of_width(text, (bits as u8).min(64)),
            Err(_) => return internal(),
        }
    };
    match parsed {
        Ok(id) => {
            IDS.0.borrow_mut()[0] = id;
            0.0
        }
        Err(e) => failed(e.into()),
    }
}

/// A test clock reading `ms`: its handle.
#[unsafe(no_mangle)]
pub extern "C" fn clock_new(ms: f64) -> f64 {
    keep(Handle::Clock(Rc::new(ManualClock::new(ms as u64))))
}

/// What test clock `handle` reads after `f` moved it (NaN: no such clock).
fn clock(handle: f64, f: impl FnOnce(&ManualClock)) -> f64 {
    with(handle, |h, _| match h {
        Handle::Clock(c) => {
            f(c);
            c.now_ms() as f64
        }
        _ => f64::NAN,
    })
}

/// Test clock `handle` set to `ms` (`how` 0), moved forward (1) or back
/// (2) by `ms`, or only read (any other `how`): what it reads then.
#[unsafe(no_mangle)]
pub extern "C" fn clock_move(handle: f64, how: f64, ms: f64) -> f64 {
    let ms = ms as u64;
    clock(handle, |c| match how as u8 {
        0 => c.set(ms),
        1 => c.advance(ms),
        2 => c.step_back(ms),
        _ => {}
    })
}

/// The index of the `len` bytes of name in [`OUT`] in the core's name list
/// at `list` (`snowmint::binding::NAME_LISTS`), or -1 ([`unknown_name`]).
#[unsafe(no_mangle)]
pub extern "C" fn name_index(list: f64, len: f64) -> f64 {
    let Some((key, _, _)) = NAME_LISTS.get(list as usize) else {
        return internal();
    };
    let found = {
        let out = OUT.0.borrow();
        let bytes = out.get(..len as usize).unwrap_or_default();
        match core::str::from_utf8(bytes) {
            Ok(name) => snowmint::binding::name_index(key, name),
            Err(_) => return internal(),
        }
    };
    match found {
        Ok(i) => i.into(),
        Err(e) => failed(e),
    }
}

/// `-1` for an unknown name, numbered after the numbered errors by its list
/// (`Error::NUMBERED + list`): the name given, as the core shows it, in
/// [`OUT`] with its length as the first number, and 1 as the second (0 for
/// none given: an index that names nothing). `None` for any other error.
pub(crate) fn unknown_name(e: &Error) -> Option<f64> {
    let Error::UnknownName { given, allowed, .. } = e else {
        return None;
    };
    let list = NAME_LISTS
        .iter()
        .position(|(_, _, names)| *names == *allowed)?;
    let mut at = 0;
    if let Some(given) = given {
        let mut out = OUT.0.borrow_mut();
        for part in given.shown() {
            out[at..at + part.len()].copy_from_slice(part.as_bytes());
            at += part.len();
        }
    }
    let named = if given.is_some() { 1.0 } else { 0.0 };
    crate::NUMBERS
        .0
        .set([(Error::NUMBERED as usize + list) as f64, at as f64, named]);
    Some(-1.0)
}
