//! RESP requests: arrays of bulk strings (what every client sends) and
//! inline commands (what `telnet` and redis-benchmark's `PING_INLINE`
//! send), with bounds checked before anything is buffered: a request with
//! too many arguments or too long an argument is refused from its header.
//!
//! Hand-written (about 100 lines) rather than a crate: a server needs only
//! this request subset, and needs the bounds applied to the declared sizes;
//! general RESP crates decode every frame type (maps, sets, attributes...)
//! that a request never holds.

use std::ops::Range;

/// Most arguments in one request (`ID.BATCH kind n prefix` has 4; HELLO with AUTH and SETNAME 6).
pub const MAX_ARGS: usize = 16;
/// Longest argument.
pub const MAX_ARG_LEN: usize = 512;
/// Longest inline request line.
pub const MAX_INLINE: usize = 4096;
/// Longest `*N` or `$N` header line.
const MAX_HEADER: usize = 24;

/// A request that cannot be read: the connection is answered with a
/// protocol error and closed, as Redis does.
#[derive(Debug, PartialEq, Eq)]
pub struct ProtocolError(pub String);

/// Reads one request from the start of `buf`: `Ok(None)` until it is
/// complete, then the arguments (ranges of `buf`, into `args`) and how many
/// bytes it took. An empty request (a blank line, `*0`) has no arguments.
pub fn parse(buf: &[u8], args: &mut Vec<Range<usize>>) -> Result<Option<usize>, ProtocolError> {
    args.clear();
    match buf.first() {
        None => Ok(None),
        Some(b'*') => array(buf, args),
        Some(_) => inline(buf, args),
    }
}

/// The number on a `*N`/`$N` line starting at `at`, and where the next line starts.
fn header(buf: &[u8], at: usize, what: &str) -> Result<Option<(i64, usize)>, ProtocolError> {
    let rest = &buf[at..];
    let Some(end) = rest.iter().take(MAX_HEADER).position(|b| *b == b'\r') else {
        if rest.len() >= MAX_HEADER {
            return Err(ProtocolError(format!("invalid {what} header: too long")));
        }
        return Ok(None);
    };
    if rest.len() < end + 2 {
        return Ok(None);
    }
    if rest[end + 1] != b'\n' {
        return Err(ProtocolError(format!(
            "invalid {what} header: expected CRLF"
        )));
    }
    let text = std::str::from_utf8(&rest[1..end]).unwrap_or("");
    let n = text
        .parse::<i64>()
        .map_err(|_| ProtocolError(format!("invalid {what} length '{}'", text.escape_debug())))?;
    Ok(Some((n, at + end + 2)))
}

fn array(buf: &[u8], args: &mut Vec<Range<usize>>) -> Result<Option<usize>, ProtocolError> {
    let Some((count, mut at)) = header(buf, 0, "multibulk")? else {
        return Ok(None);
    };
    if count <= 0 {
        return Ok(Some(at));
    }
    if count as usize > MAX_ARGS {
        return Err(ProtocolError(format!(
            "too many arguments: {count} (at most {MAX_ARGS})"
        )));
    }
    for _ in 0..count {
        if at >= buf.len() {
            return Ok(None);
        }
        if buf[at] != b'$' {
            return Err(ProtocolError(format!(
                "expected '$', got '{}'",
                (buf[at] as char).escape_debug()
            )));
        }
        let Some((len, start)) = header(buf, at, "bulk")? else {
            return Ok(None);
        };
        if len < 0 || len as usize > MAX_ARG_LEN {
            return Err(ProtocolError(format!(
                "invalid bulk length {len} (an argument holds 0 to {MAX_ARG_LEN} bytes)"
            )));
        }
        let end = start + len as usize;
        if buf.len() < end + 2 {
            return Ok(None);
        }
        if &buf[end..end + 2] != b"\r\n" {
            return Err(ProtocolError("bulk string not followed by CRLF".into()));
        }
        args.push(start..end);
        at = end + 2;
    }
    Ok(Some(at))
}

fn inline(buf: &[u8], args: &mut Vec<Range<usize>>) -> Result<Option<usize>, ProtocolError> {
    let Some(nl) = buf.iter().take(MAX_INLINE).position(|b| *b == b'\n') else {
        if buf.len() >= MAX_INLINE {
            return Err(ProtocolError(format!(
                "too big inline request (more than {MAX_INLINE} bytes without a newline)"
            )));
        }
        return Ok(None);
    };
    let line_end = if nl > 0 && buf[nl - 1] == b'\r' {
        nl - 1
    } else {
        nl
    };
    let mut i = 0;
    while i < line_end {
        if buf[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < line_end && !buf[i].is_ascii_whitespace() {
            i += 1;
        }
        if args.len() == MAX_ARGS {
            return Err(ProtocolError(format!(
                "too many arguments (at most {MAX_ARGS})"
            )));
        }
        args.push(start..i);
    }
    Ok(Some(nl + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    type Words<'a> = Result<Option<(Vec<&'a [u8]>, usize)>, ProtocolError>;

    fn words(buf: &[u8]) -> Words<'_> {
        let mut args = Vec::new();
        Ok(parse(buf, &mut args)?
            .map(|used| (args.iter().map(|r| &buf[r.clone()]).collect(), used)))
    }

    #[test]
    fn arrays_inline_and_partial_requests() {
        let req = b"*2\r\n$7\r\nID.NEXT\r\n$4\r\nulid\r\n*1\r\n$4\r\nPING\r\n";
        let (a, used) = words(req).unwrap().unwrap();
        assert_eq!(a, [&b"ID.NEXT"[..], b"ulid"]);
        assert_eq!(used, 27);
        for cut in 0..27 {
            assert_eq!(words(&req[..cut]), Ok(None), "cut at {cut}");
        }
        let (a, used) = words(b"  INCR  snowflake\r\nPING").unwrap().unwrap();
        assert_eq!((a, used), (vec![&b"INCR"[..], b"snowflake"], 19));
        assert_eq!(words(b"\r\n").unwrap().unwrap(), (vec![], 2));
        assert_eq!(words(b"*0\r\n").unwrap().unwrap(), (vec![], 4));
    }

    #[test]
    fn oversized_and_malformed_requests_are_refused_from_their_headers() {
        let e = |b: &[u8]| words(b).unwrap_err().0;
        assert!(e(b"*17\r\n").contains("too many arguments: 17"));
        assert!(e(b"*1\r\n$513\r\n").contains("invalid bulk length 513"));
        assert!(e(b"*1\r\n$-1\r\n").contains("invalid bulk length -1"));
        assert!(e(b"*x\r\n").contains("invalid multibulk length 'x'"));
        assert!(e(b"*1\r\n:1\r\n").contains("expected '$', got ':'"));
        assert!(e(b"*1\r\n$1\r\nab\r\n").contains("not followed by CRLF"));
        assert!(e(&[b'*'; 30]).contains("too long"));
        assert!(e(&[b'a'; MAX_INLINE]).contains("too big inline request"));
        assert!(
            e(&b"a "
                .repeat(17)
                .into_iter()
                .chain(*b"\n")
                .collect::<Vec<u8>>())
            .contains("too many")
        );
    }
}
