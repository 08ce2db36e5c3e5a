//! Snowflake generators, the process-wide default generator and test
//! clocks: the handles of backend.d.ts.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, RwLock};

use napi::Either;
use napi::bindgen_prelude::{BigUint64ArraySlice, Float64ArraySlice, Null};
use napi_derive::napi;
use snowmint::Error as CoreError;
use snowmint::binding::Report;
use snowmint::clock::{Clock, ClockChoice, ManualClock};
use snowmint::snowflake::{
    AtomicSnowflake, CustomLayout, FieldOrder, Layout, OnBackwards, OnExhausted, Preset, Run, Spec,
};

use crate::{Result, core_err, expiry, report_expiry};

/// A generator's clock; a test clock is shared with its JS TestClock.
type Generator = AtomicSnowflake<ClockChoice<Arc<ManualClock>>>;

#[napi(object, object_to_js = false)]
pub struct LayoutSpec {
    pub time_bits: u32,
    pub worker_bits: u32,
    pub sequence_bits: u32,
    pub unit_ms: u32,
    pub order: String,
}

#[napi(object, object_to_js = false)]
pub struct SnowflakeSpec {
    pub worker_id: f64,
    /// The worker ID as a preset's named parts `[high, low]` (Twitter's
    /// datacenter and worker); replaces `worker_id` (core `Spec::worker_id`).
    pub worker_parts: Option<Vec<f64>>,
    pub preset: String,
    pub layout: Option<LayoutSpec>,
    pub epoch: Option<f64>,
    pub clock: String,
    pub on_backwards: String,
    pub max_backwards_ms: f64,
    pub on_exhausted: String,
    pub max_borrow_ticks: u32,
    /// Unix ms a worker-ID lease recorded for this worker ID: the first ID
    /// falls in a later tick (core `resume_after`).
    pub resume_after_ms: Option<f64>,
}

#[napi(object, object_from_js = false)]
pub struct WorkerSplit {
    pub high: String,
    pub low: String,
    pub low_bits: u32,
}

#[napi(object, object_from_js = false)]
pub struct LayoutInfo {
    pub time_bits: u32,
    pub worker_bits: u32,
    pub sequence_bits: u32,
    pub unit_ms: u32,
    pub epoch: f64,
    #[napi(ts_type = "Contract.LayoutInfo['order']")]
    pub order: String,
    pub split: Either<WorkerSplit, Null>,
}

/// The core's `Spec` of a JS spec (names looked up by the core).
pub(crate) fn spec_of(spec: &SnowflakeSpec) -> std::result::Result<Spec, CoreError> {
    let custom = match &spec.layout {
        Some(l) => Some(CustomLayout {
            // api.js bounds every width to 0..=63, so `as u8` keeps the value.
            time_bits: l.time_bits as u8,
            worker_bits: l.worker_bits as u8,
            sequence_bits: l.sequence_bits as u8,
            unit_ms: l.unit_ms,
            order: FieldOrder::from_name(&l.order)?,
        }),
        None => None,
    };
    Ok(Spec {
        worker_id: spec.worker_id as u64,
        worker_parts: spec
            .worker_parts
            .as_deref()
            .map(|p| (p[0] as u64, p[1] as u64)),
        preset: Preset::from_name(&spec.preset)?,
        custom,
        epoch_ms: spec.epoch.map(|ms| ms as u64),
        on_backwards: OnBackwards::from_name(&spec.on_backwards, spec.max_backwards_ms as u64)?,
        on_exhausted: OnExhausted::from_name(&spec.on_exhausted, spec.max_borrow_ticks)?,
        resume_after_ms: spec.resume_after_ms.map(|ms| ms as u64),
    })
}

/// The generator a JS spec describes.
fn build(spec: &SnowflakeSpec, clock: Option<&TestClock>) -> Result<Generator> {
    let clock = clock_of(spec, clock).map_err(core_err)?;
    spec_of(spec).and_then(|s| s.build(clock)).map_err(core_err)
}

