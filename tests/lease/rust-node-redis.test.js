// A Rust service (the snowmint-lease crate's Redis driver) and a Node
// redisLease on one real Redis: rust-holder.js.
import { rustNodeSuite } from './rust-holder.js';
import { startRedis } from './servers.js';

rustNodeSuite({ name: 'Redis', store: 'ioredis', start: startRedis, rustUrl: (s) => s.url });
