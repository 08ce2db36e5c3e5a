//! A Rust service leasing a worker ID from a coordinator with this crate's
//! driver: `store_hold <redis://… | etcd://… | zk://…> <prefix> <min> <max>` prints
//! `{"workerId":N,"resumeAfterMs":M}` once the lease is held, keeps it
//! (renewing) until a line `stop` or the end of stdin, then releases it with
//! the current time as its exact high-water mark and prints
//! `{"releasedAt":T}`. Used by tests/lease/rust-node-{redis,etcd,zookeeper}.test.js,
//! where a Node process leases from the same store.
//! `cargo run -p snowmint-lease --features redis,etcd,zookeeper --example store_hold`.

use std::io::BufRead;
use std::time::Duration;

use snowmint::clock::{Clock, SystemClock};
use snowmint_lease::driver::{Lease, LeaseConfig, Store};
use snowmint_lease::etcd::EtcdStore;
use snowmint_lease::machine::Timing;
use snowmint_lease::redis::RedisStore;
use snowmint_lease::zookeeper::ZkStore;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, prefix, min, max] = &args[..] else {
        return Err(
            "usage: store_hold <redis://… | etcd://… | zk://…> <prefix> <min> <max>".into(),
        );
    };
    let config = LeaseConfig {
        range: min.parse()?..=max.parse()?,
        timing: Timing::new(Some(1_500), Some(400), Some(300))?,
        ..LeaseConfig::default()
    };
    if url.starts_with("etcd://") {
        hold(EtcdStore::new(url, prefix)?, config).await
    } else if url.starts_with("zk://") {
        hold(ZkStore::new(url, prefix)?, config).await
    } else {
        let client = redis::Client::open(url.as_str())?;
        hold(RedisStore::connect(client, prefix).await?, config).await
    }
}

async fn hold(store: impl Store, config: LeaseConfig) -> Result<(), Box<dyn std::error::Error>> {
    let lease = Lease::acquire(store, config).await?;
    println!(
        "{{\"workerId\":{},\"resumeAfterMs\":{}}}",
        lease.worker_id(),
        lease.resume_after_ms()
    );
    let (tx, mut rx) = tokio::sync::oneshot::channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            if line.map_or(true, |l| l.trim() == "stop") {
                break;
            }
        }
        let _ = tx.send(());
    });
    // Minting would check every run; here the lease must stay held throughout.
    loop {
        tokio::select! {
            _ = &mut rx => break,
            _ = tokio::time::sleep(Duration::from_millis(50)) => lease.check(SystemClock.now_ms())?,
        }
    }
    let at = SystemClock.now_ms();
    lease.release(Some(at)).await?;
    println!("{{\"releasedAt\":{at}}}");
    Ok(())
}
