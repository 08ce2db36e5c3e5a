//! The `Float64Array`s JavaScript and the bindings exchange, slot by slot:
//! a Snowflake spec as numbers ([`SpecSlot`]), what a claim reports
//! ([`Report`]) and how the browser's Snowflake module describes a layout
//! ([`LayoutSlot`]). `examples/protocol.rs` writes the same names into the
//! JavaScript that fills or reads them.

use crate::snowflake::{
    CustomLayout, FieldOrder, Layout, OnBackwards, OnExhausted, Preset, Run, Spec,
};

/// A Snowflake spec as numbers, in one `Float64Array` (the wasm binding:
/// one copy, where reading a JS object's fields costs an import per
/// field), names as indexes into the core's lists: the slots by name.
/// [`spec_of_numbers`] reads them; `examples/protocol.rs` writes the JS that
/// fills them (`specArgs` in `npm/src/wasm-backend.js`) in this order.
pub struct SpecSlot;

impl SpecSlot {
    /// The worker ID (when no named parts are given).
    pub const WORKER_ID: usize = 0;
    /// An index into [`Preset::ALL`].
    pub const PRESET: usize = 1;
    /// 1: the next five slots are a custom layout.
    pub const HAS_LAYOUT: usize = 2;
    /// The custom layout's time bits.
    pub const TIME_BITS: usize = 3;
    /// The custom layout's worker bits.
    pub const WORKER_BITS: usize = 4;
    /// The custom layout's sequence bits.
    pub const SEQUENCE_BITS: usize = 5;
    /// The custom layout's tick, in ms.
    pub const UNIT_MS: usize = 6;
    /// An index into [`FieldOrder::NAMES`].
    pub const ORDER: usize = 7;
    /// Unix ms; NaN: the preset's epoch.
    pub const EPOCH: usize = 8;
    /// An index into [`ClockChoice::NAMES`](crate::clock::ClockChoice::NAMES).
    pub const CLOCK: usize = 9;
    /// An index into [`OnBackwards::NAMES`], and its bound.
    pub const ON_BACKWARDS: usize = 10;
    /// How long `wait` may wait for a clock gone back (ms).
    pub const MAX_BACKWARDS_MS: usize = 11;
    /// An index into [`OnExhausted::NAMES`], and its bound.
    pub const ON_EXHAUSTED: usize = 12;
    /// How many ticks `borrow` may borrow ahead.
    pub const MAX_BORROW_TICKS: usize = 13;
    /// A lease's high-water mark (Unix ms); NaN: none.
    pub const RESUME_AFTER_MS: usize = 14;
    /// The named worker parts (high, low); NaN high: none.
    pub const WORKER_HIGH: usize = 15;
    /// The low named worker part.
    pub const WORKER_LOW: usize = 16;
    /// How many slots.
    pub const LEN: usize = 17;
    /// The slots' names, in order (the fields of backend.d.ts's
    /// `SnowflakeSpec`, the layout's and the worker parts' flattened).
    pub const NAMES: [&'static str; SpecSlot::LEN] = [
        "workerId",
        "preset",
        "hasLayout",
        "timeBits",
        "workerBits",
        "sequenceBits",
        "unitMs",
        "order",
        "epoch",
        "clock",
        "onBackwards",
        "maxBackwardsMs",
        "onExhausted",
        "maxBorrowTicks",
        "resumeAfterMs",
        "workerHigh",
        "workerLow",
    ];
}

