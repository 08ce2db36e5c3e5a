// The one lease contract behind every kind of worker-ID lease (local lock
// files, Redis, etcd, ZooKeeper): claiming, fencing, the high-water bound, renewal,
// re-acquisition and release. A kind only supplies a small store (see
// `Store` below). Everything that decides whether an ID may be handed out is
// the lease crate's state machine (lease/src/machine.rs, through the addon's
// LeaseMachine), which Rust's store drivers drive too; this file does the
// I/O in the order the machine's docs give, and emits the events.
//
// The rule that keeps IDs unique across holders of one worker ID:
//   every ID a holder hands out lies in a tick below `covered`, and `covered`
//   is written to the store (the "high-water bound") before any ID uses it;
//   a new holder's generator starts after the bound it read when claiming.
// So uniqueness never depends on timers firing, TTLs, or two hosts' clocks
// agreeing: a holder that cannot extend its bound stops minting, and a
// successor whose clock is behind the bound waits (or the core waits) until
// its own clock has passed it. TTLs only decide how soon a dead holder's
// worker ID becomes free again.
//
// Except when the store loses its data (a Redis FLUSHALL, a restart without
// persistence, an etcd rebuilt from nothing): the bound is gone, and the
// holder mints on until its next renewal finds its key gone. A store with a
// TTL therefore reports, with each claim, how long its data may still hide
// such a holder (`waitMs`): for a worker ID without a recorded bound, what is
// left of the first TTL after the store's data began (see redis.js,
// etcd.js). The claimant starts only after `now + waitMs`, and stays
// 'pending' (renewing, but failing every check) until then. Every holder
// that minted before the loss renewed before it, so its IDs lie below that
// renewal + ttlMs - marginMs, and the claimant's above the loss + ttlMs:
// apart by marginMs, which is how far the two hosts' clocks may disagree.
//
// api.js calls `check(tickMs)` after every claim from the generator, with the
// generator's last minted tick, and hands out the claimed IDs only if it
// returns (a buffered run is therefore never handed out beyond the bound,
// whatever time it is handed out).
//
// Clock skew does not break uniqueness (above), but it breaks order across
// hosts: a generator whose clock is 5 s ahead mints IDs that sort after
// everything its peers mint for 5 s. So every renewal also reports the
// holder's clock to the store, and a store that can returns what it knows of
// other clocks (`Readings` below): the coordinator's own time (Redis TIME, a
// ZooKeeper znode's mtime) and the live peers' last reports. `measureSkew`
// (lease/src/machine/skew.rs) turns them into skews with error bounds, and a skew beyond `maxSkewMs`
// (where even the error bound cannot explain it) either fences the lease
// (`onSkew: 'refuse'`: check() throws ClockError ERR_CLOCK_SKEW until a later
// renewal finds the clock within) or is reported (`'warn'`: a 'skew' event).
//
// Beside this file: the options every kind shares (options.js), the skew
// options of the coordinator leases (skew.js), one file per store.

import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { makeError, LeaseError } from '../errors.js';
import { addon } from '../addon.js';
import { coordinatorSkewOptions, flatReadings } from './skew.js';

/**
 * @typedef {object} Store  what a lease kind implements
 * @property {string} kind            'local' | 'redis' | 'etcd' | 'zookeeper'
 * @property {string} where           names the place, for messages (a directory, a key prefix)
 * @property {boolean} sync           true: claim/extend are synchronous, and `held` says whether the lease still holds (local)
 * @property {(ids: number[], token: string, nowMs: number) => ({workerId: number, bound: number, waitMs?: number} | null) | Promise<...>} claim
 *   claims the first of `ids` that is free (in that order), atomically; null if none is.
 *   `waitMs` (stores with a TTL): start no earlier than this long after the claim, because
 *   the store has no bound for the ID and its data is younger than one TTL
 * @property {(ids: number[]) => Map<number, number> | Promise<Map<number, number>>} bounds
 *   the recorded high-water bound of each of `ids` (absent: none recorded)
 * @property {(workerId: number, token: string, bound: number, clockMs: number) => boolean | Readings | Promise<boolean | Readings>} extend
 *   if the token still holds the worker ID: extends its expiry, records `bound` and reports
 *   `clockMs` (the holder's clock as the request is sent) for its peers; false if it does not.
 *   Stores that know other clocks return them (`Readings`) instead of true
 * @property {() => boolean} [held]   sync stores: whether the claimed worker ID is still ours (a lock
 *   file can be deleted under its holder); asked once per claimed run, so it must be cheap
 * @property {(workerId: number, token: string, hwm: number | null) => void | Promise<void>} release
 *   if the token still holds it: records `hwm` (when not null) as the exact high-water mark and frees it
 */

