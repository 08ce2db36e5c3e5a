//! What the coordinator tests (redis.rs, etcd.rs, zookeeper.rs) share: a
//! free port, a temp directory, a clock that a test moves, the short lease
//! timing, and the fault scenarios they all run ([`scenarios`]).
#![allow(dead_code)] // each test file uses its part

pub mod scenarios;

use std::net::TcpListener;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use snowmint::clock::{Clock, SystemClock};
use snowmint_lease::driver::LeaseConfig;
use snowmint_lease::machine::{SkewLimit, Timing};

/// A loopback port no one listens on right now (the kernel picks it).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A fresh directory for a server's data, unique to this process and `port`.
pub fn temp_dir(name: &str, port: u16) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("snowmint-rs-{name}-{}-{port}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The system clock moved by an offset that a test may change.
#[derive(Debug, Default)]
pub struct Skewed(pub AtomicI64);

impl Clock for Skewed {
    fn now_ms(&self) -> u64 {
        SystemClock
            .now_ms()
            .wrapping_add_signed(self.0.load(Ordering::Relaxed))
    }
}

/// Short leases, so that a TTL is waited out within the test.
pub const TIMING: Timing = Timing {
    ttl_ms: 1_500,
    renew_ms: 400,
    margin_ms: 300,
};

pub fn config(range: std::ops::RangeInclusive<u32>) -> LeaseConfig {
    LeaseConfig {
        range,
        timing: TIMING,
        skew: SkewLimit::default(),
    }
}

/// [`config`] with a skew limit of 1 s that refuses or reports.
pub fn skew_config(range: std::ops::RangeInclusive<u32>, refuse: bool) -> LeaseConfig {
    LeaseConfig {
        skew: SkewLimit {
            max_skew_ms: 1_000,
            refuse,
        },
        ..config(range)
    }
}

pub fn now() -> u64 {
    SystemClock.now_ms()
}

/// Waits up to 5 s for `ok`.
pub async fn until(what: &str, ok: impl Fn() -> bool) {
    let end = Instant::now() + Duration::from_secs(5);
    while !ok() {
        assert!(Instant::now() < end, "{what} within 5 s");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}
