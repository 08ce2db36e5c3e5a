//! snowmint side by side with ferroid, uuid and ulid in one run, then a
//! table of ns/ID and the goals of issue 2 (item 8) and issue 16 (goal 6):
//!
//! ```text
//! cargo bench -p snowmint --bench ids --features expiry
//! ```
//!
//! Where a peer takes a clock, it reads the same one as snowmint (ferroid
//! through [`FerroidTime`], ulid through a `SystemTime`): the monotonic
//! ULID/v7 generators run on snowmint's `MonotonicClock`, on ferroid's
//! (see [`TickerClock`]) and on a fixed `ManualClock`; the Snowflakes on a
//! fixed `ManualClock`. The one-call functions use each crate's own clock,
//! snowmint's with the feature `expiry` (runs skip the clock while their
//! word is set), which this benchmark requires.

use std::env;
use std::fs;
use std::hint::{black_box, spin_loop};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use criterion::{BenchmarkGroup, Criterion, measurement::WallTime};
use ferroid::base32::Base32UlidExt;
use ferroid::generator::thread_local::Ulid as FerroidThreadLocal;
use ferroid::generator::{
    AtomicSnowflakeGenerator, BasicMonoUlidGenerator, BasicSnowflakeGenerator,
};
use ferroid::id::ULID;
use ferroid::rand::ThreadRandom;
use ferroid::time::TimeSource;
use snowmint::clock::{Clock, ManualClock, MonotonicClock};
use snowmint::snowflake::{AtomicSnowflake, Layout, Snowflake};
use snowmint::ulid::{Ulid, UlidGenerator};
use snowmint::uuid::{Uuid, V7Generator};

const MONOTONIC: &str = "mono_snowmint_clock";
const MONOTONIC_TICKER: &str = "mono_ferroid_clock";
const MONOTONIC_FIXED: &str = "mono_fixed_clock";
const ONE_CALL: &str = "one_call";
const SNOWFLAKE: &str = "snowflake_fixed_clock";
const V4: &str = "uuid_v4";
const ULID_TEXT: &str = "ulid_text";
const UUID_TEXT: &str = "uuid_text";
const GROUPS: [&str; 8] = [
    MONOTONIC,
    MONOTONIC_TICKER,
    MONOTONIC_FIXED,
    ONE_CALL,
    SNOWFLAKE,
    V4,
    ULID_TEXT,
    UUID_TEXT,
];

/// What the fixed clock reads (Unix ms).
const FIXED_MS: u64 = 1_750_000_000_000;
/// Epoch of the fixed-clock Snowflake layout.
const SNOW_EPOCH_MS: u64 = FIXED_MS - 1_000;
const WORKER: u64 = 7;

/// The fixed-clock Snowflake layout: 11 time, 10 worker, 42 sequence bits.
/// A tick then never runs out during a benchmark (ferroid's own benchmarks
/// do the same), so `next()` measures minting, not waiting for a tick.
fn snow_layout() -> Layout {
    Layout::new(11, 10, 42, 1, SNOW_EPOCH_MS).expect("valid layout")
}

ferroid::define_snowflake_id!(
    /// ferroid's twin of [`snow_layout`].
    WideSnowflake, u64,
    reserved: 1,
    timestamp: 11,
    machine_id: 10,
    sequence: 42
);

/// A snowmint clock read by ferroid, which counts from its IDs' epoch.
struct FerroidTime<C> {
    clock: C,
    epoch_ms: u64,
}

impl<C: Clock> TimeSource<u64> for FerroidTime<C> {
    fn current_millis(&self) -> u64 {
        self.clock.now_ms() - self.epoch_ms
    }
}

impl<C: Clock> TimeSource<u128> for FerroidTime<C> {
    fn current_millis(&self) -> u128 {
        <Self as TimeSource<u64>>::current_millis(self).into()
    }
}

fn bench<O>(g: &mut BenchmarkGroup<'_, WallTime>, id: &str, mut mint: impl FnMut() -> O) {
    g.bench_function(id, |b| b.iter(&mut mint));
}

/// ferroid's own clock (a thread that stores the time in an atomic every
/// millisecond), read by snowmint.
struct TickerClock(ferroid::time::MonotonicClock);

