//! The Redis store (feature `redis`, the `redis` crate on tokio): the keys
//! and Lua scripts of [`crate::redis_scripts`], the ones Node's
//! `redisLease` sends, so Rust and Node holders share one Redis safely.

use std::collections::HashMap;

use redis::aio::ConnectionManager;
use redis::{Client, Value};

use crate::driver::{Extended, Store, StoreFuture};
use crate::error::{Code, LeaseError};
use crate::machine::{Claim, PeerReading, Readings};
use crate::redis_scripts::{
    BOUNDS, CLAIM, CLAIM_BATCH, EXTEND, Keys, PEER_SAMPLE, RELEASE, SERVER_CLOCK,
};

/// A lease store in Redis (6.2 or later) under a key prefix.
#[derive(Clone)]
pub struct RedisStore {
    conn: ConnectionManager,
    keys: Keys,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("keys", &self.keys.tag)
            .finish()
    }
}

fn io(e: redis::RedisError) -> LeaseError {
    LeaseError::new(Code::Io, format!("redis: {e}"))
}

fn unexpected(what: &str, v: &Value) -> LeaseError {
    LeaseError::new(
        Code::Io,
        format!("redis: unexpected reply to {what}: {v:?}"),
    )
}

/// A reply element as a number (Lua numbers come back as integers, ARGV and
/// hash values as strings).
fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Int(n) => Some(*n as f64),
        Value::BulkString(b) => std::str::from_utf8(b).ok()?.parse().ok(),
        Value::SimpleString(s) => s.parse().ok(),
        _ => None,
    }
}

fn text(v: &Value) -> Option<&str> {
    match v {
        Value::BulkString(b) => std::str::from_utf8(b).ok(),
        Value::SimpleString(s) => Some(s),
        _ => None,
    }
}

impl RedisStore {
    /// Connects `client` (a connection that reconnects by itself after the
    /// server restarts); the lease's keys live under `{prefix}` (Node's
    /// default prefix is `snowmint`).
    pub async fn connect(client: Client, prefix: &str) -> Result<Self, LeaseError> {
        let conn = ConnectionManager::new(client).await.map_err(io)?;
        Ok(RedisStore::with_connection(conn, prefix))
    }

    /// A store over a connection of yours.
    pub fn with_connection(conn: ConnectionManager, prefix: &str) -> Self {
        RedisStore {
            conn,
            keys: Keys::new(prefix),
        }
    }

    async fn eval(
        &self,
        script: &str,
        keys: &[String],
        args: &[String],
    ) -> Result<Value, LeaseError> {
        let mut cmd = redis::cmd("EVAL");
        cmd.arg(script).arg(keys.len()).arg(keys).arg(args);
        cmd.query_async(&mut self.conn.clone()).await.map_err(io)
    }

    async fn claim_in(
        &self,
        order: &[u32],
        token: &str,
        ttl_ms: u64,
    ) -> Result<Option<Claim>, LeaseError> {
        let k = &self.keys;
        for batch in order.chunks(CLAIM_BATCH) {
            let mut keys = vec![k.bounds(), k.data(), k.young()];
            keys.extend(batch.iter().map(|&id| k.worker(id)));
            let mut args = vec![token.to_string(), ttl_ms.to_string()];
            args.extend(batch.iter().map(u32::to_string));
            match self.eval(CLAIM, &keys, &args).await? {
                Value::Nil => continue,
                Value::Array(got) if got.len() == 3 => {
                    let n = |i: usize| {
                        num(&got[i]).ok_or_else(|| unexpected("claim", &Value::Array(got.clone())))
                    };
                    return Ok(Some(Claim {
                        worker_id: n(0)? as u32,
                        bound: n(1)? as u64,
                        wait_ms: n(2)? as u64,
                    }));
                }
                v => return Err(unexpected("claim", &v)),
            }
        }
        Ok(None)
    }

    async fn extend_in(
        &self,
        id: u32,
        token: &str,
        bound: u64,
        clock_ms: u64,
        ttl_ms: u64,
    ) -> Result<Extended, LeaseError> {
        let k = &self.keys;
        let keys = [k.worker(id), k.bounds(), k.clocks()];
        let args = [
            token.into(),
            ttl_ms.to_string(),
            id.to_string(),
            bound.to_string(),
            clock_ms.to_string(),
            PEER_SAMPLE.to_string(),
        ];
        let v = self.eval(EXTEND, &keys, &args).await?;
        let Value::Array(got) = &v else {
            return Ok(Extended::NotOurs);
        };
        let (Some(now), Some(Value::Array(flat))) = (got.first().and_then(num), got.get(1)) else {
            return Err(unexpected("extend", &v));
        };
        let peers = flat
            .chunks_exact(2)
            .filter_map(|p| {
                let mut parts = text(&p[1])?.split(' ').map(|x| x.parse::<f64>().ok());
                Some(PeerReading {
                    worker_id: num(&p[0])? as u32,
                    clock_ms: parts.next()??,
                    server_ms: parts.next()?,
                    age_max_ms: None,
                })
            })
            .collect();
        Ok(Extended::Held(Some(Readings {
            server: Some((SERVER_CLOCK.into(), now)),
            peers,
        })))
    }
}

impl Store for RedisStore {
    fn kind(&self) -> &'static str {
        "redis"
    }

    fn place(&self) -> String {
        self.keys.tag.clone()
    }

    fn bounds(&self) -> StoreFuture<'_, HashMap<u32, u64>> {
        Box::pin(async move {
            let v = self.eval(BOUNDS, &[self.keys.bounds()], &[]).await?;
            let Value::Array(flat) = &v else {
                return Err(unexpected("bounds", &v));
            };
            Ok(flat
                .chunks_exact(2)
                .filter_map(|p| Some((num(&p[0])? as u32, num(&p[1])? as u64)))
                .collect())
        })
    }

    fn claim<'a>(
        &'a self,
        order: &'a [u32],
        token: &'a str,
        ttl_ms: u64,
    ) -> StoreFuture<'a, Option<Claim>> {
        Box::pin(self.claim_in(order, token, ttl_ms))
    }

    fn extend<'a>(
        &'a self,
        worker_id: u32,
        token: &'a str,
        bound: u64,
        clock_ms: u64,
        ttl_ms: u64,
    ) -> StoreFuture<'a, Extended> {
        Box::pin(self.extend_in(worker_id, token, bound, clock_ms, ttl_ms))
    }

    fn release<'a>(
        &'a self,
        worker_id: u32,
        token: &'a str,
        hwm: Option<u64>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let k = &self.keys;
            let keys = [k.worker(worker_id), k.bounds(), k.clocks()];
            let args = [
                token.into(),
                worker_id.to_string(),
                hwm.map_or(String::new(), |h| h.to_string()),
            ];
            self.eval(RELEASE, &keys, &args).await.map(|_| ())
        })
    }
}