/// The generator's clock of a JS spec.
fn clock_of(
    spec: &SnowflakeSpec,
    clock: Option<&TestClock>,
) -> std::result::Result<ClockChoice<Arc<ManualClock>>, CoreError> {
    ClockChoice::from_name(&spec.clock, clock.map(|c| c.inner.clone()))
}

fn layout_info(l: &Layout) -> LayoutInfo {
    LayoutInfo {
        time_bits: l.time_bits().into(),
        worker_bits: l.worker_bits().into(),
        sequence_bits: l.sequence_bits().into(),
        unit_ms: l.unit_ms(),
        epoch: l.epoch_ms() as f64,
        order: l.order().name().into(),
        split: match l.split() {
            Some(s) => Either::A(WorkerSplit {
                high: s.high.into(),
                low: s.low.into(),
                low_bits: s.low_bits.into(),
            }),
            None => Either::B(Null),
        },
    }
}

/// The process-wide default generator: one per process, not per JS thread.
pub(crate) static DEFAULT: RwLock<Option<Generator>> = RwLock::new(None);

/// How many times the default generator was installed or replaced (changed
/// under `DEFAULT`'s write lock): every run reports it, so each JS thread
/// sees a configure() of another thread before it hands out or decodes
/// with the old layout.
pub(crate) static GENERATION: AtomicU32 = AtomicU32::new(0);

/// A Snowflake generator of its own, or (`None`) the process-wide default.
#[napi]
pub struct SnowflakeHandle {
    own: Option<Arc<Generator>>,
}

impl SnowflakeHandle {
    /// Runs `f` on the generator and its generation (0 for one of its own);
    /// for the default, under the read lock so that configure() sees every
    /// claim of the generator it replaces.
    fn with<T>(&self, f: impl FnOnce(&Generator, u32) -> Result<T>) -> Result<T> {
        match &self.own {
            Some(g) => f(g, 0),
            None => match DEFAULT.read().unwrap_or_else(|e| e.into_inner()).as_ref() {
                Some(g) => f(g, GENERATION.load(Ordering::Acquire)),
                None => Err(napi::Error::new(
                    "ERR_INTERNAL",
                    "the default generator is not initialized".to_string(),
                )),
            },
        }
    }
}

/// Writes what a run reports into `timing` (`snowmint::binding::Report`).
fn report(timing: &mut [f64], run: &Run, high_water_ms: Option<u64>, generation: u32) {
    for (t, v) in timing
        .iter_mut()
        .zip(Report::of_run(run, high_water_ms, generation))
    {
        *t = v;
    }
}

#[napi]
impl SnowflakeHandle {
    /// One claim (at most one tick, at most `max` IDs) into `out`, waiting
    /// where the generator must unless `wait` is false; see backend.d.ts.
    #[napi(catch_unwind)]
    pub fn fill(
        &self,
        mut out: BigUint64ArraySlice<'_>,
        max: u32,
        mut timing: Float64ArraySlice<'_>,
        wait: bool,
        expiry_slot: Option<u32>,
    ) -> Result<u32> {
        // SAFETY: the JS thread is blocked in this call; api.js does not share these arrays.
        let (out, timing) = unsafe { (out.as_mut(), timing.as_mut()) };
        let len = out.len().min(max as usize);
        // Before the claim: the clock reading its deadline counts from.
        let claim = expiry_slot.and_then(expiry::begin);
        self.with(|g, generation| {
            let run = g.claim_into(&mut out[..len], wait).map_err(core_err)?;
            report(timing, &run, Some(run.high_water_ms), generation);
            let expires = match claim {
                Some(c) if run.count > 0 => {
                    expiry::set(c, run.fresh_ms + f64::from(g.layout().unit_ms()))
                }
                _ => false,
            };
            report_expiry(timing, expires);
            Ok(run.count as u32)
        })
    }

