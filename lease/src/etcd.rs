//! The etcd store (feature `etcd`): the keys and transactions of Node's
//! `etcdLease` (npm/src/lease/etcd.js), so Rust and Node holders share one
//! etcd safely.
//!
//! - `{prefix}/worker/<id>`: the holder's token, under an etcd lease of the
//!   TTL (whole seconds, rounded up), created only where no key is (a
//!   transaction on `create_revision == 0`). A renewal keeps that etcd lease
//!   alive, then records the bound only while the key still holds the token.
//! - `{prefix}/hwm/<id>`: the high-water bound, a plain key.
//! - `{prefix}/data` and `{prefix}/young`: made by the first claim on an
//!   etcd without them, `young` under an etcd lease of one TTL. An etcd
//!   rebuilt from nothing lost the bounds with the marker: a claim that finds
//!   no bound for its worker ID waits out what is left of `young`.
//! - `{prefix}/clock/<id>`: the holder's clock as its renewal was sent, and
//!   how old that report may get, under its etcd lease. etcd has no clock to
//!   read, so holders compare clocks with their peers only.
//!
//! # The client
//!
//! etcd's v3 JSON gateway, on the client port of every etcd since 3.4 under
//! `/v3/` (3.3 served `/v3beta/`, which 3.5 dropped): `POST /v3/kv/txn`,
//! `/v3/kv/range`, `/v3/lease/grant`, `/v3/lease/keepalive`,
//! `/v3/kv/lease/timetolive` (the path 3.4 and 3.5 both serve),
//! `/v3/lease/revoke`, with base64 keys and values, over HTTP/1.1 with
//! hyper's client connection (hyper is already the ID server's HTTP stack),
//! `serde_json` and `base64`. Not the gRPC crate `etcd-client`: it needs
//! `protoc` to build and brings tonic and prost, a heavy build for the seven
//! calls a lease makes. Plain HTTP only: reach an etcd that requires TLS
//! through a local TLS proxy.

use std::collections::{HashMap, VecDeque};
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use serde_json::{Value, json};

use crate::driver::{Extended, Store, StoreFuture};
use crate::error::{Code, LeaseError};
use crate::machine::{Claim, PeerReading, Readings, Timing};

mod gateway;

use gateway::{Gateway, absent, b64, holds, int, io, kvs, put, range_end};

/// Peers' reports read per renewal (the first by key), so renewals stay
/// cheap in a large fleet: Node's `PEER_SAMPLE`.
pub const PEER_SAMPLE: usize = 16;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How old this holder's clock report may get: the longest of its last
/// gaps between reports, at least the renewal period plus the round trips
/// (npm/src/lease/etcd.js, `reportAge`).
#[derive(Default)]
struct ReportAge {
    gaps: VecDeque<f64>,
    last_sent: Option<Instant>,
}

impl ReportAge {
    /// The age bound of the report of a renewal sent at `sent` whose first
    /// round trip took `rtt_ms`: the next one is sent a gap later and lands
    /// two round trips after.
    fn bound(&mut self, sent: Instant, rtt_ms: f64, renew_ms: u64) -> f64 {
        if let Some(last) = self.last_sent {
            self.gaps
                .push_back(sent.duration_since(last).as_secs_f64() * 1000.0);
        }
        if self.gaps.len() > 8 {
            self.gaps.pop_front();
        }
        self.last_sent = Some(sent);
        let longest = self.gaps.iter().copied().fold(0.0, f64::max);
        (longest.max(renew_ms as f64 + 3.0 * rtt_ms) + 2.0 * rtt_ms).ceil()
    }
}

/// A lease store in etcd (v3 API, 3.4 or later) under a key prefix.
pub struct EtcdStore {
    gateway: Gateway,
    prefix: String,
    timing: Timing,
    /// The etcd lease behind the current claim (a new one per claim).
    granted: Mutex<Option<i64>>,
    reports: Mutex<ReportAge>,
}

impl std::fmt::Debug for EtcdStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EtcdStore")
            .field("endpoints", &self.gateway.endpoints)
            .field("prefix", &self.prefix)
            .finish()
    }
}

