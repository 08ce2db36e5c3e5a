//! `decode_id`, `to_human`, `from_human`: parsed IDs, a decoded one as the
//! slots of `binding::DecodedSlot` (the record `RawDecoded` of backend.d.ts).

use snowmint::Kind;
use snowmint::binding::DecodedSlot;
use snowmint::id::Id;

use crate::{Args, BIG, Failed, bigint, done, set_numbers, text, write};

/// Parses any ID (text `len`); kind (text `kind_len`, -1: none) forces a
/// kind (`'human'` included): 0 and its fields (`DecodedSlot`), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn decode_id(len: usize, kind_len: i32) -> f64 {
    let mut args = Args::new();
    done((|| {
        let text = args.text(len)?;
        let kind = args.option(kind_len)?.map(Kind::from_name).transpose()?;
        let id = Id::parse(text, kind)?;
        let f = id.fields();
        let uuid = f.uuid.map(|u| u.to_text());
        let texts = [
            Some(id.kind().name()),
            f.hex.as_deref(),
            uuid.as_deref(),
            f.variant.map(|v| v.name()),
            f.node.as_deref(),
            f.prefix,
        ];
        let lengths = write(texts.map(|t| t.unwrap_or("").as_bytes()));
        let number = |n: Option<f64>| n.unwrap_or(f64::NAN);
        let numbers = [
            f.snowflake.map(|_| 1.0),
            f.timestamp_ms.map(|ms| ms as f64),
            f.version.map(f64::from),
            f.clock_seq.map(f64::from),
            f.counter.map(f64::from),
        ];
        let (mut texts, mut numbers) = (texts.iter().zip(lengths), numbers.into_iter());
        let mut slots = [0.0; DecodedSlot::LEN];
        for (slot, is_text) in slots.iter_mut().zip(DecodedSlot::TEXTS) {
            *slot = if is_text {
                match texts.next() {
                    Some((Some(_), length)) => length as f64,
                    _ => -1.0,
                }
            } else {
                number(numbers.next().flatten())
            };
        }
        set_numbers(slots);
        BIG.0.set([f.snowflake.unwrap_or(0), 0]);
        Ok(0.0)
    })())
}

/// The human form of an ID's text (`len`), a decimal Snowflake or a
/// 128-bit ID, of `groups` if `given` is 1 (else all): its length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn to_human(len: usize, given: u32, groups: f64) -> f64 {
    done((|| {
        let groups = (given == 1)
            .then(|| snowmint::binding::human_groups(groups))
            .transpose()?;
        let id = Id::parse(Args::new().text(len)?, None)?;
        text(&id.to_human(groups)?)
    })())
}

/// Reads the human form (`len`) back: a Snowflake (-2, at `big`) or a
/// 128-bit ID as ULID text (its length), or -1.
#[unsafe(no_mangle)]
pub extern "C" fn from_human(len: usize) -> f64 {
    done(
        (|| match Id::parse(Args::new().text(len)?, Some(Kind::Human))? {
            Id::Snowflake(v) => bigint(v),
            Id::Ulid(u) => text(&u.to_text()),
            _ => Err(Failed::Internal),
        })(),
    )
}
