//! Worker IDs leased from a coordinator (Redis, etcd, ZooKeeper with the
//! feature `zookeeper`): one `snowmint_lease::driver::Lease` per worker
//! thread (the lease rules are the lease crate's state machine, the same one
//! Node's `redisLease`, `etcdLease` and `zookeeperLease` drive, on the same
//! keys), and a generator that hands out only
//! the ticks its lease covers. The leases renew on a runtime of their own,
//! so a busy worker thread never delays a renewal.

use std::sync::{Arc, Mutex, MutexGuard};

use snowmint::clock::{Clock, SystemClock};
use snowmint::snowflake::{AtomicSnowflake, Claim, Layout, OnBackwards};
use snowmint_lease::LeaseError;
use snowmint_lease::driver::{Lease, LeaseConfig};
use snowmint_lease::etcd::EtcdStore;
use snowmint_lease::machine::{SkewLimit, State, Timing};
use snowmint_lease::redis::RedisStore;
use tokio::runtime::Runtime;

use crate::config::Coordinator;
use crate::workers::{LeaseFailure, LeasedIds};

type Generator = AtomicSnowflake<SystemClock>;

/// A worker ID leased from a coordinator, and the generator on it.
pub struct CoordinatorIds {
    lease: Lease,
    layout: Layout,
    max_backwards_ms: u64,
    /// The generator, and the lease's epoch it was built for: after a lost
    /// lease is claimed again (maybe another worker ID), a new one, after
    /// the new claim's start.
    generator: Mutex<(u64, Arc<Generator>)>,
    runtime: Arc<Runtime>,
}

impl std::fmt::Debug for CoordinatorIds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CoordinatorIds")
            .field("lease", &self.lease)
            .finish()
    }
}

/// A coordinator the server leases from, as `--lease` names it.
enum Store {
    /// `redis://…`: one client, a connection per lease.
    Redis(redis::Client),
    /// `etcd://…`: the URL, a connection per lease.
    Etcd(String),
    /// `zk://…`: the URL, a session per lease.
    #[cfg(feature = "zookeeper")]
    Zk(String),
}

impl Store {
    fn open(scheme: &str, url: &str) -> Result<Store, String> {
        match scheme {
            "redis" => redis::Client::open(url)
                .map(Store::Redis)
                .map_err(|e| e.to_string()),
            "etcd" => Ok(Store::Etcd(url.into())),
            #[cfg(feature = "zookeeper")]
            "zk" => Ok(Store::Zk(url.into())),
            #[cfg(not(feature = "zookeeper"))]
            "zk" => Err(
                "this snowmint-server is built without ZooKeeper: build it with --features zookeeper (cargo install snowmint-server --features zookeeper)".into(),
            ),
            _ => Err(format!("no {scheme} lease in snowmint-server")),
        }
    }

    /// A lease of its own on this store.
    async fn lease(&self, prefix: &str, config: LeaseConfig) -> Result<Lease, LeaseError> {
        match self {
            Store::Redis(client) => {
                Lease::acquire(RedisStore::connect(client.clone(), prefix).await?, config).await
            }
            Store::Etcd(url) => Lease::acquire(EtcdStore::new(url, prefix)?, config).await,
            #[cfg(feature = "zookeeper")]
            Store::Zk(url) => {
                let store = snowmint_lease::zookeeper::ZkStore::new(url, prefix)?;
                Lease::acquire(store, config).await
            }
        }
    }
}

