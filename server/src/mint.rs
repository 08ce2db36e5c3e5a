//! Minting for a request: the kinds by name, and `n` IDs of one kind
//! written straight into a response buffer in the encoding the protocol
//! asked for. Every ID comes from the core (the leased Snowflake generator,
//! or the core's per-thread generators for the other kinds).

use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};

use snowmint::bytes::ByteOrder;
use snowmint::clock::{Clock, SystemClock};
use snowmint::{Id, TextKind};

use crate::metrics::ThreadMetrics;
use crate::state::Shared;
use crate::workers::Worker;

/// The kinds the server mints: Snowflake, the core's text kinds, TypeID.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// A Snowflake from the thread's leased worker ID.
    Snowflake,
    /// ULID, UUIDv7/v4/v1/v6, KSUID or ObjectId from the thread's generators.
    Text(TextKind),
    /// A TypeID (prefix + UUIDv7).
    TypeId,
}

impl IdKind {
    /// Every kind, in metrics order.
    pub const ALL: [IdKind; 9] = [
        IdKind::Snowflake,
        IdKind::Text(TextKind::Ulid),
        IdKind::Text(TextKind::UuidV7),
        IdKind::Text(TextKind::UuidV4),
        IdKind::Text(TextKind::UuidV1),
        IdKind::Text(TextKind::UuidV6),
        IdKind::Text(TextKind::Ksuid),
        IdKind::Text(TextKind::ObjectId),
        IdKind::TypeId,
    ];

    /// The kind's name (the core's names for the text kinds).
    pub fn name(self) -> &'static str {
        match self {
            IdKind::Snowflake => "snowflake",
            IdKind::Text(k) => TextKind::NAMES[k as usize],
            IdKind::TypeId => "typeid",
        }
    }

    /// The kind named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Result<IdKind, Failure> {
        let lower = name.to_ascii_lowercase();
        IdKind::ALL
            .into_iter()
            .find(|k| k.name() == lower)
            .ok_or_else(|| {
                let names: Vec<&str> = IdKind::ALL.iter().map(|k| k.name()).collect();
                Failure::bad(
                    "ERR_INVALID_ARG_VALUE",
                    format!(
                        "unknown kind '{}': expected one of {}",
                        name.escape_debug(),
                        names.join(", ")
                    ),
                )
            })
    }

    /// Its index in [`IdKind::ALL`].
    pub fn index(self) -> usize {
        IdKind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// How each ID is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Text, one per line.
    Lines,
    /// JSON strings, comma-separated (the caller writes the brackets).
    Json,
    /// Bytes: 8 big-endian for a Snowflake, the ID's bytes for the rest
    /// (16 for ULID, UUID and TypeID, 20 for KSUID, 12 for ObjectId).
    Binary,
    /// RESP bulk strings.
    Bulk,
    /// A RESP integer (a bulk string past `i64::MAX`: Discord's IDs after 2084).
    Integer,
}

/// A refused request: a stable code, a message, and whether the client or
/// the server's state is to blame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// `ERR_…`, as in snowmint's error codes.
    pub code: &'static str,
    /// What was wrong.
    pub message: String,
    /// True: the request was malformed (HTTP 400); false: the server cannot serve now (503).
    pub client: bool,
}

impl Failure {
    /// A malformed request.
    pub fn bad(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            client: true,
        }
    }

    /// The server cannot mint now.
    pub fn unavailable(code: &'static str, message: impl Into<String>) -> Failure {
        Failure {
            code,
            message: message.into(),
            client: false,
        }
    }
}

/// A worker thread's view: its generator and counters.
#[derive(Debug, Clone, Copy)]
pub struct Minter<'a> {
    /// Shared state.
    pub shared: &'a Shared,
    /// This thread's worker.
    pub worker: &'a Worker,
    /// This thread's counters.
    pub metrics: &'a ThreadMetrics,
}

/// Waits longer than this are slept on a timer instead of spun in the claim.
const SPIN_MS: u64 = 2;

