//! `snowmint-server`: snowmint's IDs for every language, over HTTP/1.1,
//! h2c and the Redis protocol, on leased worker IDs. See docs/server.md.
//!
//! The process: read the configuration (`config`), lease one worker ID per
//! worker thread (`workers`), bind the ports, start the clock watch
//! (`state`) and the worker threads (`serve`: HTTP in `http`, RESP in
//! `resp`), then wait for SIGTERM or SIGINT: stop accepting, let the
//! requests in flight finish, release the leases (recording each worker
//! ID's exact high-water mark), exit 0.

mod config;
mod coordinator;
mod decode;
mod http;
mod metrics;
mod mint;
mod resp;
mod resp_parse;
mod serve;
mod state;
mod workers;

use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("snowmint-server: {e}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<(), String> {
    let config = config::Config::resolve(config::Args::parse())?;
    let workers = workers::acquire(
        &config.source,
        &config.coordinator,
        config.workers,
        config.layout,
        config.max_backwards_ms,
    )?;
    let shared = Arc::new(state::Shared::new(config, workers));
    let listeners = serve::Listeners::bind(&shared)?;
    let addr = |l: &Option<std::net::TcpListener>| {
        l.as_ref()
            .and_then(|l| l.local_addr().ok())
            .map_or("off".to_string(), |a| a.to_string())
    };
    let ids: Vec<String> = shared
        .workers
        .iter()
        .map(|w| w.ids.worker_id().to_string())
        .collect();
    shared.clock.check(&shared.workers);
    let clock = state::watch_clock(shared.clone());
    let mut threads = Vec::new();
    let mut senders = Vec::new();
    for i in 0..shared.workers.len() {
        let (thread, tx) = serve::spawn(shared.clone(), i).map_err(|e| e.to_string())?;
        threads.push(thread);
        senders.push(tx);
    }
    // The acceptor and the signals share the main thread's runtime; the
    // handlers are in place before anyone is told the server is up.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let stop = {
        let _in_rt = rt.enter();
        signal()?
    };
    println!(
        "snowmint-server {} listening: http={} resp={} preset={} worker_ids={}",
        env!("CARGO_PKG_VERSION"),
        addr(&listeners.http),
        addr(&listeners.resp),
        shared.config.preset.name(),
        ids.join(",")
    );
    rt.block_on(serve::accept_loop(listeners, &senders, stop))
        .map_err(|e| e.to_string())?;
    // The ports are closed: no new connection.
    eprintln!("snowmint-server: stopping: no new connections, finishing the requests in flight");
    shared.stop();
    drop(senders);
    for t in threads {
        let _ = t.join();
    }
    let _ = clock.join();
    release(shared)
}

/// Resolves at SIGTERM or SIGINT.
fn signal() -> Result<impl std::future::Future<Output = ()>, String> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).map_err(|e| e.to_string())?;
    let mut int = signal(SignalKind::interrupt()).map_err(|e| e.to_string())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}

/// Releases every lease, recording its exact high-water mark.
fn release(shared: Arc<state::Shared>) -> Result<(), String> {
    let shared = Arc::try_unwrap(shared).map_err(|_| {
        "a connection outlived its thread: the leases are freed at exit".to_string()
    })?;
    let mut failed = Vec::new();
    for w in shared.workers {
        let id = w.ids.worker_id();
        if let Err(e) = w.ids.release() {
            failed.push(format!("worker ID {id}: {e}"));
        }
    }
    if failed.is_empty() {
        eprintln!("snowmint-server: leases released, bye");
        Ok(())
    } else {
        Err(failed.join("; "))
    }
}
