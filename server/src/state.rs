//! What every connection of every worker thread shares: the configuration,
//! the workers (generators on leased worker IDs), the clock watch, the
//! metrics and the shutdown signal.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use snowmint::clock::{Clock, SystemClock};
use tokio::sync::watch;

use crate::config::Config;
use crate::metrics::ThreadMetrics;
use crate::workers::Worker;

/// The state shared by all threads.
#[derive(Debug)]
pub struct Shared {
    /// The resolved configuration.
    pub config: Config,
    /// One generator per worker thread.
    pub workers: Vec<Worker>,
    /// One set of counters per worker thread.
    pub metrics: Vec<Arc<ThreadMetrics>>,
    /// Whether the wall clock is sane.
    pub clock: ClockWatch,
    /// Lease checks that failed.
    pub lease_renew_failures: AtomicU64,
    /// Set once SIGTERM (or SIGINT) arrived: wakes the accept loops and idle connections.
    pub shutdown: watch::Sender<bool>,
    /// The same, for the per-request check (a watch's value sits behind a lock).
    stopping: AtomicBool,
}

impl Shared {
    /// The shared state of `workers` under `config`.
    pub fn new(config: Config, workers: Vec<Worker>) -> Shared {
        let metrics = (0..workers.len()).map(|_| Arc::default()).collect();
        let clock = ClockWatch::new(config.max_backwards_ms);
        Shared {
            config,
            workers,
            metrics,
            clock,
            lease_renew_failures: AtomicU64::new(0),
            shutdown: watch::channel(false).0,
            stopping: AtomicBool::new(false),
        }
    }

    /// Why `/readyz` fails, if it does: shutting down, or [`refusal`](Self::refusal).
    pub fn unready(&self) -> Option<(&'static str, String)> {
        if self.stopping() {
            return Some(("ERR_SHUTTING_DOWN", "the server is shutting down".into()));
        }
        self.refusal()
    }

    /// Why the server does not mint now, if it does not: a lease not held,
    /// or the clock behind. (While shutting down it still answers the
    /// requests it has, on leases it still holds.)
    pub fn refusal(&self) -> Option<(&'static str, String)> {
        if !self.clock.ok() {
            return Some((
                "ERR_CLOCK_BACKWARDS",
                format!(
                    "the wall clock is {} ms behind the IDs already minted (more than maxBackwardsMs = {}): refusing to mint until it catches up",
                    self.clock.behind_ms.load(Relaxed),
                    self.config.max_backwards_ms
                ),
            ));
        }
        self.workers
            .iter()
            .find_map(Worker::refusal)
            .map(|f| (f.code, f.message))
    }

    /// Whether shutdown began.
    #[inline]
    pub fn stopping(&self) -> bool {
        self.stopping.load(Relaxed)
    }

    /// Begins the shutdown: readiness fails, accept loops and idle connections end.
    pub fn stop(&self) {
        self.stopping.store(true, Relaxed);
        self.shutdown.send_replace(true);
    }
}

/// The wall clock compared with the time of the IDs: each Snowflake
/// generator's high-water mark (the last tick it minted in, or its lease's
/// start, which can lie ahead of a clock that went back before a restart).
#[derive(Debug)]
pub struct ClockWatch {
    ok: AtomicBool,
    /// How far the wall clock was behind at the last check (ms).
    pub behind_ms: AtomicU64,
    /// Checks that found the clock newly more than the bound behind.
    pub backward_events: AtomicU64,
    max_backwards_ms: u64,
}

/// How often the clock is compared.
pub const CLOCK_CHECK: Duration = Duration::from_millis(20);

impl ClockWatch {
    fn new(max_backwards_ms: u64) -> ClockWatch {
        ClockWatch {
            ok: AtomicBool::new(true),
            behind_ms: AtomicU64::new(0),
            backward_events: AtomicU64::new(0),
            max_backwards_ms,
        }
    }

    /// Whether the wall clock is within the bound.
    #[inline]
    pub fn ok(&self) -> bool {
        self.ok.load(Relaxed)
    }

    /// Compares the clocks once.
    pub fn check(&self, workers: &[Worker]) {
        let wall = SystemClock.now_ms();
        let ids = workers
            .iter()
            .filter_map(|w| w.ids.high_water_ms())
            .max()
            .unwrap_or(0);
        let behind = ids.saturating_sub(wall);
        self.behind_ms.store(behind, Relaxed);
        let ok = behind <= self.max_backwards_ms;
        let was = self.ok.swap(ok, Relaxed);
        if was && !ok {
            self.backward_events.fetch_add(1, Relaxed);
            eprintln!(
                "snowmint-server: the wall clock is {behind} ms behind the IDs' time (maxBackwardsMs {}): unready, refusing to mint",
                self.max_backwards_ms
            );
        } else if ok && !was {
            eprintln!("snowmint-server: the wall clock caught up: ready");
        }
    }
}

/// Checks the clock every [`CLOCK_CHECK`] until shutdown, on a thread of its own.
pub fn watch_clock(shared: Arc<Shared>) -> std::thread::JoinHandle<()> {
    std::thread::Builder::new()
        .name("snowmint-clock".into())
        .spawn(move || {
            while !shared.stopping() {
                shared.clock.check(&shared.workers);
                std::thread::sleep(CLOCK_CHECK);
            }
        })
        .expect("spawn the clock thread")
}
