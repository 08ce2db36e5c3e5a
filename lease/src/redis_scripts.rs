//! The Redis lease's key layout and Lua scripts: one copy, which Node's
//! `redisLease` (npm/src/lease/redis.js, through the addon) and this crate's
//! Redis driver (feature `redis`) both send, so that a Node process and a
//! Rust process lease from one Redis by the same atomic steps.
//!
//! Keys share the hash tag `{prefix}`, so the scripts also run on a cluster:
//! - `{prefix}:worker:<id>`: the holder's random token, with the TTL
//!   (`SET NX PX`), renewed by compare-and-`PEXPIRE`, freed by
//!   compare-and-`DEL`;
//! - `{prefix}:hwm`: a hash of the high-water bounds, without a TTL, written
//!   only by the token's holder in the script that checks the token;
//! - `{prefix}:data` (no TTL) and `{prefix}:young` (one TTL): made by the
//!   first claim on the prefix; a claim that finds no bound for its worker ID
//!   waits out what is left of `young` (data loss: `FLUSHALL`, a restart
//!   without persistence; see [`crate::machine`]);
//! - `{prefix}:clock`: each holder's last clock report with the server's
//!   `TIME` and the TTL, for the skew measures (`HRANDFIELD`: Redis 6.2+).

/// KEYS\[1\] = bounds hash, KEYS\[2\] = data marker, KEYS\[3\] = young, KEYS\[4..\] =
/// worker keys in claim order; ARGV\[1\] = token, ARGV\[2\] = TTL ms, ARGV\[3..\] = the
/// worker IDs in the same order. Returns {worker ID, bound, ms to wait} or false.
pub const CLAIM: &str = include_str!("redis_scripts/claim.lua");

/// KEYS = worker key, bounds hash, clocks hash; ARGV = token, TTL ms, worker
/// ID, bound, the holder's clock (ms), how many peers to sample. The bound
/// only grows (the machine never asks for less than it recorded). Returns 0
/// (not ours), or {server ms, {worker ID, 'clock server ttl', ...}} of up to
/// that many live peers, picked at random.
pub const EXTEND: &str = include_str!("redis_scripts/extend.lua");

/// KEYS = worker key, bounds hash, clocks hash; ARGV = token, worker ID,
/// exact high-water mark or ''. Returns 1 if it was ours.
pub const RELEASE: &str = include_str!("redis_scripts/release.lua");

/// KEYS = bounds hash: every recorded bound, flat (`HGETALL`).
pub const BOUNDS: &str = include_str!("redis_scripts/bounds.lua");

/// Worker keys per claim script: a wide worker field (65,536 IDs) is tried
/// in batches, free ones first.
pub const CLAIM_BATCH: usize = 1024;

/// Peers' reports read per renewal: a random sample, so renewals stay cheap
/// in a large fleet.
pub const PEER_SAMPLE: u32 = 16;

/// The name of the Redis clock in skew messages.
pub const SERVER_CLOCK: &str = "Redis server's clock (TIME)";

/// The keys of a lease under `prefix`.
#[derive(Debug, Clone)]
pub struct Keys {
    /// `{prefix}`: names the place in messages.
    pub tag: String,
}

impl Keys {
    /// The keys under `prefix` (Node's default: `snowmint`).
    pub fn new(prefix: &str) -> Self {
        Keys {
            tag: format!("{{{prefix}}}"),
        }
    }
    /// The hash of high-water bounds.
    pub fn bounds(&self) -> String {
        format!("{}:hwm", self.tag)
    }
    /// The hash of clock reports.
    pub fn clocks(&self) -> String {
        format!("{}:clock", self.tag)
    }
    /// The data marker.
    pub fn data(&self) -> String {
        format!("{}:data", self.tag)
    }
    /// The key that lives one TTL after the data began.
    pub fn young(&self) -> String {
        format!("{}:young", self.tag)
    }
    /// A worker ID's key.
    pub fn worker(&self, id: u32) -> String {
        format!("{}:worker:{id}", self.tag)
    }
}
