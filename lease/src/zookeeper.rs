//! The ZooKeeper store (feature `zookeeper`): the znodes of Node's
//! `zookeeperLease` (npm/src/lease/zookeeper.js), so Rust and Node holders
//! share one ZooKeeper safely.
//!
//! - `<path>/worker/<id>`: an ephemeral znode (data: the holder's token and
//!   its last reported clock), deleted by ZooKeeper when the holder's
//!   session ends. A renewal is one transaction: a versioned setData on it
//!   (it fails once the znode is gone or someone else's: that fences) and
//!   the new bound. Its mtime is the server's clock at that write, so each
//!   renewal also measures the holder's clock against ZooKeeper's.
//! - `<path>/hwm/<id>`: the high-water bound, a persistent znode.
//! - `<path>/data`: the marker (its data: the TTL), made by the first claim
//!   of a session; a claim that finds no bound waits until its ctime plus
//!   that TTL, both on the server's clock (a server rebuilt from an empty
//!   data directory lost the bounds with it).
//!
//! A session ends when the client says so (expired, closed) or, as Curator
//! decides it, after a disconnection longer than the session timeout (a
//! server rebuilt from nothing never answers the old session); a claim then
//! opens a new one. The session timeout is the lease's TTL.
//!
//! The client is kezhuw's `zookeeper-client` (async, with multi-op
//! transactions and ephemeral znodes), whose tasks run on the current tokio
//! runtime through `asyncs`' tokio compat.

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use zookeeper_client as zk;

use crate::driver::{Extended, Store, StoreFuture};
use crate::error::{Code, LeaseError};
use crate::machine::{Claim, PeerReading, Readings, Timing};

mod session;
mod znode;

use session::Session;
use znode::{not_ours, persistent};

/// Peers' znodes read per renewal, so renewals stay cheap in a large fleet.
pub const PEER_SAMPLE: usize = 16;

/// The name of the server's clock in skew messages (Node's).
const SERVER_CLOCK: &str = "ZooKeeper server's clock (znode mtime)";

fn io(e: impl std::fmt::Display) -> LeaseError {
    LeaseError::new(Code::Io, format!("zookeeper: {e}"))
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Our worker znode and its data version (only our writes move it).
#[derive(Clone, Copy)]
struct Held {
    id: u32,
    version: i32,
}

/// A lease store in ZooKeeper (3.5 or later) under a znode path.
pub struct ZkStore {
    hosts: String,
    root: String,
    timing: Timing,
    session: Mutex<Session>,
    held: Mutex<Option<Held>>,
    /// The session that made the lease's directories.
    ensured: Mutex<Option<zk::SessionId>>,
}

impl std::fmt::Debug for ZkStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ZkStore")
            .field("hosts", &self.hosts)
            .field("root", &self.root)
            .finish()
    }
}

impl ZkStore {
    /// A store at `url` (`zk://HOST:PORT[,HOST:PORT…][/path]`); the znodes
    /// live under the URL's path, else `/{prefix}` (Node's default path is
    /// `/snowmint`). No I/O until the first claim.
    pub fn new(url: &str, prefix: &str) -> Result<Self, LeaseError> {
        let invalid = |why: &str| {
            LeaseError::new(
                Code::InvalidOption,
                format!(
                    "ZooKeeper URL '{url}': {why} (expected zk://HOST:PORT[,HOST:PORT…][/path])"
                ),
            )
        };
        let rest = url
            .strip_prefix("zk://")
            .ok_or_else(|| invalid("an unknown scheme"))?;
        let (hosts, path) = match rest.find('/') {
            Some(i) => (&rest[..i], rest[i..].trim_end_matches('/').to_string()),
            None => (rest, String::new()),
        };
        let root = if path.is_empty() {
            format!("/{prefix}")
        } else {
            path
        };
        if hosts.is_empty() || hosts.split(',').any(|h| h.trim().is_empty()) {
            return Err(invalid("a member that is not HOST:PORT"));
        }
        if root.len() < 2 || root.ends_with('/') || root.contains("//") {
            return Err(invalid("a path that is not an absolute znode path"));
        }
        Ok(ZkStore {
            hosts: hosts.to_string(),
            root,
            timing: Timing::default(),
            session: Mutex::new(Session::default()),
            held: Mutex::new(None),
            ensured: Mutex::new(None),
        })
    }

    fn path(&self, what: &str, id: u32) -> String {
        format!("{}/{what}/{id}", self.root)
    }

