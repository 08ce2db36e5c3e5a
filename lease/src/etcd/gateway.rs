//! The client of etcd's v3 JSON gateway (see the [module](super) docs):
//! one kept HTTP/1.1 connection to a member, tried in turn, with etcd's
//! errors as lease errors; and the JSON of the keys, values and transaction
//! steps the store sends.

use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{CONTENT_TYPE, HOST};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};

use crate::error::{Code, LeaseError};

/// How long one call to etcd may take before it fails with `ERR_LEASE_TIMEOUT`.
const CALL_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) fn io(message: impl std::fmt::Display) -> LeaseError {
    LeaseError::new(Code::Io, format!("etcd: {message}"))
}

/// etcd's gateway writes 64-bit numbers as strings.
pub(super) fn int(v: &Value) -> Option<i64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_i64(),
        _ => None,
    }
}

pub(super) fn b64(s: &str) -> String {
    STANDARD.encode(s)
}

/// A base64 field of a reply, as text.
fn text(v: &Value) -> Option<String> {
    let bytes = STANDARD.decode(v.as_str()?).ok()?;
    String::from_utf8(bytes).ok()
}

/// The keys of a range's reply, with their values (an absent value is empty).
pub(super) fn kvs(reply: &Value) -> impl Iterator<Item = (String, String, &Value)> {
    reply["kvs"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|kv| {
            let value = if kv["value"].is_null() {
                String::new()
            } else {
                text(&kv["value"])?
            };
            Some((text(&kv["key"])?, value, kv))
        })
}

/// The HTTP connection to one of the endpoints, kept between calls.
pub(super) struct Gateway {
    /// `host:port` of each member.
    pub(super) endpoints: Vec<String>,
    /// The member in use and an open connection to it.
    pub(super) conn: tokio::sync::Mutex<(usize, Option<SendRequest<Full<Bytes>>>)>,
}

impl Gateway {
    async fn open(addr: &str) -> Result<SendRequest<Full<Bytes>>, String> {
        let stream = tokio::net::TcpStream::connect(addr)
            .await
            .map_err(|e| e.to_string())?;
        let _ = stream.set_nodelay(true);
        let (send, conn) = http1::handshake(TokioIo::new(stream))
            .await
            .map_err(|e| e.to_string())?;
        tokio::spawn(conn);
        Ok(send)
    }

    /// POSTs `body` to `path`: the reply, or an error with etcd's message.
    pub(super) async fn post(&self, path: &str, body: &Value) -> Result<Value, LeaseError> {
        let body = Bytes::from(body.to_string());
        match tokio::time::timeout(CALL_TIMEOUT, self.post_in(path, body)).await {
            Ok(reply) => reply,
            Err(_) => Err(LeaseError::new(
                Code::Timeout,
                format!("etcd: {path} took longer than {} s", CALL_TIMEOUT.as_secs()),
            )),
        }
    }

    async fn post_in(&self, path: &str, body: Bytes) -> Result<Value, LeaseError> {
        let mut guard = self.conn.lock().await;
        let (at, slot) = &mut *guard;
        let mut failed = Vec::new();
        // A request is sent once: only a connection that cannot take it
        // (closed, or never opened) moves on to the next member.
        for _ in 0..=self.endpoints.len() {
            let addr = &self.endpoints[*at];
            let mut send = match slot.take() {
                Some(s) => s,
                None => match Gateway::open(addr).await {
                    Ok(s) => s,
                    Err(e) => {
                        failed.push(format!("{addr}: {e}"));
                        *at = (*at + 1) % self.endpoints.len();
                        if failed.len() == self.endpoints.len() {
                            break; // each member once
                        }
                        continue;
                    }
                },
            };
            if send.ready().await.is_err() {
                continue; // closed by the server: open another
            }
            let request = hyper::Request::post(path)
                .header(HOST, addr.as_str())
                .header(CONTENT_TYPE, "application/json")
                .body(Full::new(body.clone()))
                .map_err(io)?;
            let response = send
                .send_request(request)
                .await
                .map_err(|e| io(format!("{path} at {addr}: {e}")))?;
            let status = response.status();
            let bytes = response
                .into_body()
                .collect()
                .await
                .map_err(|e| io(format!("{path} at {addr}: {e}")))?
                .to_bytes();
            *slot = Some(send);
            return reply(path, status, &bytes);
        }
        Err(io(format!("cannot reach {}", failed.join("; "))))
    }
}

/// The JSON of a reply, or etcd's error (`{"error": …, "code": …}`; a
/// streamed reply carries it inside `error`).
fn reply(path: &str, status: hyper::StatusCode, bytes: &[u8]) -> Result<Value, LeaseError> {
    let v: Value = serde_json::from_slice(bytes).map_err(|_| {
        io(format!(
            "{path} answered {status}: {}",
            String::from_utf8_lossy(bytes)
        ))
    })?;
    let error = &v["error"];
    if !error.is_null() || !status.is_success() {
        let message = error["message"]
            .as_str()
            .or(v["message"].as_str())
            .or(error.as_str())
            .unwrap_or("no message");
        return Err(io(format!("{path} answered {status}: {message}")));
    }
    Ok(v)
}

/// A transaction step: put `key` = `value`, under `lease` if any.
pub(super) fn put(key: &str, value: &str, lease: Option<i64>) -> Value {
    let mut p = json!({ "key": b64(key), "value": b64(value) });
    if let Some(l) = lease {
        p["lease"] = json!(l.to_string());
    }
    json!({ "request_put": p })
}

/// The compare of a transaction that runs only while `key` holds `token`.
pub(super) fn holds(key: &str, token: &str) -> Value {
    json!({ "key": b64(key), "target": "VALUE", "result": "EQUAL", "value": b64(token) })
}

/// The compare of a transaction that runs only where `key` does not exist.
pub(super) fn absent(key: &str) -> Value {
    json!({ "key": b64(key), "target": "CREATE", "result": "EQUAL", "create_revision": "0" })
}

/// The first key after every key that starts with `prefix` (a range's end).
pub(super) fn range_end(prefix: &str) -> Vec<u8> {
    let mut end = prefix.as_bytes().to_vec();
    while let Some(last) = end.pop() {
        if last < 0xff {
            end.push(last + 1);
            break;
        }
    }
    end
}
