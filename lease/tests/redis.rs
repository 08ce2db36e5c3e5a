//! The Rust Redis driver against a real redis-server (Debian's, started
//! here on a free loopback port, in a temp directory, and always stopped):
//! the fault suite of Node's tests/lease/redis.test.js for the same store
//! layout, through the scenarios of common/scenarios.rs, and the data
//! losses only Redis has (`FLUSHALL`).
//! `cargo test -p snowmint-lease --features redis --test redis`.
#![cfg(feature = "redis")]

mod common;

use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scenarios::{self, TestStore};
use common::{TIMING, config, now};
use snowmint_lease::Code;
use snowmint_lease::driver::Lease;
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
        self.kill_and_wipe();
        self.spawn();
    }
}

impl TestStore for Server {
    type Store = RedisStore;
    const KIND: &'static str = "redis";
    const SERVER_CLOCK: Option<&'static str> = Some("Redis server's clock (TIME)");
    const RENEWAL_SEES_A_WIPED_STORE: bool = true;

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

    fn kill_and_wipe(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(&self.dir).unwrap();
        std::fs::create_dir_all(&self.dir).unwrap();
    }

    async fn store(&self, prefix: &str) -> RedisStore {
        RedisStore::connect(self.client(), prefix).await.unwrap()
    }

    fn place(prefix: &str) -> String {
        format!("{{{prefix}}}")
    }

    async fn delete_worker(&self, prefix: &str, id: u32) {
        let mut c = self.client().get_connection().unwrap();
        let deleted: i64 = redis::cmd("DEL")
            .arg(format!("{{{prefix}}}:worker:{id}"))
            .query(&mut c)
            .unwrap();
        assert_eq!(deleted, 1);
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
    scenarios::a_fresh_store_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark::<
        Server,
    >()
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_worker_key_is_lost_by_its_holder_and_the_next_claim_starts_after_its_bound() {
    let server = Server::start();
    let a =
        scenarios::a_deleted_worker_key_is_lost_and_claimed_again_after_its_bound(&server).await;
    scenarios::a_dead_holders_successor_starts_after_its_bound(&server, a).await;
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
    scenarios::a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound::<Server>()
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_is_refused_or_reported() {
    scenarios::a_new_holder_5s_off_is_refused_or_reported::<Server>().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back() {
    scenarios::a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back::<Server>().await;
}
