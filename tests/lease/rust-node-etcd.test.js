// A Rust service (the snowmint-lease crate's etcd driver, over etcd's JSON
// gateway) and a Node etcdLease (gRPC, the etcd3 client) on one real etcd:
// rust-holder.js.
import { rustNodeSuite } from './rust-holder.js';
import { startEtcd } from './servers.js';

rustNodeSuite({ name: 'etcd', store: 'etcd', start: startEtcd, rustUrl: (s) => `etcd://127.0.0.1:${s.port}` });
