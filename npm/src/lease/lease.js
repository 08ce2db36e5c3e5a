// The one lease contract behind every kind of worker-ID lease (local lock
// files, Redis, etcd, ZooKeeper): claiming, fencing, the high-water bound, renewal,
// re-acquisition and release. A kind only supplies a small store (see
// `Store` below); everything that decides whether an ID may be handed out
// lives here, once.
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
// (skew.js) turns them into skews with error bounds, and a skew beyond `maxSkewMs`
// (where even the error bound cannot explain it) either fences the lease
// (`onSkew: 'refuse'`: check() throws ClockError ERR_CLOCK_SKEW until a later
// renewal finds the clock within) or is reported (`'warn'`: a 'skew' event).
//
// Beside this file: the options every kind shares (options.js), the skew
// options and arithmetic of the coordinator leases (skew.js), one file per store.

import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { ClockError, LeaseError } from '../errors.js';
import { coordinatorSkewOptions, measureSkew } from './skew.js';

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

/**
 * The order in which to try free worker IDs: `preferred` first (a holder
 * re-acquiring keeps its ID when it can), then every ID whose recorded bound
 * the clock has passed, lowest first (small, stable IDs; no wait), then the
 * rest by bound (the shortest wait).
 */
export function claimOrder({ min, max }, bounds, nowMs, preferred) {
  const ready = [];
  const later = [];
  for (let id = min; id <= max; id++) {
    const b = bounds.get(id) ?? 0;
    if (b < nowMs) ready.push(id);
    else later.push(id);
  }
  later.sort((a, b) => bounds.get(a) - bounds.get(b) || a - b);
  const order = [...ready, ...later];
  if (preferred !== null && preferred >= min && preferred <= max && (bounds.get(preferred) ?? 0) < nowMs) {
    order.splice(order.indexOf(preferred), 1);
    order.unshift(preferred);
  }
  return order;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function deadline(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new LeaseError('ERR_LEASE_TIMEOUT', `${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

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
  #reserveMs;
  #token = randomBytes(16).toString('hex');
  #workerId = -1;
  #resumeAfterMs = 0;
  #covered = -Infinity;
  #epoch = 0;
  #state = 'new';
  #lastError = null;
  #renewedAt = 0;
  #timer = null;
  #owner = null;
  #highWaterMs = null;
  #skew;
  /** With onSkew 'refuse': the ClockError every check throws while the clock is beyond maxSkewMs. */
  #skewError = null;
  /** Whether the last renewal found the clock beyond maxSkewMs (an event per episode, not per renewal). */
  #skewed = false;

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
    this.#reserveMs = o.reserveMs ?? 0;
    this.#skew = o.skew ?? coordinatorSkewOptions({});
  }

  /** The leased worker ID (it can change when a lost lease is re-acquired; see `epoch`). */
  get workerId() {
    return this.#workerId;
  }
  /** The high-water bound recorded for this worker ID when it was claimed: mint only after it. */
  get resumeAfterMs() {
    return this.#resumeAfterMs;
  }
  /** Counts acquisitions: a generator rebuilds itself when it changes. */
  get epoch() {
    return this.#epoch;
  }
  /**
   * 'held'; 'pending' (claimed, renewed, but its start, `resumeAfterMs`, lies
   * ahead: no check passes yet); 'lost' (re-acquiring); or 'released'.
   */
  get state() {
    return this.#state;
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
    if (this.#store.sync && this.#state !== 'released' && !(this.#state === 'held' && this.#store.held())) this.#lostSync();
    if (this.#skewError !== null && this.#state === 'held') throw this.#skewError;
    if (this.#state === 'held' && tickMs < this.#covered) return;
    if (this.#state === 'released') {
      throw new LeaseError('ERR_LEASE_RELEASED', `the lease on worker ID ${this.#workerId} was released: configure a new lease (or a workerId) to mint again`);
    }
    if (this.#store.sync && this.#state === 'held') {
      this.#record(tickMs + this.#reserveMs);
      return;
    }
    throw this.#expired();
  }

  /** Ties the lease to one generator; `highWaterMs()` gives its exact last tick at release. */
  bind(owner, highWaterMs) {
    if (this.#owner !== null && this.#owner !== owner) {
      throw new LeaseError('ERR_LEASE_IN_USE', `the lease on worker ID ${this.#workerId} already drives another generator: two generators on one worker ID would mint the same IDs`);
    }
    this.#owner = owner;
    this.#highWaterMs = highWaterMs;
  }

  #expired() {
    const now = this.#clock();
    if (this.#state === 'pending') {
      return new LeaseError(
        'ERR_LEASE_EXPIRED',
        `worker ID ${this.#workerId} (${this.#store.kind} lease at ${this.#store.where}) is claimed but starts only after ${this.#resumeAfterMs} (in ${Math.ceil(this.#resumeAfterMs - now)} ms): its high-water bound lies ahead, or the store has none and its data is younger than one TTL, so an earlier holder may still be minting on it. Minting resumes by itself.`,
      );
    }
    const since = this.#renewedAt ? `${Math.round(now - this.#renewedAt)} ms ago` : 'never';
    const why = this.#lastError ? `; last error: ${this.#lastError.message}` : '';
    const state = this.#state === 'lost' ? 'lost (another holder may have it now)' : 'not renewed in time';
    return new LeaseError(
      'ERR_LEASE_EXPIRED',
      `worker ID ${this.#workerId} (${this.#store.kind} lease at ${this.#store.where}) is ${state}: last renewed ${since}${why}. Minting stops until the lease is re-acquired (automatic, retried every ${this.#timing?.renewMs} ms).`,
    );
  }

  /**
   * A sync store's worker ID is no longer ours (its lock file was deleted or
   * replaced): IDs minted since the last check may collide with a new
   * holder's, so this claim's are dropped; the lease claims again at once
   * (preferring the same worker ID, which then resumes after this
   * generator's last tick) and the next claim mints on what it got.
   */
  #lostSync() {
    const lostId = this.#workerId;
    const lost = `the lock file of worker ID ${lostId} in ${this.#store.where} was deleted or replaced (by a temp-file cleaner?): another process may hold worker ID ${lostId} now`;
    if (this.#state === 'held') {
      this.#state = 'lost';
      this.#covered = -Infinity;
      this.#lastError = new LeaseError('ERR_LEASE_LOST', lost);
      this.emit('lost', this.#lastError);
    }
    let next;
    let cause;
    try {
      this.acquire();
      next = `re-acquired worker ID ${this.#workerId}; the next call mints on it`;
    } catch (e) {
      this.#lastError = cause = e;
      next = `re-acquiring failed (retried on the next call): ${e.message}`;
    }
    throw new LeaseError('ERR_LEASE_LOST', `${lost}. The IDs of this call were dropped; ${next}.`, { cause });
  }

  /** Records `bound` synchronously (sync stores) and covers up to it. */
  #record(bound) {
    const sentAt = this.#clock();
    const got = this.#store.extend(this.#workerId, this.#token, bound, sentAt);
    if (!got) throw this.#expired();
    if (got !== true) this.#judgeSkew(got, sentAt);
    this.#covered = Math.max(this.#covered, bound);
  }

  /**
   * Compares the holder's clock with the readings of an extend sent at
   * `sentAt`: beyond maxSkewMs (even allowing for the error bound), a 'skew'
   * event, and with onSkew 'refuse' every check throws until a renewal
   * finds the clock within again.
   */
  #judgeSkew(readings, sentAt) {
    const { maxSkewMs, onSkew } = this.#skew;
    const beyond = measureSkew(readings, sentAt, this.#clock())
      .filter((m) => Math.abs(m.skewMs) - m.errMs > maxSkewMs)
      .sort((a, b) => Math.abs(b.skewMs) - b.errMs - (Math.abs(a.skewMs) - a.errMs));
    if (beyond.length === 0) {
      this.#skewed = false;
      this.#skewError = null;
      return;
    }
    const [{ against, what, peers, skewMs, errMs }] = beyond;
    const ms = Math.round(skewMs);
    const then =
      onSkew === 'refuse'
        ? `Minting is refused (onSkew 'refuse'): a new lease is not granted, and a held one mints again once a renewal finds the clock within ${maxSkewMs} ms`
        : `IDs are still minted (onSkew 'warn'), but they sort ${ms > 0 ? 'after' : 'before'} IDs minted at the same moment elsewhere`;
    const e = new ClockError(
      'ERR_CLOCK_SKEW',
      `the clock of worker ID ${this.#workerId} (${this.#store.kind} lease at ${this.#store.where}) is ${Math.abs(ms)} ms ${ms > 0 ? 'ahead of' : 'behind'} ${what}, measured to within ${Math.ceil(errMs)} ms: beyond maxSkewMs ${maxSkewMs}. ${then}. Fix the host's time synchronisation (NTP, chrony).`,
    );
    Object.assign(e, { workerId: this.#workerId, skewMs: ms, errMs: Math.ceil(errMs), against, peers, maxSkewMs });
    if (onSkew === 'refuse') this.#skewError = e;
    if (this.#skewed) return;
    this.#skewed = true;
    if (this.listenerCount('skew') > 0) this.emit('skew', e);
    else if (onSkew === 'warn') process.emitWarning(e.message, { type: 'ClockSkewWarning', code: e.code });
  }

  /** Claims a worker ID (preferring the one held before); sync stores return synchronously. */
  acquire() {
    const run = (bounds) => {
      const now = this.#clock();
      const preferred = this.#workerId >= 0 ? this.#workerId : null;
      const got = this.#store.claim(claimOrder(this.#range, bounds, now, preferred), this.#token, now);
      return this.#store.sync ? this.#took(got) : Promise.resolve(got).then((g) => this.#took(g));
    };
    const ids = [];
    for (let id = this.#range.min; id <= this.#range.max; id++) ids.push(id);
    const bounds = this.#store.bounds(ids);
    return this.#store.sync ? run(bounds) : Promise.resolve(bounds).then(run);
  }

  #unavailable() {
    const { min, max } = this.#range;
    return new LeaseError(
      'ERR_LEASE_UNAVAILABLE',
      `all ${max - min + 1} worker IDs (${min}..${max}) of the ${this.#store.kind} lease at ${this.#store.where} are leased by live generators; none is shared, so this generator cannot start. Free one (stop a generator) or widen workerIds.`,
    );
  }

  #took(got) {
    if (got === null) throw this.#unavailable();
    // Our own worker ID again: our generator's IDs may lie above the stored
    // bound (a re-created lock file holds none), so the new one starts after them.
    const ours = got.workerId === this.#workerId ? (this.#highWaterMs?.() ?? -Infinity) : -Infinity;
    this.#workerId = got.workerId;
    this.#covered = -Infinity;
    if (this.#store.sync) {
      this.#resumeAfterMs = Math.max(got.bound, ours);
      this.#record(Math.max(this.#resumeAfterMs, this.#clock()) + this.#reserveMs);
      if (this.#refusesStart()) {
        const e = this.#skewError;
        this.#state = 'held';
        this.release();
        throw e;
      }
      return this.#held();
    }
    // The claim's time plus waitMs: read after the store answered, so never early.
    this.#resumeAfterMs = Math.max(got.bound, ours, got.waitMs > 0 ? Math.ceil(this.#clock() + got.waitMs) : 0);
    this.#state = 'pending';
    return this.#renew().then(async (ok) => {
      if (!ok) {
        this.#state = 'lost'; // the loop (if running) claims again
        throw this.#lastError ?? this.#unavailable();
      }
      if (this.#refusesStart()) {
        const e = this.#skewError;
        await this.release();
        throw e;
      }
      this.#promote();
      return this;
    });
  }

  /**
   * A new holder whose clock is off does not start (Twitter's rule: refuse
   * at start-up); a running one that re-acquires keeps its lease, fenced
   * until its clock is back within maxSkewMs.
   */
  #refusesStart() {
    return this.#skewError !== null && this.#epoch === 0;
  }

  #held() {
    this.#state = 'held';
    this.#epoch++;
    this.emit('acquired', { workerId: this.#workerId });
    return this;
  }

  /** A pending lease becomes held once its clock has passed its start. */
  #promote() {
    if (this.#state === 'pending' && this.#clock() > this.#resumeAfterMs) this.#held();
  }

  /** The store says the worker ID is no longer ours: no check passes from now on. */
  #lose() {
    this.#state = 'lost';
    this.#covered = -Infinity;
    this.#lastError = new LeaseError('ERR_LEASE_LOST', `worker ID ${this.#workerId} is no longer held by this lease (expired in the store, or the store lost its data)`);
    this.emit('lost', this.#lastError);
  }

  /** One compare-and-extend: records the new fence as the bound, then covers up to it. */
  async #renew() {
    const { ttlMs, marginMs } = this.#timing;
    const sentAt = this.#clock();
    // Never lower the bound: IDs up to the old one may already be out. A
    // pending lease records its start too, so a successor (should it die
    // before starting) starts after it and need not wait for the store's age.
    const bound = Math.max(this.#covered, this.#resumeAfterMs, sentAt + ttlMs - marginMs);
    try {
      const ok = await deadline(Promise.resolve(this.#store.extend(this.#workerId, this.#token, bound, sentAt)), ttlMs - marginMs, 'lease renewal');
      if (!ok) return false;
      if (this.#state !== 'held' && this.#state !== 'pending') return true;
      if (ok !== true) this.#judgeSkew(ok, sentAt);
      this.#covered = bound;
      this.#renewedAt = sentAt;
      this.#lastError = null;
      return true;
    } catch (e) {
      this.#lastError = e;
      this.emit('renewFailed', e);
      return null;
    }
  }

  /**
   * Keeps the lease: renews every renewMs, re-acquires when it was lost, and
   * turns a pending lease into a held one as soon as its start has passed.
   */
  start() {
    if (this.#store.sync || this.#timer) return this;
    const active = () => this.#state === 'held' || this.#state === 'pending';
    let renewedAt = this.#clock();
    const loop = async () => {
      if (this.#state === 'released') return;
      if (active() && (this.#state === 'held' || this.#clock() - renewedAt >= this.#timing.renewMs)) {
        renewedAt = this.#clock();
        const ok = await this.#renew();
        if (ok === false && active()) this.#lose();
      }
      if (this.#state === 'lost') {
        try {
          await this.acquire();
          renewedAt = this.#clock();
        } catch (e) {
          this.#lastError = e;
        }
      }
      this.#promote();
      if (this.#state === 'released') return;
      // A pending lease wakes up at its start, not a renewal period later.
      const delay = this.#state === 'pending' ? Math.min(this.#timing.renewMs, Math.max(1, this.#resumeAfterMs - this.#clock() + 1)) : this.#timing.renewMs;
      this.#timer = setTimeout(loop, delay).unref();
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
    while (this.#state === 'pending' && !lost) {
      await sleep(Math.max(1, Math.min(this.#resumeAfterMs - this.#clock() + 1, 1000)));
      this.#promote();
    }
    this.off('lost', onLost);
    if (lost || this.#state !== 'held') {
      const e = this.#lastError ?? new LeaseError('ERR_LEASE_RELEASED', `the lease on worker ID ${this.#workerId} was released before it started`);
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
    if (this.#state === 'released') return this.#store.sync ? undefined : Promise.resolve();
    const held = this.#state !== 'new';
    this.#state = 'released';
    clearTimeout(this.#timer);
    this.#covered = -Infinity;
    if (!held) return this.#store.sync ? undefined : Promise.resolve();
    // Nothing minted on it (no generator bound, or none minted since the
    // last claim): nothing lies above the start this claim was given, which
    // is at least the bound it found, so that is the exact mark.
    const hwm = this.#highWaterMs?.() ?? this.#resumeAfterMs;
    const done = this.#store.release(this.#workerId, this.#token, hwm);
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
