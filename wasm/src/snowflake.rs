//! Snowflake generators, the default generator and test clocks: the
//! handles of backend.d.ts.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{BigUint64Array, Float64Array, Object};
use snowmint::binding::{Report, SpecSlot, spec_of_numbers};
use snowmint::clock::{Clock, ClockChoice, ManualClock};
use snowmint::snowflake::{AtomicSnowflake, Layout, Run, Spec};
use wasm_bindgen::prelude::*;

use crate::{core_error, js_error, set};

/// A generator's clock; a test clock is shared with its JS TestClock.
type Clocks = ClockChoice<Rc<ManualClock>>;

/// The core's `Spec` of a spec's numbers (`snowmint::binding::SpecSlot`,
/// filled by `specArgs` in wasm-backend.js).
pub(crate) fn spec_of(args: &[f64]) -> Result<Spec, JsValue> {
    let numbers: &[f64; SpecSlot::LEN] = args
        .try_into()
        .map_err(|_| js_error("ERR_INTERNAL", "a Snowflake spec has 17 numbers"))?;
    spec_of_numbers(numbers).map_err(core_error)
}

type Generator = AtomicSnowflake<Clocks>;

/// `layoutOf(spec)`: validates and describes a layout.
#[wasm_bindgen(js_name = layoutOf, unchecked_return_type = "LayoutInfo")]
pub fn layout_of(spec: &[f64]) -> Result<Object, JsValue> {
    let layout = spec_of(spec)?.layout().map_err(core_error)?;
    Ok(layout_info(&layout))
}

fn layout_info(l: &Layout) -> Object {
    let info = Object::new();
    set(&info, "timeBits", l.time_bits());
    set(&info, "workerBits", l.worker_bits());
    set(&info, "sequenceBits", l.sequence_bits());
    set(&info, "unitMs", l.unit_ms());
    set(&info, "epoch", l.epoch_ms() as f64);
    set(&info, "order", l.order().name());
    let split = l.split().map_or(JsValue::NULL, |s| {
        let split = Object::new();
        set(&split, "high", s.high);
        set(&split, "low", s.low);
        set(&split, "lowBits", s.low_bits);
        split.into()
    });
    set(&info, "split", split);
    info
}

/// The spec and the clock of a generator (`clock` for a test clock).
fn parts(spec: &[f64], clock: Option<TestClock>) -> Result<(Spec, Clocks), JsValue> {
    let clock = ClockChoice::from_index(
        spec.get(SpecSlot::CLOCK).copied().unwrap_or(f64::NAN),
        clock.map(|c| c.clock),
    );
    Ok((spec_of(spec)?, clock.map_err(core_error)?))
}

fn generator(spec: &[f64], clock: Option<TestClock>) -> Result<Generator, JsValue> {
    let (spec, clock) = parts(spec, clock)?;
    spec.build(clock).map_err(core_error)
}

/// A Snowflake generator: its own, or the default slot (which `configure`
/// refills, so a default handle stays valid).
#[wasm_bindgen]
pub struct SnowflakeHandle {
    slot: Rc<RefCell<Generator>>,
    /// Whether this is the default slot, whose generation runs report.
    default: bool,
}

/// Writes what a run reports into `timing` (`snowmint::binding::Report`).
fn report(timing: &Float64Array, run: &Run, high_water_ms: Option<u64>, default: bool) {
    let values = Report::of_run(run, high_water_ms, generation(default));
    for (slot, v) in (0u32..).zip(values) {
        timing.set_index(slot, v);
    }
}

/// The generation a handle's runs report (0 for a generator of its own).
fn generation(default: bool) -> u32 {
    if default { GENERATION.get() } else { 0 }
}

#[wasm_bindgen]
impl SnowflakeHandle {
    /// One claim (at most one tick, at most `max` IDs) into `out`, waiting
    /// where the generator must unless `wait` is false; see backend.d.ts.
    pub fn fill(
        &self,
        out: &BigUint64Array,
        max: u32,
        timing: &Float64Array,
        wait: bool,
    ) -> Result<u32, JsValue> {
        let mut ids = vec![0; max.min(out.length()) as usize];
        let run = self
            .slot
            .borrow()
            .claim_into(&mut ids, wait)
            .map_err(core_error)?;
        let count = run.count as u32;
        out.subarray(0, count).copy_from(&ids[..count as usize]);
        report(timing, &run, Some(run.high_water_ms), self.default);
        Ok(count)
    }

    /// Fills all of `out` with increasing IDs; `timing` as in `fill`.
    #[wasm_bindgen(js_name = fillAll)]
    pub fn fill_all(&self, out: &BigUint64Array, timing: &Float64Array) -> Result<(), JsValue> {
        let mut ids = vec![0; out.length() as usize];
        let g = self.slot.borrow();
        g.next_batch(&mut ids).map_err(core_error)?;
        out.copy_from(&ids);
        report(timing, &Run::default(), g.high_water_ms(), self.default);
        Ok(())
    }

