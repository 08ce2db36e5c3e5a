//! The Redis protocol (RESP2 and RESP3, on its own port): `ID.NEXT [kind]
//! [prefix]`, `ID.BATCH kind n [prefix]`, the plain-verb aliases `INCR
//! snowflake` (an integer) and `GET <kind>` (a bulk string; `GET
//! typeid:PREFIX`), `PING`, `ECHO`, `HELLO`, `AUTH`, `QUIT`, and the few
//! commands clients send on connecting (`CLIENT SETINFO`, `CONFIG GET`,
//! `SELECT 0`). Pipelined requests are answered in order, written out in
//! one go when the input runs dry (or every 64 KiB).

use std::ops::Range;
use std::sync::Arc;

use bytes::BytesMut;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::http::constant_time_eq;
use crate::mint::{Encoding, Failure, IdKind};
use crate::resp_parse::{MAX_ARGS, parse};
use crate::serve::ThreadCtx;

/// Pending output flushed before more requests are answered.
const FLUSH_AT: usize = 64 * 1024;

/// One connection's protocol state.
struct Session {
    resp3: bool,
    authed: bool,
    quit: bool,
}

fn error(out: &mut Vec<u8>, code: &str, message: &str) {
    out.push(b'-');
    out.extend_from_slice(code.as_bytes());
    out.push(b' ');
    // A RESP error is one line.
    out.extend(
        message
            .bytes()
            .map(|b| if b == b'\r' || b == b'\n' { b' ' } else { b }),
    );
    out.extend_from_slice(b"\r\n");
}

fn failure(out: &mut Vec<u8>, f: &Failure) {
    error(out, f.code, &f.message);
}

fn bulk(out: &mut Vec<u8>, s: &[u8]) {
    out.extend_from_slice(format!("${}\r\n", s.len()).as_bytes());
    out.extend_from_slice(s);
    out.extend_from_slice(b"\r\n");
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Serves one RESP connection until the client leaves, sends QUIT, breaks
/// the protocol, or the server shuts down (between requests).
pub async fn serve(ctx: Arc<ThreadCtx>, mut stream: TcpStream) {
    let _ = stream.set_nodelay(true);
    let mut shutdown = ctx.shared.shutdown.subscribe();
    let mut buf = BytesMut::with_capacity(1024);
    let mut out = Vec::new();
    let mut args: Vec<Range<usize>> = Vec::with_capacity(4);
    let mut session = Session {
        resp3: false,
        authed: ctx.shared.config.token.is_none(),
        quit: false,
    };
    loop {
        let mut used = 0;
        loop {
            match parse(&buf[used..], &mut args) {
                Ok(Some(n)) => {
                    let req = &buf[used..used + n];
                    let mut words: [&[u8]; MAX_ARGS] = [&[]; MAX_ARGS];
                    for (w, r) in words.iter_mut().zip(&args) {
                        *w = &req[r.clone()];
                    }
                    if !args.is_empty() {
                        command(&ctx, &mut session, &words[..args.len()], &mut out).await;
                    }
                    used += n;
                    if session.quit {
                        let _ = stream.write_all(&out).await;
                        return;
                    }
                    if out.len() >= FLUSH_AT {
                        if stream.write_all(&out).await.is_err() {
                            return;
                        }
                        out.clear();
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    error(&mut out, "ERR", &format!("Protocol error: {}", e.0));
                    return refuse(stream, &out).await;
                }
            }
        }
        let _ = buf.split_to(used);
        if !out.is_empty() {
            if stream.write_all(&out).await.is_err() {
                return;
            }
            out.clear();
            // A burst's buffer is not kept by an idle connection.
            out.shrink_to(FLUSH_AT);
        }
        if buf.capacity() - buf.len() < 512 {
            buf.reserve(1024);
        }
        tokio::select! {
            read = stream.read_buf(&mut buf) => match read {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            },
            _ = shutdown.wait_for(|s| *s) => return,
        }
    }
}

/// Writes the protocol error, closes the sending side, and reads (and
/// drops) what the client still sends, for a bounded time and size:
/// closing with unread input would reset the connection, and the client
/// could lose the error before reading it.
async fn refuse(mut stream: TcpStream, out: &[u8]) {
    if stream.write_all(out).await.is_err() || stream.shutdown().await.is_err() {
        return;
    }
    let mut sink = [0u8; 4096];
    let drain = async {
        let mut left = 1 << 20;
        while left > 0 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left -= n.min(left),
            }
        }
    };
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), drain).await;
}

