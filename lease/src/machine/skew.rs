//! Clock skew of a lease with a coordinator: the arithmetic that turns the
//! clocks a store reports with one renewal ([`Readings`]) into skews with
//! error bounds ([`Measure`]). The [`Machine`](super::Machine) judges them
//! against its `max_skew_ms` at each renewal.

/// The other clocks, as a store saw them during one renewal.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Readings {
    /// The coordinator's clock while it executed the renewal (Unix ms), and
    /// its name for messages (`"Redis server's clock (TIME)"`); `None` for a
    /// store without a clock (etcd).
    pub server: Option<(String, f64)>,
    /// Each live peer's last report.
    pub peers: Vec<PeerReading>,
}

/// One live peer's last clock report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PeerReading {
    /// The worker ID the peer holds.
    pub worker_id: u32,
    /// The peer's clock when it reported (Unix ms).
    pub clock_ms: f64,
    /// The coordinator's clock when it stored the report, for stores with a
    /// clock (Redis TIME, a znode's mtime).
    pub server_ms: Option<f64>,
    /// For stores without a clock: how old the report can be.
    pub age_max_ms: Option<f64>,
}

/// What a [`Measure`] compares the holder's clock with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Against {
    /// The coordinator's own clock.
    Server,
    /// The mean of the live peers' clocks.
    Peers,
}

impl Against {
    /// `"server"` or `"peers"`, as Node's `err.against` spells it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Against::Server => "server",
            Against::Peers => "peers",
        }
    }
}

/// The holder's clock against one other: `skew_ms` (ours minus theirs) is
/// right to within `err_ms`.
#[derive(Debug, Clone, PartialEq)]
pub struct Measure {
    /// What was compared.
    pub against: Against,
    /// Names it, for messages (`"the Redis server's clock (TIME)"`).
    pub what: String,
    /// How many peers' reports went into it (0 against the server).
    pub peers: usize,
    /// Ours minus theirs, in ms.
    pub skew_ms: f64,
    /// How far off `skew_ms` may be.
    pub err_ms: f64,
}

impl Measure {
    /// By how much the skew exceeds `max_skew_ms` even if the error bound
    /// all went its way (> 0: beyond the limit whatever the error).
    pub fn excess(&self, max_skew_ms: f64) -> f64 {
        self.skew_ms.abs() - self.err_ms - max_skew_ms
    }
}