/// The core's [`Spec`] of a spec's numbers ([`SpecSlot`]; the clock slot is
/// the caller's, with its clock). Every index is looked up by the core,
/// which refuses one out of range.
pub fn spec_of_numbers(s: &[f64; SpecSlot::LEN]) -> Result<Spec, crate::Error> {
    let ms = |v: f64| (!v.is_nan()).then_some(v as u64);
    let custom = if s[SpecSlot::HAS_LAYOUT] == 1.0 {
        Some(CustomLayout {
            // The JS layer bounds every width to 0..=63, so `as u8` keeps the value.
            time_bits: s[SpecSlot::TIME_BITS] as u8,
            worker_bits: s[SpecSlot::WORKER_BITS] as u8,
            sequence_bits: s[SpecSlot::SEQUENCE_BITS] as u8,
            unit_ms: s[SpecSlot::UNIT_MS] as u32,
            order: FieldOrder::from_index(s[SpecSlot::ORDER])?,
        })
    } else {
        None
    };
    let worker_parts =
        ms(s[SpecSlot::WORKER_HIGH]).map(|high| (high, s[SpecSlot::WORKER_LOW] as u64));
    Ok(Spec {
        worker_id: s[SpecSlot::WORKER_ID] as u64,
        worker_parts,
        preset: Preset::from_index(s[SpecSlot::PRESET])?,
        custom,
        epoch_ms: ms(s[SpecSlot::EPOCH]),
        on_backwards: OnBackwards::from_index(
            s[SpecSlot::ON_BACKWARDS],
            s[SpecSlot::MAX_BACKWARDS_MS] as u64,
        )?,
        on_exhausted: OnExhausted::from_index(
            s[SpecSlot::ON_EXHAUSTED],
            s[SpecSlot::MAX_BORROW_TICKS] as u32,
        )?,
        resume_after_ms: ms(s[SpecSlot::RESUME_AFTER_MS]),
    })
}

/// What one claim reports to JavaScript, in a `Float64Array` of
/// [`Report::LEN`] slots the JS layer owns (a refill crosses the boundary
/// once, with no object to allocate): the slots by name. Both bindings
/// write them from [`Report::of_run`]; `examples/protocol.rs` writes the
/// same names into `npm/src/api/sources.js`.
pub struct Report;

impl Report {
    /// How many ms after the call began the clock still read the run's tick
    /// (`Run::fresh_ms`); for text batches, the one slot they report.
    pub const FRESH_MS: usize = 0;
    /// The generator's last minted tick (Unix ms), NaN before its first ID:
    /// what a worker-ID lease must cover before the run is handed out.
    pub const HIGH_WATER_MS: usize = 1;
    /// The default generator's generation the run came from (0 for a
    /// generator of its own): a run of an older one is dropped.
    pub const GENERATION: usize = 2;
    /// For a claim that would have waited: how many ms to wait.
    pub const WAIT_MS: usize = 3;
    /// 1 if the run's expiry word was set (the Node addon on Linux), else 0.
    pub const EXPIRY_WORD_SET: usize = 4;
    /// The report's length.
    pub const LEN: usize = 5;
    /// The slots' names, in order (JavaScript's spelling).
    pub const NAMES: [&'static str; Report::LEN] = [
        "freshMs",
        "highWaterMs",
        "generation",
        "waitMs",
        "expiryWordSet",
    ];

    /// The slots before [`Report::EXPIRY_WORD_SET`] for a run (a default
    /// `Run` for a batch over many ticks) of a generator whose high water is
    /// `high_water_ms`.
    pub fn of_run(run: &Run, high_water_ms: Option<u64>, generation: u32) -> [f64; 4] {
        [
            run.fresh_ms,
            high_water_ms.map_or(f64::NAN, |ms| ms as f64),
            generation.into(),
            run.wait_ms as f64,
        ]
    }
}

/// How the browser's Snowflake module (`wasm/mint/src/snowflake.rs`
/// `write_layout`) describes a layout to JavaScript, in a `Float64Array` of
/// [`LayoutSlot::LEN`] slots: the slots by name. `examples/protocol.rs`
/// writes the same names into `npm/src/web/snowflake.js`.
pub struct LayoutSlot;

impl LayoutSlot {
    /// The time field's width in bits.
    pub const TIME_BITS: usize = 0;
    /// The worker field's width in bits.
    pub const WORKER_BITS: usize = 1;
    /// The sequence field's width in bits.
    pub const SEQUENCE_BITS: usize = 2;
    /// How many ms one tick of the time field lasts.
    pub const UNIT_MS: usize = 3;
    /// The epoch, in Unix ms.
    pub const EPOCH_MS: usize = 4;
    /// The field order, as its index in the core's list of orders.
    pub const ORDER: usize = 5;
    /// The worker split's low part's width in bits, or -1 for no split.
    pub const LOW_BITS: usize = 6;
    /// How many bytes of the module's text buffer the split's high name takes.
    pub const HIGH_LENGTH: usize = 7;
    /// How many bytes after it the split's low name takes.
    pub const LOW_LENGTH: usize = 8;
    /// The description's length.
    pub const LEN: usize = 9;
    /// The slots' names, in order.
    pub const NAMES: [&'static str; LayoutSlot::LEN] = [
        "timeBits",
        "workerBits",
        "sequenceBits",
        "unitMs",
        "epochMs",
        "order",
        "lowBits",
        "highLength",
        "lowLength",
    ];

