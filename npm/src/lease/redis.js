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

import { ConfigError } from '../errors.js';
import { acquireLease, clockOf, idRange, ttlOptions } from './lease.js';
import { addon } from '../addon.js';

// KEYS[1] = bounds hash, KEYS[2] = data marker, KEYS[3] = young, KEYS[4..] = worker keys
// in claim order; ARGV[1] = token, ARGV[2] = ttl ms, ARGV[3..] = the worker IDs in the same order.
// Returns {worker ID, bound, ms to wait}.
const CLAIM = `
if redis.call('SET', KEYS[2], ARGV[2], 'NX') then
  redis.call('SET', KEYS[3], '1', 'PX', ARGV[2])
end
for i = 4, #KEYS do
  if redis.call('SET', KEYS[i], ARGV[1], 'NX', 'PX', ARGV[2]) then
    local bound = redis.call('HGET', KEYS[1], ARGV[i - 1])
    if bound then return {ARGV[i - 1], bound, 0} end
    return {ARGV[i - 1], '0', math.max(redis.call('PTTL', KEYS[3]), 0)}
  end
end
return false`;

// KEYS = worker key, bounds hash; ARGV = token, ttl ms, worker ID, bound.
// The bound only grows: lease.js never asks for less than it recorded.
const EXTEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
return 1`;

// KEYS = worker key, bounds hash; ARGV = token, worker ID, exact high-water mark or ''.
const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], ARGV[3]) end
redis.call('DEL', KEYS[1])
return 1`;

const BOUNDS = `return redis.call('HGETALL', KEYS[1])`;

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
 *   workerIds?: { min?: number, max?: number }, clock?: object | (() => number) }} [options]
 */
export function redisLease(client, options = {}) {
  const evaluate = evaluator(client);
  const prefix = options.prefix ?? 'snowmint';
  const timing = ttlOptions(options);
  const hash = `{${prefix}}:hwm`;
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
      const got = await evaluate(CLAIM, [hash, ...marker, ...ids.map(key)], [token, timing.ttlMs, ...ids]);
      return got ? { workerId: Number(got[0]), bound: Number(got[1]), waitMs: Number(got[2]) } : null;
    },
    async extend(id, token, bound) {
      return Number(await evaluate(EXTEND, [key(id), hash], [token, timing.ttlMs, id, bound])) === 1;
    },
    async release(id, token, hwm) {
      await evaluate(RELEASE, [key(id), hash], [token, id, hwm ?? '']);
    },
  };
  return acquireLease(store, { clock: clockOf(options.clock, addon.monotonicNowMs), range: idRange(options), timing });
}