/**
 * @typedef {object} Readings  other clocks, as a store saw them during one extend
 * @property {{ name: string, ms: number } | undefined} server
 *   the coordinator's clock while it executed the extend (`name` says which, for messages)
 * @property {{ workerId: number, clockMs: number, serverMs?: number, ageMaxMs?: number }[]} peers
 *   each live peer's last report: its clock, and either the coordinator's clock when it
 *   reported (`serverMs`) or, for stores without a clock, how old the report can be (`ageMaxMs`)
 */

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function deadline(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new LeaseError('ERR_LEASE_TIMEOUT', `${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** A machine's LeaseFault or SkewReport as the error of its class (a skew's with its measure). */
function errorOf(f) {
  const e = makeError(f.code, f.message);
  if (f.code === 'ERR_CLOCK_SKEW') {
    const { workerId, skewMs, errMs, against, peers, maxSkewMs } = f;
    Object.assign(e, { workerId, skewMs, errMs, against, peers, maxSkewMs });
  }
  return e;
}

/** What the machine's `check` answers (node/src/lease_machine.rs). */
const LOST_SYNC = -1;
const SKEWED = -2;

/**
 * A worker-ID lease. Give it to a generator (`configure({ lease })`,
 * `new Snowflake({ lease })`); it then takes its worker ID and its start
 * from the lease and mints only while the lease covers it.
 *
 * Events: 'acquired' ({ workerId }) after a (re-)acquisition, 'lost' (LeaseError)
 * when a renewal finds the worker ID no longer ours, 'renewFailed' (Error) when
 * the store could not be reached (the lease may still recover before its fence),
 * 'skew' (ClockError ERR_CLOCK_SKEW) when a renewal finds the holder's clock
 * beyond `maxSkewMs` from the coordinator's or its peers' (once per episode;
 * with `onSkew: 'warn'` and no listener, a process warning instead).
 */
export class Lease extends EventEmitter {
  #store;
  #clock;
  #range;
  #timing;
  /** The rules (lease/src/machine.rs): every decision below is its. */
  #m;
  #token = randomBytes(16).toString('hex');
  /** The error a failed step leaves, thrown as it was (a store's own error, a timeout). */
  #lastError = null;
  #timer = null;
  #owner = null;
  #highWaterMs = null;

  /**
   * @param {Store} store
   * @param {{ clock: () => number, range: {min: number, max: number}, timing?: {ttlMs: number, renewMs: number, marginMs: number}, reserveMs?: number, skew?: {maxSkewMs: number, onSkew: 'warn' | 'refuse'} }} o
   *   `timing` for stores with a TTL; `reserveMs` for sync stores: how far past the
   *   current tick each synchronous extension reserves (one write per that many ms of minting);
   *   `skew` (from `coordinatorSkewOptions`) for stores whose extend returns `Readings`.
   */
  constructor(store, o) {
    super();
    this.#store = store;
    this.#clock = o.clock;
    this.#range = o.range;
    this.#timing = o.timing ?? null;
    const { maxSkewMs, onSkew } = o.skew ?? coordinatorSkewOptions({});
    const t = this.#timing;
    this.#m = addon.leaseMachineNew(store.kind, store.where, o.range.min, o.range.max, new Float64Array(t ? [t.ttlMs, t.renewMs, t.marginMs] : []), o.reserveMs ?? 0, maxSkewMs, onSkew === 'refuse');
  }

  /** The leased worker ID (it can change when a lost lease is re-acquired; see `epoch`). */
  get workerId() {
    return this.#m.workerId;
  }
  /** The high-water bound recorded for this worker ID when it was claimed: mint only after it. */
  get resumeAfterMs() {
    return this.#m.resumeAfterMs;
  }
  /** Counts acquisitions: a generator rebuilds itself when it changes. */
  get epoch() {
    return this.#m.epoch;
  }
  /**
   * 'held'; 'pending' (claimed, renewed, but its start, `resumeAfterMs`, lies
   * ahead: no check passes yet); 'lost' (re-acquiring); or 'released'.
   */
  get state() {
    return this.#m.state;
  }
  /** Worker IDs this lease may claim: `max + 1` must fit the generator's worker field. */
  get size() {
    return this.#range.max + 1;
  }
  get kind() {
    return this.#store.kind;
  }

  /**
   * Called by the generator after every claim with its last minted tick
   * (Unix ms): returns if the lease covers it, else throws a LeaseError and
   * the claimed IDs are dropped. Synchronous stores extend the bound here.
   */
  check(tickMs) {
    const m = this.#m;
    const r = m.check(tickMs, m.probes ? this.#store.held() : true);
    if (r === 0) return;
    if (r > 0) return this.#record(r);
    if (r === LOST_SYNC) this.#lostSync();
    if (r === SKEWED) throw errorOf(m.skewFault(false));
    throw errorOf(m.refusal(r, this.#clock()));
  }

  /** Ties the lease to one generator; `highWaterMs()` gives its exact last tick at release. */
  bind(owner, highWaterMs) {
    if (this.#owner !== null && this.#owner !== owner) {
      throw new LeaseError('ERR_LEASE_IN_USE', `the lease on worker ID ${this.workerId} already drives another generator: two generators on one worker ID would mint the same IDs`);
    }
    this.#owner = owner;
    this.#highWaterMs = highWaterMs;
  }

  /** The generator's last tick, or NaN (none bound, or none minted). */
  #ownHwm() {
    return this.#highWaterMs?.() ?? Number.NaN;
  }

  /**
   * A sync store's worker ID is no longer ours (its lock file was deleted or
   * replaced): IDs minted since the last check may collide with a new
   * holder's, so this claim's are dropped; the lease claims again at once
   * (preferring the same worker ID, which then resumes after this
   * generator's last tick) and the next claim mints on what it got.
   */
  #lostSync() {
    const lostId = this.workerId;
    const lost = `the lock file of worker ID ${lostId} in ${this.#store.where} was deleted or replaced (by a temp-file cleaner?): another process may hold worker ID ${lostId} now`;
    if (this.state === 'held') {
      this.#m.lose();
      this.#lastError = new LeaseError('ERR_LEASE_LOST', lost);
      this.emit('lost', this.#lastError);
    }
    let next;
    let cause;
    try {
      this.acquire();
      next = `re-acquired worker ID ${this.workerId}; the next call mints on it`;
    } catch (e) {
      this.#lastError = cause = e;
      this.#m.failed(String(e?.message ?? e));
      next = `re-acquiring failed (retried on the next call): ${e.message}`;
    }
    throw new LeaseError('ERR_LEASE_LOST', `${lost}. The IDs of this call were dropped; ${next}.`, { cause });
  }

  /** Records `bound` synchronously (sync stores) and covers up to it. */
  #record(bound) {
    const sentAt = this.#clock();
    const got = this.#store.extend(this.workerId, this.#token, bound, sentAt);
    if (!got) throw errorOf(this.#m.refusal(0, this.#clock()));
    const [name, flat] = got === true ? [undefined, undefined] : flatReadings(got);
    this.#report(this.#m.recorded(bound, sentAt, this.#clock(), name, flat));
  }

  /**
   * A skew beyond maxSkewMs that a write found first in its episode: a
   * 'skew' event, or with onSkew 'warn' and no listener a process warning.
   */
  #report(skew) {
    if (!skew) return;
    const e = errorOf(skew);
    if (this.listenerCount('skew') > 0) this.emit('skew', e);
    else if (!skew.refuse) process.emitWarning(e.message, { type: 'ClockSkewWarning', code: e.code });
  }

  /** Claims a worker ID (preferring the one held before); sync stores return synchronously. */
  acquire() {
    const run = (bounds) => {
      const now = this.#clock();
      const flat = new Float64Array(bounds.size * 2);
      let i = 0;
      for (const [id, b] of bounds) {
        flat[i++] = id;
        flat[i++] = b;
      }
      const got = this.#store.claim(this.#m.claimOrder(flat, now), this.#token, now);
      return this.#store.sync ? this.#took(got) : Promise.resolve(got).then((g) => this.#took(g));
    };
    const ids = [];
    for (let id = this.#range.min; id <= this.#range.max; id++) ids.push(id);
    const bounds = this.#store.bounds(ids);
    return this.#store.sync ? run(bounds) : Promise.resolve(bounds).then(run);
  }

  #took(got) {
    const m = this.#m;
    // The claim's time: read after the store answered, so never early.
    const now = this.#clock();
    let write;
    try {
      write = m.claimed(got?.workerId ?? -1, got?.bound ?? 0, got?.waitMs ?? 0, now, this.#ownHwm());
    } catch (e) {
      throw makeError(e.code, e.message);
    }
    if (this.#store.sync) {
      this.#record(write);
      const refused = m.skewFault(true);
      if (refused) {
        this.release();
        throw errorOf(refused);
      }
      m.promote(now);
      this.emit('acquired', { workerId: this.workerId });
      return this;
    }
    return this.#renew().then(async (ok) => {
      if (!ok) {
        if (m.state !== 'released') m.lose(); // the loop (if running) claims again
        throw this.#lastError ?? errorOf(m.unavailable());
      }
      const refused = m.skewFault(true);
      if (refused) {
        await this.release();
        throw errorOf(refused);
      }
      this.#promote();
      return this;
    });
  }

  /** A pending lease becomes held once its clock has passed its start. */
  #promote() {
    if (this.#m.promote(this.#clock())) this.emit('acquired', { workerId: this.workerId });
  }

  /** One compare-and-extend: records the new fence as the bound, then covers up to it. */
  async #renew() {
    const m = this.#m;
    const { ttlMs, marginMs } = this.#timing;
    const sentAt = this.#clock();
    const bound = m.renewBound(sentAt);
    try {
      const ok = await deadline(Promise.resolve(this.#store.extend(this.workerId, this.#token, bound, sentAt)), ttlMs - marginMs, 'lease renewal');
      if (!ok) return false;
      const [name, flat] = ok === true ? [undefined, undefined] : flatReadings(ok);
      this.#report(m.renewed(bound, sentAt, this.#clock(), name, flat));
      this.#lastError = null;
      return true;
    } catch (e) {
      this.#lastError = e;
      m.failed(String(e?.message ?? e));
      this.emit('renewFailed', e);
      return null;
    }
  }

  /**
   * Keeps the lease: renews when due, re-acquires when it was lost, and
   * turns a pending lease into a held one as soon as its start has passed.
   */
  start() {
    if (this.#store.sync || this.#timer) return this;
    const m = this.#m;
    const active = () => m.state === 'held' || m.state === 'pending';
    m.attempting(this.#clock());
    const loop = async () => {
      if (m.state === 'released') return;
      if (m.renewDue(this.#clock())) {
        m.attempting(this.#clock());
        const ok = await this.#renew();
        if (ok === false && active()) {
          this.#lastError = errorOf(m.lose());
          this.emit('lost', this.#lastError);
        }
      }
      if (m.state === 'lost') {
        try {
          await this.acquire();
          m.attempting(this.#clock());
        } catch (e) {
          this.#lastError = e;
          m.failed(String(e?.message ?? e));
        }
      }
      this.#promote();
      if (m.state === 'released') return;
      this.#timer = setTimeout(loop, m.nextDelay(this.#clock())).unref();
    };
    this.#timer = setTimeout(loop, this.#timing.renewMs).unref();
    return this;
  }

  /**
   * Resolves once the lease is held: a pending claim waits (renewing) until
   * its start has passed, so a generator built now mints at once. Rejects
   * (and releases the lease) if the worker ID is lost before that.
   */
  async untilHeld() {
    let lost = false;
    const onLost = () => (lost = true);
    this.once('lost', onLost);
    while (this.state === 'pending' && !lost) {
      await sleep(this.#m.waitDelay(this.#clock()));
      this.#promote();
    }
    this.off('lost', onLost);
    if (lost || this.state !== 'held') {
      const e = this.#lastError ?? new LeaseError('ERR_LEASE_RELEASED', `the lease on worker ID ${this.workerId} was released before it started`);
      await this.release();
      throw e;
    }
    return this;
  }

  /**
   * Stops minting, records the exact high-water mark and frees the worker
   * ID. Idempotent. Synchronous for local leases (safe in an 'exit' handler).
   */
  release() {
    clearTimeout(this.#timer);
    // The generator's last tick, else the claim's start (nothing minted lies above it).
    const freed = this.#m.release(this.#ownHwm());
    if (freed === null) return this.#store.sync ? undefined : Promise.resolve();
    const done = this.#store.release(freed[0], this.#token, freed[1]);
    return this.#store.sync ? done : Promise.resolve(done);
  }
}

/** Claims with a store and starts renewing: what every async lease factory returns. */
export async function acquireLease(store, o) {
  const lease = new Lease(store, o);
  await lease.acquire();
  lease.start();
  return lease.untilHeld();
}
