//! Node.js binding of snowmint (napi-rs): the backend that `npm/src/api.js`
//! builds the public API from (interface: `npm/src/backend.d.ts`). It only
//! converts: arguments in, one core call, results out. It also holds the
//! process-wide default Snowflake generator, a static, so every
//! `worker_thread` of the process mints from the same one.
//!
//! Errors carry the core's `Error::code()` as the JS `code` and its Display
//! text as the message; a panic is caught and thrown as an ordinary Error.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, RwLock};

use napi::Either;
use napi::bindgen_prelude::{BigInt, BigUint64ArraySlice, Float64ArraySlice, Null};
use napi_derive::napi;
use snowmint::at::{Pick, TimedKind, new_text_at};
use snowmint::binding::Report;
use snowmint::clock::{Clock, ClockChoice, ManualClock};
use snowmint::snowflake::{
    AtomicSnowflake, CustomLayout, FieldOrder, Layout, OnBackwards, OnExhausted, Preset, Run, Spec,
};
use snowmint::{Error as CoreError, Id, Kind, TextKind};

// Public: the test build registers no napi exports, so private ones would be dead code.
pub mod convert;
pub mod expiry;
pub mod lease;
pub mod sequence;

/// A JS error whose `code` is a stable snowmint code.
type Result<T> = napi::Result<T, &'static str>;

fn core_err(e: impl Into<CoreError>) -> napi::Error<&'static str> {
    let e = e.into();
    napi::Error::new(e.code(), e.to_string())
}

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
    pub order: String,
    pub split: Either<WorkerSplit, Null>,
}