impl Clock for TickerClock {
    fn now_ms(&self) -> u64 {
        TimeSource::<u64>::current_millis(&self.0)
    }
}

/// Monotonic ULID/v7 generators, all reading `clock`.
fn monotonic_generators(c: &mut Criterion, group: &str, clock: &impl Clock) {
    let mut g = c.benchmark_group(group);
    let mut rng = rand::rng();
    let mut ulids = UlidGenerator::new();
    bench(&mut g, "snowmint_UlidGenerator", || {
        ulids.generate(clock.now_ms(), &mut rng).unwrap()
    });
    let mut v7s = V7Generator::new();
    bench(&mut g, "snowmint_V7Generator", || {
        v7s.generate(clock.now_ms(), &mut rng).unwrap()
    });
    let time = FerroidTime { clock, epoch_ms: 0 };
    let ferroid = BasicMonoUlidGenerator::<ULID, _, _>::new(time, ThreadRandom);
    bench(&mut g, "ferroid_BasicMonoUlidGenerator", || {
        ferroid.next_id(|_| spin_loop())
    });
    let mut peer = ulid::Generator::new();
    bench(&mut g, "ulid_Generator", || {
        let now = UNIX_EPOCH + Duration::from_millis(clock.now_ms());
        peer.generate_from_datetime_with_source(now, &mut rng)
            .unwrap()
    });
    g.finish();
}

/// Per-thread one-call functions, each crate with its own clock (snowmint's
/// runs with expiry words).
fn one_call(c: &mut Criterion) {
    let mut g = c.benchmark_group(ONE_CALL);
    bench(&mut g, "snowmint_new_ulid", || {
        snowmint::new_ulid().unwrap()
    });
    bench(&mut g, "snowmint_new_uuid_v7", || {
        snowmint::new_uuid_v7().unwrap()
    });
    bench(&mut g, "ferroid_new_ulid_mono", || {
        FerroidThreadLocal::new_ulid_mono(|_| spin_loop())
    });
    bench(&mut g, "uuid_now_v7", uuid::Uuid::now_v7);
    // Not monotonic: the ulid crate has no per-thread monotonic function.
    bench(&mut g, "ulid_generate", ulid::Ulid::generate);
    g.finish();
}

/// Snowflake `next()` with a clock that stands still.
fn snowflake_fixed_clock(c: &mut Criterion) {
    let mut g = c.benchmark_group(SNOWFLAKE);
    let clock = ManualClock::new(FIXED_MS);
    let mut plain = Snowflake::new(snow_layout(), WORKER, &clock).unwrap();
    bench(&mut g, "snowmint_Snowflake", || plain.next().unwrap());
    let atomic = AtomicSnowflake::new(snow_layout(), WORKER, &clock).unwrap();
    bench(&mut g, "snowmint_AtomicSnowflake", || {
        atomic.next().unwrap()
    });
    let time = || FerroidTime {
        clock: &clock,
        epoch_ms: SNOW_EPOCH_MS,
    };
    let basic = BasicSnowflakeGenerator::<WideSnowflake, _>::new(WORKER, time());
    bench(&mut g, "ferroid_BasicSnowflakeGenerator", || {
        basic.next_id(|_| spin_loop())
    });
    let atomic = AtomicSnowflakeGenerator::<WideSnowflake, _>::new(WORKER, time());
    bench(&mut g, "ferroid_AtomicSnowflakeGenerator", || {
        atomic.next_id(|_| spin_loop())
    });
    g.finish();
}

fn uuid_v4(c: &mut Criterion) {
    let mut g = c.benchmark_group(V4);
    bench(&mut g, "snowmint_new_uuid_v4", snowmint::new_uuid_v4);
    let mut rng = rand::rng();
    bench(&mut g, "snowmint_new_v4_held_rng", || {
        snowmint::uuid::new_v4(&mut rng)
    });
    bench(&mut g, "uuid_new_v4", uuid::Uuid::new_v4);
    g.finish();
}

