//! Where the server's worker IDs come from ([`Source`]), and the generators
//! on them ([`Worker`]): one per worker thread, behind [`LeasedIds`], what
//! minting needs of any lease.
//!
//! Every source built so far ends in the same place, a [`LeasedSnowflake`]
//! of the `snowmint-lease` crate: a fixed or ordinal worker ID is still locked on
//! this host (a second process with the same ID fails with
//! `ERR_WORKER_ID_IN_USE`, and a restart on a clock gone back resumes after
//! the last tick minted), and `local` claims free IDs among the host's
//! processes, Node's included. Redis, etcd and ZooKeeper leases are the
//! lease crate's (`coordinator.rs`; ZooKeeper with the feature `zookeeper`).

use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use snowmint::clock::SystemClock;
use snowmint::snowflake::{Claim, Layout, OnBackwards};
use snowmint_lease::{LeaseOptions, LeasedSnowflake, LocalLease};

use crate::config::Coordinator;

/// Where worker IDs come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `--worker-id N`: thread i mints on N + i.
    Fixed(u64),
    /// `--lease ordinal`: the StatefulSet pod's ordinal k; thread i mints on
    /// k * workers + i.
    Ordinal,
    /// `--lease local`: free worker IDs among this host's processes.
    Local(Option<PathBuf>),
    /// `--lease redis://…`, `etcd://…`, `zk://…` (with the feature `zookeeper`).
    Coordinator {
        /// `redis`, `etcd` or `zk`.
        scheme: String,
        /// The whole URL.
        url: String,
    },
}

impl Source {
    /// The source a fixed ID or a `--lease` value names (default `local`).
    pub fn parse(
        worker_id: Option<u64>,
        lease: Option<&str>,
        dir: Option<PathBuf>,
    ) -> Result<Source, String> {
        if let Some(id) = worker_id {
            return Ok(Source::Fixed(id));
        }
        match lease.unwrap_or("local") {
            "local" | "" => Ok(Source::Local(dir)),
            "ordinal" => Ok(Source::Ordinal),
            url => match url.split_once("://") {
                Some((scheme @ ("redis" | "rediss" | "etcd" | "etcds" | "zk"), rest))
                    if !rest.is_empty() =>
                {
                    Ok(Source::Coordinator {
                        scheme: match scheme {
                            "rediss" => "redis",
                            "etcds" => "etcd",
                            s => s,
                        }
                        .into(),
                        url: url.into(),
                    })
                }
                _ => Err(format!(
                    "--lease '{url}': expected local, ordinal, redis://HOST:PORT, etcd://HOST:PORT or zk://HOST:PORT (or --worker-id N)"
                )),
            },
        }
    }

    /// The worker IDs to lock, for a source that names them.
    fn fixed_ids(&self, workers: usize) -> Result<Option<Vec<u64>>, String> {
        let first = match self {
            Source::Fixed(n) => *n,
            Source::Ordinal => ordinal()? * workers as u64,
            _ => return Ok(None),
        };
        Ok(Some((first..first + workers as u64).collect()))
    }
}

/// The pod's ordinal: `SNOWMINT_ORDINAL` (e.g. from the pod-index label
/// through the downward API), else the number after the last `-` of
/// `POD_NAME` or `HOSTNAME` (a StatefulSet pod is `NAME-ORDINAL`).
pub fn ordinal() -> Result<u64, String> {
    // Empty counts as unset: a downward-API label that a cluster lacks.
    if let Ok(v) = std::env::var("SNOWMINT_ORDINAL").map(|v| v.trim().to_string())
        && !v.is_empty()
    {
        return v
            .parse()
            .map_err(|_| format!("SNOWMINT_ORDINAL '{v}' is not a whole number"));
    }
    for var in ["POD_NAME", "HOSTNAME"] {
        if let Ok(name) = std::env::var(var).map(|v| v.trim().to_string())
            && !name.is_empty()
        {
            return name
                .rsplit_once('-')
                .and_then(|(_, n)| n.parse().ok())
                .ok_or_else(|| {
                    format!(
                        "--lease ordinal: {var} '{name}' does not end in -N, as a StatefulSet pod's name does; set SNOWMINT_ORDINAL"
                    )
                });
        }
    }
    Err("--lease ordinal: none of SNOWMINT_ORDINAL, POD_NAME, HOSTNAME is set".into())
}

