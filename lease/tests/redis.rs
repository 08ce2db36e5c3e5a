//! The Rust Redis driver against a real redis-server (Debian's, started
//! here on a free loopback port, in a temp directory, and always stopped):
//! the fault suite of Node's tests/lease/redis.test.js for the same store
//! layout. `cargo test -p snowmint-lease --features redis --test redis`.
#![cfg(feature = "redis")]

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use common::{Skewed, TIMING, config, now, skew_config};
use snowmint::clock::Clock;
use snowmint_lease::Code;
use snowmint_lease::driver::{Lease, SharedClock};
use snowmint_lease::machine::State;
use snowmint_lease::redis::RedisStore;

/// A redis-server of this test's own, with an append-only file synced on
/// every write (as a lease store needs).
struct Server {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl Server {
    fn start() -> Server {
        let port = common::free_port();
        let dir = common::temp_dir("redis", port);
        let mut s = Server {
            port,
            dir,
            child: None,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let child = Command::new("redis-server")
            .args([
                "--port",
                &self.port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes",
            ])
            .args(["--appendfsync", "always", "--protected-mode", "no", "--dir"])
            .arg(&self.dir)
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server (Debian redis-server; scripts/setup.d/50-lease.sh)");
        self.child = Some(child);
        let end = Instant::now() + Duration::from_secs(20);
        while redis::Client::open(self.url())
            .and_then(|c| c.get_connection())
            .is_err()
        {
            assert!(Instant::now() < end, "redis-server did not come up");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn client(&self) -> redis::Client {
        redis::Client::open(self.url()).unwrap()
    }

    fn flush_all(&self) {
        let mut c = self.client().get_connection().unwrap();
        redis::cmd("FLUSHALL").query::<()>(&mut c).unwrap();
    }

    /// Killed, its data directory emptied, started again on the same port.
    fn restart_empty(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(&self.dir).unwrap();
        std::fs::create_dir_all(&self.dir).unwrap();
        self.spawn();
    }

    async fn store(&self, prefix: &str) -> RedisStore {
        RedisStore::connect(self.client(), prefix).await.unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fresh_store_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark() {
    let server = Server::start();
    let started = Instant::now();
    let (a, b) = tokio::join!(
        async {
            Lease::acquire(server.store("fresh").await, config(0..=1))
                .await
                .unwrap()
        },
        async {
            Lease::acquire(server.store("fresh").await, config(0..=1))
                .await
                .unwrap()
        },
    );
    // The store may have lost its data a moment ago: the first claims wait one TTL.
    assert!(
        started.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
        "{:?}",
        started.elapsed()
    );
    assert_ne!(a.worker_id(), b.worker_id());
    let e = Lease::acquire(server.store("fresh").await, config(0..=1))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{e}");
    assert!(
        e.message()
            .contains("all 2 worker IDs (0..1) of the redis lease at {fresh}"),
        "{e}"
    );
    a.check(now()).unwrap();
    let (id, hwm) = (a.worker_id(), now() + 3_000);
    a.release(Some(hwm)).await.unwrap();
    assert_eq!(a.check(now()).unwrap_err().code(), Code::Released);
    // Its successor starts after the exact mark, at once (the store is no longer young).
    let t = Instant::now();
    let c = Lease::acquire(server.store("fresh").await, config(0..=1))
        .await
        .unwrap();
    assert_eq!(c.worker_id(), id);
    assert_eq!(c.resume_after_ms(), hwm);
    assert!(
        t.elapsed() >= Duration::from_millis(2_500),
        "it waited for the mark"
    );
    c.release(None).await.unwrap();
    b.release(None).await.unwrap();
}

/// A holder minting on worker 0 when the store loses its data: it stops by
/// its next renewal, and the next holder of worker 0 starts after every
/// tick the first could have minted.
async fn data_loss(lose: impl FnOnce(&mut Server)) {
    let mut server = Server::start();
    let a = Lease::acquire(server.store("loss").await, config(0..=0))
        .await
        .unwrap();
    a.check(now()).unwrap();
    lose(&mut server);
    tokio::time::sleep(Duration::from_millis(100)).await;
    // Everything `a` may still mint lies below what it covers now: no renewal succeeds any more.
    let covered = a.status().covered_ms;
    assert!(covered > now());
    let t = Instant::now();
    let b = Lease::acquire(server.store("loss").await, config(0..=0))
        .await
        .unwrap();
    assert_eq!(b.worker_id(), 0);
    assert!(
        t.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
        "the claim on an emptied store waits one TTL"
    );
    assert!(
        b.resume_after_ms() >= covered + TIMING.margin_ms - 1,
        "{} vs {covered}",
        b.resume_after_ms()
    );
    let e = a.check(now()).unwrap_err();
    assert_eq!(e.code(), Code::Expired, "{e}");
    assert_eq!(a.status().state, State::Lost);
    assert!(a.status().losses >= 1);
    b.check(now()).unwrap();
    b.release(None).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn flushall_under_a_holder() {
    data_loss(|s| s.flush_all()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_without_its_data_under_a_holder() {
    data_loss(|s| s.restart_empty()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound() {
    let server = Server::start();
    let a = Lease::acquire(server.store("killed").await, config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    let gone = Instant::now();
    drop(a); // its renewals stop, its key stays until the TTL ends
    // Claims are refused until then.
    let b = loop {
        match Lease::acquire(server.store("killed").await, config(0..=0)).await {
            Ok(b) => break b,
            Err(e) => assert_eq!(e.code(), Code::Unavailable, "{e}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(
        gone.elapsed() >= Duration::from_millis(TIMING.ttl_ms - TIMING.renew_ms),
        "{:?}",
        gone.elapsed()
    );
    assert!(
        b.resume_after_ms() >= covered,
        "{} vs {covered}",
        b.resume_after_ms()
    );
    b.release(None).await.unwrap();
}

async fn skewed(
    server: &Server,
    by: i64,
    refuse: bool,
) -> (Result<Lease, snowmint_lease::LeaseError>, Arc<Skewed>) {
    let clock = Arc::new(Skewed(AtomicI64::new(by)));
    let shared: SharedClock = clock.clone();
    (
        Lease::acquire_with_clock(
            server.store("skew").await,
            skew_config(0..=7, refuse),
            shared,
        )
        .await,
        clock,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_is_refused_or_reported() {
    let server = Server::start();
    for (by, side) in [(5_000, "ahead of"), (-5_000, "behind")] {
        let e = skewed(&server, by, true).await.0.unwrap_err();
        assert_eq!(e.code(), Code::ClockSkew, "{e}");
        assert!(
            e.message()
                .contains(&format!("ms {side} the Redis server's clock (TIME)")),
            "{e}"
        );
        let (lease, _) = skewed(&server, by, false).await;
        let lease = lease.unwrap();
        let skew = lease.status().skew.expect("reported");
        assert!((skew.skew_ms - by).abs() < 200, "{skew:?}");
        lease.release(None).await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back() {
    let server = Server::start();
    let (lease, clock) = skewed(&server, 0, true).await;
    let lease = lease.unwrap();
    clock.0.store(5_000, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(2 * TIMING.renew_ms + 100)).await;
    let e = lease.check(clock.now_ms() - 5_000).unwrap_err();
    assert_eq!(e.code(), Code::ClockSkew, "{e}");
    clock.0.store(0, Ordering::Relaxed);
    tokio::time::sleep(Duration::from_millis(2 * TIMING.renew_ms + 100)).await;
    lease.check(clock.now_ms()).unwrap();
    lease.release(None).await.unwrap();
}
