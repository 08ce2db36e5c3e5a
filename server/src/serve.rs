//! Thread per core: worker thread i runs a current-thread tokio runtime and
//! mints Snowflakes only on worker i's generator. One acceptor (on the main
//! thread) hands connections to the worker threads in turn, so the worker
//! IDs share the load evenly; a connection, with its requests, stays on its
//! thread: per-connection order holds for Snowflakes (one worker ID) and for
//! the other kinds (the core's per-thread generators).

use std::net::TcpListener as StdListener;
use std::net::TcpStream as StdStream;
use std::sync::Arc;
use std::time::Duration;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinSet;

use crate::metrics::ThreadMetrics;
use crate::mint::Minter;
use crate::state::Shared;
use crate::workers::Worker;

/// What a worker thread's connections share.
#[derive(Debug)]
pub struct ThreadCtx {
    /// Everything shared between threads.
    pub shared: Arc<Shared>,
    /// This thread's index: its worker and metrics.
    pub index: usize,
}

impl ThreadCtx {
    /// The thread's minter.
    pub fn minter(&self) -> Minter<'_> {
        Minter {
            shared: &self.shared,
            worker: self.worker(),
            metrics: self.metrics(),
        }
    }

    fn worker(&self) -> &Worker {
        &self.shared.workers[self.index]
    }

    fn metrics(&self) -> &ThreadMetrics {
        &self.shared.metrics[self.index]
    }
}

/// The listening sockets, bound once and shared by every thread.
#[derive(Debug)]
pub struct Listeners {
    /// HTTP.
    pub http: Option<StdListener>,
    /// RESP.
    pub resp: Option<StdListener>,
}

impl Listeners {
    /// Binds the configured addresses.
    pub fn bind(shared: &Shared) -> Result<Listeners, String> {
        let bind = |addr: Option<std::net::SocketAddr>,
                    what: &str|
         -> Result<Option<StdListener>, String> {
            addr.map(|a| {
                let l = StdListener::bind(a)
                    .map_err(|e| format!("cannot listen for {what} on {a}: {e}"))?;
                l.set_nonblocking(true).map_err(|e| e.to_string())?;
                Ok(l)
            })
            .transpose()
        };
        Ok(Listeners {
            http: bind(shared.config.http, "HTTP")?,
            resp: bind(shared.config.resp, "RESP")?,
        })
    }
}

/// A connection handed to a worker thread.
#[derive(Debug)]
pub enum Conn {
    /// HTTP/1.1 or h2c.
    Http(StdStream),
    /// RESP.
    Resp(StdStream),
}

/// Starts worker thread `index`, fed connections through the returned
/// sender; the thread returns once shutdown began and its connections
/// finished (or the grace period ran out).
pub fn spawn(
    shared: Arc<Shared>,
    index: usize,
) -> std::io::Result<(std::thread::JoinHandle<()>, mpsc::UnboundedSender<Conn>)> {
    let (tx, rx) = mpsc::unbounded_channel();
    let thread = std::thread::Builder::new()
        .name(format!("snowmint-w{index}"))
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            let grace = Duration::from_secs(shared.config.grace_secs);
            let ctx = Arc::new(ThreadCtx { shared, index });
            rt.block_on(run(ctx, rx, grace));
        })?;
    Ok((thread, tx))
}

async fn run(ctx: Arc<ThreadCtx>, mut conns: mpsc::UnboundedReceiver<Conn>, grace: Duration) {
    let mut shutdown = ctx.shared.shutdown.subscribe();
    let graceful = GracefulShutdown::new();
    let mut resp_conns = JoinSet::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    loop {
        let conn = tokio::select! {
            conn = conns.recv() => match conn {
                Some(c) => c,
                None => break,
            },
            _ = shutdown.wait_for(|s| *s) => break,
        };
        match conn {
            Conn::Http(stream) => {
                let Ok(stream) = TcpStream::from_std(stream) else {
                    continue;
                };
                let ctx = ctx.clone();
                let svc = service_fn(move |req| crate::http::handle(ctx.clone(), req));
                let conn = builder
                    .serve_connection_with_upgrades(TokioIo::new(stream), svc)
                    .into_owned();
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            Conn::Resp(stream) => {
                let Ok(stream) = TcpStream::from_std(stream) else {
                    continue;
                };
                resp_conns.spawn(crate::resp::serve(ctx.clone(), stream));
                // Reap finished connections as we go.
                while resp_conns.try_join_next().is_some() {}
            }
        }
    }
    let drained = async {
        graceful.shutdown().await;
        while resp_conns.join_next().await.is_some() {}
    };
    if tokio::time::timeout(grace, drained).await.is_err() {
        eprintln!(
            "snowmint-server: worker {}: connections still open after {} s: closing them",
            ctx.index,
            grace.as_secs()
        );
    }
}

/// Accepts on both ports until `stop` resolves, handing each connection to
/// the next worker thread (round robin per protocol); the listeners close
/// when it returns.
pub async fn accept_loop(
    listeners: Listeners,
    workers: &[mpsc::UnboundedSender<Conn>],
    stop: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    let http = listeners.http.map(TcpListener::from_std).transpose()?;
    let resp = listeners.resp.map(TcpListener::from_std).transpose()?;
    let (mut next_http, mut next_resp) = (0, 0);
    tokio::pin!(stop);
    loop {
        tokio::select! {
            accepted = accept(http.as_ref()) => {
                if let Ok(s) = accepted {
                    let _ = workers[next_http % workers.len()].send(Conn::Http(s));
                    next_http += 1;
                }
            }
            accepted = accept(resp.as_ref()) => {
                if let Ok(s) = accepted {
                    let _ = workers[next_resp % workers.len()].send(Conn::Resp(s));
                    next_resp += 1;
                }
            }
            _ = &mut stop => return Ok(()),
        }
    }
}

/// The next connection, taken off this reactor (still non-blocking): the
/// worker thread registers it with its own.
async fn accept(l: Option<&TcpListener>) -> std::io::Result<StdStream> {
    let Some(l) = l else {
        return std::future::pending().await;
    };
    match l.accept().await {
        Ok((s, _)) => {
            let _ = s.set_nodelay(true);
            s.into_std()
        }
        Err(e) => {
            // Out of file descriptors and the like: back off, keep serving.
            tokio::time::sleep(Duration::from_millis(10)).await;
            Err(e)
        }
    }
}
