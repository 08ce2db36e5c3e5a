//! The Rust ZooKeeper driver against a real ZooKeeper (Debian's jars run
//! with java as tests/lease/servers.js does, on a free loopback port, in a
//! temp directory, and always stopped): the fault suite of tests/etcd.rs
//! for Node's zookeeperLease layout.
//! `cargo test -p snowmint-lease --features zookeeper --test zookeeper`.
#![cfg(feature = "zookeeper")]

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
use snowmint_lease::machine::State;
use snowmint_lease::zookeeper::ZkStore;
use snowmint_lease::{Code, LeaseError};

/// A standalone ZooKeeper of this test's own (tickTime 500 ms: session
/// timeouts from 1 s to 10 s).
struct Server {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl Server {
    fn start() -> Server {
        let port = common::free_port();
        let dir = common::temp_dir("zookeeper", port);
        let cfg = format!(
            "tickTime=500\ndataDir={}\nclientPort={port}\nclientPortAddress=127.0.0.1\nmaxClientCnxns=0\nforceSync=no\nadmin.enableServer=false\n4lw.commands.whitelist=srvr\n",
            dir.join("data").display()
        );
        std::fs::write(dir.join("zoo.cfg"), cfg).unwrap();
        let mut s = Server {
            port,
            dir,
            child: None,
        };
        s.spawn();
        s
    }

    fn spawn(&mut self) {
        let child = Command::new("java")
            .args(["-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"])
            .args([
                "-cp",
                "/usr/share/java/zookeeper.jar:/usr/share/java/slf4j-nop.jar",
            ])
            .arg("org.apache.zookeeper.server.ZooKeeperServerMain")
            .arg(self.dir.join("zoo.cfg"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("java and Debian's zookeeper (scripts/setup.d/55-zookeeper.sh)");
        self.child = Some(child);
        // A JVM on a loaded two-core machine has taken over 30 s to start.
        let end = Instant::now() + Duration::from_secs(90);
        // 'srvr' names the mode only once the database is loaded and requests are served.
        while !self.srvr().is_ok_and(|r| r.contains("Mode: standalone")) {
            assert!(Instant::now() < end, "ZooKeeper did not come up");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn srvr(&self) -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(1)))?;
        s.write_all(b"srvr")?;
        let mut reply = String::new();
        s.read_to_string(&mut reply)?;
        Ok(reply)
    }

    /// Deletes `path`, as ZooKeeper does when the session that made it ends.
    async fn delete(&self, path: &str) {
        let c = zookeeper_client::Client::connect(&format!("127.0.0.1:{}", self.port))
            .await
            .unwrap();
        c.delete(path, None).await.unwrap();
    }

    /// Killed and its data directory emptied (`spawn` starts it again,
    /// empty, on the same port).
    fn kill_and_wipe(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(self.dir.join("data")).unwrap();
    }

    fn store(&self, path: &str) -> ZkStore {
        ZkStore::new(&format!("zk://127.0.0.1:{}/{path}", self.port), "unused").unwrap()
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
async fn a_fresh_zookeeper_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark() {
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
            .contains("all 2 worker IDs (0..1) of the zookeeper lease at /fresh"),
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
async fn a_deleted_worker_znode_is_lost_by_its_holder_and_the_next_claim_starts_after_its_bound() {
    let server = Server::start();
    let a = Lease::acquire(server.store("deleted"), config(0..=0))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let covered = a.status().covered_ms;
    server.delete("/deleted/worker/0").await;
    // Its next renewal finds the znode gone: lost, then claimed again, after what it covered.
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
    a.release(None).await.unwrap();
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
    // The next holder of worker 0 is a new one or `a` claiming again (in a
    // new session: the rebuilt server never answers the old one), whichever
    // claims first: either way it waits one TTL and starts after every tick
    // `a` could have minted.
    let start = match Lease::acquire(server.store("loss"), config(0..=0)).await {
        Ok(b) => {
            assert_eq!(b.worker_id(), 0);
            assert!(
                t.elapsed() >= Duration::from_millis(TIMING.ttl_ms - 100),
                "the claim on an emptied store waits one TTL"
            );
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_is_refused_or_reported() {
    let server = Server::start();
    for (by, side) in [(5_000, "ahead of"), (-5_000, "behind")] {
        let e = skewed(&server, by, true).await.0.unwrap_err();
        assert_eq!(e.code(), Code::ClockSkew, "{e}");
        assert!(
            e.message().contains(&format!(
                "ms {side} the ZooKeeper server's clock (znode mtime)"
            )),
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