/// Answers one request into `out`.
async fn command(ctx: &ThreadCtx, s: &mut Session, words: &[&[u8]], out: &mut Vec<u8>) {
    // The command's name in capitals, on the stack (no name is longer).
    let mut upper = [0u8; 16];
    let len = words[0].len().min(upper.len());
    for (u, b) in upper.iter_mut().zip(words[0]) {
        *u = b.to_ascii_uppercase();
    }
    let name = if words[0].len() > upper.len() {
        &b"?"[..]
    } else {
        &upper[..len]
    };
    let args = &words[1..];
    let arity = |ok: bool, out: &mut Vec<u8>| {
        if !ok {
            error(
                out,
                "ERR",
                &format!(
                    "wrong number of arguments for '{}' command",
                    text(words[0]).to_lowercase()
                ),
            );
        }
        ok
    };
    if !s.authed && !matches!(name, b"AUTH" | b"HELLO" | b"QUIT") {
        error(out, "NOAUTH", "Authentication required.");
        return;
    }
    match name {
        b"PING" if arity(args.len() <= 1, out) => match args.first() {
            None => out.extend_from_slice(b"+PONG\r\n"),
            Some(m) => bulk(out, m),
        },
        b"ECHO" if arity(args.len() == 1, out) => bulk(out, args[0]),
        b"QUIT" => {
            out.extend_from_slice(b"+OK\r\n");
            s.quit = true;
        }
        b"AUTH" if arity(matches!(args.len(), 1 | 2), out) => auth(ctx, s, args, out),
        b"HELLO" => hello(ctx, s, args, out),
        b"ID.NEXT" if arity(args.len() <= 2, out) => {
            let kind = args.first().map_or(b"snowflake".as_slice(), |k| k);
            mint(ctx, out, kind, 1, args.get(1).copied(), Reply::One).await;
        }
        b"ID.BATCH" if arity(matches!(args.len(), 2 | 3), out) => {
            let n = std::str::from_utf8(args[1])
                .ok()
                .and_then(|n| n.parse::<u64>().ok());
            match n {
                Some(n) => mint(ctx, out, args[0], n, args.get(2).copied(), Reply::Array).await,
                None => error(
                    out,
                    "ERR_INVALID_COUNT",
                    &format!(
                        "ID.BATCH n '{}': give a whole number",
                        text(args[1]).escape_debug()
                    ),
                ),
            }
        }
        // redis-py's incr() sends INCRBY key 1.
        b"INCR" | b"INCRBY" if arity(args.len() == 1 + usize::from(name == b"INCRBY"), out) => {
            if args.get(1).is_some_and(|by| by != b"1") {
                error(
                    out,
                    "ERR",
                    "INCRBY snowflake takes 1 only: one ID per call (ID.BATCH snowflake n for more)",
                );
            } else if args[0].eq_ignore_ascii_case(b"snowflake") {
                mint(ctx, out, args[0], 1, None, Reply::Integer).await;
            } else {
                error(
                    out,
                    "ERR",
                    &format!(
                        "INCR mints key 'snowflake' only (as an integer), not '{}': use GET <kind> or ID.NEXT <kind>",
                        text(args[0]).escape_debug()
                    ),
                );
            }
        }
        b"GET" if arity(args.len() == 1, out) => {
            let (kind, prefix) = match args[0].iter().position(|b| *b == b':') {
                Some(i) => (&args[0][..i], Some(&args[0][i + 1..])),
                None => (args[0], None),
            };
            mint(ctx, out, kind, 1, prefix, Reply::One).await;
        }
        // What clients send on connecting, answered as a server without them would be.
        b"CLIENT" | b"SELECT" => out.extend_from_slice(b"+OK\r\n"),
        b"CONFIG" => config_get(s, args, out),
        b"COMMAND" => out.extend_from_slice(b"*0\r\n"),
        b"PING" | b"ECHO" | b"AUTH" | b"ID.NEXT" | b"ID.BATCH" | b"INCR" | b"INCRBY" | b"GET" => {}
        _ => {
            let rest: Vec<String> = args
                .iter()
                .take(4)
                .map(|a| format!("'{}'", text(a).escape_debug()))
                .collect();
            error(
                out,
                "ERR",
                &format!(
                    "unknown command '{}', with args beginning with: {} (this is snowmint-server: ID.NEXT [kind], ID.BATCH kind n, INCR snowflake, GET <kind>)",
                    text(words[0]).escape_debug(),
                    rest.join(" ")
                ),
            );
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Reply {
    One,
    Array,
    Integer,
}

async fn mint(
    ctx: &ThreadCtx,
    out: &mut Vec<u8>,
    kind: &[u8],
    n: u64,
    prefix: Option<&[u8]>,
    reply: Reply,
) {
    let kind = match std::str::from_utf8(kind)
        .map_err(|_| ())
        .and_then(|k| IdKind::from_name(k).map_err(|_| ()))
    {
        Ok(k) => k,
        Err(()) => {
            let f = IdKind::from_name(&text(kind)).err();
            return failure(
                out,
                &f.unwrap_or_else(|| Failure::bad("ERR_INVALID_ARG_VALUE", "unknown kind")),
            );
        }
    };
    if prefix.is_some() && kind != IdKind::TypeId {
        return error(
            out,
            "ERR_INVALID_OPTION",
            "a prefix applies to kind typeid only",
        );
    }
    let prefix = String::from_utf8_lossy(prefix.unwrap_or(b"")).into_owned();
    let minter = ctx.minter();
    if let Err(f) = minter.check_count(n) {
        return failure(out, &f);
    }
    let mark = out.len();
    let enc = match reply {
        Reply::Integer => Encoding::Integer,
        Reply::Array => {
            out.extend_from_slice(format!("*{n}\r\n").as_bytes());
            Encoding::Bulk
        }
        Reply::One => Encoding::Bulk,
    };
    match minter.mint(kind, n, &prefix, enc, out).await {
        Ok(()) => {}
        Err(f) => {
            out.truncate(mark);
            failure(out, &f);
        }
    }
}

fn auth(ctx: &ThreadCtx, s: &mut Session, args: &[&[u8]], out: &mut Vec<u8>) {
    let Some(token) = ctx.shared.config.token.as_deref() else {
        return error(
            out,
            "ERR",
            "AUTH <password> called without any password configured for the default user. Are you sure your configuration is correct?",
        );
    };
    let (user, pass) = match args {
        [pass] => (&b"default"[..], *pass),
        [user, pass] => (*user, *pass),
        _ => unreachable!("arity checked"),
    };
    if user == b"default" && constant_time_eq(pass, token.as_bytes()) {
        s.authed = true;
        out.extend_from_slice(b"+OK\r\n");
    } else {
        error(
            out,
            "WRONGPASS",
            "invalid username-password pair or user is disabled.",
        );
    }
}

fn hello(ctx: &ThreadCtx, s: &mut Session, args: &[&[u8]], out: &mut Vec<u8>) {
    let mut resp3 = s.resp3;
    if let Some(v) = args.first() {
        match &v[..] {
            b"2" => resp3 = false,
            b"3" => resp3 = true,
            _ => {
                return error(
                    out,
                    "NOPROTO",
                    "unsupported protocol version (this server speaks RESP 2 and 3)",
                );
            }
        }
    }
    let mut i = 1;
    while i < args.len() {
        let opt = args[i].to_ascii_uppercase();
        match &opt[..] {
            b"AUTH" if i + 2 < args.len() => {
                let mut probe = Vec::new();
                auth(ctx, s, &args[i + 1..i + 3], &mut probe);
                if probe[0] == b'-' {
                    out.extend_from_slice(&probe);
                    return;
                }
                i += 3;
            }
            b"SETNAME" if i + 1 < args.len() => i += 2,
            _ => {
                return error(
                    out,
                    "ERR",
                    &format!(
                        "Syntax error in HELLO option '{}'",
                        text(args[i]).escape_debug()
                    ),
                );
            }
        }
    }
    if !s.authed {
        return error(
            out,
            "NOAUTH",
            "HELLO must be called with the client already authenticated, otherwise the HELLO <proto> AUTH <user> <pass> option can be used to authenticate the client and select the RESP protocol version at the same time",
        );
    }
    s.resp3 = resp3;
    let fields: [(&str, String); 7] = [
        ("server", "snowmint".into()),
        ("version", env!("CARGO_PKG_VERSION").into()),
        ("proto", if resp3 { "3" } else { "2" }.into()),
        ("id", "0".into()),
        ("mode", "standalone".into()),
        ("role", "master".into()),
        ("preset", ctx.shared.config.preset.name().into()),
    ];
    out.extend_from_slice(if resp3 { b"%7\r\n" } else { b"*14\r\n" });
    for (k, v) in fields {
        bulk(out, k.as_bytes());
        match k {
            "proto" | "id" => out.extend_from_slice(format!(":{v}\r\n").as_bytes()),
            _ => bulk(out, v.as_bytes()),
        }
    }
}

/// `CONFIG GET save` and `CONFIG GET appendonly`, which redis-benchmark
/// asks for on connecting: no persistence (an ID server has none).
fn config_get(s: &Session, args: &[&[u8]], out: &mut Vec<u8>) {
    let pairs: Vec<(&[u8], &[u8])> = match args {
        [get, rest @ ..] if get.eq_ignore_ascii_case(b"GET") => rest
            .iter()
            .filter_map(|p| {
                let p = p.to_ascii_lowercase();
                match &p[..] {
                    b"save" => Some((&b"save"[..], &b""[..])),
                    b"appendonly" => Some((&b"appendonly"[..], &b"no"[..])),
                    _ => None,
                }
            })
            .collect(),
        _ => Vec::new(),
    };
    let head = if s.resp3 { '%' } else { '*' };
    let n = if s.resp3 {
        pairs.len()
    } else {
        pairs.len() * 2
    };
    out.extend_from_slice(format!("{head}{n}\r\n").as_bytes());
    for (k, v) in pairs {
        bulk(out, k);
        bulk(out, v);
    }
}