    /// The slots of layout `l`, and its split's names (high, low), whose
    /// lengths they give, for the caller to write one after the other
    /// (the browser's Snowflake module and full module).
    pub fn of(l: &Layout) -> ([f64; LayoutSlot::LEN], [&'static str; 2]) {
        let mut info = [0.0; LayoutSlot::LEN];
        info[LayoutSlot::TIME_BITS] = l.time_bits().into();
        info[LayoutSlot::WORKER_BITS] = l.worker_bits().into();
        info[LayoutSlot::SEQUENCE_BITS] = l.sequence_bits().into();
        info[LayoutSlot::UNIT_MS] = l.unit_ms().into();
        info[LayoutSlot::EPOCH_MS] = l.epoch_ms() as f64;
        info[LayoutSlot::ORDER] = l.order() as u8 as f64;
        info[LayoutSlot::LOW_BITS] = -1.0;
        let mut names = ["", ""];
        if let Some(split) = l.split() {
            names = [split.high, split.low];
            info[LayoutSlot::LOW_BITS] = split.low_bits.into();
            info[LayoutSlot::HIGH_LENGTH] = split.high.len() as f64;
            info[LayoutSlot::LOW_LENGTH] = split.low.len() as f64;
        }
        (info, names)
    }
}

/// How the browser's full module (`wasm/src/decode.rs`) gives back a parsed
/// ID, the record `RawDecoded` of `npm/src/backend.d.ts`, in a
/// `Float64Array` of [`DecodedSlot::LEN`] slots, one per field in the
/// record's order: a text field's slot is its length in bytes (-1: none),
/// the texts one after another in the module's text buffer; a number
/// field's slot is the number (NaN: none); `value`'s is 1 when the
/// Snowflake is set, in the module's 64-bit slots at [`ErrorSlot::A`].
/// `examples/protocol.rs` writes the same names into `npm/src/wasm-backend.js`.
pub struct DecodedSlot;

impl DecodedSlot {
    /// The fields, in order (JavaScript's spelling).
    pub const NAMES: [&'static str; DecodedSlot::LEN] = [
        "kind",
        "value",
        "timestamp",
        "hex",
        "uuid",
        "version",
        "variant",
        "clockSeq",
        "node",
        "counter",
        "prefix",
    ];
    /// Which fields are texts.
    pub const TEXTS: [bool; DecodedSlot::LEN] = [
        true, false, false, true, true, false, true, false, true, false, true,
    ];
    /// The Snowflake's slot.
    pub const VALUE: usize = 1;
    /// How many slots.
    pub const LEN: usize = 11;
}

/// How the browser's full module (`wasm/src/lib.rs`) gives back an error
/// (`Error::numbers`): its index and its texts' lengths in a
/// `Float64Array` (the texts one after another in its text buffer), its
/// two numbers in a `BigUint64Array`. A bigint result (a Snowflake) is at
/// [`ErrorSlot::A`] too. `examples/protocol.rs` writes the same names into
/// `npm/src/wasm-backend.js`.
pub struct ErrorSlot;

impl ErrorSlot {
    /// The error's index (-1: an error of no number).
    pub const INDEX: usize = 0;
    /// The length in bytes of its first text.
    pub const S_LENGTH: usize = 1;
    /// The length in bytes of its second text.
    pub const T_LENGTH: usize = 2;
    /// Its first number, in the 64-bit slots (and a bigint result).
    pub const A: usize = 0;
    /// Its second number, in the 64-bit slots.
    pub const B: usize = 1;
}
