// One way to reach each store the tests run against: `open(store, url)`
// gives `lease(options)` (a new lease over one shared client) and `close()`
// (closes the client; releases nothing). `url` is a directory for 'local'.
import Redis from 'ioredis';
import { createClient } from 'redis';
import { Etcd3 } from 'etcd3';
import zookeeper from 'node-zookeeper-client';
import { etcdLease, localLease, redisLease, zookeeperLease } from '../../npm/src/lease/index.js';

export async function open(store, url) {
  switch (store) {
    case 'ioredis': {
      const c = new Redis(url, { maxRetriesPerRequest: null, retryStrategy: () => 100 });
      c.on('error', () => {}); // it reconnects; the lease reports what matters
      return { lease: (o) => redisLease(c, o), close: () => c.disconnect() };
    }
    case 'node-redis': {
      const c = createClient({ url, socket: { reconnectStrategy: () => 100 } });
      c.on('error', () => {});
      await c.connect();
      return { lease: (o) => redisLease(c, o), close: () => c.destroy() };
    }
    case 'etcd': {
      const c = new Etcd3({ hosts: url });
      return { lease: (o) => etcdLease(c, o), close: () => c.close() };
    }
    case 'zookeeper':
      // A client per lease, made by the lease (a new session after an expiry);
      // the session times out with the lease's TTL (ZooKeeper allows 1 s to 10 s here).
      return {
        lease: ({ prefix, ...o } = {}) => {
          const sessionTimeout = Math.min(Math.max(o.ttlMs ?? 10_000, 1000), 10_000);
          return zookeeperLease(() => zookeeper.createClient(url, { sessionTimeout, spinDelay: 100 }), { ...o, path: prefix && `/${prefix}` });
        },
        close: () => {},
      };
    case 'local':
      return { lease: async (o) => localLease({ dir: url, ...o }), close: () => {} };
    default:
      throw new Error(`unknown store ${store}`);
  }
}