    /// The generator's layout.
    #[wasm_bindgen(unchecked_return_type = "LayoutInfo")]
    pub fn layout(&self) -> Object {
        layout_info(self.slot.borrow().layout())
    }

    /// The generation its runs report, read now.
    pub fn generation(&self) -> u32 {
        generation(self.default)
    }

    /// The generator's worker ID.
    #[wasm_bindgen(js_name = workerId)]
    pub fn worker_id(&self) -> f64 {
        self.slot.borrow().worker_id() as f64
    }

    /// `'monotonic'`, `'system'` or `'test'`: api.js buffers only monotonic IDs.
    #[wasm_bindgen(js_name = clockKind, unchecked_return_type = "'monotonic' | 'system' | 'test'")]
    pub fn clock_kind(&self) -> String {
        self.slot.borrow().clock().name().into()
    }

    /// Start (Unix ms) of the last tick minted in.
    #[wasm_bindgen(js_name = highWaterMs)]
    pub fn high_water_ms(&self) -> Option<f64> {
        self.slot.borrow().high_water_ms().map(|ms| ms as f64)
    }
}

/// `snowflakeNew(spec, clock)`: a generator of its own.
#[wasm_bindgen(js_name = snowflakeNew)]
pub fn snowflake_new(spec: &[f64], clock: Option<TestClock>) -> Result<SnowflakeHandle, JsValue> {
    let slot = Rc::new(RefCell::new(generator(spec, clock)?));
    Ok(SnowflakeHandle {
        slot,
        default: false,
    })
}

thread_local! {
    /// The default generator of this instance, once installed.
    static DEFAULT: RefCell<Option<Rc<RefCell<Generator>>>> = const { RefCell::new(None) };
    /// How many times it was installed or replaced (see the Node binding's).
    static GENERATION: Cell<u32> = const { Cell::new(0) };
}

/// `defaultInit(spec, clock)`: installs the default generator unless one
/// is installed; returns whether this call did.
#[wasm_bindgen(js_name = defaultInit)]
pub fn default_init(spec: &[f64], clock: Option<TestClock>) -> Result<bool, JsValue> {
    if DEFAULT.with_borrow(Option::is_some) {
        return Ok(false);
    }
    let slot = Rc::new(RefCell::new(generator(spec, clock)?));
    DEFAULT.set(Some(slot));
    GENERATION.set(GENERATION.get() + 1);
    Ok(true)
}

/// `defaultConfigure(spec, clock)`: replaces the default generator; the
/// new one resumes after the last tick of the old one.
#[wasm_bindgen(js_name = defaultConfigure)]
pub fn default_configure(spec: &[f64], clock: Option<TestClock>) -> Result<(), JsValue> {
    let (spec, clock) = parts(spec, clock)?;
    DEFAULT.with_borrow_mut(|slot| {
        let next = match slot {
            Some(slot) => spec.build_after(clock, Some(&slot.borrow())),
            None => spec.build(clock),
        };
        let next = next.map_err(core_error)?;
        match slot {
            Some(slot) => *slot.borrow_mut() = next,
            None => *slot = Some(Rc::new(RefCell::new(next))),
        }
        Ok::<(), JsValue>(())
    })?;
    GENERATION.set(GENERATION.get() + 1);
    Ok(())
}

/// `defaultHandle()`: the default generator, or null before it is installed.
#[wasm_bindgen(js_name = defaultHandle)]
pub fn default_handle() -> Option<SnowflakeHandle> {
    DEFAULT.with_borrow(|slot| {
        slot.clone().map(|slot| SnowflakeHandle {
            slot,
            default: true,
        })
    })
}

/// `TestClock`: the core's `ManualClock`, shared with the generators that
/// read it. wasm-bindgen cannot borrow an optional handle (`Option<&T>`), so
/// the functions above take one by value and JS passes them a `share()`.
#[wasm_bindgen]
pub struct TestClock {
    clock: Rc<ManualClock>,
}

#[wasm_bindgen]
impl TestClock {
    /// Another handle to the same clock, for passing by value.
    pub fn share(&self) -> TestClock {
        TestClock {
            clock: self.clock.clone(),
        }
    }

    /// Unix ms the clock reads.
    pub fn now(&self) -> f64 {
        self.clock.now_ms() as f64
    }

    /// Makes the clock read `ms`.
    pub fn set(&self, ms: f64) {
        self.clock.set(ms as u64);
    }

    /// Moves the clock forward.
    pub fn advance(&self, ms: f64) {
        self.clock.advance(ms as u64);
    }

    /// Moves the clock back.
    #[wasm_bindgen(js_name = stepBack)]
    pub fn step_back(&self, ms: f64) {
        self.clock.step_back(ms as u64);
    }
}

/// `testClockNew(ms)`.
#[wasm_bindgen(js_name = testClockNew)]
pub fn test_clock_new(ms: f64) -> TestClock {
    TestClock {
        clock: Rc::new(ManualClock::new(ms as u64)),
    }
}
