//! `GET /v1/decode/{id}`: the record of the JS `decode()`, as JSON (64-bit
//! values as strings, `date` as ISO 8601 text, as `JSON.stringify` writes a
//! record's `Date`).

use snowmint::Id;
use snowmint::record::{Json, Reading};
use snowmint::snowflake::Preset;

use crate::mint::Failure;

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
    let reading = match preset {
        Some(p) => Reading::preset(
            Preset::from_name(p)
                .map_err(|e| Failure::bad("ERR_INVALID_ARG_VALUE", e.to_string()))?,
        ),
        None => Reading::layout(default.layout()),
    };
    let id = Id::parse(text, kind).map_err(|e| bad(&e))?;
    let mut out = String::with_capacity(256);
    // Writing to a String cannot fail.
    let _ = Json::write(&id, reading, &mut out).map_err(|e| bad(&e))?;
    out.push('\n');
    Ok(out)
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
