//! HTTP/1.1 and h2c (hyper's auto builder on one port): `/v1/next`,
//! `/v1/decode/{id}`, `/healthz`, `/readyz`, `/metrics`.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::Full;
use hyper::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};

use crate::mint::{Encoding, Failure, IdKind};
use crate::serve::ThreadCtx;

type Reply = Response<Full<Bytes>>;

fn reply(status: StatusCode, content_type: &'static str, body: impl Into<Bytes>) -> Reply {
    let mut r = Response::new(Full::new(body.into()));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    r
}

fn failure(f: &Failure) -> Reply {
    let status = if f.client {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    failure_with(status, f.code, &f.message)
}

fn failure_with(status: StatusCode, code: &str, message: &str) -> Reply {
    let body = format!(
        "{{\"code\":\"{code}\",\"message\":\"{}\"}}\n",
        message.replace('\\', "\\\\").replace('"', "\\\"")
    );
    reply(status, "application/json", body)
}

/// Serves one request.
pub async fn handle(
    ctx: Arc<ThreadCtx>,
    req: Request<hyper::body::Incoming>,
) -> Result<Reply, Infallible> {
    let path = req.uri().path();
    if req.method() != Method::GET && req.method() != Method::HEAD {
        let mut r = failure_with(
            StatusCode::METHOD_NOT_ALLOWED,
            "ERR_METHOD",
            &format!("{} {path}: only GET is served", req.method()),
        );
        r.headers_mut()
            .insert(hyper::header::ALLOW, HeaderValue::from_static("GET, HEAD"));
        return Ok(r);
    }
    let shared = &ctx.shared;
    Ok(match path {
        "/healthz" => reply(StatusCode::OK, "text/plain", "ok\n"),
        "/readyz" => match shared.unready() {
            None => reply(StatusCode::OK, "text/plain", "ready\n"),
            Some((code, message)) => reply(
                StatusCode::SERVICE_UNAVAILABLE,
                "text/plain",
                format!("{code}: {message}\n"),
            ),
        },
        "/metrics" => reply(
            StatusCode::OK,
            "text/plain; version=0.0.4",
            crate::metrics::render(shared),
        ),
        p if p == "/v1/next" || p.starts_with("/v1/decode/") => {
            if let Some(denied) = authorize(shared.config.token.as_deref(), &req) {
                return Ok(denied);
            }
            let query = req.uri().query().unwrap_or("");
            let result = if p == "/v1/next" {
                next(&ctx, query, req.headers().get(ACCEPT)).await
            } else {
                decode(&ctx, &p["/v1/decode/".len()..], query)
            };
            result.unwrap_or_else(|f| failure(&f))
        }
        _ => failure_with(
            StatusCode::NOT_FOUND,
            "ERR_NOT_FOUND",
            &format!(
                "no route {}: try /v1/next, /v1/decode/{{id}}, /healthz, /readyz, /metrics",
                path.escape_debug()
            ),
        ),
    })
}

/// None when no token is configured or the request carries it.
fn authorize(token: Option<&str>, req: &Request<hyper::body::Incoming>) -> Option<Reply> {
    let token = token?;
    let given = req
        .headers()
        .get(AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes())) {
        return None;
    }
    let mut r = failure_with(
        StatusCode::UNAUTHORIZED,
        "ERR_UNAUTHORIZED",
        "this server wants 'Authorization: Bearer <token>'",
    );
    r.headers_mut().insert(
        hyper::header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer"),
    );
    Some(r)
}

/// Compares without an early exit on the first differing byte.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// `%XX` and `+` decoded.
fn unescape(s: &str) -> Result<String, Failure> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        Failure::bad("ERR_INVALID_ARG_VALUE", format!("bad %-escape in '{s}'"))
                    })?;
                out.push(hex);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out)
        .map_err(|_| Failure::bad("ERR_INVALID_ARG_VALUE", format!("'{s}' is not UTF-8")))
}

