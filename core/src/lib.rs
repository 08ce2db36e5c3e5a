//! # snowmint
//!
//! Unique, time-ordered IDs without a central bottleneck: 64-bit
//! [Snowflakes](snowflake), [ULIDs](ulid), [UUIDv7/v4/v1/v6](uuid),
//! [KSUIDs](ksuid), [ObjectIds](objectid) and [TypeIDs](typeid), with
//! Crockford [base32] (and a human-friendly form) and [base62].
//!
//! The crate is `#![no_std]` and its generators never allocate: time comes
//! in through the [`Clock`](clock::Clock) trait and randomness through
//! [`rand_core::Rng`]. The default `std` feature adds a monotonic system
//! clock, per-thread OS randomness that no ID pays an OS call for ([`random`]:
//! rand's reseeding ChaCha12 `ThreadRng` natively, a pool of the browser's
//! `crypto.getRandomValues` in wasm) and one-call functions such as
//! [`new_ulid`]. The opt-in feature `expiry` (Linux) lets a thread's runs
//! of [`new_ulid`] and [`new_uuid_v7`] skip the clock read per ID; its
//! module `expiry` says what it installs (a signal handler, a timer per
//! thread) and what that costs.
//!
//! Every generator is correct under clock faults: IDs from one generator
//! never repeat and never go back, whatever the clock does.
//!
//! ```
//! # #[cfg(feature = "std")] {
//! use snowmint::snowflake::{AtomicSnowflake, Layout};
//! use snowmint::clock::MonotonicClock;
//!
//! let ids = AtomicSnowflake::new(Layout::DISCORD, 7, MonotonicClock).unwrap();
//! let a = ids.next().unwrap();
//! let b = ids.next().unwrap();
//! assert!(b > a);
//! assert_eq!(ids.decode(b).unwrap().worker_id, 7);
//!
//! let id = snowmint::new_ulid().unwrap();
//! assert_eq!(id.to_text().len(), 26);
//! let v7 = snowmint::new_uuid_v7().unwrap();
//! assert_eq!(v7.version(), 7);
//! # }
//! ```
//!
//! [Validation](validate), [bytes] and [name-based UUIDs](name_based):
//!
//! ```
//! use snowmint::{Id, Kind, bytes::ByteOrder, uuid::Uuid, validate::Validation};
//!
//! let strict = Validation { kind: Some(Kind::Ulid), ..Validation::default() };
//! // The canonical form in either case; Crockford's aliases (O for 0, I for 1) are lenient only.
//! assert!(strict.accepts("01ARZ3NDEKTSV4RRFFQ69G5FAV") && strict.accepts("01arz3ndektsv4rrffq69g5fav"));
//! assert!(!strict.accepts("OIARZ3NDEKTSV4RRFFQ69G5FAV"));
//! let id = Id::parse("user_01h455vb4pex5vsknk084sn02q", None).unwrap();
//! let bytes = id.to_bytes(ByteOrder::BigEndian).unwrap(); // the TypeID's UUID
//! assert_eq!(Id::from_bytes(&bytes, Kind::TypeId, ByteOrder::BigEndian, "user"), Ok(id));
//! let v5 = Uuid::v5(Uuid::NAMESPACE_DNS, b"www.example.com");
//! assert_eq!(&*v5.to_text(), "2ed6657d-e927-568b-95e1-2665a8aea6a2");
//! ```
#![no_std]
// Only the opt-in `expiry` feature's timers and signal handler need unsafe.
#![cfg_attr(not(feature = "expiry"), forbid(unsafe_code))]
#![cfg_attr(feature = "expiry", deny(unsafe_code))]
#![warn(missing_docs)]

#[cfg(any(feature = "std", test))]
extern crate std;

pub mod at;
pub mod base32;
pub mod base62;
pub mod bytes;
pub mod clock;
mod compare;
pub mod date;
pub mod error;
pub mod id;
pub mod kind;
pub mod ksuid;
pub mod name_based;
pub mod objectid;
pub mod record;
#[cfg(feature = "sequence")]
pub mod sequence;
pub mod snowflake;
mod text;
pub mod texts;
pub mod typeid;
pub mod ulid;
pub mod uuid;
pub mod validate;

pub use error::{Error, Kind, ParseError};
pub use id::Id;
pub use text::IdText;
pub use texts::TextKind;

pub mod binding;
#[cfg(feature = "expiry")]
#[allow(unsafe_code)]
pub mod expiry;
#[cfg(feature = "std")]
mod per_thread;
#[cfg(feature = "std")]
pub mod random;
#[cfg(feature = "std")]
pub use per_thread::*;

/// The Rust examples of the README and docs/rust.md, run as doctests so that
/// they cannot rot (tests/node/docs-examples.test.js checks that every file
/// with a rust block is included by a crate).
#[cfg(all(doctest, feature = "std"))]
mod docs {
    #[doc = include_str!("../../README.md")]
    struct Readme;
    #[doc = include_str!("../../docs/rust.md")]
    struct Rust;
}
