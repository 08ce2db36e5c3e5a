//! What the text modules share: the page's CSPRNG through a pool, and the
//! monotonic generators (`kinds.rs` mints the kinds' texts, `typeid.rs`
//! TypeIDs).

use core::cell::RefCell;
use core::convert::Infallible;

use rand_core::{TryCryptoRng, TryRng};
use snowmint::objectid::ObjectIdGenerator;
use snowmint::ulid::UlidGenerator;
use snowmint::uuid::{TimeUuidGenerator, V7Generator};

use crate::{One, get_random};

/// Bytes of the pool: `crypto.getRandomValues` is called once per 4 KiB,
/// as the core's `PooledOsRng` does (each call crosses into JS; it refuses
/// more than 65,536 bytes at once).
const POOL_BYTES: usize = 4096;

/// `crypto.getRandomValues` output not handed out yet: the last `left` bytes.
struct Pool {
    bytes: [u8; POOL_BYTES],
    left: usize,
}

static POOL: One<RefCell<Pool>> = One(RefCell::new(Pool {
    bytes: [0; POOL_BYTES],
    left: 0,
}));

/// The page's CSPRNG through [`POOL`]; each byte is handed out once and zeroed.
pub(crate) struct PageRng;

impl PageRng {
    /// The next `N` (at most [`POOL_BYTES`]) bytes: a fixed-size copy, as
    /// a UUIDv7 takes 8 per ID.
    pub(crate) fn bytes<const N: usize>() -> [u8; N] {
        let mut pool = POOL.0.borrow_mut();
        if pool.left < N {
            // SAFETY: the pool's bytes are this module's memory, valid for POOL_BYTES bytes.
            unsafe { get_random(pool.bytes.as_mut_ptr(), POOL_BYTES) };
            pool.left = POOL_BYTES;
        }
        let start = POOL_BYTES - pool.left;
        pool.left -= N;
        let mut out = [0; N];
        let served = &mut pool.bytes[start..start + N];
        out.copy_from_slice(served);
        served.fill(0);
        out
    }

    fn take(dst: &mut [u8]) {
        for b in dst {
            [*b] = PageRng::bytes::<1>();
        }
    }
}

impl TryRng for PageRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(u32::from_le_bytes(PageRng::bytes()))
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(u64::from_le_bytes(PageRng::bytes()))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        PageRng::take(dst);
        Ok(())
    }
}

impl TryCryptoRng for PageRng {}

/// The monotonic generators, one of each kind per instance.
#[cfg_attr(not(feature = "kinds"), allow(dead_code))]
pub(crate) struct Generators {
    pub(crate) ulid: UlidGenerator,
    pub(crate) v7: V7Generator,
    /// Made at the first v1/v6 and ObjectId (each draws its random node or counter start).
    pub(crate) time: Option<TimeUuidGenerator>,
    pub(crate) object_id: Option<ObjectIdGenerator>,
}

pub(crate) static GENERATORS: One<RefCell<Generators>> = One(RefCell::new(Generators {
    ulid: UlidGenerator::new(),
    v7: V7Generator::new(),
    time: None,
    object_id: None,
}));