fn ulid_text(c: &mut Criterion) {
    let mut g = c.benchmark_group(ULID_TEXT);
    let id = Ulid::from_parts(FIXED_MS, 0x1234_5678_9abc_def0_1234);
    let text = id.to_text();
    let (peer, ferroid) = (ulid::Ulid(id.0), ULID::from_raw(id.0));
    bench(&mut g, "snowmint_to_text", || black_box(id).to_text());
    bench(&mut g, "ulid_array_to_str", || {
        let mut buf = [0; ulid::ULID_LEN];
        black_box(peer).array_to_str(&mut buf);
        buf
    });
    bench(&mut g, "ferroid_encode", || black_box(ferroid).encode());
    bench(&mut g, "snowmint_parse", || {
        Ulid::parse(black_box(&text)).unwrap()
    });
    bench(&mut g, "ulid_from_string", || {
        ulid::Ulid::from_string(black_box(&text)).unwrap()
    });
    bench(&mut g, "ferroid_decode", || {
        ULID::decode(black_box(text.as_bytes())).unwrap()
    });
    g.finish();
}

fn uuid_text(c: &mut Criterion) {
    let mut g = c.benchmark_group(UUID_TEXT);
    let id = Uuid::v7_from_parts(FIXED_MS, 0x123, 0x0123_4567_89ab_cdef);
    let text = id.to_text();
    let peer = uuid::Uuid::from_u128(id.0);
    bench(&mut g, "snowmint_to_text", || black_box(id).to_text());
    bench(&mut g, "uuid_encode_lower", || {
        let mut buf = [0; uuid::fmt::Hyphenated::LENGTH];
        black_box(peer).hyphenated().encode_lower(&mut buf);
        buf
    });
    bench(&mut g, "snowmint_parse", || {
        Uuid::parse(black_box(&text)).unwrap()
    });
    bench(&mut g, "uuid_parse_str", || {
        uuid::Uuid::parse_str(black_box(&text)).unwrap()
    });
    g.finish();
}

/// Where criterion writes its results (its own rule: `CRITERION_HOME`,
/// then `CARGO_TARGET_DIR`, then the target dir holding this executable).
fn criterion_home() -> Option<PathBuf> {
    if let Some(home) = env::var_os("CRITERION_HOME") {
        return Some(home.into());
    }
    let target = match env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => PathBuf::from(dir),
        // <target>/release/deps/ids-<hash>
        None => env::current_exe().ok()?.ancestors().nth(3)?.to_path_buf(),
    };
    Some(target.join("criterion"))
}

/// Median ns per ID of every benchmark measured since `since`, as
/// `("group/id", ns)` in group order.
fn results(since: SystemTime) -> Vec<(String, f64)> {
    let Some(home) = criterion_home() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for group in GROUPS {
        let Ok(dir) = fs::read_dir(home.join(group)) else {
            continue;
        };
        let mut ids: Vec<_> = dir.flatten().map(|e| e.file_name()).collect();
        ids.sort();
        for id in ids {
            let file = home.join(group).join(&id).join("new/estimates.json");
            let fresh = fs::metadata(&file)
                .and_then(|m| m.modified())
                .is_ok_and(|t| t >= since);
            let estimate = fs::read(&file)
                .ok()
                .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
                .and_then(|v| v["median"]["point_estimate"].as_f64());
            if let (true, Some(ns)) = (fresh, estimate) {
                out.push((format!("{group}/{}", id.to_string_lossy()), ns));
            }
        }
    }
    out
}

