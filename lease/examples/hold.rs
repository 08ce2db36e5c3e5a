//! A Rust service with zero configuration: leases a worker ID on this host
//! (`SNOWMINT_LEASE_DIR`, else `<tmpdir>/snowmint-leases-<user>`, the
//! directory Node's zero-config `nextId()` uses), prints it as
//! `{"workerId":N}`, mints Twitter-layout Snowflakes until a line `stop` (or
//! the end of stdin), writes them to the file given as the first argument
//! (little-endian u64s) if any, and frees the worker ID.
//! `cargo run -p snowmint-lease --example hold`; used by
//! tests/lease/rust-node.test.js.

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use snowmint::snowflake::Layout;
use snowmint_lease::{Error, LeaseOptions, LocalLease};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let ids = LocalLease::acquire(LeaseOptions::new())?.snowflake(Layout::TWITTER)?;
    println!("{{\"workerId\":{}}}", ids.worker_id());
    std::io::stdout().flush()?;

    let stop = Arc::new(AtomicBool::new(false));
    let stopper = Arc::clone(&stop);
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            if line.map_or(true, |l| l.trim() == "stop") {
                break;
            }
        }
        stopper.store(true, Ordering::Relaxed);
    });

    let mut minted = Vec::new();
    while !stop.load(Ordering::Relaxed) {
        for _ in 0..1000 {
            match ids.next() {
                Ok(id) => minted.push(id),
                // A deleted lock file: this call's ID was dropped, the lease re-claims.
                Err(Error::Lease(e)) if e.code() == snowmint_lease::Code::Lost => {}
                Err(e) => return Err(e.into()),
            }
        }
    }
    if let Some(out) = std::env::args().nth(1) {
        let bytes: Vec<u8> = minted.iter().flat_map(|id| id.to_le_bytes()).collect();
        std::fs::write(out, bytes)?;
    }
    ids.release()?;
    Ok(())
}