impl Minter<'_> {
    /// Checks `n` against the cap.
    pub fn check_count(&self, n: u64) -> Result<(), Failure> {
        let max = self.shared.config.max_batch;
        if n == 0 || n > max {
            return Err(Failure::bad(
                "ERR_INVALID_COUNT",
                format!("n = {n}: give 1 to {max} IDs per request"),
            ));
        }
        Ok(())
    }

    /// Mints `n` IDs of `kind` (with `prefix` for TypeIDs) into `out`.
    pub async fn mint(
        &self,
        kind: IdKind,
        n: u64,
        prefix: &str,
        enc: Encoding,
        out: &mut Vec<u8>,
    ) -> Result<(), Failure> {
        self.check_count(n)?;
        if kind == IdKind::TypeId {
            snowmint::typeid::check_prefix(prefix.as_bytes())
                .map_err(|e| Failure::bad("ERR_PARSE", format!("TypeID prefix: {e}")))?;
        }
        if let Some((code, message)) = self.shared.refusal() {
            self.metrics.refused();
            return Err(Failure::unavailable(code, message));
        }
        let start = Instant::now();
        match kind {
            IdKind::Snowflake => self.snowflakes(n, enc, out).await?,
            IdKind::Text(k) => texts(k, n as usize, enc, out)?,
            IdKind::TypeId => {
                for i in 0..n {
                    let id = snowmint::new_typeid(prefix).map_err(core_failure)?;
                    put(out, enc, i == 0, id.to_text().as_bytes(), || {
                        Id::TypeId(id)
                            .to_bytes(ByteOrder::BigEndian)
                            .map(|b| b.to_vec())
                    })?;
                }
            }
        }
        self.metrics.minted(kind, n, start.elapsed().as_secs_f64());
        Ok(())
    }

    /// `n` Snowflakes from this thread's generator, in increasing order.
    async fn snowflakes(&self, n: u64, enc: Encoding, out: &mut Vec<u8>) -> Result<(), Failure> {
        let ids = &self.worker.ids;
        let layout = *ids.layout();
        let per_tick = layout.max_sequence() + 1;
        let mut left = n;
        while left > 0 {
            // A generator behind its lease bound (a restart after a crash)
            // waits on a timer, not in the claim, which would hold the thread.
            let now = SystemClock.now_ms();
            let ahead = ids.high_water_ms().unwrap_or(0).saturating_sub(now);
            if ahead > SPIN_MS {
                if ahead > self.shared.config.max_backwards_ms {
                    self.metrics.refused();
                    return Err(Failure::unavailable(
                        "ERR_CLOCK_BACKWARDS",
                        format!(
                            "the clock is {ahead} ms behind this worker ID's last IDs: refusing to mint"
                        ),
                    ));
                }
                tokio::time::sleep(Duration::from_millis(ahead)).await;
                continue;
            }
            let tick_now = layout.tick_of(now).unwrap_or(0);
            let claim = match ids.claim(left.min(per_tick)) {
                Ok(c) => c,
                Err(e) => return Err(self.claim_failed(e)),
            };
            if self.worker.lost.load(Relaxed) {
                self.worker.lost.store(false, Relaxed);
            }
            if claim.tick > tick_now {
                self.metrics.exhaustion_wait();
            }
            for (i, id) in claim.ids().enumerate() {
                let first = left == n && i == 0;
                match enc {
                    Encoding::Binary => out.extend_from_slice(&id.to_be_bytes()),
                    Encoding::Integer if id <= i64::MAX as u64 => {
                        out.push(b':');
                        out.extend_from_slice(snowmint::IdText::<20>::decimal(id).as_bytes());
                        out.extend_from_slice(b"\r\n");
                    }
                    _ => {
                        let text = snowmint::IdText::<20>::decimal(id);
                        put(out, enc, first, text.as_bytes(), unreachable_bytes)?;
                    }
                }
            }
            left -= claim.count;
        }
        Ok(())
    }

    fn claim_failed(&self, e: crate::workers::LeaseFailure) -> Failure {
        if e.lease {
            self.worker.lost.store(true, Relaxed);
            self.shared.lease_renew_failures.fetch_add(1, Relaxed);
        }
        Failure::unavailable(e.code, e.message)
    }
}

