//! Thread per core: worker thread i runs a current-thread tokio runtime and
//! mints Snowflakes only on worker i's generator. Every thread accepts from
//! the same listening sockets (each registered in its own runtime), so a
//! connection, with its requests, stays on the thread that accepted it:
//! per-connection order holds for Snowflakes (one worker ID) and for the
//! other kinds (the core's per-thread generators).

use std::net::TcpListener as StdListener;
use std::sync::Arc;
use std::time::Duration;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
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

    fn clone_for_thread(&self) -> std::io::Result<(Option<StdListener>, Option<StdListener>)> {
        Ok((
            self.http.as_ref().map(StdListener::try_clone).transpose()?,
            self.resp.as_ref().map(StdListener::try_clone).transpose()?,
        ))
    }
}

/// Starts worker thread `index`; it returns once shutdown began and its
/// connections finished (or the grace period ran out).
pub fn spawn(
    shared: Arc<Shared>,
    index: usize,
    listeners: &Listeners,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    let (http, resp) = listeners.clone_for_thread()?;
    std::thread::Builder::new()
        .name(format!("snowmint-w{index}"))
        .spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a tokio runtime");
            let grace = Duration::from_secs(shared.config.grace_secs);
            let ctx = Arc::new(ThreadCtx { shared, index });
            rt.block_on(run(ctx, http, resp, grace));
        })
}

async fn run(
    ctx: Arc<ThreadCtx>,
    http: Option<StdListener>,
    resp: Option<StdListener>,
    grace: Duration,
) {
    let http = http.map(|l| TcpListener::from_std(l).expect("register the HTTP listener"));
    let resp = resp.map(|l| TcpListener::from_std(l).expect("register the RESP listener"));
    let mut shutdown = ctx.shared.shutdown.subscribe();
    let graceful = GracefulShutdown::new();
    let mut resp_conns = JoinSet::new();
    let builder = auto::Builder::new(TokioExecutor::new());
    loop {
        tokio::select! {
            accepted = accept(http.as_ref()) => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                let ctx = ctx.clone();
                let svc = service_fn(move |req| crate::http::handle(ctx.clone(), req));
                let conn = builder.serve_connection_with_upgrades(TokioIo::new(stream), svc).into_owned();
                let conn = graceful.watch(conn);
                tokio::spawn(async move {
                    let _ = conn.await;
                });
            }
            accepted = accept(resp.as_ref()) => {
                let Ok((stream, _)) = accepted else { continue };
                resp_conns.spawn(crate::resp::serve(ctx.clone(), stream));
                // Reap finished connections as we go.
                while resp_conns.try_join_next().is_some() {}
            }
            _ = shutdown.wait_for(|s| *s) => break,
        }
    }
    // Stop accepting: the listeners close with this thread's copies.
    drop((http, resp));
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

async fn accept(
    l: Option<&TcpListener>,
) -> std::io::Result<(tokio::net::TcpStream, std::net::SocketAddr)> {
    match l {
        Some(l) => match l.accept().await {
            Ok(c) => Ok(c),
            Err(e) => {
                // Out of file descriptors and the like: back off, keep serving.
                tokio::time::sleep(Duration::from_millis(10)).await;
                Err(e)
            }
        },
        None => std::future::pending().await,
    }
}
