use super::*;
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::string::ToString;
use std::vec::Vec;

fn fixed(size: u64) -> BlockSequence {
    let opts = Options {
        block_size: Some(size),
        ..Options::default()
    };
    BlockSequence::new(opts.config().unwrap())
}

#[test]
fn defaults_and_fixed() {
    let c = Options::default().config().unwrap();
    assert_eq!(
        (c.block_size, c.min_block_size, c.max_block_size),
        (100, 10, 1_000_000)
    );
    assert_eq!(
        (c.target_block_ms, c.start, c.timeout_ms),
        (15_000, 1, 5_000)
    );
    let c = Options {
        block_size: Some(500),
        ..Options::default()
    };
    let c = c.config().unwrap();
    assert_eq!((c.min_block_size, c.max_block_size), (500, 500));
    // A min above the default first size starts there.
    let c = Options {
        min_block_size: Some(1000),
        ..Options::default()
    };
    assert_eq!(c.config().unwrap().block_size, 1000);
}

#[test]
fn bad_options() {
    let err = |o: Options| o.config().unwrap_err().code();
    let o = Options::default();
    for bad in [
        Options {
            block_size: Some(0),
            ..o
        },
        Options {
            max_block_size: Some(MAX_BLOCK_SIZE + 1),
            ..o
        },
        Options {
            target_block_ms: Some(0),
            ..o
        },
        Options {
            start: Some(MAX_ID + 1),
            ..o
        },
        Options {
            timeout_ms: Some(0),
            ..o
        },
        Options {
            min_block_size: Some(100),
            max_block_size: Some(10),
            ..o
        },
        Options {
            block_size: Some(5),
            min_block_size: Some(10),
            ..o
        },
    ] {
        assert_eq!(err(bad), "ERR_SEQUENCE_OPTION", "{bad:?}");
    }
    let e = Options {
        start: Some(MAX_ID + 1),
        ..o
    };
    assert_eq!(
        e.config().unwrap_err().to_string(),
        "sequence option start = 9223372036854775808 is out of range: expected 0 to 9223372036854775807"
    );
}

#[test]
fn names() {
    for ok in ["orders", "_x", "A1_b", &"n".repeat(63)] {
        assert_eq!(check_name(ok), Ok(()), "{ok}");
    }
    for bad in [
        "",
        "1st",
        "orders\"; DROP TABLE x; --",
        "a-b",
        "ä",
        "a b",
        &"n".repeat(64),
    ] {
        assert_eq!(check_name(bad).unwrap_err().code(), "ERR_SEQUENCE_NAME");
    }
}

#[test]
fn double_buffering() {
    let mut s = fixed(10);
    assert_eq!(s.take(100), Err(Error::SequenceEmpty));
    assert_eq!(s.request(0), Some(10));
    assert_eq!(s.request(0), None, "one request at a time");
    s.add_block(1, 10).unwrap();
    // The first run stops where the refill is due.
    assert_eq!(s.take(100), Ok(IdRange { start: 1, len: 5 }));
    assert_eq!(s.request(1), Some(10));
    s.add_block(11, 10).unwrap();
    assert_eq!(s.request(1), None, "a spare is buffered");
    assert_eq!(s.buffered(), 15);
    assert_eq!(s.take(2), Ok(IdRange { start: 6, len: 2 }));
    assert_eq!(s.take(100), Ok(IdRange { start: 8, len: 3 }));
    assert_eq!(s.take(100), Ok(IdRange { start: 11, len: 5 }));
    assert_eq!(s.take(100), Ok(IdRange { start: 16, len: 5 }));
    assert_eq!(s.take(100), Err(Error::SequenceEmpty));
}

#[test]
fn overflow_and_backwards() {
    let mut s = fixed(10);
    s.request(0);
    assert_eq!(
        s.add_block(MAX_ID - 8, 10).unwrap_err().code(),
        "ERR_SEQUENCE_OVERFLOW"
    );
    s.request(0);
    s.add_block(MAX_ID - 9, 10).unwrap();
    assert_eq!(s.take(10).unwrap().start, MAX_ID - 9);
    s.request(0);
    assert_eq!(
        s.add_block(u64::MAX, 10).unwrap_err().code(),
        "ERR_SEQUENCE_OVERFLOW"
    );
    let mut s = fixed(10);
    s.request(0);
    s.add_block(100, 10).unwrap();
    s.take(5).unwrap();
    s.request(0);
    let e = s.add_block(105, 10).unwrap_err();
    assert_eq!(e.code(), "ERR_SEQUENCE_BACKWARDS");
    assert_eq!(
        e.to_string(),
        "the sequence's store answered with a block starting at 105, before the end 110 of the previous block: its counter went back (restored or reset?), so IDs would repeat"
    );
}

