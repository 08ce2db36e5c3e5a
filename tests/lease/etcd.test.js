// snowmint/lease on a real etcd (started here on free loopback ports).
import { ttlLeaseSuite } from './harness.js';
import { startEtcd } from './servers.js';

ttlLeaseSuite({
  name: 'etcd',
  start: startEtcd,
  stores: ['etcd'],
  total: 2_000_000,
  dataLoss: { 'a restart with its data directory wiped': (s) => s.restartEmpty() },
  serverClock: null,
});