fn unreachable_bytes() -> Result<Vec<u8>, snowmint::Error> {
    Ok(Vec::new())
}

fn core_failure(e: snowmint::Error) -> Failure {
    Failure::unavailable(e.code(), e.to_string())
}

/// Writes one ID's `text` (or, for [`Encoding::Binary`], its `bytes()`).
#[inline]
fn put(
    out: &mut Vec<u8>,
    enc: Encoding,
    first: bool,
    text: &[u8],
    bytes: impl FnOnce() -> Result<Vec<u8>, snowmint::Error>,
) -> Result<(), Failure> {
    match enc {
        Encoding::Lines => {
            out.extend_from_slice(text);
            out.push(b'\n');
        }
        Encoding::Json => {
            if !first {
                out.push(b',');
            }
            out.push(b'"');
            out.extend_from_slice(text);
            out.push(b'"');
        }
        Encoding::Bulk | Encoding::Integer => {
            out.push(b'$');
            out.extend_from_slice(snowmint::IdText::<20>::decimal(text.len() as u64).as_bytes());
            out.extend_from_slice(b"\r\n");
            out.extend_from_slice(text);
            out.extend_from_slice(b"\r\n");
        }
        Encoding::Binary => out.extend_from_slice(&bytes().map_err(core_failure)?),
    }
    Ok(())
}

/// `n` IDs of a text kind from the thread's generators.
fn texts(kind: TextKind, n: usize, enc: Encoding, out: &mut Vec<u8>) -> Result<(), Failure> {
    if enc == Encoding::Binary {
        // ULIDs and UUIDv7s in one batch: one clock reading.
        match kind {
            TextKind::Ulid => {
                let mut ids = vec![snowmint::ulid::Ulid::NIL; n];
                snowmint::new_ulids(&mut ids).map_err(core_failure)?;
                ids.iter()
                    .for_each(|id| out.extend_from_slice(&id.to_bytes()));
                return Ok(());
            }
            TextKind::UuidV7 => {
                let mut ids = vec![snowmint::uuid::Uuid::NIL; n];
                snowmint::new_uuid_v7s(&mut ids).map_err(core_failure)?;
                ids.iter()
                    .for_each(|id| out.extend_from_slice(&id.to_bytes()));
                return Ok(());
            }
            _ => {}
        }
        for _ in 0..n {
            let id = match kind {
                TextKind::Ulid => Id::Ulid(snowmint::new_ulid().map_err(core_failure)?),
                TextKind::UuidV7 => Id::Uuid(snowmint::new_uuid_v7().map_err(core_failure)?),
                TextKind::UuidV4 => Id::Uuid(snowmint::new_uuid_v4()),
                TextKind::UuidV1 => Id::Uuid(snowmint::new_uuid_v1().map_err(core_failure)?),
                TextKind::UuidV6 => Id::Uuid(snowmint::new_uuid_v6().map_err(core_failure)?),
                TextKind::Ksuid => Id::Ksuid(snowmint::new_ksuid().map_err(core_failure)?),
                TextKind::ObjectId => {
                    Id::ObjectId(snowmint::new_object_id().map_err(core_failure)?)
                }
            };
            let bytes = id.to_bytes(ByteOrder::BigEndian).map_err(core_failure)?;
            out.extend_from_slice(&bytes);
        }
        return Ok(());
    }
    let width = kind.width();
    if enc == Encoding::Lines {
        // Straight into the response: the texts, then a newline after each.
        let start = out.len();
        snowmint::mint_text_bytes(kind, n, out).map_err(core_failure)?;
        let texts = out.split_off(start);
        out.reserve(texts.len() + n);
        for t in texts.chunks_exact(width) {
            out.extend_from_slice(t);
            out.push(b'\n');
        }
        return Ok(());
    }
    let mut texts = Vec::with_capacity(n * width);
    snowmint::mint_text_bytes(kind, n, &mut texts).map_err(core_failure)?;
    for (i, t) in texts.chunks_exact(width).enumerate() {
        put(out, enc, i == 0, t, unreachable_bytes)?;
    }
    Ok(())
}
