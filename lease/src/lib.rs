//! # snowmint-lease
//!
//! Worker IDs for [`snowmint`]'s Snowflakes, leased among the processes of
//! one machine: one lock file per worker ID in a lease directory, held with
//! an OS file lock (`flock`) that the kernel drops when the process dies, so
//! a crashed process never leaves a stale lease. The files, the directory
//! checks and the high-water rule are those of the Node package's
//! `snowmint/lease` (whose native addon calls this crate's [`LockFile`]), so
//! Rust and Node services on one host, both with zero configuration, never
//! share a worker ID.
//!
//! ```
//! use snowmint::snowflake::Layout;
//! use snowmint_lease::{LeaseOptions, LocalLease};
//! # let dir = std::env::temp_dir().join(format!("snowmint-doc0-{}", std::process::id()));
//! # unsafe { std::env::set_var("SNOWMINT_LEASE_DIR", &dir) };
//!
//! // Zero configuration: SNOWMINT_LEASE_DIR, else <tmpdir>/snowmint-leases-<user>.
//! let ids = LocalLease::acquire(LeaseOptions::new())?.snowflake(Layout::TWITTER)?;
//! let id = ids.next()?;
//! println!("{id} from worker {}", ids.worker_id());
//! drop(ids); // frees the worker ID, recording the exact high-water mark
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), snowmint_lease::Error>(())
//! ```
//!
//! # The lease rules, once
//!
//! [`machine::Machine`] holds every rule of a worker-ID lease (claim order,
//! high-water bounds and fencing, the wait after a store loses its data,
//! renew pacing, clock-skew measures with their error bounds) without I/O
//! and without reading a clock. Node's `snowmint/lease` drives it through
//! the addon for its Redis, etcd, ZooKeeper and local leases; this crate's
//! drivers drive it for Rust:
//!
//! - [`LocalLease`]: lock files on one host (its claim order and
//!   [`RESERVE_MS`] are the machine's);
//! - `driver::Lease` (feature `driver`): a lease with a TTL on any
//!   `driver::Store`, async on tokio; `check(tick)` on the minting path is
//!   synchronous and does no I/O;
//! - `redis::RedisStore` (feature `redis`): Redis 6.2+, with the keys and
//!   Lua scripts of [`redis_scripts`], which Node's `redisLease` sends too;
//! - `etcd::EtcdStore` (feature `etcd`): etcd 3.4+, with the keys and
//!   transactions of Node's `etcdLease`, over etcd's JSON gateway (HTTP/1.1
//!   with hyper: no gRPC stack, no `protoc`);
//! - `zookeeper::ZkStore` (feature `zookeeper`): ZooKeeper 3.5+, with the
//!   znodes of Node's `zookeeperLease`.
//!
//! A separate crate rather than a feature of `snowmint`: the core is
//! `#![no_std]` and `#![forbid(unsafe_code)]`, builds for wasm (where its
//! `std` feature means a browser, with no files to lock) and on Rust 1.85;
//! file locks need `std::fs::File::try_lock` (Rust 1.89) and a few libc
//! calls. Leaving the core untouched keeps its no_std and wasm builds (and
//! the browser bundle's size) exactly as they were.

#[cfg(feature = "driver")]
pub mod driver;
mod error;
#[cfg(feature = "etcd")]
pub mod etcd;
mod local;
mod lock;
pub mod machine;
pub mod platform;
#[cfg(feature = "redis")]
pub mod redis;
pub mod redis_scripts;
#[cfg(feature = "zookeeper")]
pub mod zookeeper;

pub use error::{Code, Error, LeaseError};
pub use local::{
    DEFAULT_MAX_SKEW_MS, DEFAULT_WORKER_IDS, LeaseOptions, LeasedSnowflake, LocalLease, OnSkew,
};
pub use lock::{
    LIVE_MS, LockFile, Skew, bounds, default_dir, format_lock_file, holder_pid, in_use,
    parse_holder, parse_lock_file, resolve_dir,
};
pub use machine::RESERVE_MS;

/// The Rust examples of docs/lease.md, run as doctests so that they cannot
/// rot (tests/node/docs-examples.test.js checks that every file with a rust
/// block is included by a crate).
#[cfg(doctest)]
#[doc = include_str!("../../docs/lease.md")]
struct LeaseDocs;
