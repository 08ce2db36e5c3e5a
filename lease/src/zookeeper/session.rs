//! The client's session: whether it has ended (as Curator decides it), and
//! a new one for a claim when it has.

use std::time::{Duration, Instant};

use zookeeper_client as zk;

use super::{ZkStore, io, lock};
use crate::error::{Code, LeaseError};

/// The client of the current session, and since when it has been disconnected.
#[derive(Default)]
pub(super) struct Session {
    pub(super) client: Option<zk::Client>,
    pub(super) disconnected_at: Option<Instant>,
}

impl ZkStore {
    /// Whether the current session has ended (its ephemeral znodes are gone, or soon will be).
    pub(super) fn ended(&self) -> bool {
        let mut guard = lock(&self.session);
        let s = &mut *guard;
        let Some(client) = &s.client else {
            return true;
        };
        match client.state() {
            state if state.is_terminated() => true,
            zk::SessionState::Disconnected => {
                let since = *s.disconnected_at.get_or_insert_with(Instant::now);
                since.elapsed() > client.session_timeout()
            }
            _ => {
                s.disconnected_at = None;
                false
            }
        }
    }

    pub(super) fn client(&self) -> Result<zk::Client, LeaseError> {
        lock(&self.session)
            .client
            .clone()
            .ok_or_else(|| io("no session"))
    }

    /// The client to claim with: a new session if the last one ended.
    pub(super) async fn for_claim(&self) -> Result<zk::Client, LeaseError> {
        if !self.ended() {
            return self.client();
        }
        let old = lock(&self.session).client.take();
        drop(old);
        let ttl = Duration::from_millis(self.timing.ttl_ms);
        let connect = zk::Client::connector()
            .with_session_timeout(ttl)
            .with_fail_eagerly()
            .connect(&self.hosts);
        let client = match tokio::time::timeout(ttl, connect).await {
            Ok(c) => c.map_err(|e| io(format!("cannot connect to {}: {e}", self.hosts)))?,
            Err(_) => {
                return Err(LeaseError::new(
                    Code::Timeout,
                    format!(
                        "zookeeper: the client did not connect to {} within {} ms",
                        self.hosts, self.timing.ttl_ms
                    ),
                ));
            }
        };
        *lock(&self.session) = Session {
            client: Some(client.clone()),
            disconnected_at: None,
        };
        Ok(client)
    }
}
