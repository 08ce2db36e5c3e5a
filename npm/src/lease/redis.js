// The many-hosts lease on Redis: one key per worker ID holding the holder's
// random token with a TTL (SET NX PX), renewed by compare-and-pexpire and
// freed by compare-and-delete, each one Lua script so the compare and the
// write are atomic. The high-water bounds live in one hash without a TTL,
// written only by the token's holder in the same script that checks it.
// Keys share the hash tag `{prefix}`, so the scripts also run on a cluster.
//
// Data loss (FLUSHALL, a restart without persistence, a failover to an empty
// replica) takes the bounds with it. So the first claim on a prefix creates a
// marker `{prefix}:data` (no TTL) and a key `{prefix}:young` that expires one
// TTL later: a claim that finds no bound for its worker ID waits out what is
// left of `young` (lease.js explains why that suffices). Nothing in a store
// survives a flush, so a fresh store cannot be told from a flushed one: its
// first claims wait one TTL too. Once `young` has expired, a store whose
// marker is still there has not lost its data since, and claims wait only for
// recorded bounds.
//
// Clocks: every renewal reports the holder's clock with the server's (TIME)
// in a hash `{prefix}:clock`, and returns the server's time and a random 16
// of the live peers' reports (those renewed within their TTL; older ones are
// dropped), so the lease compares its clock with Redis's and with its peers'
// (skew.js) at a cost that does not grow with the fleet. HRANDFIELD needs
// Redis 6.2 or later.

import { ConfigError } from '../errors.js';
import { acquireLease } from './lease.js';
import { clockOf, ttlOptions } from './options.js';
import { coordinatorSkewOptions } from './skew.js';
import { workerIdRange } from './layout.js';
import { addon } from '../addon.js';

// The key layout and the Lua scripts are the lease crate's
// (lease/src/redis_scripts.rs: what each takes and returns), which its Rust
// driver sends too, so Node and Rust holders share one Redis by the same
// atomic steps. Read from the addon when a lease is made.
const scripts = () => {
  const [CLAIM, EXTEND, RELEASE, BOUNDS] = addon.leaseRedisScripts();
  return { CLAIM, EXTEND, RELEASE, BOUNDS, CLAIM_BATCH: addon.LEASE_REDIS_CLAIM_BATCH, PEER_SAMPLE: addon.LEASE_REDIS_PEER_SAMPLE };
};

/**
 * One `eval` over ioredis (`call`) or node-redis v4+ (`sendCommand`): their
 * `eval` signatures differ, their raw-command paths agree on the reply.
 */
function evaluator(client) {
  if (typeof client?.call === 'function') {
    return (script, keys, args) => client.call('EVAL', script, keys.length, ...keys, ...args);
  }
  if (typeof client?.sendCommand === 'function') {
    return (script, keys, args) => client.sendCommand(['EVAL', script, String(keys.length), ...keys, ...args.map(String)]);
  }
  throw new ConfigError('ERR_INVALID_OPTION', 'redisLease() needs an ioredis client or a connected node-redis (v4+) client');
}

/**
 * Leases a worker ID in Redis; resolves once the lease is held and its
 * high-water bound has passed on the lease's clock.
 *
 * @param client an ioredis client or a connected node-redis client (yours: not closed by the lease)
 * @param {{ prefix?: string, ttlMs?: number, renewMs?: number, marginMs?: number,
 *   workerIds?: { min?: number, max?: number }, preset?: string, layout?: object,
 *   maxSkewMs?: number, onSkew?: 'warn' | 'refuse', clock?: object | (() => number) }} [options]
 */
export function redisLease(client, options = {}) {
  const evaluate = evaluator(client);
  const { CLAIM, EXTEND, RELEASE, BOUNDS, CLAIM_BATCH, PEER_SAMPLE } = scripts();
  const prefix = options.prefix ?? 'snowmint';
  const timing = ttlOptions(options);
  const range = workerIdRange(options);
  const skew = coordinatorSkewOptions(options);
  const hash = `{${prefix}}:hwm`;
  const clocks = `{${prefix}}:clock`;
  const marker = [`{${prefix}}:data`, `{${prefix}}:young`];
  const key = (id) => `{${prefix}}:worker:${id}`;
  const store = {
    kind: 'redis',
    where: `{${prefix}}`,
    sync: false,
    async bounds() {
      const flat = await evaluate(BOUNDS, [hash], []);
      const bounds = new Map();
      for (let i = 0; i < flat.length; i += 2) bounds.set(Number(flat[i]), Number(flat[i + 1]));
      return bounds;
    },
    async claim(ids, token) {
      for (let at = 0; at < ids.length; at += CLAIM_BATCH) {
        const batch = ids.slice(at, at + CLAIM_BATCH);
        const got = await evaluate(CLAIM, [hash, ...marker, ...batch.map(key)], [token, timing.ttlMs, ...batch]);
        if (got) return { workerId: Number(got[0]), bound: Number(got[1]), waitMs: Number(got[2]) };
      }
      return null;
    },
    async extend(id, token, bound, clockMs) {
      const got = await evaluate(EXTEND, [key(id), hash, clocks], [token, timing.ttlMs, id, bound, clockMs, PEER_SAMPLE]);
      if (!Array.isArray(got)) return false;
      const [now, flat] = got;
      const peers = [];
      for (let i = 0; i < flat.length; i += 2) {
        const [clock, at] = String(flat[i + 1])
          .split(' ')
          .map(Number);
        peers.push({ workerId: Number(flat[i]), clockMs: clock, serverMs: at });
      }
      return { server: { name: "Redis server's clock (TIME)", ms: Number(now) }, peers };
    },
    async release(id, token, hwm) {
      await evaluate(RELEASE, [key(id), hash, clocks], [token, id, hwm ?? '']);
    },
  };
  return acquireLease(store, { clock: clockOf(options.clock, addon.monotonicNowMs), range, timing, skew });
}