/// The holder's clock against the others, from the readings of one renewal
/// sent at `sent_ms` and answered at `done_ms` (both on the holder's clock).
///
/// Against the coordinator: it read its clock somewhere between send and
/// answer, so the skew is ours at the midpoint minus its reading, to within
/// half the round trip. Against the peers, the mean of their skews: a peer's
/// report with the coordinator's time gives its offset from the coordinator
/// (ours minus theirs is then the skew, to within half our round trip); one
/// without was written up to `age_max_ms` ago, so its clock now lies between
/// `clock_ms` and `clock_ms + age_max_ms` plus our round trip, and the skew
/// is known to within half of that.
pub fn measure_skew(readings: &Readings, sent_ms: f64, done_ms: f64) -> Vec<Measure> {
    let mid = (sent_ms + done_ms) / 2.0;
    let half = (done_ms - sent_ms) / 2.0;
    let mut out = Vec::with_capacity(2);
    if let Some((name, ms)) = &readings.server {
        out.push(Measure {
            against: Against::Server,
            what: format!("the {name}"),
            peers: 0,
            skew_ms: mid - ms,
            err_ms: half,
        });
    }
    if !readings.peers.is_empty() {
        let (mut sum, mut err) = (0.0, 0.0);
        for p in &readings.peers {
            match (p.server_ms, &readings.server) {
                (Some(at), Some((_, server))) => {
                    sum += mid - server - (p.clock_ms - at);
                    err += half;
                }
                _ => {
                    let age = p.age_max_ms.unwrap_or(0.0) + (done_ms - sent_ms);
                    sum += done_ms - p.clock_ms - age / 2.0;
                    err += age / 2.0;
                }
            }
        }
        let n = readings.peers.len();
        out.push(Measure {
            against: Against::Peers,
            what: format!(
                "the mean of {n} live peer{} last reported clocks",
                if n == 1 { "'s" } else { "s'" }
            ),
            peers: n,
            skew_ms: sum / n as f64,
            err_ms: err / n as f64,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn peer(clock_ms: f64, server_ms: Option<f64>, age_max_ms: Option<f64>) -> PeerReading {
        PeerReading {
            worker_id: 1,
            clock_ms,
            server_ms,
            age_max_ms,
        }
    }

    #[test]
    fn against_the_server_the_midpoint_within_half_the_round_trip() {
        let r = Readings {
            server: Some(("Redis server's clock (TIME)".into(), 1_000.0)),
            peers: vec![],
        };
        let m = measure_skew(&r, 6_000.0, 6_010.0);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].against, Against::Server);
        assert_eq!(m[0].what, "the Redis server's clock (TIME)");
        assert_eq!((m[0].skew_ms, m[0].err_ms), (5_005.0, 5.0));
    }

    #[test]
    fn against_peers_with_the_servers_time_and_without() {
        // A peer 2 s behind the server; we are on the server's time.
        let r = Readings {
            server: Some(("s".into(), 10_005.0)),
            peers: vec![peer(3_000.0, Some(5_000.0), None)],
        };
        let m = measure_skew(&r, 10_000.0, 10_010.0);
        assert_eq!((m[1].skew_ms, m[1].err_ms, m[1].peers), (2_000.0, 5.0, 1));
        assert_eq!(m[1].what, "the mean of 1 live peer's last reported clocks");
        // etcd: no server clock; a report up to 1 s old.
        let r = Readings {
            server: None,
            peers: vec![
                peer(9_000.0, None, Some(1_000.0)),
                peer(9_000.0, None, Some(1_000.0)),
            ],
        };
        let m = measure_skew(&r, 10_000.0, 10_010.0);
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].what, "the mean of 2 live peers' last reported clocks");
        assert_eq!((m[0].skew_ms, m[0].err_ms), (505.0, 505.0));
    }

    proptest! {
        /// Whatever the true offsets, the true skew lies within the error
        /// bound of each measure (the property the fence relies on).
        #[test]
        fn the_true_skew_lies_within_the_error_bound(
            ours in -10_000.0f64..10_000.0,
            theirs in proptest::collection::vec((-10_000.0f64..10_000.0, 0.0f64..5_000.0, any::<bool>()), 0..6),
            sent in 0.0f64..1e9,
            before in 0.0f64..50.0,
            after in 0.0f64..50.0,
            server_clock in any::<bool>(),
        ) {
            // True time: the request reaches the server `before` ms after it
            // is sent and the answer comes `after` ms later. Each clock reads
            // true time plus its offset.
            let t_server = sent - ours + before;
            let done = t_server + after + ours;
            let server = server_clock.then(|| ("s".to_string(), t_server));
            let peers: Vec<PeerReading> = theirs.iter().map(|&(off, age, _)| {
                // Reported `age` ms before the server saw our request.
                let at = t_server - age;
                if server_clock {
                    peer(at + off, Some(at), None)
                } else {
                    peer(at + off, None, Some(age))
                }
            }).collect();
            let r = Readings { server, peers };
            let m = measure_skew(&r, sent, done);
            for x in &m {
                let truth = match x.against {
                    Against::Server => ours,
                    Against::Peers => ours - theirs.iter().map(|t| t.0).sum::<f64>() / theirs.len() as f64,
                };
                prop_assert!((x.skew_ms - truth).abs() <= x.err_ms + 1e-6,
                    "{:?}: measured {} ± {}, true {}", x.against, x.skew_ms, x.err_ms, truth);
            }
            prop_assert_eq!(m.len(), usize::from(server_clock) + usize::from(!theirs.is_empty()));
        }
    }
}
