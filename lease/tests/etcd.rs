//! The Rust etcd driver against a real etcd (Debian's etcd-server, started
//! here on free loopback ports, in a temp directory, and always stopped):
//! the fault scenarios of common/scenarios.rs for Node's etcdLease layout.
//! `cargo test -p snowmint-lease --features etcd --test etcd`.
#![cfg(feature = "etcd")]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scenarios::{self, TestStore};
use snowmint_lease::etcd::EtcdStore;

/// A one-member etcd cluster of this test's own.
struct Server {
    port: u16,
    peer: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl Server {
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
}

impl TestStore for Server {
    type Store = EtcdStore;
    const KIND: &'static str = "etcd";
    const SERVER_CLOCK: Option<&'static str> = None;
    const RENEWAL_SEES_A_WIPED_STORE: bool = true;

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

    /// Killed and its data directory emptied (`spawn` starts it again,
    /// empty, on the same ports).
    fn kill_and_wipe(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(self.dir.join("data")).unwrap();
    }

    async fn store(&self, prefix: &str) -> EtcdStore {
        EtcdStore::new(&format!("etcd://127.0.0.1:{}", self.port), prefix).unwrap()
    }

    fn place(prefix: &str) -> String {
        format!("{prefix}/")
    }

    /// Deletes the key, as etcd does when the etcd lease that holds it ends.
    async fn delete_worker(&self, prefix: &str, id: u32) {
        use base64::Engine as _;
        let key = base64::engine::general_purpose::STANDARD.encode(format!("{prefix}/worker/{id}"));
        let r = self
            .http(
                "POST",
                "/v3/kv/deleterange",
                &format!("{{\"key\":\"{key}\"}}"),
            )
            .unwrap();
        assert!(r.contains("\"deleted\":\"1\""), "{r}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound() {
    scenarios::a_killed_holders_worker_id_waits_for_its_ttl_and_resumes_above_its_bound::<Server>()
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_on_an_empty_data_dir_under_a_holder() {
    scenarios::a_restart_on_an_empty_data_dir_under_a_holder::<Server>().await;
}

/// etcd has no clock: a holder is compared with its live peers' reports,
/// so these tests start with a peer on the right time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_its_peers_is_refused_or_reported() {
    scenarios::a_new_holder_5s_off_is_refused_or_reported::<Server>().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back() {
    scenarios::a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back::<Server>().await;
}
