//! `decode()`: the JS decode record of an ID, as jsonb.

use pgrx::JsonB;
use pgrx::datum::Uuid as PgUuid;
use pgrx::prelude::*;
use serde_json::Value;
use snowmint_core::record::{Json, Reading};
use snowmint_core::{Id, Kind};

use crate::{core_uuid, layout, ok, raise};

/// The JS decode record of any ID text (its kind told from its shape);
/// a decimal Snowflake read in the session's layout or `preset`'s.
#[pg_extern(stable, parallel_safe)]
fn decode(id: &str, preset: default!(Option<&str>, "NULL")) -> JsonB {
    JsonB(record(ok(Id::parse(id, None)), preset))
}

#[pg_extern(stable, parallel_safe, name = "decode")]
fn decode_bigint(id: i64, preset: default!(Option<&str>, "NULL")) -> JsonB {
    // A negative one read as its decimal text, as JS decode(-5n) reads it.
    let id = ok(Id::parse(&id.to_string(), Some(Kind::Snowflake)));
    JsonB(record(id, preset))
}

#[pg_extern(immutable, parallel_safe, strict, name = "decode")]
fn decode_uuid(id: PgUuid) -> JsonB {
    JsonB(record(Id::Uuid(core_uuid(id)), None))
}

/// The JS decode record of an ID: the core's JSON, read back as jsonb.
fn record(id: Id, preset_arg: Option<&str>) -> Value {
    let (preset, layout) = layout(preset_arg);
    let reading = Reading {
        layout,
        // As JS decode(id, { preset }) names it.
        named: preset_arg.map(|_| preset),
    };
    let mut json = String::with_capacity(256);
    // Writing to a String cannot fail.
    let _ = ok(Json::write(&id, reading, &mut json));
    serde_json::from_str(&json).unwrap_or_else(|e| {
        raise(
            "ERR_INTERNAL",
            format!("a decode record that is not JSON: {e}"),
        )
    })
}