/// The core's `Spec` of a JS spec (names looked up by the core).
fn spec_of(spec: &SnowflakeSpec) -> std::result::Result<Spec, CoreError> {
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
static DEFAULT: RwLock<Option<Generator>> = RwLock::new(None);

/// How many times the default generator was installed or replaced (changed
/// under `DEFAULT`'s write lock): every run reports it, so each JS thread
/// sees a configure() of another thread before it hands out or decodes
/// with the old layout.
static GENERATION: AtomicU32 = AtomicU32::new(0);

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

/// The report's expiry slot: 1 if the run's expiry word is set (the kernel clears it when the run expires), else 0.
fn report_expiry(timing: &mut [f64], expires: bool) {
    if let Some(t) = timing.get_mut(Report::EXPIRY_WORD_SET) {
        *t = f64::from(u8::from(expires));
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
        slot: Option<u32>,
    ) -> Result<u32> {
        // SAFETY: the JS thread is blocked in this call; api.js does not share these arrays.
        let (out, timing) = unsafe { (out.as_mut(), timing.as_mut()) };
        let len = out.len().min(max as usize);
        // Before the claim: the clock reading its deadline counts from.
        let claim = slot.and_then(expiry::begin);
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

    #[napi(catch_unwind)]
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

#[napi]
pub fn constants() -> String {
    snowmint::binding::constants_json()
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
    let mut slot = DEFAULT.write().unwrap_or_else(|e| e.into_inner());
    if slot.is_some() {
        return Ok(false);
    }
    *slot = Some(build(&spec, clock)?);
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
    let mut slot = DEFAULT.write().unwrap_or_else(|e| e.into_inner());
    *slot = Some(spec.build_after(clock, slot.as_ref()).map_err(core_err)?);
    GENERATION.fetch_add(1, Ordering::Release);
    Ok(())
}

#[napi]
pub fn default_handle() -> Option<SnowflakeHandle> {
    let installed = DEFAULT.read().unwrap_or_else(|e| e.into_inner()).is_some();
    installed.then_some(SnowflakeHandle { own: None })
}

/// `count` new IDs' texts concatenated (each kind has a fixed width).
#[napi(catch_unwind)]
pub fn mint_text(
    kind: String,
    count: u32,
    mut timing: Float64ArraySlice<'_>,
    slot: Option<u32>,
) -> Result<String> {
    // SAFETY: as in `SnowflakeHandle::fill`.
    let timing = unsafe { timing.as_mut() };
    let mut out = String::new();
    let claim = slot.and_then(expiry::begin);
    let fresh = TextKind::from_name(&kind)
        .and_then(|kind| snowmint::mint_texts_fresh(kind, count as usize, &mut out))
        .map_err(core_err)?;
    if let Some(t) = timing.get_mut(Report::FRESH_MS) {
        *t = fresh;
    }
    // Texts carry milliseconds: fresh for `fresh` ms and one more.
    report_expiry(timing, claim.is_some_and(|c| expiry::set(c, fresh + 1.0)));
    Ok(out)
}

#[napi(catch_unwind)]
pub fn typeid(prefix: String) -> Result<String> {
    Ok(snowmint::new_typeid(&prefix)
        .map_err(core_err)?
        .to_text()
        .to_string())
}

/// A parsed ID's fields (see `RawDecoded` in backend.d.ts).
#[napi(object, object_from_js = false)]
pub struct RawDecoded {
    pub kind: String,
    pub value: Option<BigInt>,
    pub timestamp: Option<f64>,
    pub hex: Option<String>,
    pub uuid: Option<String>,
    pub version: Option<u32>,
    pub variant: Option<String>,
    pub clock_seq: Option<u32>,
    pub node: Option<String>,
    pub counter: Option<u32>,
    pub prefix: Option<String>,
}

fn parse(text: &str, kind: Option<Kind>) -> Result<Id> {
    Id::parse(text, kind).map_err(core_err)
}

fn kind_arg(kind: Option<String>) -> Result<Option<Kind>> {
    kind.map(|k| Kind::from_name(&k))
        .transpose()
        .map_err(core_err)
}

#[napi(catch_unwind)]
pub fn decode_text(text: String, kind: Option<String>) -> Result<RawDecoded> {
    let id = parse(&text, kind_arg(kind)?)?;
    let f = id.fields();
    Ok(RawDecoded {
        kind: id.kind().name().into(),
        value: f.snowflake.map(BigInt::from),
        timestamp: f.timestamp_ms.map(|ms| ms as f64),
        hex: f.hex.map(|h| h.to_string()),
        uuid: f.uuid.map(|u| u.to_text().to_string()),
        version: f.version.map(u32::from),
        variant: f.variant.map(|v| v.name().into()),
        clock_seq: f.clock_seq.map(u32::from),
        node: f.node.map(|n| n.to_string()),
        counter: f.counter,
        prefix: f.prefix.map(str::to_string),
    })
}

#[napi(catch_unwind)]
pub fn ulid_to_uuid(text: String) -> Result<String> {
    let u = snowmint::ulid::Ulid::parse(&text).map_err(core_err)?;
    Ok(u.to_uuid().to_text().to_string())
}

#[napi(catch_unwind)]
pub fn uuid_to_ulid(text: String) -> Result<String> {
    let u = snowmint::uuid::Uuid::parse(&text).map_err(core_err)?;
    Ok(snowmint::ulid::Ulid::from_uuid(u).to_text().to_string())
}

#[napi(catch_unwind)]
pub fn to_human(text: String, groups: Option<f64>) -> Result<String> {
    let groups = groups
        .map(snowmint::binding::human_groups)
        .transpose()
        .map_err(core_err)?;
    Ok(parse(&text, None)?
        .to_human(groups)
        .map_err(core_err)?
        .to_string())
}

#[napi(catch_unwind)]
pub fn from_human(text: String) -> Result<Either<BigInt, String>> {
    Ok(match parse(&text, Some(Kind::Human))? {
        Id::Snowflake(v) => Either::A(BigInt::from(v)),
        Id::Ulid(u) => Either::B(u.to_text().to_string()),
        other => {
            return Err(napi::Error::new(
                "ERR_INTERNAL",
                format!("the human form read back as a {}", other.kind()),
            ));
        }
    })
}

// --- IDs at a given time, range bounds, comparison (core `at`, `Id::compare`)

/// A JS `bound` (`undefined`: an ID of the time; false: the smallest; true: the largest).
fn pick(bound: Option<bool>) -> Pick {
    match bound {
        None => Pick::Any,
        Some(false) => Pick::Min,
        Some(true) => Pick::Max,
    }
}

/// An ID of a timed kind at Unix ms `ms` (fresh random bits), or the
/// smallest or largest of that time; `prefix` for a TypeID.
#[napi(catch_unwind)]
pub fn text_at(
    kind: String,
    ms: f64,
    bound: Option<bool>,
    prefix: Option<String>,
) -> Result<String> {
    let kind = TimedKind::from_name(&kind).map_err(core_err)?;
    let text = new_text_at(
        kind,
        ms as u64,
        pick(bound),
        prefix.as_deref().unwrap_or(""),
    );
    Ok(text.map_err(core_err)?.to_string())
}

/// The Snowflake of a spec at Unix ms `ms` with `sequence`, or the
/// smallest or largest of the tick.
#[napi(catch_unwind)]
pub fn snowflake_at(
    spec: SnowflakeSpec,
    ms: f64,
    bound: Option<bool>,
    sequence: f64,
) -> Result<BigInt> {
    let id = spec_of(&spec).and_then(|s| s.id_at(ms as u64, pick(bound), sequence as u64));
    Ok(BigInt::from(id.map_err(core_err)?))
}

/// A decimal Snowflake that fits a layout `bits` (63 or 64) wide.
#[napi(catch_unwind)]
pub fn snowflake_check(text: String, bits: u32) -> Result<BigInt> {
    let value = snowmint::snowflake::parse_decimal_of_width(&text, bits.min(64) as u8);
    Ok(BigInt::from(value.map_err(core_err)?))
}

/// -1, 0 or 1: how ID text `a` sorts against `b` (same kind).
#[napi(catch_unwind)]
pub fn compare_ids(a: String, b: String) -> Result<i32> {
    Ok(Id::compare_texts(&a, &b).map_err(core_err)?.into())
}