/// A goal of the issue: a snowmint benchmark against a bar.
enum Bar {
    NoSlowerThan(&'static str),
    AtMostTimes(f64, &'static str),
    AtMostNs(f64),
    TimesFaster(f64, &'static str),
}

/// Monotonic ULID and v7 no slower than ferroid's monotonic ULID, per clock.
const MONO_GOALS: [(&str, Bar); 8] = [
    (
        "mono_snowmint_clock/snowmint_UlidGenerator",
        Bar::NoSlowerThan("mono_snowmint_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_snowmint_clock/snowmint_V7Generator",
        Bar::NoSlowerThan("mono_snowmint_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_ferroid_clock/snowmint_UlidGenerator",
        Bar::NoSlowerThan("mono_ferroid_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_ferroid_clock/snowmint_V7Generator",
        Bar::NoSlowerThan("mono_ferroid_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_fixed_clock/snowmint_UlidGenerator",
        Bar::NoSlowerThan("mono_fixed_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_fixed_clock/snowmint_V7Generator",
        Bar::NoSlowerThan("mono_fixed_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "one_call/snowmint_new_ulid",
        Bar::NoSlowerThan("one_call/ferroid_new_ulid_mono"),
    ),
    (
        "one_call/snowmint_new_uuid_v7",
        Bar::NoSlowerThan("one_call/ferroid_new_ulid_mono"),
    ),
];

/// Issue 16: `V7Generator` at most 2x ferroid's monotonic ULID on the same clock.
const V7_GOALS: [(&str, Bar); 3] = [
    (
        "mono_snowmint_clock/snowmint_V7Generator",
        Bar::AtMostTimes(2.0, "mono_snowmint_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_ferroid_clock/snowmint_V7Generator",
        Bar::AtMostTimes(2.0, "mono_ferroid_clock/ferroid_BasicMonoUlidGenerator"),
    ),
    (
        "mono_fixed_clock/snowmint_V7Generator",
        Bar::AtMostTimes(2.0, "mono_fixed_clock/ferroid_BasicMonoUlidGenerator"),
    ),
];

/// Snowflake `next()` on a fixed clock at or under 5 ns; v4 2x uuid's.
const OTHER_GOALS: [(&str, Bar); 4] = [
    (
        "snowflake_fixed_clock/snowmint_Snowflake",
        Bar::AtMostNs(5.0),
    ),
    (
        "snowflake_fixed_clock/snowmint_AtomicSnowflake",
        Bar::AtMostNs(5.0),
    ),
    (
        "uuid_v4/snowmint_new_uuid_v4",
        Bar::TimesFaster(2.0, "uuid_v4/uuid_new_v4"),
    ),
    (
        "uuid_v4/snowmint_new_v4_held_rng",
        Bar::TimesFaster(2.0, "uuid_v4/uuid_new_v4"),
    ),
];

/// Prints the results of this run and the goals as Markdown tables.
fn report(since: SystemTime) {
    let results = results(since);
    if results.is_empty() {
        return;
    }
    let ns = |name: &str| results.iter().find(|(n, _)| n == name).map(|r| r.1);
    println!("\n| benchmark | ns/ID (median) |\n|---|---:|");
    for (name, ns) in &results {
        println!("| {name} | {ns:.2} |");
    }
    println!("\n| goal | snowmint ns | bar | ratio | met |\n|---|---:|---|---:|---|");
    for &(subject, ref bar) in MONO_GOALS.iter().chain(&V7_GOALS).chain(&OTHER_GOALS) {
        let Some(value) = ns(subject) else { continue };
        let (bar_text, ratio, met) = match *bar {
            Bar::NoSlowerThan(peer) => {
                let Some(p) = ns(peer) else { continue };
                let r = value / p;
                (
                    format!("<= {peer} ({p:.2} ns)"),
                    format!("{r:.2}x"),
                    r <= 1.0,
                )
            }
            Bar::AtMostTimes(times, peer) => {
                let Some(p) = ns(peer) else { continue };
                let r = value / p;
                (
                    format!("<= {times}x {peer} ({p:.2} ns)"),
                    format!("{r:.2}x"),
                    r <= times,
                )
            }
            Bar::AtMostNs(max) => (
                format!("<= {max} ns"),
                format!("{:.2}x", value / max),
                value <= max,
            ),
            Bar::TimesFaster(times, peer) => {
                let Some(p) = ns(peer) else { continue };
                let r = p / value;
                let text = format!("{times}x faster than {peer} ({p:.2} ns)");
                (text, format!("{r:.1}x faster"), r >= times)
            }
        };
        let met = if met { "met" } else { "MISSED" };
        println!("| {subject} | {value:.2} | {bar_text} | {ratio} | {met} |");
    }
}

fn main() {
    let since = SystemTime::now();
    let mut c = Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    monotonic_generators(&mut c, MONOTONIC, &MonotonicClock);
    let ticker = TickerClock(ferroid::time::MonotonicClock::default());
    monotonic_generators(&mut c, MONOTONIC_TICKER, &ticker);
    monotonic_generators(&mut c, MONOTONIC_FIXED, &ManualClock::new(FIXED_MS));
    one_call(&mut c);
    snowflake_fixed_clock(&mut c);
    uuid_v4(&mut c);
    ulid_text(&mut c);
    uuid_text(&mut c);
    c.final_summary();
    report(since);
}
