//! `GET /v1/decode/{id}`: the record of the JS `decode()`, as JSON (64-bit
//! values as strings, `date` as ISO 8601 text, as `JSON.stringify` writes a
//! record's `Date`).

use std::fmt::Write;

use snowmint::Id;
use snowmint::date::iso;
use snowmint::snowflake::{Layout, Preset};

use crate::mint::Failure;

/// A JSON string literal of `s`.
fn quoted(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The decode record of `text` as JSON; `kind` forces a kind (the core's
/// names), `preset` says how to read a Snowflake (default: the server's).
pub fn decode(
    text: &str,
    kind: Option<&str>,
    preset: Option<&str>,
    default: Preset,
) -> Result<String, Failure> {
    let bad = |e: &dyn std::fmt::Display| Failure::bad("ERR_PARSE", e.to_string());
    let kind = kind
        .map(snowmint::Kind::from_name)
        .transpose()
        .map_err(|e| Failure::bad("ERR_INVALID_ARG_VALUE", e.to_string()))?;
    let (preset, named) = match preset {
        Some(p) => (
            Preset::from_name(p)
                .map_err(|e| Failure::bad("ERR_INVALID_ARG_VALUE", e.to_string()))?,
            true,
        ),
        None => (default, false),
    };
    let id = Id::parse(text, kind).map_err(|e| bad(&e))?;
    let mut fields: Vec<(&str, String)> = vec![("kind", quoted(id.kind().name()))];
    let time = |fields: &mut Vec<(&str, String)>, ms: Option<i64>| {
        if let Some(ms) = ms {
            fields.push(("timestamp", ms.to_string()));
            fields.push(("date", quoted(iso(ms).as_str())));
        }
    };
    let f = id.fields();
    match id {
        Id::Snowflake(v) => {
            let layout: Layout = preset.layout();
            let d = layout.decode(v).map_err(|e| bad(&e))?;
            fields.push(("id", quoted(&v.to_string())));
            time(&mut fields, Some(d.timestamp_ms as i64));
            fields.push(("workerId", d.worker_id.to_string()));
            fields.push(("sequence", d.sequence.to_string()));
            if named {
                fields.push(("preset", quoted(preset.name())));
            }
            if let Some((high, h, low, l)) = d.worker_parts {
                fields.push((
                    "parts",
                    format!("{{{}:{h},{}:{l}}}", quoted(high), quoted(low)),
                ));
            }
        }
        Id::Ulid(_) => {
            time(&mut fields, f.timestamp_ms);
            fields.push(("random", quoted(f.hex.as_ref().map_or("", |h| h.as_str()))));
            fields.push((
                "uuid",
                quoted(&f.uuid.map(|u| u.to_text().to_string()).unwrap_or_default()),
            ));
        }
        Id::Uuid(u) => {
            fields.push(("uuid", quoted(&u.to_text())));
            fields.push(("version", u.version().to_string()));
            fields.push(("variant", quoted(u.variant().name())));
            time(&mut fields, f.timestamp_ms);
            if let (Some(seq), Some(node)) = (f.clock_seq, f.node) {
                fields.push(("clockSeq", seq.to_string()));
                fields.push(("node", quoted(node.as_str())));
            }
        }
        Id::Ksuid(_) => {
            time(&mut fields, f.timestamp_ms);
            fields.push(("payload", quoted(f.hex.as_ref().map_or("", |h| h.as_str()))));
        }
        Id::ObjectId(_) => {
            time(&mut fields, f.timestamp_ms);
            fields.push(("random", quoted(f.hex.as_ref().map_or("", |h| h.as_str()))));
            fields.push(("counter", f.counter.unwrap_or(0).to_string()));
        }
        Id::TypeId(t) => {
            fields.push(("prefix", quoted(t.prefix())));
            fields.push(("uuid", quoted(&t.uuid().to_text())));
            time(&mut fields, f.timestamp_ms);
        }
    }
    let body: Vec<String> = fields
        .iter()
        .map(|(k, v)| format!("{}:{v}", quoted(k)))
        .collect();
    Ok(format!("{{{}}}\n", body.join(",")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_have_the_js_fields() {
        // Discord's documented example ID: internal worker 1, process 0, increment 7.
        let r = decode("175928847299117063", None, Some("discord"), Preset::Twitter).unwrap();
        assert_eq!(
            r,
            "{\"kind\":\"snowflake\",\"id\":\"175928847299117063\",\"timestamp\":1462015105796,\"date\":\"2016-04-30T11:18:25.796Z\",\"workerId\":32,\"sequence\":7,\"preset\":\"discord\",\"parts\":{\"worker\":1,\"process\":0}}\n"
        );
        let r = decode("01ARZ3NDEKTSV4RRFFQ69G5FAV", None, None, Preset::Twitter).unwrap();
        assert!(
            r.starts_with("{\"kind\":\"ulid\",\"timestamp\":1469922850259,"),
            "{r}"
        );
        let e = decode("nope", None, None, Preset::Twitter).unwrap_err();
        assert_eq!((e.code, e.client), ("ERR_PARSE", true));
        let e = decode("1", Some("snowflak"), None, Preset::Twitter).unwrap_err();
        assert!(
            e.message.contains("unknown kind 'snowflak'"),
            "{}",
            e.message
        );
    }
}