#[test]
fn backoff() {
    let mut s = fixed(10);
    assert_eq!(s.request(1000), Some(10));
    s.fail(1000);
    assert_eq!(s.request(1024), None);
    assert_eq!(s.request(1025), Some(10));
    s.fail(1025);
    assert_eq!(s.request(1074), None);
    assert_eq!(s.request(1075), Some(10));
    for _ in 0..20 {
        s.fail(0);
    }
    assert_eq!(s.request(999), None);
    assert_eq!(s.request(1000), Some(10));
    s.add_block(1, 10).unwrap();
    s.take(10).unwrap();
    assert_eq!(s.request(1000), Some(10), "a success resets the backoff");
}

/// Drains `per_ms` IDs every ms for `ms` ms, answering requests at once;
/// returns the sizes asked for.
fn drive(s: &mut BlockSequence, per_ms: u64, ms: u64, next_start: &mut u64) -> Vec<u64> {
    let mut sizes = Vec::new();
    for now in 0..ms {
        let mut left = per_ms;
        while left > 0 {
            if let Some(size) = s.request(now) {
                sizes.push(size);
                s.add_block(*next_start, size).unwrap();
                *next_start += size;
            }
            left -= s.take(left).unwrap().len;
        }
    }
    sizes
}

#[test]
fn adaptive_sizes_follow_the_rate() {
    let opts = Options {
        min_block_size: Some(10),
        max_block_size: Some(100_000),
        target_block_ms: Some(100),
        ..Options::default()
    };
    let mut counter = 1;
    let mut slow = BlockSequence::new(opts.config().unwrap());
    let mut fast = slow.clone();
    let slow_sizes = drive(&mut slow, 10, 2000, &mut counter);
    let fast_sizes = drive(&mut fast, 180, 2000, &mut counter);
    // A block lasts about 100 ms: 1000 IDs at 10/ms, 18000 at 180/ms.
    let last = |v: &[u64]| *v.last().unwrap();
    assert!((900..=1100).contains(&last(&slow_sizes)), "{slow_sizes:?}");
    assert!(
        (16_200..=19_800).contains(&last(&fast_sizes)),
        "{fast_sizes:?}"
    );
    // Growth is bounded: at most 4x per step.
    assert!(fast_sizes.windows(2).all(|w| w[1] <= w[0] * 4));
    // Round trips: about one per 100 ms each, not one per fixed-size block.
    assert!(fast_sizes.len() < 40, "{}", fast_sizes.len());
}

proptest! {
    /// Whatever the order of takes, requests, answers and failures, the
    /// IDs handed out strictly increase, never repeat, stay within the
    /// blocks received and never pass MAX_ID.
    #[test]
    fn ids_increase_within_blocks(
        min in 1u64..50, span in 0u64..500, target in 1u64..1000,
        start in prop_oneof![0u64..10, (MAX_ID - 5000)..=MAX_ID],
        steps in proptest::collection::vec((0u8..4, 1u64..300, 0u64..50), 1..200),
    ) {
        let opts = Options {
            min_block_size: Some(min),
            max_block_size: Some(min + span),
            target_block_ms: Some(target),
            ..Options::default()
        };
        let mut s = BlockSequence::new(opts.config().unwrap());
        let (mut now, mut counter) = (0u64, start);
        let mut blocks = Vec::new();
        let mut seen = BTreeSet::new();
        let mut last = None;
        let mut asked = None;
        for (op, n, dt) in steps {
            now += dt;
            match op {
                0 => if let Some(size) = s.request(now) {
                    prop_assert!((min..=min + span).contains(&size));
                    prop_assert!(asked.is_none());
                    asked = Some(size);
                },
                1 => if let Some(size) = asked.take() {
                    match s.add_block(counter, size) {
                        Ok(()) => blocks.push((counter, counter + size)),
                        Err(e) => {
                            prop_assert_eq!(e.code(), "ERR_SEQUENCE_OVERFLOW");
                            prop_assert!(counter.checked_add(size).is_none_or(|end| end - 1 > MAX_ID));
                        }
                    }
                    counter = counter.saturating_add(size);
                },
                2 => if asked.take().is_some() {
                    s.fail(now);
                },
                _ => match s.take(n) {
                    Ok(run) => {
                        prop_assert!(run.len >= 1 && run.len <= n);
                        for id in run.start..run.start + run.len {
                            prop_assert!(id <= MAX_ID);
                            prop_assert!(last.is_none_or(|l| id > l));
                            prop_assert!(blocks.iter().any(|&(a, b)| a <= id && id < b));
                            prop_assert!(seen.insert(id));
                            last = Some(id);
                        }
                    }
                    Err(e) => {
                        prop_assert_eq!(e, Error::SequenceEmpty);
                        prop_assert_eq!(s.buffered(), 0);
                    }
                },
            }
        }
    }
}
