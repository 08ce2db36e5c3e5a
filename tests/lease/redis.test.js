// snowmint/lease on a real Redis (started here on a free loopback port).
import { ttlLeaseSuite } from './harness.js';
import { startRedis } from './servers.js';

ttlLeaseSuite({
  name: 'redis',
  start: startRedis,
  stores: ['ioredis', 'node-redis'],
  total: 10_000_000,
  dataLoss: { FLUSHALL: (s) => s.flushAll(), 'a restart without its data': (s) => s.restartEmpty() },
});