    /// Fills all of `out`, over as many ticks as needed; `timing` as in `fill`
    /// (no freshness: 0).
    #[napi(catch_unwind)]
    pub fn fill_all(
        &self,
        mut out: BigUint64ArraySlice<'_>,
        mut timing: Float64ArraySlice<'_>,
    ) -> Result<()> {
        // SAFETY: as in `fill`.
        let (out, timing) = unsafe { (out.as_mut(), timing.as_mut()) };
        self.with(|g, generation| {
            g.next_batch(out).map_err(core_err)?;
            report(timing, &Run::default(), g.high_water_ms(), generation);
            Ok(())
        })
    }

    #[napi(catch_unwind)]
    pub fn layout(&self) -> Result<LayoutInfo> {
        self.with(|g, _| Ok(layout_info(g.layout())))
    }

    #[napi(catch_unwind)]
    pub fn generation(&self) -> Result<u32> {
        self.with(|_, generation| Ok(generation))
    }

    #[napi(catch_unwind)]
    pub fn worker_id(&self) -> Result<f64> {
        self.with(|g, _| Ok(g.worker_id() as f64))
    }

    #[napi(
        catch_unwind,
        ts_return_type = "ReturnType<Contract.SnowflakeHandle['clockKind']>"
    )]
    pub fn clock_kind(&self) -> Result<&'static str> {
        self.with(|g, _| Ok(g.clock().name()))
    }

    #[napi(catch_unwind)]
    pub fn high_water_ms(&self) -> Result<Option<f64>> {
        self.with(|g, _| Ok(g.high_water_ms().map(|ms| ms as f64)))
    }
}

/// The core's ManualClock, shared with the generators that read it.
#[napi]
pub struct TestClock {
    inner: Arc<ManualClock>,
}

#[napi]
impl TestClock {
    #[napi]
    pub fn now(&self) -> f64 {
        self.inner.now_ms() as f64
    }
    #[napi]
    pub fn set(&self, ms: f64) {
        self.inner.set(ms as u64);
    }
    #[napi]
    pub fn advance(&self, ms: f64) {
        self.inner.advance(ms as u64);
    }
    #[napi]
    pub fn step_back(&self, ms: f64) {
        self.inner.step_back(ms as u64);
    }
}

#[napi]
pub fn test_clock_new(ms: f64) -> TestClock {
    TestClock {
        inner: Arc::new(ManualClock::new(ms as u64)),
    }
}

#[napi(catch_unwind)]
pub fn layout_of(spec: SnowflakeSpec) -> Result<LayoutInfo> {
    let layout = spec_of(&spec).and_then(|s| s.layout());
    Ok(layout_info(&layout.map_err(core_err)?))
}

#[napi(catch_unwind)]
pub fn snowflake_new(spec: SnowflakeSpec, clock: Option<&TestClock>) -> Result<SnowflakeHandle> {
    Ok(SnowflakeHandle {
        own: Some(Arc::new(build(&spec, clock)?)),
    })
}

/// Installs the default generator unless one is installed; true if this call did.
#[napi(catch_unwind)]
pub fn default_init(spec: SnowflakeSpec, clock: Option<&TestClock>) -> Result<bool> {
    let mut default = DEFAULT.write().unwrap_or_else(|e| e.into_inner());
    if default.is_some() {
        return Ok(false);
    }
    *default = Some(build(&spec, clock)?);
    GENERATION.fetch_add(1, Ordering::Release);
    Ok(true)
}

/// Replaces the default generator; the new one mints after the old one's last tick.
#[napi(catch_unwind)]
pub fn default_configure(spec: SnowflakeSpec, clock: Option<&TestClock>) -> Result<()> {
    let (spec, clock) = (
        spec_of(&spec).map_err(core_err)?,
        clock_of(&spec, clock).map_err(core_err)?,
    );
    let mut default = DEFAULT.write().unwrap_or_else(|e| e.into_inner());
    *default = Some(
        spec.build_after(clock, default.as_ref())
            .map_err(core_err)?,
    );
    GENERATION.fetch_add(1, Ordering::Release);
    Ok(())
}

#[napi]
pub fn default_handle() -> Option<SnowflakeHandle> {
    let installed = DEFAULT.read().unwrap_or_else(|e| e.into_inner()).is_some();
    installed.then_some(SnowflakeHandle { own: None })
}