/// Claims `workers` worker IDs for `layout` from the coordinator at `url`
/// (`scheme`: `redis`, `etcd` or `zk`, as [`crate::workers::Source`] parsed it).
pub fn acquire(
    scheme: &str,
    url: &str,
    options: &Coordinator,
    workers: usize,
    layout: Layout,
    max_backwards_ms: u64,
) -> Result<Vec<CoordinatorIds>, String> {
    let runtime = Arc::new(
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("snowmint-leases")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?,
    );
    let store = Store::open(scheme, url).map_err(|e| format!("--lease {url}: {e}"))?;
    let config = LeaseConfig {
        range: 0..=layout.max_worker() as u32,
        timing: Timing::new(Some(options.ttl_ms), None, None).map_err(|e| e.to_string())?,
        skew: SkewLimit {
            max_skew_ms: options.max_skew_ms,
            refuse: true,
        },
    };
    let mut out = Vec::with_capacity(workers);
    for _ in 0..workers {
        let lease = runtime.block_on(store.lease(&options.prefix, config.clone()));
        let lease = lease.map_err(|e| format!("--lease {url}: {e}"))?;
        let generator = generator(&lease, layout, max_backwards_ms)?;
        out.push(CoordinatorIds {
            generator: Mutex::new((lease.epoch(), generator)),
            lease,
            layout,
            max_backwards_ms,
            runtime: runtime.clone(),
        });
    }
    Ok(out)
}

/// A generator on the lease's worker ID, minting in ticks after its claim's start.
fn generator(
    lease: &Lease,
    layout: Layout,
    max_backwards_ms: u64,
) -> Result<Arc<Generator>, String> {
    let g = Generator::new(layout, lease.worker_id().into(), SystemClock)
        .and_then(|g| g.resume_after(lease.resume_after_ms()))
        .map_err(|e| e.to_string())?;
    Ok(Arc::new(g.on_backwards(OnBackwards::Wait {
        max_ms: max_backwards_ms,
    })))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn lease_failure(e: snowmint_lease::LeaseError) -> LeaseFailure {
    LeaseFailure {
        code: e.code().as_str(),
        message: e.message().to_string(),
        lease: true,
    }
}

impl CoordinatorIds {
    /// The generator for the lease as it is now.
    fn current(&self) -> Result<Arc<Generator>, LeaseFailure> {
        let mut g = lock(&self.generator);
        let epoch = self.lease.epoch();
        if g.0 != epoch {
            let fresh =
                generator(&self.lease, self.layout, self.max_backwards_ms).map_err(|message| {
                    LeaseFailure {
                        code: "ERR_LEASE_LOST",
                        message,
                        lease: true,
                    }
                })?;
            *g = (epoch, fresh);
        }
        Ok(g.1.clone())
    }
}

impl LeasedIds for CoordinatorIds {
    fn worker_id(&self) -> u64 {
        self.lease.worker_id().into()
    }
    fn layout(&self) -> &Layout {
        &self.layout
    }
    fn claim(&self, max: u64) -> Result<Claim, LeaseFailure> {
        let generator = self.current()?;
        let claim = generator.claim(max).map_err(|e| LeaseFailure {
            code: e.code(),
            message: e.to_string(),
            lease: false,
        })?;
        // Handed out only if the lease covers the tick; else dropped (a gap).
        let tick_ms = self.layout.ms_of_tick(claim.tick);
        self.lease.check(tick_ms).map_err(lease_failure)?;
        self.lease.note_minted(tick_ms);
        Ok(claim)
    }
    fn high_water_ms(&self) -> Option<u64> {
        lock(&self.generator).1.high_water_ms()
    }
    fn seconds_left(&self) -> Option<f64> {
        let covered = self.lease.status().covered_ms;
        Some(covered.saturating_sub(SystemClock.now_ms()) as f64 / 1000.0)
    }
    fn trouble(&self) -> Option<LeaseFailure> {
        let status = self.lease.status();
        let state = match status.state {
            State::Held => None,
            State::New => Some("not claimed yet"),
            State::Pending => Some("claimed, its start still ahead"),
            State::Lost => Some("lost"),
            State::Released => Some("released"),
        };
        if let Some(state) = state {
            return Some(LeaseFailure {
                code: "ERR_LEASE_LOST",
                message: format!(
                    "the lease on worker ID {} is {state}: refusing to mint on it until it is claimed again",
                    self.lease.worker_id()
                ),
                lease: true,
            });
        }
        // Held, but beyond the skew limit: every check refuses.
        status.skew.map(|fault| lease_failure(fault.error))
    }
    fn release(self: Box<Self>) -> Result<(), String> {
        let hwm = self.high_water_ms();
        self.runtime
            .block_on(self.lease.release(hwm))
            .map_err(|e| e.to_string())
    }
}