    async fn claim_in(&self, order: &[u32], token: &str) -> Result<Option<Claim>, LeaseError> {
        let client = self.for_claim().await?;
        let root = &self.root;
        // Once per session: a server that lost its data also ended every session.
        if *lock(&self.ensured) != Some(client.session_id()) {
            client
                .mkdir(&format!("{root}/worker"), &persistent())
                .await
                .map_err(io)?;
            Self::ensure(&client, &format!("{root}/hwm"), "").await?;
            // The marker: its ctime is when the store's data began.
            Self::ensure(
                &client,
                &format!("{root}/data"),
                &self.timing.ttl_ms.to_string(),
            )
            .await?;
            *lock(&self.ensured) = Some(client.session_id());
        }
        let taken = Self::children(&client, &format!("{root}/worker")).await?;
        let ephemeral = zk::CreateMode::Ephemeral.with_acls(zk::Acls::anyone_all());
        for &id in order {
            if taken.contains(&id) {
                continue;
            }
            let worker = self.path("worker", id);
            let (mine, _) = match client.create(&worker, token.as_bytes(), &ephemeral).await {
                Ok(made) => made,
                Err(zk::Error::NodeExists) => continue,
                Err(e) => return Err(io(e)),
            };
            *lock(&self.held) = Some(Held { id, version: 0 });
            let hwm = self.path("hwm", id);
            let bound = Self::get(&client, &hwm).await?;
            let marker = Self::get(&client, &format!("{root}/data")).await?;
            if bound.is_none() {
                Self::ensure(&client, &hwm, "").await?;
            }
            // The rest of the first TTL since the marker's birth, at the claim:
            // both on the server's clock.
            let wait_ms = match (&bound, marker) {
                (None, Some((ttl, born))) => {
                    let ttl: i64 = ttl.parse().unwrap_or(0);
                    (born.ctime + ttl - mine.ctime).max(0) as u64
                }
                _ => 0,
            };
            let bound = bound
                .and_then(|(b, _)| b.parse::<f64>().ok())
                .unwrap_or(0.0);
            return Ok(Some(Claim {
                worker_id: id,
                bound: bound as u64,
                wait_ms,
            }));
        }
        Ok(None)
    }

    /// The renewal's transaction: our znode's data at its version, then the bound.
    async fn write(
        client: &zk::Client,
        worker: &str,
        hwm: &str,
        data: &str,
        version: i32,
        bound: u64,
    ) -> Result<zk::Stat, zk::Error> {
        let mut txn = client.new_multi_writer();
        txn.add_set_data(worker, data.as_bytes(), Some(version))?;
        txn.add_set_data(hwm, bound.to_string().as_bytes(), None)?;
        let results = txn.commit().await.map_err(zk::Error::from)?;
        match results.into_iter().next() {
            Some(zk::MultiWriteResult::SetData { stat }) => Ok(stat),
            other => Err(zk::Error::UnexpectedError(format!(
                "a renewal answered {other:?}"
            ))),
        }
    }

    async fn extend_in(
        &self,
        id: u32,
        token: &str,
        bound: u64,
        clock_ms: u64,
    ) -> Result<Extended, LeaseError> {
        let Some(held) = *lock(&self.held) else {
            return Ok(Extended::NotOurs);
        };
        if held.id != id || self.ended() {
            return Ok(Extended::NotOurs);
        }
        let client = self.client()?;
        let (worker, hwm) = (self.path("worker", id), self.path("hwm", id));
        let data = format!("{token} {clock_ms}");
        let stat = match Self::write(&client, &worker, &hwm, &data, held.version, bound).await {
            Ok(stat) => stat,
            // A renewal that timed out for the lease may still have landed
            // (a request is sent when made): the znode is still ours if it
            // holds our token; retry on its version.
            Err(zk::Error::BadVersion) => match Self::get(&client, &worker).await? {
                Some((text, stat)) if text.split(' ').next() == Some(token) => {
                    match Self::write(&client, &worker, &hwm, &data, stat.version, bound).await {
                        Ok(stat) => stat,
                        Err(e) if not_ours(&e) => return Ok(Extended::NotOurs),
                        Err(e) => return Err(io(e)),
                    }
                }
                _ => return Ok(Extended::NotOurs),
            },
            Err(e) if not_ours(&e) => return Ok(Extended::NotOurs),
            Err(e) => return Err(io(e)),
        };
        *lock(&self.held) = Some(Held {
            id,
            version: stat.version,
        });
        Ok(Extended::Held(Some(Readings {
            server: Some((SERVER_CLOCK.into(), stat.mtime as f64)),
            peers: self.peers(&client, id).await?,
        })))
    }

