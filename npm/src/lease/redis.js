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

// KEYS = worker key, bounds hash, clocks hash; ARGV = token, ttl ms, worker ID, bound, the
// holder's clock (ms), how many peers to sample. The bound only grows: lease.js never asks
// for less than it recorded. Returns 0 (not ours), or {server ms, {worker ID,
// 'clock server ttl', ...}} of up to that many live peers, picked at random.
const EXTEND = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[3], ARGV[4])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('HSET', KEYS[3], ARGV[3], ARGV[5] .. ' ' .. now .. ' ' .. ARGV[2])
local all = redis.call('HRANDFIELD', KEYS[3], ARGV[6] + 1, 'WITHVALUES')
local peers = {}
for i = 1, #all, 2 do
  if all[i] ~= ARGV[3] and #peers < 2 * tonumber(ARGV[6]) then
    local _, at, ttl = string.match(all[i + 1], '^(%S+) (%S+) (%S+)$')
    if now - tonumber(at) < tonumber(ttl) then
      peers[#peers + 1] = all[i]
      peers[#peers + 1] = all[i + 1]
    else
      redis.call('HDEL', KEYS[3], all[i])
    end
  end
end
return {now, peers}`;

// KEYS = worker key, bounds hash, clocks hash; ARGV = token, worker ID, exact high-water mark or ''.
const RELEASE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[3] ~= '' then redis.call('HSET', KEYS[2], ARGV[2], ARGV[3]) end
redis.call('DEL', KEYS[1])
redis.call('HDEL', KEYS[3], ARGV[2])
return 1`;

/** Worker keys per claim script: a wide worker field (65,536 IDs) is tried in batches, free ones first. */
const CLAIM_BATCH = 1024;
/** Peers' reports read per renewal: a random sample, so renewals stay cheap in a large fleet. */
const PEER_SAMPLE = 16;

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
 *   workerIds?: { min?: number, max?: number }, preset?: string, layout?: object,
 *   maxSkewMs?: number, onSkew?: 'warn' | 'refuse', clock?: object | (() => number) }} [options]
 */
export function redisLease(client, options = {}) {
  const evaluate = evaluator(client);
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
