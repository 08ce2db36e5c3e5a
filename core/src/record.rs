//! The decode record of an ID, field by field in the order JavaScript's
//! `decode()` builds it, so every binding that writes the record itself (the
//! ID service's and the SQL extensions' JSON) writes the same one: the
//! fields go to a [`Fields`], and [`Json`] is the one that writes JSON
//! (64-bit values as strings, `date` as `JSON.stringify` writes a `Date`).
//!
//! ```
//! use snowmint::record::{Json, Reading};
//! use snowmint::snowflake::Preset;
//! use snowmint::Id;
//!
//! let id = Id::parse("175928847299117063", None).unwrap();
//! let mut json = String::new();
//! Json::write(&id, Reading::preset(Preset::Discord), &mut json).unwrap();
//! assert_eq!(
//!     json,
//!     r#"{"kind":"snowflake","id":"175928847299117063","timestamp":1462015105796,"date":"2016-04-30T11:18:25.796Z","workerId":32,"sequence":7,"preset":"discord","parts":{"worker":1,"process":0}}"#
//! );
//! ```

use core::fmt::{self, Write};

use crate::date::iso;
use crate::snowflake::{Layout, Preset};
use crate::{Error, Id, IdText};

/// Receives a record's fields, in the JS record's order.
pub trait Fields {
    /// A text field.
    fn text(&mut self, key: &str, value: &str);
    /// A number field.
    fn number(&mut self, key: &str, value: i64);
    /// A Snowflake's split worker field (`parts: { worker, process }` for Discord).
    fn parts(&mut self, high: (&str, u64), low: (&str, u64));
}

/// How a Snowflake is read: with a layout, and the preset to name in the
/// record when the caller chose one (as `decode(id, { preset })` names it).
#[derive(Debug, Clone, Copy)]
pub struct Reading {
    /// The layout its fields are read with.
    pub layout: Layout,
    /// The preset the record names, if any.
    pub named: Option<Preset>,
}

impl Reading {
    /// Read with `preset`'s layout, the record naming it.
    pub fn preset(preset: Preset) -> Reading {
        Reading {
            layout: preset.layout(),
            named: Some(preset),
        }
    }

    /// Read with `layout` (a configured generator's), no preset named.
    pub fn layout(layout: Layout) -> Reading {
        Reading {
            layout,
            named: None,
        }
    }
}

/// Sends `id`'s record to `out`; fails only for a Snowflake that does not
/// fit the reading's layout.
pub fn fields(id: &Id, reading: Reading, out: &mut impl Fields) -> Result<(), Error> {
    let f = id.fields();
    out.text("kind", id.kind().name());
    let hex = f.hex.as_ref().map_or("", |h| h.as_str());
    match id {
        Id::Snowflake(v) => {
            let d = reading.layout.decode(*v)?;
            out.text("id", IdText::<20>::decimal(*v).as_str());
            time(out, Some(d.timestamp_ms as i64));
            out.number("workerId", d.worker_id as i64);
            out.number("sequence", d.sequence as i64);
            if let Some(p) = reading.named {
                out.text("preset", p.name());
            }
            if let Some((high, h, low, l)) = d.worker_parts {
                out.parts((high, h), (low, l));
            }
        }
        Id::Ulid(_) => {
            time(out, f.timestamp_ms);
            out.text("random", hex);
            if let Some(u) = f.uuid {
                out.text("uuid", u.to_text().as_str());
            }
        }
        Id::Uuid(u) => {
            out.text("uuid", u.to_text().as_str());
            out.number("version", u.version().into());
            out.text("variant", u.variant().name());
            time(out, f.timestamp_ms);
            if let (Some(seq), Some(node)) = (f.clock_seq, f.node) {
                out.number("clockSeq", seq.into());
                out.text("node", node.as_str());
            }
        }
        Id::Ksuid(_) => {
            time(out, f.timestamp_ms);
            out.text("payload", hex);
        }
        Id::ObjectId(_) => {
            time(out, f.timestamp_ms);
            out.text("random", hex);
            out.number("counter", f.counter.unwrap_or(0).into());
        }
        Id::TypeId(t) => {
            out.text("prefix", t.prefix());
            out.text("uuid", t.uuid().to_text().as_str());
            time(out, f.timestamp_ms);
        }
    }
    Ok(())
}

