//! Reads and writes of single znodes, with ZooKeeper's errors as lease errors.

use zookeeper_client as zk;

use super::{ZkStore, io};
use crate::error::LeaseError;

/// What a write on our worker znode fails with once it is not ours.
pub(super) fn not_ours(e: &zk::Error) -> bool {
    matches!(
        e,
        zk::Error::NoNode | zk::Error::BadVersion | zk::Error::SessionExpired
    )
}

pub(super) fn persistent() -> zk::CreateOptions<'static> {
    zk::CreateMode::Persistent.with_acls(zk::Acls::anyone_all())
}

impl ZkStore {
    pub(super) async fn get(
        client: &zk::Client,
        path: &str,
    ) -> Result<Option<(String, zk::Stat)>, LeaseError> {
        match client.get_data(path).await {
            Ok((data, stat)) => Ok(Some((String::from_utf8_lossy(&data).into_owned(), stat))),
            Err(zk::Error::NoNode) => Ok(None),
            Err(e) => Err(io(e)),
        }
    }

    pub(super) async fn children(client: &zk::Client, path: &str) -> Result<Vec<u32>, LeaseError> {
        match client.list_children(path).await {
            Ok(names) => Ok(names.iter().filter_map(|n| n.parse().ok()).collect()),
            Err(zk::Error::NoNode) => Ok(vec![]),
            Err(e) => Err(io(e)),
        }
    }

    /// Creates a persistent znode with `data` unless it exists.
    pub(super) async fn ensure(
        client: &zk::Client,
        path: &str,
        data: &str,
    ) -> Result<(), LeaseError> {
        match client.create(path, data.as_bytes(), &persistent()).await {
            Ok(_) | Err(zk::Error::NodeExists) => Ok(()),
            Err(e) => Err(io(e)),
        }
    }
}
