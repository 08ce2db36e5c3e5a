//! Prometheus text metrics. Each worker thread counts into its own
//! [`ThreadMetrics`] (relaxed adds on a cache line no other thread writes);
//! a scrape sums them.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use crate::mint::IdKind;
use crate::state::Shared;

/// Upper bounds (seconds) of the request latency histogram.
const LATENCY_BOUNDS: [f64; 10] = [
    0.000_05, 0.000_1, 0.000_25, 0.000_5, 0.001, 0.002_5, 0.005, 0.01, 0.05, 0.25,
];
/// Upper bounds of the batch size histogram.
const BATCH_BOUNDS: [u64; 7] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000];

/// One worker thread's counters.
#[derive(Debug, Default)]
pub struct ThreadMetrics {
    ids: [AtomicU64; IdKind::ALL.len()],
    latency: [AtomicU64; LATENCY_BOUNDS.len() + 1],
    latency_sum_ns: AtomicU64,
    batch: [AtomicU64; BATCH_BOUNDS.len() + 1],
    batch_sum: AtomicU64,
    exhaustion_waits: AtomicU64,
    requests_refused: AtomicU64,
}

impl ThreadMetrics {
    /// Counts one request that minted `n` IDs of `kind` in `secs`.
    pub fn minted(&self, kind: IdKind, n: u64, secs: f64) {
        self.ids[kind.index()].fetch_add(n, Relaxed);
        let b = BATCH_BOUNDS
            .iter()
            .position(|b| n <= *b)
            .unwrap_or(BATCH_BOUNDS.len());
        self.batch[b].fetch_add(1, Relaxed);
        self.batch_sum.fetch_add(n, Relaxed);
        let l = LATENCY_BOUNDS
            .iter()
            .position(|b| secs <= *b)
            .unwrap_or(LATENCY_BOUNDS.len());
        self.latency[l].fetch_add(1, Relaxed);
        self.latency_sum_ns.fetch_add((secs * 1e9) as u64, Relaxed);
    }

    /// A claim that had to wait for the next tick (the tick's sequence was used up).
    pub fn exhaustion_wait(&self) {
        self.exhaustion_waits.fetch_add(1, Relaxed);
    }

    /// A request refused because the server was not ready (clock, lease).
    pub fn refused(&self) {
        self.requests_refused.fetch_add(1, Relaxed);
    }
}

fn sum<const N: usize>(
    all: &[&ThreadMetrics],
    f: impl Fn(&ThreadMetrics) -> &[AtomicU64; N],
) -> [u64; N] {
    let mut out = [0; N];
    for t in all {
        for (o, v) in out.iter_mut().zip(f(t)) {
            *o += v.load(Relaxed);
        }
    }
    out
}

fn total(all: &[&ThreadMetrics], f: impl Fn(&ThreadMetrics) -> &AtomicU64) -> u64 {
    all.iter().map(|t| f(t).load(Relaxed)).sum()
}

fn header(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

/// The metrics as Prometheus text (format 0.0.4).
pub fn render(shared: &Shared) -> String {
    let all: Vec<&ThreadMetrics> = shared.metrics.iter().map(|m| &**m).collect();
    let mut out = String::with_capacity(4096);
    header(
        &mut out,
        "snowmint_ids_total",
        "counter",
        "IDs minted, by kind.",
    );
    for (kind, n) in IdKind::ALL.iter().zip(sum(&all, |t| &t.ids)) {
        let _ = writeln!(out, "snowmint_ids_total{{kind=\"{}\"}} {n}", kind.name());
    }
    header(
        &mut out,
        "snowmint_batch_size",
        "histogram",
        "IDs per request.",
    );
    let batch = sum(&all, |t| &t.batch);
    let mut acc = 0;
    for (i, n) in batch.iter().enumerate() {
        acc += n;
        let le = BATCH_BOUNDS.get(i).map_or("+Inf".into(), |b| b.to_string());
        let _ = writeln!(out, "snowmint_batch_size_bucket{{le=\"{le}\"}} {acc}");
    }
    let _ = writeln!(
        out,
        "snowmint_batch_size_sum {}",
        total(&all, |t| &t.batch_sum)
    );
    let _ = writeln!(out, "snowmint_batch_size_count {acc}");
    header(
        &mut out,
        "snowmint_request_duration_seconds",
        "histogram",
        "Time to mint and encode one request's IDs.",
    );
    let lat = sum(&all, |t| &t.latency);
    let mut acc = 0;
    for (i, n) in lat.iter().enumerate() {
        acc += n;
        let le = LATENCY_BOUNDS
            .get(i)
            .map_or("+Inf".into(), |b| b.to_string());
        let _ = writeln!(
            out,
            "snowmint_request_duration_seconds_bucket{{le=\"{le}\"}} {acc}"
        );
    }
    let secs = total(&all, |t| &t.latency_sum_ns) as f64 / 1e9;
    let _ = writeln!(out, "snowmint_request_duration_seconds_sum {secs}");
    let _ = writeln!(out, "snowmint_request_duration_seconds_count {acc}");
    for (name, help, value) in [
        (
            "snowmint_exhaustion_waits_total",
            "Claims that waited for the next tick (sequence used up).",
            total(&all, |t| &t.exhaustion_waits),
        ),
        (
            "snowmint_requests_refused_total",
            "Mint requests refused while unready (clock, lease).",
            total(&all, |t| &t.requests_refused),
        ),
        (
            "snowmint_clock_backward_events_total",
            "Times the wall clock was found more than maxBackwardsMs behind the IDs.",
            shared.clock.backward_events.load(Relaxed),
        ),
        (
            "snowmint_lease_renew_failures_total",
            "Lease checks or renewals that failed (lost lock file, skew, I/O).",
            shared.lease_renew_failures.load(Relaxed),
        ),
    ] {
        header(&mut out, name, "counter", help);
        let _ = writeln!(out, "{name} {value}");
    }
    header(
        &mut out,
        "snowmint_clock_ok",
        "gauge",
        "1 while the wall clock is within maxBackwardsMs of the IDs' time.",
    );
    let _ = writeln!(out, "snowmint_clock_ok {}", u8::from(shared.clock.ok()));
    header(
        &mut out,
        "snowmint_lease_held",
        "gauge",
        "1 while the worker ID's lease is held.",
    );
    for w in shared.workers.iter() {
        let _ = writeln!(
            out,
            "snowmint_lease_held{{worker_id=\"{}\"}} {}",
            w.ids.worker_id(),
            u8::from(w.held())
        );
    }
    header(
        &mut out,
        "snowmint_lease_seconds_left",
        "gauge",
        "Time left on each lease (+Inf: a host lock file, held until the process ends).",
    );
    for w in shared.workers.iter() {
        let left = match (w.held(), w.ids.seconds_left()) {
            (false, _) => "0".to_string(),
            (true, None) => "+Inf".to_string(),
            (true, Some(s)) => format!("{s:.3}"),
        };
        let _ = writeln!(
            out,
            "snowmint_lease_seconds_left{{worker_id=\"{}\"}} {left}",
            w.ids.worker_id()
        );
    }
    out
}