/// `timestamp` and `date`, where the kind has a time (JS's `withTime`).
fn time(out: &mut impl Fields, ms: Option<i64>) {
    if let Some(ms) = ms {
        out.number("timestamp", ms);
        out.text("date", iso(ms).as_str());
    }
}

/// Writes a record as one JSON object.
#[derive(Debug)]
pub struct Json<'w, W: Write> {
    out: &'w mut W,
    first: bool,
    result: fmt::Result,
}

impl<'w, W: Write> Json<'w, W> {
    /// Writes `id`'s record to `out` as a JSON object.
    pub fn write(id: &Id, reading: Reading, out: &'w mut W) -> Result<fmt::Result, Error> {
        let mut json = Json {
            out,
            first: true,
            result: Ok(()),
        };
        json.result = json.out.write_char('{');
        fields(id, reading, &mut json)?;
        Ok(json.result.and_then(|()| json.out.write_char('}')))
    }

    fn key(&mut self, key: &str) {
        if self.result.is_ok() {
            let sep = if self.first { "" } else { "," };
            self.first = false;
            self.result = self
                .out
                .write_str(sep)
                .and_then(|()| quoted(self.out, key))
                .and_then(|()| self.out.write_char(':'));
        }
    }
}

impl<W: Write> Fields for Json<'_, W> {
    fn text(&mut self, key: &str, value: &str) {
        self.key(key);
        if self.result.is_ok() {
            self.result = quoted(self.out, value);
        }
    }

    fn number(&mut self, key: &str, value: i64) {
        self.key(key);
        if self.result.is_ok() {
            self.result = write!(self.out, "{value}");
        }
    }

    fn parts(&mut self, (high, h): (&str, u64), (low, l): (&str, u64)) {
        self.key("parts");
        if self.result.is_ok() {
            self.result = (|| {
                self.out.write_char('{')?;
                quoted(self.out, high)?;
                write!(self.out, ":{h},")?;
                quoted(self.out, low)?;
                write!(self.out, ":{l}}}")
            })();
        }
    }
}

/// `s` as a JSON string literal.
pub fn quoted(out: &mut impl Write, s: &str) -> fmt::Result {
    out.write_char('"')?;
    for c in s.chars() {
        match c {
            '"' => out.write_str("\\\"")?,
            '\\' => out.write_str("\\\\")?,
            c if (c as u32) < 0x20 => write!(out, "\\u{:04x}", c as u32)?,
            c => out.write_char(c)?,
        }
    }
    out.write_char('"')
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;

    fn json(text: &str, reading: Reading) -> String {
        let mut s = String::new();
        Json::write(&Id::parse(text, None).unwrap(), reading, &mut s)
            .unwrap()
            .unwrap();
        s
    }

    #[test]
    fn records_in_the_js_order() {
        let twitter = Reading::layout(Preset::Twitter.layout());
        assert_eq!(
            json("01ARZ3NDEKTSV4RRFFQ69G5FAV", twitter),
            r#"{"kind":"ulid","timestamp":1469922850259,"date":"2016-07-30T23:54:10.259Z","random":"d6764c61efb99302bd5b","uuid":"01563e3a-b5d3-d676-4c61-efb99302bd5b"}"#
        );
        assert_eq!(
            json("c232ab00-9414-11ec-b3c8-9f6bdeced846", twitter),
            r#"{"kind":"uuid","uuid":"c232ab00-9414-11ec-b3c8-9f6bdeced846","version":1,"variant":"rfc9562","timestamp":1645557742000,"date":"2022-02-22T19:22:22.000Z","clockSeq":13256,"node":"9f6bdeced846"}"#
        );
        assert_eq!(
            json("1", twitter),
            r#"{"kind":"snowflake","id":"1","timestamp":1288834974657,"date":"2010-11-04T01:42:54.657Z","workerId":0,"sequence":1,"parts":{"datacenter":0,"worker":0}}"#
        );
    }

    #[test]
    fn strings_are_escaped() {
        let mut s = String::new();
        quoted(&mut s, "a\"b\\c\n").unwrap();
        assert_eq!(s, r#""a\"b\\c\u000a""#);
    }
}