impl EtcdStore {
    /// A store at `url` (`etcd://host:port`, or `http://`; several members
    /// separated by commas, tried in turn), its keys under `{prefix}/`
    /// (Node's default prefix is `snowmint`). No I/O until the first claim.
    pub fn new(url: &str, prefix: &str) -> Result<Self, LeaseError> {
        let invalid = |why: &str| {
            LeaseError::new(
                Code::InvalidOption,
                format!("etcd URL '{url}': {why} (expected etcd://HOST:PORT[,HOST:PORT…])"),
            )
        };
        let rest = match url.split_once("://") {
            Some(("etcd" | "http", rest)) => rest,
            Some(("etcds" | "https", _)) => {
                return Err(invalid(
                    "TLS is not built in: reach etcd through a local TLS proxy",
                ));
            }
            _ => return Err(invalid("an unknown scheme")),
        };
        let endpoints: Vec<String> = rest
            .trim_end_matches('/')
            .split(',')
            .map(|e| e.trim().to_string())
            .collect();
        if endpoints.iter().any(|e| e.is_empty() || e.contains('/')) {
            return Err(invalid("a member that is not HOST:PORT"));
        }
        Ok(EtcdStore {
            gateway: Gateway {
                endpoints,
                conn: tokio::sync::Mutex::new((0, None)),
            },
            prefix: prefix.to_string(),
            timing: Timing::default(),
            granted: Mutex::new(None),
            reports: Mutex::new(ReportAge::default()),
        })
    }

    fn key(&self, what: &str, id: u32) -> String {
        format!("{}/{what}/{id}", self.prefix)
    }

    fn ttl_seconds(&self) -> u64 {
        self.timing.ttl_ms.div_ceil(1000).max(1)
    }

    async fn txn(&self, compare: Value, success: Vec<Value>) -> Result<bool, LeaseError> {
        let body = json!({ "compare": [compare], "success": success });
        let r = self.gateway.post("/v3/kv/txn", &body).await?;
        Ok(r["succeeded"].as_bool().unwrap_or(false))
    }

    async fn get(&self, key: &str) -> Result<Option<(String, Value)>, LeaseError> {
        let r = self
            .gateway
            .post("/v3/kv/range", &json!({ "key": b64(key) }))
            .await?;
        Ok(kvs(&r).next().map(|(_, v, kv)| (v, kv.clone())))
    }

    /// Every key under `prefix` (at most `limit`, 0: all), with its value.
    async fn scan(
        &self,
        prefix: &str,
        limit: usize,
        keys_only: bool,
    ) -> Result<Vec<(String, String)>, LeaseError> {
        let body = json!({
            "key": b64(prefix),
            "range_end": STANDARD.encode(range_end(prefix)),
            "limit": limit.to_string(),
            "keys_only": keys_only,
        });
        let r = self.gateway.post("/v3/kv/range", &body).await?;
        Ok(kvs(&r).map(|(k, v, _)| (k, v)).collect())
    }

    async fn grant(&self) -> Result<i64, LeaseError> {
        let body = json!({ "TTL": self.ttl_seconds().to_string() });
        let r = self.gateway.post("/v3/lease/grant", &body).await?;
        int(&r["ID"]).ok_or_else(|| io(format!("a lease grant without an ID: {r}")))
    }

    /// Best effort: an etcd lease not revoked expires on its own anyway.
    async fn revoke(&self, lease: i64) {
        let body = json!({ "ID": lease.to_string() });
        let _ = self.gateway.post("/v3/lease/revoke", &body).await;
    }

    /// Ms left of the first TTL of the store's data: makes the marker (and
    /// `young`, with that TTL) where there is none. Asked after the claim,
    /// so a loss before it shows (a loss after it takes our key and fails
    /// the renewal).
    async fn young_ms(&self) -> Result<u64, LeaseError> {
        let (marker, young) = (
            format!("{}/data", self.prefix),
            format!("{}/young", self.prefix),
        );
        if self.get(&marker).await?.is_none() {
            let lease = self.grant().await?;
            let made = self
                .txn(
                    absent(&marker),
                    vec![
                        put(&marker, &self.timing.ttl_ms.to_string(), None),
                        put(&young, "1", Some(lease)),
                    ],
                )
                .await?;
            if made {
                return Ok(self.timing.ttl_ms);
            }
            self.revoke(lease).await; // another claimant made them first
        }
        let Some((_, kv)) = self.get(&young).await? else {
            return Ok(0);
        };
        let Some(lease) = int(&kv["lease"]) else {
            return Ok(0);
        };
        let body = json!({ "ID": lease.to_string() });
        let r = self.gateway.post("/v3/kv/lease/timetolive", &body).await?;
        // etcd counts whole seconds, truncated: the lease ends within TTL + 1 s.
        let left = int(&r["TTL"]).unwrap_or(-1);
        let granted = int(&r["grantedTTL"]).unwrap_or(0);
        Ok(if left < 0 {
            0
        } else {
            granted.min(left + 1) as u64 * 1000
        })
    }

