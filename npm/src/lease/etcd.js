// The many-hosts lease on etcd (the `etcd3` client): each claim grants an
// etcd lease with the TTL and creates the worker key under it in a
// transaction that succeeds only if the key does not exist
// (createRevision == 0); renewal is a keep-alive of that lease plus a
// transaction that records the bound only while the key still holds our
// token. High-water bounds are plain keys without a lease.
//
// An etcd rebuilt from nothing (a wiped data directory, a new cluster
// restored from an old snapshot without the recent keys... whatever lost
// the keys) loses the bounds with them; as in redis.js, the first claim
// creates a marker `prefix/data` and a key `prefix/young` under an etcd
// lease of one TTL, and a claim that finds no bound for its worker ID waits
// out what is left of `young`.
//
// Clocks: etcd has no clock to read, so a holder compares its clock with its
// peers' only. Each renewal reports the holder's clock (as the renewal was
// sent) and how old that report may get in `prefix/clock/<id>`, under its
// etcd lease (gone with it); the skew is known only to within half of that
// age (skew.js, measureSkew). The age is what the holder measured, not
// renewMs alone: a renewal lands a round trip after it was sent, and the next
// one is sent renewMs after this one ends, later on a busy event loop. So a
// report's age bound is the longest gap between the holder's last reports
// (at least renewMs plus that round trip). A renewal reads 16 peers' reports
// (the first by key), not the whole fleet's.

import { ConfigError } from '../errors.js';
import { acquireLease } from './lease.js';
import { clockOf, ttlOptions } from './options.js';
import { coordinatorSkewOptions } from './skew.js';
import { workerIdRange } from './layout.js';
import { addon } from '../addon.js';

/** Peers' reports read per renewal (the first by key), so renewals stay cheap in a large fleet. */
const PEER_SAMPLE = 16;

/**
 * Leases a worker ID in etcd; resolves once the lease is held and its
 * high-water bound has passed on the lease's clock.
 *
 * @param client an `Etcd3` client (yours: not closed by the lease)
 * @param {{ prefix?: string, ttlMs?: number, renewMs?: number, marginMs?: number,
 *   workerIds?: { min?: number, max?: number }, preset?: string, layout?: object,
 *   maxSkewMs?: number, onSkew?: 'warn' | 'refuse', clock?: object | (() => number) }} [options]
 *   etcd counts TTLs in whole seconds: the server's TTL is ttlMs rounded up.
 */
