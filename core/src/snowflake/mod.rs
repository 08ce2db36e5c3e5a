//! 64-bit Snowflake IDs: `0 | time | worker | sequence` (or Sonyflake's
//! `0 | time | sequence | machine`). The layout is data ([`Layout`]); the
//! presets are taken from the primary sources.
//!
//! A generator's whole state is one `u64`, the *next free slot*
//! `tick << sequence_bits | sequence`. Minting takes the larger of that slot
//! and the clock's first slot, so uniqueness and order follow from the slot
//! never going back, whatever the clock does. [`AtomicSnowflake`] keeps the
//! slot in one `AtomicU64` and is shared between threads without a lock;
//! [`Snowflake`] is the plain `&mut self` version for targets without 64-bit
//! atomics (or a single owner).
//!
//! One concern per file: [`Layout`] (`layout`), the presets (`preset`),
//! decimal text (`decimal`), the clock policies (`policy`), the rules that
//! decide each step from the state and the clock (`rules`), the two
//! generators (`generator`), and the options as the bindings give them
//! (`spec`).

pub(crate) mod decimal;
mod generator;
mod layout;
mod policy;
mod preset;
mod rules;
mod spec;

pub use decimal::{parse_decimal, parse_decimal_of_width};
#[cfg(target_has_atomic = "64")]
pub use generator::AtomicSnowflake;
pub use generator::Run;
pub use generator::Snowflake;
pub use layout::{CustomLayout, Decoded, FieldOrder, Layout, LayoutRule, WorkerSplit};
pub use policy::{OnBackwards, OnExhausted};
pub use preset::Preset;
pub use rules::Claim;
pub use spec::Spec;
