//! The Rust etcd driver against a real etcd (Debian's etcd-server, started
//! here on free loopback ports, in a temp directory, and always stopped):
//! the fault suite of tests/redis.rs for Node's etcdLease layout.
//! `cargo test -p snowmint-lease --features etcd --test etcd`.
#![cfg(feature = "etcd")]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use common::{Skewed, TIMING, config, now, skew_config, until};
use snowmint::clock::Clock;
use snowmint_lease::driver::{Lease, SharedClock};
use snowmint_lease::etcd::EtcdStore;
use snowmint_lease::machine::State;
use snowmint_lease::{Code, LeaseError};

/// A one-member etcd cluster of this test's own.
struct Server {
    port: u16,
    peer: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl Server {
    fn start() -> Server {
        let (port, peer) = (common::free_port(), common::free_port());
        let mut s = Server {
            port,
            peer,
            dir: common::temp_dir("etcd", port),
            child: None,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let client = format!("http://127.0.0.1:{}", self.port);
        let peer = format!("http://127.0.0.1:{}", self.peer);
        let child = Command::new("etcd")
            .args(["--name", "lease-test", "--data-dir"])
            .arg(self.dir.join("data"))
            .args(["--listen-client-urls", &client])
            .args(["--advertise-client-urls", &client])
            .args(["--listen-peer-urls", &peer])
            .args(["--initial-advertise-peer-urls", &peer])
            .args(["--initial-cluster", &format!("lease-test={peer}")])
            .args(["--log-level", "error"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("etcd (Debian etcd-server; scripts/setup.d/50-lease.sh)");
        self.child = Some(child);
        let end = Instant::now() + Duration::from_secs(20);
        while !self
            .http("GET", "/health", "")
            .is_ok_and(|r| r.contains("\"health\":\"true\""))
        {
            assert!(Instant::now() < end, "etcd did not come up");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// One HTTP/1.0 request to the client port: the reply's body.
    fn http(&self, method: &str, path: &str, body: &str) -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(2)))?;
        write!(
            s,
            "{method} {path} HTTP/1.0\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )?;
        let mut reply = String::new();
        s.read_to_string(&mut reply)?;
        Ok(reply.split_once("\r\n\r\n").map_or("", |r| r.1).to_string())
    }

    /// Deletes `key`, as etcd does when the session that holds it ends.
    fn delete(&self, key: &str) {
        use base64::Engine as _;
        let key = base64::engine::general_purpose::STANDARD.encode(key);
        let r = self
            .http(
                "POST",
                "/v3/kv/deleterange",
                &format!("{{\"key\":\"{key}\"}}"),
            )
            .unwrap();
        assert!(r.contains("\"deleted\":\"1\""), "{r}");
    }

    /// Killed and its data directory emptied (`spawn` starts it again,
    /// empty, on the same ports).
    fn kill_and_wipe(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(self.dir.join("data")).unwrap();
    }

    fn store(&self, prefix: &str) -> EtcdStore {
        EtcdStore::new(&format!("etcd://127.0.0.1:{}", self.port), prefix).unwrap()
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
async fn a_fresh_etcd_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark() {
    let server = Server::start();
    let started = Instant::now();
    let (a, b) = tokio::join!(
        Lease::acquire(server.store("fresh"), config(0..=1)),
        Lease::acquire(server.store("fresh"), config(0..=1)),
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    // The store may have lost its data a moment ago: the first claims wait one TTL.
    assert!(
        started.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
        "{:?}",
        started.elapsed()
    );
    assert_ne!(a.worker_id(), b.worker_id());
    let e = Lease::acquire(server.store("fresh"), config(0..=1))
        .await
        .unwrap_err();
    assert_eq!(e.code(), Code::Unavailable, "{e}");
    assert!(
        e.message()
            .contains("all 2 worker IDs (0..1) of the etcd lease at fresh/"),
        "{e}"
    );
    a.check(now()).unwrap();
    let (id, hwm) = (a.worker_id(), now() + 3_000);
    a.release(Some(hwm)).await.unwrap();
    assert_eq!(a.check(now()).unwrap_err().code(), Code::Released);
    // Its successor starts after the exact mark (the store is no longer young).
    let c = Lease::acquire(server.store("fresh"), config(0..=1))
        .await
        .unwrap();
    assert_eq!(c.worker_id(), id);
    assert_eq!(c.resume_after_ms(), hwm);
    c.check(hwm + 1).unwrap();
    c.release(None).await.unwrap();
    b.release(None).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_worker_key_is_lost_by_its_holder_and_the_next_claim_starts_after_its_bound() {
    let server = Server::start();
    let a = Lease::acquire(server.store("deleted"), config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    server.delete("deleted/worker/0");
    // Its next renewal finds the key gone: lost, then claimed again, after what it covered.
    until("the loss", || a.status().losses >= 1).await;
    until("the claim again", || {
        a.epoch() == 2 && a.status().state == State::Held
    })
    .await;
    assert_eq!(a.worker_id(), 0);
    assert!(
        a.resume_after_ms() >= covered,
        "{} vs {covered}",
        a.resume_after_ms()
    );
    // Now its process dies and etcd drops its key: the successor starts after its bound.
    let covered = a.status().covered_ms;
    drop(a);
    server.delete("deleted/worker/0");
    let b = Lease::acquire(server.store("deleted"), config(0..=0))
        .await
        .unwrap();
    assert_eq!(b.worker_id(), 0);
    assert!(
        b.resume_after_ms() >= covered,
        "{} vs {covered}",
        b.resume_after_ms()
    );
    b.release(None).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound() {
    let server = Server::start();
    let a = Lease::acquire(server.store("killed"), config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    let gone = Instant::now();
    drop(a); // its renewals stop, its key stays until its etcd lease ends
    let b = loop {
        match Lease::acquire(server.store("killed"), config(0..=0)).await {
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_on_an_empty_data_dir_under_a_holder() {
    let mut server = Server::start();
    let a = Lease::acquire(server.store("loss"), config(0..=0))
        .await
        .unwrap();
    a.check(now()).unwrap();
    server.kill_and_wipe();
    // Everything `a` may still mint lies below what it covers now: no renewal succeeds any more.
    let covered = a.status().covered_ms;
    assert!(covered > now());
    server.spawn();
    let t = Instant::now();
    // The next holder of worker 0 is a new one or `a` claiming again, whichever
    // claims first: either way it waits one TTL (the etcd is young, the bound
    // gone) and starts after every tick `a` could have minted.
    let start = match Lease::acquire(server.store("loss"), config(0..=0)).await {
        Ok(b) => {
            assert_eq!(b.worker_id(), 0);
            assert!(
                t.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
                "the claim on an emptied store waits one TTL"
            );
            let e = a.check(now()).unwrap_err();
            assert_eq!(e.code(), Code::Expired, "{e}");
            assert_eq!(a.status().state, State::Lost);
            b.check(now()).unwrap();
            let start = b.resume_after_ms();
            b.release(None).await.unwrap();
            start
        }
        Err(e) => {
            assert_eq!(e.code(), Code::Unavailable, "{e}");
            until("the claim again", || {
                a.epoch() == 2 && a.status().state == State::Held
            })
            .await;
            a.resume_after_ms()
        }
    };
    assert!(a.status().losses >= 1);
    assert!(
        start >= covered + TIMING.margin_ms - 1,
        "{start} vs {covered}"
    );
}

async fn skewed(
    server: &Server,
    by: i64,
    refuse: bool,
) -> (Result<Lease, LeaseError>, Arc<Skewed>) {
    let clock = Arc::new(Skewed(AtomicI64::new(by)));
    let shared: SharedClock = clock.clone();
    let lease =
        Lease::acquire_with_clock(server.store("skew"), skew_config(0..=7, refuse), shared).await;
    (lease, clock)
}

/// etcd has no clock: a holder is compared with its live peers' reports,
/// so these tests start with a peer on the right time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_its_peers_is_refused_or_reported() {
    let server = Server::start();
    let peer = skewed(&server, 0, true).await.0.unwrap();
    for (by, side) in [(5_000, "ahead of"), (-5_000, "behind")] {
        let e = skewed(&server, by, true).await.0.unwrap_err();
        assert_eq!(e.code(), Code::ClockSkew, "{e}");
        assert!(
            e.message().contains(&format!(
                "ms {side} the mean of 1 live peer's last reported clocks"
            )),
            "{e}"
        );
        let (lease, _) = skewed(&server, by, false).await;
        let lease = lease.unwrap();
        let skew = lease.status().skew.expect("reported");
        // A report is up to a renewal old: known to within half of that.
        assert!(
            (skew.skew_ms - by).abs() <= skew.err_ms as i64 + 100,
            "{skew:?}"
        );
        assert!(skew.err_ms < 1_000, "{skew:?}");
        lease.release(None).await.unwrap();
    }
    peer.release(None).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back() {
    let server = Server::start();
    let peer = skewed(&server, 0, false).await.0.unwrap();
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
    peer.release(None).await.unwrap();
}