/// The query's parameters, each of `allowed` at most once.
fn params<const N: usize>(query: &str, allowed: [&str; N]) -> Result<[Option<String>; N], Failure> {
    let mut out = [const { None }; N];
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let k = unescape(k)?;
        let Some(i) = allowed.iter().position(|a| *a == k) else {
            return Err(Failure::bad(
                "ERR_INVALID_OPTION",
                format!(
                    "unknown parameter '{}': expected {}",
                    k.escape_debug(),
                    allowed.join(", ")
                ),
            ));
        };
        if out[i].replace(unescape(v)?).is_some() {
            return Err(Failure::bad(
                "ERR_INVALID_OPTION",
                format!("parameter '{k}' given twice"),
            ));
        }
    }
    Ok(out)
}

/// The encoding the `Accept` header asks for: the supported type of the
/// highest q (text for `*/*` or no header); none supported is a 406.
fn negotiate(accept: Option<&HeaderValue>) -> Result<(Encoding, &'static str), Box<Reply>> {
    let Some(accept) = accept.and_then(|a| a.to_str().ok()) else {
        return Ok((Encoding::Lines, "text/plain"));
    };
    let mut best: Option<(f32, Encoding, &'static str)> = None;
    for range in accept.split(',') {
        let mut parts = range.split(';').map(str::trim);
        let media = parts.next().unwrap_or("").to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.strip_prefix("q="))
            .find_map(|q| q.parse::<f32>().ok())
            .unwrap_or(1.0);
        let enc = match media.as_str() {
            "text/plain" | "text/*" | "*/*" => (Encoding::Lines, "text/plain"),
            "application/json" => (Encoding::Json, "application/json"),
            "application/octet-stream" => (Encoding::Binary, "application/octet-stream"),
            _ => continue,
        };
        if q > 0.0 && best.is_none_or(|(bq, _, _)| q > bq) {
            best = Some((q, enc.0, enc.1));
        }
    }
    best.map(|(_, e, t)| (e, t)).ok_or_else(|| {
        Box::new(failure_with(
            StatusCode::NOT_ACCEPTABLE,
            "ERR_NOT_ACCEPTABLE",
            "Accept: give text/plain, application/json or application/octet-stream",
        ))
    })
}

async fn next(
    ctx: &ThreadCtx,
    query: &str,
    accept: Option<&HeaderValue>,
) -> Result<Reply, Failure> {
    let [kind, n, prefix] = params(query, ["kind", "n", "prefix"])?;
    let kind = IdKind::from_name(kind.as_deref().unwrap_or("snowflake"))?;
    let n = match n.as_deref() {
        None => 1,
        Some(t) => t.parse::<u64>().map_err(|_| {
            Failure::bad(
                "ERR_INVALID_COUNT",
                format!("n = '{}': give a whole number", t.escape_debug()),
            )
        })?,
    };
    if prefix.is_some() && kind != IdKind::TypeId {
        return Err(Failure::bad(
            "ERR_INVALID_OPTION",
            "prefix applies to kind=typeid only",
        ));
    }
    let (enc, content_type) = match negotiate(accept) {
        Ok(e) => e,
        Err(r) => return Ok(*r),
    };
    let minter = ctx.minter();
    minter.check_count(n)?;
    let mut out = Vec::with_capacity(64);
    if enc == Encoding::Json {
        out.extend_from_slice(b"{\"kind\":\"");
        out.extend_from_slice(kind.name().as_bytes());
        out.extend_from_slice(b"\",\"ids\":[");
    }
    minter
        .mint(kind, n, prefix.as_deref().unwrap_or(""), enc, &mut out)
        .await?;
    if enc == Encoding::Json {
        out.extend_from_slice(b"]}\n");
    }
    Ok(reply(StatusCode::OK, content_type, out))
}

fn decode(ctx: &ThreadCtx, id: &str, query: &str) -> Result<Reply, Failure> {
    let [kind, preset] = params(query, ["kind", "preset"])?;
    let id = unescape(id)?;
    let body = crate::decode::decode(
        &id,
        kind.as_deref(),
        preset.as_deref(),
        ctx.shared.config.preset,
    )?;
    Ok(reply(StatusCode::OK, "application/json", body))
}
