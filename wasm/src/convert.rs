//! Validation, bytes and the UUIDs built from given bits (v8, v1 <-> v6):
//! conversion only, one core call each, like `node/src/convert.rs`. The
//! name-based UUIDs (v3, v5) are a module of their own (`wasm/mint/`).

use snowmint::bytes::ByteOrder;
use snowmint::snowflake::Preset;
use snowmint::uuid::Uuid;
use snowmint::validate::Validation;
use snowmint::{Error, Id, Kind};

use crate::{Args, Failed, bigint, done, text, write};

fn order(guid: u32) -> ByteOrder {
    if guid == 1 {
        ByteOrder::Guid
    } else {
        ByteOrder::BigEndian
    }
}

fn kind_arg(kind: Option<&str>) -> Result<Option<Kind>, Error> {
    kind.map(Kind::from_name).transpose()
}

/// A UUID's canonical text: its length, or -1.
fn uuid_text(u: impl FnOnce() -> Result<Uuid, Failed>) -> f64 {
    done(u().and_then(|u| text(&u.to_text())))
}

/// Whether the text (`len`) is a valid ID under the rules (kind, preset:
/// texts, -1 for none; `version` NaN for any): 1 or 0, or -1 (a rule's error).
#[unsafe(no_mangle)]
pub extern "C" fn is_valid(
    len: usize,
    kind_len: i32,
    lenient: u32,
    preset_len: i32,
    version: f64,
) -> f64 {
    let mut args = Args::new();
    done((|| {
        let text = args.text(len)?;
        let kind = args.option(kind_len)?;
        let preset = args.option(preset_len)?.map(Preset::from_name).transpose();
        let rules = Validation {
            kind: kind_arg(kind)?,
            lenient: lenient == 1,
            preset: preset?,
            uuid_version: (!version.is_nan()).then_some(version as u8),
        };
        Ok(f64::from(u8::from(rules.accepts(text))))
    })())
}

/// An ID's bytes (text `len`, kind `kind_len` or -1): their count, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn to_bytes(len: usize, kind_len: i32, guid: u32) -> f64 {
    let mut args = Args::new();
    done((|| {
        let text = args.text(len)?;
        let id = Id::parse(text, kind_arg(args.option(kind_len)?)?)?;
        Ok(write([&id.to_bytes(order(guid))?])[0] as f64)
    })())
}

/// The ID of kind (text `kind_len`) with these bytes (`len`), a TypeID's
/// prefix (text `prefix_len`): a Snowflake (-2, at `big`), else its text's
/// length, or -1.
#[unsafe(no_mangle)]
pub extern "C" fn from_bytes(len: usize, kind_len: usize, guid: u32, prefix_len: usize) -> f64 {
    let mut args = Args::new();
    done((|| {
        let bytes = args.bytes(len);
        let kind = Kind::from_name(args.text(kind_len)?)?;
        match Id::from_bytes(bytes, kind, order(guid), args.text(prefix_len)?)? {
            Id::Snowflake(v) => bigint(v),
            id => text(&id.to_text()),
        }
    })())
}

/// A UUIDv8 of the bytes (`len`).
#[unsafe(no_mangle)]
pub extern "C" fn uuidv8(len: usize) -> f64 {
    uuid_text(|| Ok(Uuid::v8_from_slice(Args::new().bytes(len))?))
}

/// A v1 UUID (text `len`) as v6.
#[unsafe(no_mangle)]
pub extern "C" fn uuidv1_to_v6(len: usize) -> f64 {
    uuid_text(|| Ok(Uuid::parse(Args::new().text(len)?)?.v1_to_v6()?))
}

/// A v6 UUID (text `len`) as v1.
#[unsafe(no_mangle)]
pub extern "C" fn uuidv6_to_v1(len: usize) -> f64 {
    uuid_text(|| Ok(Uuid::parse(Args::new().text(len)?)?.v6_to_v1()?))
}