    /// The last reports of up to [`PEER_SAMPLE`] other live holders: their
    /// clock and the server's when they wrote it.
    async fn peers(&self, client: &zk::Client, own: u32) -> Result<Vec<PeerReading>, LeaseError> {
        let mut ids = Self::children(client, &format!("{}/worker", self.root)).await?;
        ids.retain(|&id| id != own);
        // A different sample each renewal: start at a position of the moment.
        if ids.len() > PEER_SAMPLE {
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.subsec_nanos() as usize);
            let start = nanos % ids.len();
            ids.rotate_left(start);
            ids.truncate(PEER_SAMPLE);
        }
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            // A peer that has not reported yet (just claimed) has no clock to compare.
            if let Some((text, stat)) = Self::get(client, &self.path("worker", id)).await?
                && stat.version > 0
                && let Some(clock_ms) = text.split(' ').nth(1).and_then(|c| c.parse().ok())
            {
                out.push(PeerReading {
                    worker_id: id,
                    clock_ms,
                    server_ms: Some(stat.mtime as f64),
                    age_max_ms: None,
                });
            }
        }
        Ok(out)
    }

    async fn release_in(&self, id: u32, hwm: Option<u64>) -> Result<(), LeaseError> {
        let held = lock(&self.held).take();
        let result = match held {
            Some(held) if held.id == id && !self.ended() => {
                let client = self.client()?;
                let mut txn = client.new_multi_writer();
                let ops = hwm
                    .map_or(Ok(()), |h| {
                        txn.add_set_data(&self.path("hwm", id), h.to_string().as_bytes(), None)
                    })
                    .and_then(|()| txn.add_delete(&self.path("worker", id), Some(held.version)));
                match ops {
                    Ok(()) => {
                        // Closing the session frees the worker ID anyway, once it reaches the server.
                        let ttl = Duration::from_millis(self.timing.ttl_ms);
                        match tokio::time::timeout(ttl, txn.commit()).await {
                            Ok(Err(e)) => {
                                let e = zk::Error::from(e);
                                // Not ours any more: nothing to free.
                                if not_ours(&e) { Ok(()) } else { Err(io(e)) }
                            }
                            _ => Ok(()),
                        }
                    }
                    Err(e) => Err(io(e)),
                }
            }
            _ => Ok(()),
        };
        let client = lock(&self.session).client.take();
        if let Some(client) = client {
            drop(client); // the last clone: the session is closed
        }
        result
    }

    async fn bounds_in(&self) -> Result<HashMap<u32, u64>, LeaseError> {
        let client = self.for_claim().await?;
        let root = &self.root;
        let used = Self::children(&client, &format!("{root}/hwm")).await?;
        let taken = Self::children(&client, &format!("{root}/worker")).await?;
        // Only the free worker IDs' bounds (one read each): a taken one cannot be claimed anyway.
        let mut out = HashMap::new();
        for id in used.into_iter().filter(|id| !taken.contains(id)) {
            if let Some((text, _)) = Self::get(&client, &self.path("hwm", id)).await? {
                out.insert(id, text.parse::<f64>().unwrap_or(0.0) as u64);
            }
        }
        Ok(out)
    }
}

impl Store for ZkStore {
    fn kind(&self) -> &'static str {
        "zookeeper"
    }

    fn place(&self) -> String {
        self.root.clone()
    }

    fn bounds(&self) -> StoreFuture<'_, HashMap<u32, u64>> {
        Box::pin(self.bounds_in())
    }

    fn claim<'a>(
        &'a self,
        order: &'a [u32],
        token: &'a str,
        _ttl_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(self.claim_in(order, token))
    }

    fn extend<'a>(
        &'a self,
        worker_id: u32,
        token: &'a str,
        bound: u64,
        clock_ms: u64,
        _ttl_ms: u64,
    ) -> StoreFuture<'a, Extended> {
        Box::pin(self.extend_in(worker_id, token, bound, clock_ms))
    }

    fn release<'a>(
        &'a self,
        worker_id: u32,
        _token: &'a str,
        hwm: Option<u64>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.release_in(worker_id, hwm))
    }

    fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }
}

#[cfg(test)]
mod tests;