/// What minting needs of a leased worker ID, whatever leased it: the
/// host's lock files ([`LeasedSnowflake`]) now; a coordinator's lease
/// (Redis, etcd, ZooKeeper) is another implementation.
pub trait LeasedIds: Send + Sync + fmt::Debug {
    /// The worker ID.
    fn worker_id(&self) -> u64;
    /// The layout IDs are minted in.
    fn layout(&self) -> &Layout;
    /// Up to `max` consecutive IDs of one tick, once the lease covers them
    /// (waiting at most for the next tick, or a clock behind by at most
    /// the generator's bound).
    fn claim(&self, max: u64) -> Result<Claim, LeaseFailure>;
    /// The start (Unix ms) of the last tick minted in, or the lease's start.
    fn high_water_ms(&self) -> Option<u64>;
    /// Seconds until the lease lapses unless renewed; `None`: held until
    /// the process ends (a host lock file).
    fn seconds_left(&self) -> Option<f64> {
        None
    }
    /// Why the lease lets it mint no more, by its own account: a
    /// coordinator's lease knows between claims (lost, or beyond the skew
    /// limit); a host lock file holds until released.
    fn trouble(&self) -> Option<LeaseFailure> {
        None
    }
    /// Frees the worker ID, recording the exact high-water mark.
    fn release(self: Box<Self>) -> Result<(), String>;
}

/// A claim that failed: the stable code, the message, and whether the
/// lease (rather than the clock or the layout) refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseFailure {
    /// `ERR_LEASE_LOST`, `ERR_CLOCK_BACKWARDS`, ...
    pub code: &'static str,
    /// What happened.
    pub message: String,
    /// The lease refused: the worker ID counts as not held until a claim succeeds.
    pub lease: bool,
}

impl LeasedIds for LeasedSnowflake<SystemClock> {
    fn worker_id(&self) -> u64 {
        LeasedSnowflake::worker_id(self).into()
    }
    fn layout(&self) -> &Layout {
        LeasedSnowflake::layout(self)
    }
    #[inline]
    fn claim(&self, max: u64) -> Result<Claim, LeaseFailure> {
        LeasedSnowflake::claim(self, max).map_err(|e| LeaseFailure {
            code: e.code(),
            message: match &e {
                snowmint_lease::Error::Id(e) => e.to_string(),
                snowmint_lease::Error::Lease(e) => e.message().to_string(),
            },
            lease: matches!(e, snowmint_lease::Error::Lease(_)),
        })
    }
    fn high_water_ms(&self) -> Option<u64> {
        LeasedSnowflake::high_water_ms(self)
    }
    fn release(self: Box<Self>) -> Result<(), String> {
        LeasedSnowflake::release(*self).map_err(|e| e.to_string())
    }
}

/// A worker thread's generator and what the readiness probe needs of it.
#[derive(Debug)]
pub struct Worker {
    /// The generator on the leased worker ID.
    pub ids: Box<dyn LeasedIds>,
    /// Set while the lease is lost (a claim failed with `ERR_LEASE_LOST`).
    pub lost: AtomicBool,
}

impl Worker {
    /// Why it does not mint now, as far as the lease and the last claim
    /// know; `None` while the lease holds.
    pub fn refusal(&self) -> Option<LeaseFailure> {
        self.ids.trouble().or_else(|| {
            self.lost.load(Relaxed).then(|| LeaseFailure {
                code: "ERR_LEASE_LOST",
                message: format!(
                    "the lease on worker ID {} is lost: refusing to mint on it until it is claimed again",
                    self.ids.worker_id()
                ),
                lease: true,
            })
        })
    }

    /// Whether the lease is held and lets it mint.
    pub fn held(&self) -> bool {
        self.refusal().is_none()
    }
}

