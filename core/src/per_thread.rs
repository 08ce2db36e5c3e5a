//! One-call minting with `std`: each thread keeps its own monotonic
//! generators, reads the process-wide [`MonotonicClock`] and draws from
//! the thread's OS-seeded CSPRNG ([`crate::random`]). IDs from one thread are strictly increasing; across
//! threads they are unique through their random bits. Each returns an error
//! only for a clock past the kind's last representable time.

use core::cell::RefCell;
use std::thread_local;

use crate::clock::{Clock, MonotonicClock};
use crate::error::Error;
use crate::ksuid::Ksuid;
use crate::objectid::{ObjectId, ObjectIdGenerator};
use crate::random::thread_rng;
use crate::typeid::TypeId;
use crate::ulid::{Ulid, UlidGenerator};
use crate::uuid::{self, TimeUuidGenerator, Uuid, V7Generator};

struct Generators {
    ulid: UlidGenerator,
    v7: V7Generator,
    time: TimeUuidGenerator,
    object_id: ObjectIdGenerator,
}

thread_local! {
    static GENERATORS: RefCell<Generators> = RefCell::new({
        let mut rng = thread_rng();
        Generators {
            ulid: UlidGenerator::new(),
            v7: V7Generator::new(),
            time: TimeUuidGenerator::new(&mut rng),
            object_id: ObjectIdGenerator::new(&mut rng),
        }
    });
}

/// Fails only on a clock past the kind's last representable time: year
/// 10889 for ULID and v7, 5236 for v1/v6, 2106 for ObjectId and KSUID.
fn with<T>(f: impl FnOnce(&mut Generators, u64) -> Result<T, Error>) -> Result<T, Error> {
    let now = MonotonicClock.now_ms();
    GENERATORS.with_borrow_mut(|g| f(g, now))
}

/// A monotonic ULID.
#[inline]
pub fn new_ulid() -> Result<Ulid, Error> {
    with(|g, now| g.ulid.generate(now, &mut thread_rng()))
}

/// A monotonic UUIDv7 (RFC 9562 §6.2 Method 1).
#[inline]
pub fn new_uuid_v7() -> Result<Uuid, Error> {
    with(|g, now| g.v7.generate(now, &mut thread_rng()))
}

/// Monotonic ULIDs for all of `out` at one clock reading: a batch pays for
/// the clock once (in a browser that is a call out to `performance.now()`).
pub fn new_ulids(out: &mut [Ulid]) -> Result<(), Error> {
    with(|g, now| {
        let rng = &mut thread_rng();
        for id in out {
            *id = g.ulid.generate(now, rng)?;
        }
        Ok(())
    })
}

/// Monotonic UUIDv7s for all of `out` at one clock reading, like [`new_ulids`].
pub fn new_uuid_v7s(out: &mut [Uuid]) -> Result<(), Error> {
    with(|g, now| {
        let rng = &mut thread_rng();
        for id in out {
            *id = g.v7.generate(now, rng)?;
        }
        Ok(())
    })
}

/// A random UUIDv4.
#[inline]
pub fn new_uuid_v4() -> Uuid {
    uuid::new_v4(&mut thread_rng())
}

/// A time-based UUIDv1 with a random node.
pub fn new_uuid_v1() -> Result<Uuid, Error> {
    with(|g, now| g.time.v1(now))
}

/// A time-based UUIDv6 with a random node.
pub fn new_uuid_v6() -> Result<Uuid, Error> {
    with(|g, now| g.time.v6(now))
}

/// A KSUID with a random payload.
pub fn new_ksuid() -> Result<Ksuid, Error> {
    with(|_, now| Ksuid::generate(now, &mut thread_rng()))
}

/// A MongoDB ObjectId.
pub fn new_object_id() -> Result<ObjectId, Error> {
    with(|g, now| g.object_id.generate(now))
}

/// A TypeID with a monotonic UUIDv7; fails on an invalid prefix.
pub fn new_typeid(prefix: &str) -> Result<TypeId, Error> {
    crate::typeid::check_prefix(prefix.as_bytes())?;
    Ok(TypeId::new(prefix, new_uuid_v7()?)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_continue_the_thread_sequence() {
        let mut ulids = [Ulid::NIL; 100];
        let first = new_ulid().unwrap();
        new_ulids(&mut ulids).unwrap();
        assert!(first < ulids[0] && ulids.windows(2).all(|w| w[0] < w[1]));
        assert!(ulids[99] < new_ulid().unwrap());
        let mut v7s = [Uuid::NIL; 100];
        let first = new_uuid_v7().unwrap();
        new_uuid_v7s(&mut v7s).unwrap();
        assert!(first < v7s[0] && v7s.windows(2).all(|w| w[0] < w[1]));
        assert!(v7s[99] < new_uuid_v7().unwrap());
    }
}
