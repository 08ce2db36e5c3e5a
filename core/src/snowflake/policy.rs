//! What a generator does when the clock steps back or a tick's sequence is used up.

use crate::error::{Error, by_index};

/// What to do when the clock reads earlier than the last minted tick.
/// Only raw wall clocks need this: the default [`MonotonicClock`](crate::clock::MonotonicClock)
/// never goes back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OnBackwards {
    /// Wait for the clock to catch up if the step is at most `max_ms`,
    /// otherwise fail with [`Error::ClockMovedBackwards`].
    Wait {
        /// The largest step back that is waited out.
        max_ms: u64,
    },
    /// Keep minting after the last slot: the sequence runs on into later
    /// ticks until the clock catches up. Never fails, but IDs carry a time
    /// ahead of the clock meanwhile.
    KeepLastTick,
    /// Fail at once with [`Error::ClockMovedBackwards`].
    Fail,
}

impl OnBackwards {
    /// The bindings' names of the policies, in the order of their index encoding.
    pub const NAMES: [&'static str; 3] = ["wait", "keep", "fail"];

    /// The bindings' default bound of `"wait"`.
    pub const DEFAULT_MAX_MS: u64 = 1_000;

    /// The policy named `name` (one of [`OnBackwards::NAMES`]); `"wait"`
    /// waits out at most `max_ms`.
    pub fn from_name(name: &str, max_ms: u64) -> Result<OnBackwards, Error> {
        let i = OnBackwards::NAMES.iter().position(|n| *n == name);
        OnBackwards::from_index(i.map_or(f64::NAN, |i| i as f64), max_ms)
    }

    /// The policy at a binding's `index` into [`OnBackwards::NAMES`].
    pub fn from_index(index: f64, max_ms: u64) -> Result<OnBackwards, Error> {
        let all = [
            OnBackwards::Wait { max_ms },
            OnBackwards::KeepLastTick,
            OnBackwards::Fail,
        ];
        by_index("onBackwards policy", &OnBackwards::NAMES, &all, index)
    }
}

impl Default for OnBackwards {
    fn default() -> Self {
        OnBackwards::Wait {
            max_ms: OnBackwards::DEFAULT_MAX_MS,
        }
    }
}

/// What to do when a tick's sequence is used up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OnExhausted {
    /// Wait for the next tick (the default).
    #[default]
    Wait,
    /// Mint into up to `max_ticks` future ticks before waiting. A backwards
    /// step smaller than that is absorbed the same way.
    BorrowAhead {
        /// How many ticks ahead of the clock IDs may be minted.
        max_ticks: u32,
    },
}

impl OnExhausted {
    /// The bindings' names of the policies, in the order of their index encoding.
    pub const NAMES: [&'static str; 2] = ["wait", "borrow"];

    /// The bindings' default of how many ticks `"borrow"` may borrow.
    pub const DEFAULT_MAX_TICKS: u32 = 16;

    /// The policy named `name` (one of [`OnExhausted::NAMES`]); `"borrow"`
    /// borrows at most `max_ticks` ahead.
    pub fn from_name(name: &str, max_ticks: u32) -> Result<OnExhausted, Error> {
        let i = OnExhausted::NAMES.iter().position(|n| *n == name);
        OnExhausted::from_index(i.map_or(f64::NAN, |i| i as f64), max_ticks)
    }

    /// The policy at a binding's `index` into [`OnExhausted::NAMES`].
    pub fn from_index(index: f64, max_ticks: u32) -> Result<OnExhausted, Error> {
        let all = [OnExhausted::Wait, OnExhausted::BorrowAhead { max_ticks }];
        by_index("onExhausted policy", &OnExhausted::NAMES, &all, index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snowflake::{FieldOrder, Preset};

    #[test]
    fn names_round_trip() {
        for o in FieldOrder::ALL {
            assert_eq!(FieldOrder::from_name(o.name()), Ok(o));
        }
        for p in Preset::ALL {
            assert_eq!(Preset::from_name(p.name()), Ok(p));
        }
        assert_eq!(
            OnBackwards::NAMES.map(|n| OnBackwards::from_name(n, 5)),
            [
                Ok(OnBackwards::Wait { max_ms: 5 }),
                Ok(OnBackwards::KeepLastTick),
                Ok(OnBackwards::Fail)
            ]
        );
        assert_eq!(
            OnExhausted::NAMES.map(|n| OnExhausted::from_name(n, 3)),
            [
                Ok(OnExhausted::Wait),
                Ok(OnExhausted::BorrowAhead { max_ticks: 3 })
            ]
        );
        assert_eq!(
            FieldOrder::from_name("worker"),
            Err(Error::UnknownName {
                what: "layout order",
                given: Some(crate::error::GivenName::new("worker")),
                allowed: &FieldOrder::NAMES
            })
        );
        assert!(OnBackwards::from_name("skip", 1).is_err());
        // A binding's index that is not a whole number in range never
        // becomes another item (a JS indexOf of -1 once became the first).
        for bad in [-1.0, 0.5, 5.0, f64::NAN, f64::INFINITY] {
            assert_eq!(
                Preset::from_index(bad),
                Err(Error::UnknownName {
                    what: "preset",
                    given: None,
                    allowed: &Preset::NAMES
                })
            );
            assert!(OnExhausted::from_index(bad, 1).is_err());
        }
        assert_eq!(Preset::from_index(1.0), Ok(Preset::Discord));
        assert_eq!(
            std::string::ToString::to_string(&Preset::from_name("snow").unwrap_err()),
            "unknown preset 'snow': expected one of 'twitter', 'discord', 'instagram', 'sonyflake', 'mastodon'"
        );
    }
}