/// Leases `workers` worker IDs from `source` for `layout`, each generator
/// waiting out at most `max_backwards_ms` of a clock behind its lease.
pub fn acquire(
    source: &Source,
    coordinator: &Coordinator,
    workers: usize,
    layout: Layout,
    max_backwards_ms: u64,
) -> Result<Vec<Worker>, String> {
    let worker = |ids: Box<dyn LeasedIds>| Worker {
        ids,
        lost: AtomicBool::new(false),
    };
    if let Source::Coordinator { scheme, url } = source {
        let leases = crate::coordinator::acquire(
            scheme,
            url,
            coordinator,
            workers,
            layout,
            max_backwards_ms,
        )?;
        return Ok(leases.into_iter().map(|l| worker(Box::new(l))).collect());
    }
    let max_id = layout.max_worker();
    let base = match source {
        Source::Local(Some(dir)) => LeaseOptions::new().dir(dir),
        _ => LeaseOptions::new(),
    }
    // The server is one process on one host by design: its lease directory
    // is the host's, so the zero-config refusal for replica platforms does
    // not apply (replicas use ordinal or fixed IDs).
    .trust_local(true);
    let ids = source.fixed_ids(workers)?;
    if let Some(ids) = &ids
        && ids.last().is_some_and(|last| *last > max_id)
    {
        return Err(format!(
            "worker IDs {}..={} do not fit the layout's {} worker bits (0..={max_id}): lower the worker ID, the ordinal or --workers",
            ids[0],
            ids[ids.len() - 1],
            layout.worker_bits()
        ));
    }
    let mut out = Vec::with_capacity(workers);
    for i in 0..workers {
        let options = match &ids {
            // In range (checked above), so the cast keeps the value.
            Some(ids) => base.clone().worker_id(ids[i] as u32),
            None => base.clone().layout(&layout),
        };
        let lease =
            LocalLease::acquire_with_clock(options, SystemClock).map_err(|e| e.to_string())?;
        let ids = lease
            .snowflake_with(layout, |g| {
                g.on_backwards(OnBackwards::Wait {
                    max_ms: max_backwards_ms,
                })
            })
            .map_err(|e| e.to_string())?;
        out.push(worker(Box::new(ids)));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn coordinator() -> Coordinator {
        Coordinator {
            prefix: "snowmint".into(),
            ttl_ms: 10_000,
            max_skew_ms: 1000,
        }
    }

    #[test]
    fn sources_parse_and_coordinators_refuse_what_they_cannot_reach() {
        assert_eq!(
            Source::parse(Some(4), Some("local"), None),
            Ok(Source::Fixed(4))
        );
        assert_eq!(Source::parse(None, None, None), Ok(Source::Local(None)));
        assert_eq!(
            Source::parse(None, Some("ordinal"), None),
            Ok(Source::Ordinal)
        );
        for (url, scheme, refused) in [
            // TLS is not in the etcd driver: refused by the lease crate, before any I/O.
            ("etcds://10.0.0.1:2379", "etcd", "TLS is not built in"),
            #[cfg(feature = "zookeeper")]
            ("zk://zk1:2181//x", "zk", "not an absolute znode path"),
            #[cfg(not(feature = "zookeeper"))]
            ("zk://zk1:2181,zk2:2181", "zk", "built without ZooKeeper"),
        ] {
            let s = Source::parse(None, Some(url), None).unwrap();
            assert_eq!(
                s,
                Source::Coordinator {
                    scheme: scheme.into(),
                    url: url.into()
                }
            );
            let e = acquire(&s, &coordinator(), 1, Layout::TWITTER, 1000).unwrap_err();
            assert!(e.contains(refused), "{e}");
        }
        assert_eq!(
            Source::parse(None, Some("rediss://cache:6380/0"), None),
            Ok(Source::Coordinator {
                scheme: "redis".into(),
                url: "rediss://cache:6380/0".into()
            })
        );
        for bad in ["redis:/x", "mysql://db", "redis://", "locals"] {
            let e = Source::parse(None, Some(bad), None).unwrap_err();
            assert!(e.contains(&format!("--lease '{bad}'")), "{e}");
        }
    }

    #[test]
    fn fixed_ids_must_fit_the_layout() {
        let e = acquire(
            &Source::Fixed(1023),
            &coordinator(),
            2,
            Layout::TWITTER,
            1000,
        )
        .unwrap_err();
        assert!(e.contains("worker IDs 1023..=1024 do not fit"), "{e}");
    }
}
