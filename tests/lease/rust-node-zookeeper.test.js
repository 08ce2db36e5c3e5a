// A Rust service (the snowmint-lease crate's ZooKeeper driver, kezhuw's
// zookeeper-client) and a Node zookeeperLease (node-zookeeper-client) on
// one real ZooKeeper: rust-holder.js.
import { rustNodeSuite } from './rust-holder.js';
import { startZookeeper } from './servers.js';

rustNodeSuite({ name: 'ZooKeeper', store: 'zookeeper', start: startZookeeper, rustUrl: (s) => `zk://${s.url}` });
