//! `decode()`: the JS decode record of an ID, as jsonb.

use pgrx::JsonB;
use pgrx::datum::Uuid as PgUuid;
use pgrx::prelude::*;
use serde_json::{Map, Value, json};
use snowmint_core::date::iso;
use snowmint_core::{Id, Kind};

use crate::{core_uuid, layout, ok};

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

/// Unix ms and the JS Date's ISO text of them.
fn time_fields(out: &mut Map<String, Value>, ms: i64) {
    out.insert("timestamp".into(), json!(ms));
    out.insert("date".into(), json!(iso(ms).as_str()));
}

/// The JS decode record of an ID.
fn record(id: Id, preset_arg: Option<&str>) -> Value {
    let f = id.fields();
    let mut out = Map::new();
    out.insert("kind".into(), json!(id.kind().name()));
    match id.kind() {
        Kind::Snowflake => {
            let value = f.snowflake.expect("a Snowflake has its value");
            let (preset, layout) = layout(preset_arg);
            let d = ok(layout.decode(value));
            out.insert("id".into(), json!(value.to_string()));
            time_fields(&mut out, d.timestamp_ms as i64);
            out.insert("workerId".into(), json!(d.worker_id));
            out.insert("sequence".into(), json!(d.sequence));
            if preset_arg.is_some() {
                // As JS decode(id, { preset }) names it.
                out.insert("preset".into(), json!(preset.name()));
            }
            if let Some((high, h, low, l)) = d.worker_parts {
                let mut parts = Map::new();
                parts.insert(high.into(), json!(h));
                parts.insert(low.into(), json!(l));
                out.insert("parts".into(), Value::Object(parts));
            }
        }
        kind => {
            let hex = f.hex.map(|h| h.to_string());
            match kind {
                Kind::Ulid => {
                    out.insert("random".into(), json!(hex));
                }
                Kind::Ksuid => {
                    out.insert("payload".into(), json!(hex));
                }
                Kind::ObjectId => {
                    out.insert("random".into(), json!(hex));
                    out.insert("counter".into(), json!(f.counter));
                }
                Kind::TypeId => {
                    out.insert("prefix".into(), json!(f.prefix));
                }
                _ => {}
            }
            if let Some(u) = f.uuid {
                out.insert("uuid".into(), json!(u.to_text().to_string()));
            }
            if kind == Kind::Uuid {
                out.insert("version".into(), json!(f.version));
                out.insert("variant".into(), json!(f.variant.map(|v| v.name())));
                if let Some(c) = f.clock_seq {
                    out.insert("clockSeq".into(), json!(c));
                }
                if let Some(n) = f.node {
                    out.insert("node".into(), json!(n.to_string()));
                }
            }
            if let Some(ms) = f.timestamp_ms {
                time_fields(&mut out, ms);
            }
        }
    }
    Value::Object(out)
}
