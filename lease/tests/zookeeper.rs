//! The Rust ZooKeeper driver against a real ZooKeeper (Debian's jars run
//! with java as tests/lease/servers.js does, on a free loopback port, in a
//! temp directory, and always stopped): the fault scenarios of
//! common/scenarios.rs for Node's zookeeperLease layout.
//! `cargo test -p snowmint-lease --features zookeeper --test zookeeper`.
#![cfg(feature = "zookeeper")]

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::scenarios::{self, TestStore};
use snowmint_lease::zookeeper::ZkStore;

/// A standalone ZooKeeper of this test's own (tickTime 500 ms: session
/// timeouts from 1 s to 10 s).
struct Server {
    port: u16,
    dir: PathBuf,
    child: Option<Child>,
}

impl Server {
    fn srvr(&self) -> std::io::Result<String> {
        let mut s = TcpStream::connect(("127.0.0.1", self.port))?;
        s.set_read_timeout(Some(Duration::from_secs(1)))?;
        s.write_all(b"srvr")?;
        let mut reply = String::new();
        s.read_to_string(&mut reply)?;
        Ok(reply)
    }
}

impl TestStore for Server {
    type Store = ZkStore;
    const KIND: &'static str = "zookeeper";
    const SERVER_CLOCK: Option<&'static str> = Some("ZooKeeper server's clock (znode mtime)");
    const RENEWAL_SEES_A_WIPED_STORE: bool = false;

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

    /// Killed and its data directory emptied (`spawn` starts it again,
    /// empty, on the same port).
    fn kill_and_wipe(&mut self) {
        let mut child = self.child.take().unwrap();
        child.kill().unwrap();
        child.wait().unwrap();
        std::fs::remove_dir_all(self.dir.join("data")).unwrap();
    }

    async fn store(&self, path: &str) -> ZkStore {
        ZkStore::new(&format!("zk://127.0.0.1:{}/{path}", self.port), "unused").unwrap()
    }

    fn place(path: &str) -> String {
        format!("/{path}")
    }

    /// Deletes the znode, as ZooKeeper does when the session that made it ends.
    async fn delete_worker(&self, prefix: &str, id: u32) {
        let c = zookeeper_client::Client::connect(&format!("127.0.0.1:{}", self.port))
            .await
            .unwrap();
        c.delete(&format!("/{prefix}/worker/{id}"), None)
            .await
            .unwrap();
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
    scenarios::a_fresh_store_waits_one_ttl_then_distinct_ids_and_the_release_records_the_mark::<
        Server,
    >()
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deleted_worker_znode_is_lost_by_its_holder_and_the_next_claim_starts_after_its_bound() {
    let server = Server::start();
    let a =
        scenarios::a_deleted_worker_key_is_lost_and_claimed_again_after_its_bound(&server).await;
    a.release(None).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_on_an_empty_data_dir_under_a_holder() {
    scenarios::a_restart_on_an_empty_data_dir_under_a_holder::<Server>().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_holder_5s_off_is_refused_or_reported() {
    scenarios::a_new_holder_5s_off_is_refused_or_reported::<Server>().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back() {
    scenarios::a_held_lease_whose_clock_jumps_5s_is_fenced_until_it_is_back::<Server>().await;
}