    async fn claim_in(&self, order: &[u32], token: &str) -> Result<Option<Claim>, LeaseError> {
        let old = lock(&self.granted).take();
        if let Some(old) = old {
            self.revoke(old).await;
        }
        let lease = self.grant().await?;
        // Skip the keys that exist now: one transaction per claim, not one per taken ID.
        let taken: std::collections::HashSet<String> = self
            .scan(&format!("{}/worker/", self.prefix), 0, true)
            .await?
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        for &id in order {
            let key = self.key("worker", id);
            if taken.contains(&key) {
                continue;
            }
            if self
                .txn(absent(&key), vec![put(&key, token, Some(lease))])
                .await?
            {
                *lock(&self.granted) = Some(lease);
                let bound = self.get(&self.key("hwm", id)).await?;
                let wait_ms = self.young_ms().await?;
                return Ok(Some(Claim {
                    worker_id: id,
                    bound: bound
                        .as_ref()
                        .and_then(|(v, _)| v.parse::<f64>().ok())
                        .map_or(0, |b| b as u64),
                    wait_ms: if bound.is_none() { wait_ms } else { 0 },
                }));
            }
        }
        self.revoke(lease).await;
        Ok(None)
    }

    async fn extend_in(
        &self,
        id: u32,
        token: &str,
        bound: u64,
        clock_ms: u64,
    ) -> Result<Extended, LeaseError> {
        let Some(lease) = *lock(&self.granted) else {
            return Ok(Extended::NotOurs);
        };
        let sent = Instant::now();
        let body = json!({ "ID": lease.to_string() });
        let r = self.gateway.post("/v3/lease/keepalive", &body).await?;
        // An expired or revoked etcd lease answers without a TTL.
        if int(&r["result"]["TTL"]).unwrap_or(0) <= 0 {
            return Ok(Extended::NotOurs);
        }
        let rtt_ms = sent.elapsed().as_secs_f64() * 1000.0;
        let age_max_ms = lock(&self.reports).bound(sent, rtt_ms, self.timing.renew_ms);
        let recorded = self
            .txn(
                holds(&self.key("worker", id), token),
                vec![
                    put(&self.key("hwm", id), &bound.to_string(), None),
                    put(
                        &self.key("clock", id),
                        &format!("{clock_ms} {age_max_ms}"),
                        Some(lease),
                    ),
                ],
            )
            .await?;
        if !recorded {
            return Ok(Extended::NotOurs);
        }
        let clocks = format!("{}/clock/", self.prefix);
        let peers = self
            .scan(&clocks, PEER_SAMPLE + 1, false)
            .await?
            .into_iter()
            .filter_map(|(k, v)| {
                let worker_id = k.strip_prefix(&clocks)?.parse().ok()?;
                let mut parts = v.split(' ').map(|x| x.parse::<f64>().ok());
                Some(PeerReading {
                    worker_id,
                    clock_ms: parts.next()??,
                    server_ms: None,
                    age_max_ms: Some(parts.next()??),
                })
            })
            .filter(|p| p.worker_id != id)
            .take(PEER_SAMPLE)
            .collect();
        Ok(Extended::Held(Some(Readings {
            server: None,
            peers,
        })))
    }

    async fn release_in(&self, id: u32, token: &str, hwm: Option<u64>) -> Result<(), LeaseError> {
        let key = self.key("worker", id);
        let mut then = vec![json!({ "request_delete_range": { "key": b64(&key) } })];
        if let Some(hwm) = hwm {
            then.push(put(&self.key("hwm", id), &hwm.to_string(), None));
        }
        let done = self.txn(holds(&key, token), then).await;
        let old = lock(&self.granted).take();
        if let Some(old) = old {
            self.revoke(old).await;
        }
        done.map(|_| ())
    }
}

impl Store for EtcdStore {
    fn kind(&self) -> &'static str {
        "etcd"
    }

    fn place(&self) -> String {
        format!("{}/", self.prefix)
    }

    fn bounds(&self) -> StoreFuture<'_, HashMap<u32, u64>> {
        Box::pin(async move {
            let hwm = format!("{}/hwm/", self.prefix);
            Ok(self
                .scan(&hwm, 0, false)
                .await?
                .into_iter()
                .filter_map(|(k, v)| {
                    let id = k.strip_prefix(&hwm)?.parse().ok()?;
                    Some((id, v.parse::<f64>().ok()? as u64))
                })
                .collect())
        })
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
        token: &'a str,
        hwm: Option<u64>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.release_in(worker_id, token, hwm))
    }

    fn set_timing(&mut self, timing: Timing) {
        self.timing = timing;
    }
}

#[cfg(test)]
mod tests;
