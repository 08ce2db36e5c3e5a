//! `decodeId`, `toHuman`, `fromHuman`: parsed IDs as the plain records of
//! `RawDecoded` in backend.d.ts.

use napi::Either;
use napi::bindgen_prelude::BigInt;
use napi_derive::napi;
use snowmint::{Id, Kind};

use crate::{Result, core_err, kind_arg};

/// A parsed ID's fields (see `RawDecoded` in backend.d.ts).
#[napi(object, object_from_js = false)]
pub struct RawDecoded {
    #[napi(ts_type = "Contract.RawDecoded['kind']")]
    pub kind: String,
    pub value: Option<BigInt>,
    pub timestamp: Option<f64>,
    pub hex: Option<String>,
    pub uuid: Option<String>,
    pub version: Option<u32>,
    #[napi(ts_type = "Contract.RawDecoded['variant']")]
    pub variant: Option<String>,
    pub clock_seq: Option<u32>,
    pub node: Option<String>,
    pub counter: Option<u32>,
    pub prefix: Option<String>,
}

fn parse(text: &str, kind: Option<Kind>) -> Result<Id> {
    Id::parse(text, kind).map_err(core_err)
}

#[napi(catch_unwind)]
pub fn decode_id(text: String, kind: Option<String>) -> Result<RawDecoded> {
    let id = parse(&text, kind_arg(kind)?)?;
    let f = id.fields();
    Ok(RawDecoded {
        kind: id.kind().name().into(),
        value: f.snowflake.map(BigInt::from),
        timestamp: f.timestamp_ms.map(|ms| ms as f64),
        hex: f.hex.map(|h| h.to_string()),
        uuid: f.uuid.map(|u| u.to_text().to_string()),
        version: f.version.map(u32::from),
        variant: f.variant.map(|v| v.name().into()),
        clock_seq: f.clock_seq.map(u32::from),
        node: f.node.map(|n| n.to_string()),
        counter: f.counter,
        prefix: f.prefix.map(str::to_string),
    })
}

#[napi(catch_unwind)]
pub fn to_human(text: String, groups: Option<f64>) -> Result<String> {
    let groups = groups
        .map(snowmint::binding::human_groups)
        .transpose()
        .map_err(core_err)?;
    Ok(parse(&text, None)?
        .to_human(groups)
        .map_err(core_err)?
        .to_string())
}

#[napi(catch_unwind)]
pub fn from_human(text: String) -> Result<Either<BigInt, String>> {
    Ok(match parse(&text, Some(Kind::Human))? {
        Id::Snowflake(v) => Either::A(BigInt::from(v)),
        Id::Ulid(u) => Either::B(u.to_text().to_string()),
        other => {
            return Err(napi::Error::new(
                "ERR_INTERNAL",
                format!("the human form read back as a {}", other.kind()),
            ));
        }
    })
}