export function etcdLease(client, options = {}) {
  if (typeof client?.lease !== 'function' || typeof client?.if !== 'function') {
    throw new ConfigError('ERR_INVALID_OPTION', 'etcdLease() needs an Etcd3 client (npm package etcd3)');
  }
  const prefix = options.prefix ?? 'snowmint';
  const timing = ttlOptions(options);
  const range = workerIdRange(options);
  const skew = coordinatorSkewOptions(options);
  const clockKey = (id) => `${prefix}/clock/${id}`;
  const workerKey = (id) => `${prefix}/worker/${id}`;
  const boundKey = (id) => `${prefix}/hwm/${id}`;
  const [markerKey, youngKey] = [`${prefix}/data`, `${prefix}/young`];
  const ttlSeconds = Math.ceil(timing.ttlMs / 1000);
  /** How old this holder's clock report may get (see the top): the longest of its last gaps between reports. */
  const reportAge = {
    gaps: [],
    lastSent: null,
    /**
     * The age bound for the report of a renewal sent at `sent` whose first
     * round trip took `rttMs` (performance.now() intervals: no clock skew).
     * The next report is sent a gap later (renewMs after this renewal's three
     * round trips end, or the longest gap seen) and lands two round trips after.
     */
    bound(sent, rttMs) {
      if (this.lastSent !== null) this.gaps.push(sent - this.lastSent);
      if (this.gaps.length > 8) this.gaps.shift();
      this.lastSent = sent;
      return Math.ceil(Math.max(timing.renewMs + 3 * rttMs, ...this.gaps) + 2 * rttMs);
    },
  };
  /**
   * Ms left of the first TTL of the store's data: creates the marker (and
   * `young`, with that TTL) if there is none. Asked after the claim, so a
   * loss before it shows (a loss after it takes our key and fails the renewal).
   */
  const youngMs = async () => {
    if ((await client.get(markerKey).string()) === null) {
      const young = client.lease(ttlSeconds, { autoKeepAlive: false });
      young.on('lost', () => {});
      const youngId = await young.grant();
      const made = await client
        .if(markerKey, 'Create', '==', 0)
        .then(client.put(markerKey).value(String(timing.ttlMs)), client.put(youngKey).value('1').lease(youngId))
        .commit();
      if (made.succeeded) return timing.ttlMs;
      await young.revoke().catch(() => {}); // another claimant made them first
    }
    const kv = (await client.get(youngKey).exec()).kvs[0];
    if (!kv) return 0;
    // etcd counts whole seconds, truncated: the lease ends within TTL + 1 s.
    const r = await client.leaseClient.leaseTimeToLive({ ID: kv.lease });
    const left = Number(r.TTL);
    return left < 0 ? 0 : Math.min(Number(r.grantedTTL), left + 1) * 1000;
  };
  /** The etcd lease behind the current claim (a new one per claim). */
  let granted = null;
  const revoke = () => {
    const l = granted;
    granted = null;
    return l?.revoke().catch(() => {}); // it expires on its own anyway
  };
  const store = {
    kind: 'etcd',
    where: `${prefix}/`,
    sync: false,
    async bounds() {
      const all = await client.getAll().prefix(`${prefix}/hwm/`).strings();
      return new Map(Object.entries(all).map(([k, v]) => [Number(k.slice(prefix.length + 5)), Number(v)]));
    },
    async claim(ids, token) {
      await revoke();
      const lease = client.lease(Math.ceil(timing.ttlMs / 1000), { autoKeepAlive: false });
      lease.on('lost', () => {}); // reported through extend()
      const leaseId = await lease.grant();
      // Skip the keys that exist now: one transaction per claim, not one per taken ID.
      const taken = new Set(await client.getAll().prefix(`${prefix}/worker/`).keys());
      for (const id of ids) {
        if (taken.has(workerKey(id))) continue;
        const created = await client
          .if(workerKey(id), 'Create', '==', 0)
          .then(client.put(workerKey(id)).value(token).lease(leaseId))
          .commit();
        if (created.succeeded) {
          granted = lease;
          const bound = await client.get(boundKey(id)).string();
          const waitMs = await youngMs();
          return { workerId: id, bound: Number(bound ?? 0), waitMs: bound === null ? waitMs : 0 };
        }
      }
      await lease.revoke().catch(() => {});
      return null;
    },
    async extend(id, token, bound, clockMs) {
      if (!granted) return false;
      const sent = performance.now();
      const alive = await granted.keepaliveOnce().then(
        (r) => Number(r.TTL) > 0,
        (e) => {
          if (e?.constructor?.name === 'EtcdLeaseInvalidError') return false;
          throw e;
        },
      );
      if (!alive) return false;
      const ageMaxMs = reportAge.bound(sent, performance.now() - sent);
      const recorded = await client
        .if(workerKey(id), 'Value', '==', token)
        .then(
          client.put(boundKey(id)).value(String(bound)),
          client
            .put(clockKey(id))
            .value(`${clockMs} ${ageMaxMs}`)
            .lease(await granted.grant()),
        )
        .commit();
      if (!recorded.succeeded) return false;
      const reports = await client
        .getAll()
        .prefix(`${prefix}/clock/`)
        .limit(PEER_SAMPLE + 1)
        .strings();
      const peers = [];
      for (const [k, v] of Object.entries(reports)) {
        const workerId = Number(k.slice(prefix.length + 7));
        const [clock, ageMaxMs] = v.split(' ').map(Number);
        if (workerId !== id && peers.length < PEER_SAMPLE) peers.push({ workerId, clockMs: clock, ageMaxMs });
      }
      return { peers };
    },
    async release(id, token, hwm) {
      const then = [client.delete().key(workerKey(id))];
      if (hwm !== null) then.push(client.put(boundKey(id)).value(String(hwm)));
      await client
        .if(workerKey(id), 'Value', '==', token)
        .then(...then)
        .commit();
      await revoke();
    },
  };
  return acquireLease(store, { clock: clockOf(options.clock, addon.monotonicNowMs), range, timing, skew });
}
