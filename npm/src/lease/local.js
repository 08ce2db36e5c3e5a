// The one-host lease: one lock file per worker ID in a directory, held with
// an OS file lock (flock) that the kernel drops when the process dies, so a
// crashed process never leaves a stale lease and nothing guesses from PIDs.
// Synchronous, so the default generator can lease its worker ID inside the
// first nextId() call. The file also holds the worker ID's high-water bound.
// The snowmint-lease crate (lease/, through node/src/lease.rs) resolves the
// directory, opens it and the files so that no other user can steer them
// (the same files a Rust service's lease locks), and tells whether a held
// file is still the one its path names:
// a cleaner that deletes it frees the worker ID for others, so the holder
// checks on every claimed run and claims again (Lease#check).

import { ClockError, ConfigError, LeaseError } from '../errors.js';
import { addon } from '../addon.js';
import { Lease } from './lease.js';
import { clockOf, idRange } from './options.js';

/**
 * The default lease directory: per user, under the OS temp dir. The addon's
 * (the snowmint-lease crate's), so a Rust service's zero-config lease uses
 * the same one.
 */
export function defaultLeaseDir() {
  return addon.defaultLeaseDir();
}

/** The addon's codes that are about the configuration, not the lock files: ConfigErrors as they are. */
const CONFIG_CODES = new Set(['ERR_NO_WORKER_ID', 'ERR_WORKER_ID_IN_USE', 'ERR_INVALID_OPTION']);

/** Runs an addon call, turning its errors into LeaseErrors (or ConfigErrors). */
function io(fn) {
  try {
    return fn();
  } catch (e) {
    if (CONFIG_CODES.has(e.code)) throw new ConfigError(e.code, e.message);
    throw new LeaseError(e.code === 'ERR_LEASE_DIR_UNSAFE' ? e.code : 'ERR_LEASE_IO', e.message, { cause: e });
  }
}

let containerWarned = false;

/**
 * Zero configuration's check of where it runs (the snowmint-lease crate's
 * platform table): throws ConfigError ERR_NO_WORKER_ID on a platform that
 * runs replicas of one image, each with a lease directory of its own; in a
 * plain container, warns once that the lease covers this container only.
 * `trustLocal` (`lease: 'local'`, or SNOWMINT_LEASE=local) says it is enough.
 */
function checkZeroConfig(trustLocal) {
  const warning = io(() => addon.zeroConfigCheck(trustLocal));
  if (warning !== null && !containerWarned) {
    containerWarned = true;
    process.emitWarning(warning, { code: 'SNOWMINT_CONTAINER' });
  }
}

/**
 * Local leases still held, released (exact high-water mark written) when the
 * process exits: a lease itself (localLease(), held strongly), or a WeakRef to
 * a generator's lease, dropped from here once the lease is collected.
 */
const live = new Set();
/** Each lease's entry in `live`. */
const entryOf = new WeakMap();
const collected = new FinalizationRegistry((ref) => live.delete(ref));
let exitHook = false;

/**
 * Checked skew options of a local lease: `maxSkewMs` (default 1000;
 * Infinity: no check) and `onSkew` ('refuse' by default, or 'warn'). The
 * coordinator leases' are `coordinatorSkewOptions` (skew.js), which warn
 * by default.
 */
function localSkewOptions({ maxSkewMs = 1000, onSkew = 'refuse' }) {
  if (!(maxSkewMs > 0)) throw new ConfigError('ERR_INVALID_OPTION', `maxSkewMs must be a positive number of ms (Infinity: no check), got ${maxSkewMs}`);
  if (onSkew !== 'refuse' && onSkew !== 'warn') throw new ConfigError('ERR_INVALID_OPTION', `onSkew must be 'refuse' or 'warn', got ${onSkew}`);
  return { maxSkewMs, onSkew };
}

/**
 * `mode`: 'own' (a lock of this lease's own), 'process' (the default
 * generator's zero-config lock, which every thread shares) or 'explicit'
 * (the lock of one explicit worker ID, shared by every generator of this
 * process on it; node/src/lease.rs). `clock`: the lease's clock, written into the
 * lock file as the holder's report at every write. `machineClock`: the
 * machine's clock, read after each claim; null for a caller's clock (a
 * TestClock is no other process's time, and would never move past the claim
 * by itself). The last argument: localSkewOptions(options).
 */
function localStore(dir, mode, clock, machineClock, { maxSkewMs, onSkew }) {
  let file = null;
  /**
   * After a write: this clock too far from the host's or its live peers'
   * (the snowmint-lease crate measures, from the lock files): throw
   * ClockError ERR_CLOCK_SKEW, or emit 'skew' on the lease.
   */
  const checkSkew = (lease) => {
    if (maxSkewMs === Number.POSITIVE_INFINITY) return;
    const skew = io(() => file.skew(dir, maxSkewMs));
    if (skew === null) return;
    const info = { workerId: file.workerId, skewMs: skew.skewMs, against: skew.against, peers: skew.peers, maxSkewMs };
    if (onSkew === 'warn') {
      // Later, so that a listener added after localLease() returns hears the first one too.
      process.nextTick(() => lease?.emit('skew', info));
      return;
    }
    const err = new ClockError('ERR_CLOCK_SKEW', `worker ID ${file.workerId} (local lease at ${dir}): ${skew.message}, or set onSkew: 'warn'.`);
    throw Object.assign(err, { skewMs: skew.skewMs, against: skew.against });
  };
  return {
    kind: 'local',
    where: dir,
    sync: true,
    bounds(ids) {
      // Only the range's files: a lease on a few IDs need not read them all.
      const flat = io(() => addon.leaseBounds(dir, ids[0], ids.at(-1)));
      const bounds = new Map();
      for (let i = 0; i < flat.length; i += 2) bounds.set(flat[i], flat[i + 1]);
      return bounds;
    },
    claim(ids) {
      // A re-claim: the old file was deleted or replaced; its lock guards nothing.
      if (mode === 'own') file?.unlock();
      file = io(() => (mode === 'explicit' ? addon.leaseLockWorker(dir, ids[0]) : addon.leaseLock(dir, ids, mode === 'process')));
      if (file === null) return null;
      // The claimant's report first, bound unchanged: a claim refused for
      // skew leaves the file's bound as it found it.
      io(() => file.raise(file.claimedBound, clock()));
      checkSkew(this.lease);
      // Start after the bound as read under the lock, and after the moment
      // of the claim: a file that a cleaner deleted took its holder's bound
      // with it, but that holder hands out no ID minted after its lock-file
      // check, which preceded the deletion, which preceded this claim.
      return { workerId: file.workerId, bound: Math.max(file.claimedBound, machineClock?.() ?? 0) };
    },
    held() {
      return file.held();
    },
    unlock() {
      file?.unlock();
    },
    extend(_id, _token, bound) {
      io(() => file.raise(bound, clock()));
      checkSkew(this.lease);
      return true;
    },
    release(_id, _token, hwm) {
      live.delete(entryOf.get(this.lease));
      // A lost file is no one's lease any more: nothing to record in it.
      if (!file.held()) return file.unlock();
      // The exact mark and the unlock (a shared lock's once every generator on it has settled).
      io(() => file.settle(hwm ?? undefined, clock()));
    },
  };
}

/**
 * How many worker IDs the lease's range may span: the whole worker field of
 * `options.layout` (a preset name, or a layout with `workerBits`); without
 * one, the 1,024 of the default layout, or up to the 65,536 of the widest
 * preset (Sonyflake) for an explicit `workerIds` range (a generator then
 * checks that the range fits its layout).
 */
function workerIdCount({ layout, workerIds }) {
  if (layout === undefined) return workerIds === undefined ? 1024 : 2 ** 16;
  let bits = layout?.workerBits;
  if (typeof layout === 'string') {
    try {
      bits = addon.presetWorkerBits(layout);
    } catch (e) {
      throw new ConfigError('ERR_INVALID_OPTION', `layout: ${e.message}`, { cause: e });
    }
  }
  if (!Number.isInteger(bits) || bits < 0 || bits > 16) {
    throw new ConfigError('ERR_INVALID_OPTION', `layout must be a preset name or a layout with workerBits from 0 to 16 (a lease hands out at most 65,536 worker IDs), got workerBits ${bits}`);
  }
  return 2 ** bits;
}

/** A held local lease on `options.dir` (or the default directory) in `mode` (see localStore); see `localLease`. */
function claimLocal(options, mode) {
  // options.dir, else SNOWMINT_LEASE_DIR, else the default; a relative path is refused.
  const dir = io(() => addon.leaseDir(options.dir ?? null));
  const clock = clockOf(options.clock, addon.monotonicNowMs);
  const store = localStore(dir, mode, clock, options.clock === undefined ? clock : null, localSkewOptions(options));
  const lease = new Lease(store, {
    clock,
    range: idRange(options, workerIdCount(options)),
    // How far past the current tick one write of the bound reaches (the
    // lease crate's RESERVE_MS, 1 s): a process minting without pause writes
    // its lock file about once per second, and a successor after a crash
    // waits at most this long (or takes another ID).
    reserveMs: addon.LEASE_RESERVE_MS,
  });
  store.lease = lease;
  try {
    lease.acquire();
  } catch (e) {
    // Refused after locking (its clock is skewed): free the worker ID again.
    if (mode === 'own') store.unlock();
    throw e;
  }
  return lease;
}

/**
 * Leases a worker ID among the processes of this machine (synchronously).
 * Every call takes a worker ID of its own, in any thread.
 *
 * @param {{ dir?: string, workerIds?: { min?: number, max?: number }, layout?: string | { workerBits: number }, clock?: object | (() => number), maxSkewMs?: number, onSkew?: 'refuse' | 'warn' }} [options]
 *   `dir`: the lease directory, an absolute path (default: `SNOWMINT_LEASE_DIR`,
 *   else a per-user directory under the OS temp dir); every process that must
 *   not share a worker ID has to use the same one. `layout`: claim among the
 *   whole worker field of this preset or layout (8,192 IDs for 'instagram',
 *   65,536 for 'sonyflake'); default 0 to 1023, or `workerIds`. `maxSkewMs`
 *   (default 1000; Infinity turns it off), `onSkew` ('refuse', the default:
 *   ClockError ERR_CLOCK_SKEW; or 'warn': a 'skew' event): at the claim and at
 *   every write of the bound, the lease's clock is compared with the host's
 *   (the kernel's time of the write) and the mean of its live peers'.
 */
export function localLease(options = {}) {
  checkZeroConfig(options.trustLocal === true);
  const lease = claimLocal(options, 'own');
  releaseAtExit(lease);
  return lease;
}

/** Leases released when the process exits: strongly held (localLease()) or weakly (a generator's explicit worker ID). */
function releaseAtExit(lease, weak = false) {
  const entry = weak ? new WeakRef(lease) : lease;
  if (weak) collected.register(lease, entry);
  entryOf.set(lease, entry);
  live.add(entry);
  if (!exitHook) {
    // The exact high-water mark, so the next holder of an ID need not wait
    // out the reserve. A crash skips this; the reserved bound still holds.
    process.once('exit', () => {
      for (const l of live) (l instanceof WeakRef ? l.deref() : l)?.release();
    });
    exitHook = true;
  }
}

/**
 * The lease of the process-wide default generator (zero configuration): the
 * same worker ID and lock file in every worker_thread, since they all mint
 * from one generator. Every thread's extensions raise one bound, the
 * process-wide maximum. Never released: a thread that exits must not free
 * the worker ID of a generator the other threads still mint from, so the
 * kernel frees it when the process ends and the file keeps the reserved
 * bound (at most the lease crate's RESERVE_MS past the last ID). If its file is deleted, the
 * first thread to notice claims a new lock for the process, and the others
 * take that one when they notice (node/src/lease.rs).
 */
export function processLease(workerBits, trustLocal = false) {
  // It warns rather than refuses: its clock is the default one, which holds
  // when the wall clock steps back, so an NTP correction must not stop every
  // nextId() of the process until the wall clock is back. Once, on stderr.
  checkZeroConfig(trustLocal);
  return warnSkew(claimLocal({ layout: { workerBits }, onSkew: 'warn' }, 'process'), 'zero-config lease');
}

/**
 * The lock of an explicit worker ID (`workerId` or SNOWMINT_WORKER_ID), taken
 * without waiting: another live process of this host on it is a ConfigError
 * ERR_WORKER_ID_IN_USE naming its pid, and the generator starts after the
 * last tick minted under it here (a restart on a clock that went back
 * re-mints nothing). Every generator of this process on one worker ID shares
 * the lock (the default generator in every thread, generators built and
 * dropped at will); released, with the exact high-water mark, at exit. It
 * warns of a skewed clock rather than refusing, like the zero-config lease.
 */
export function workerLease(workerId) {
  // Lock files name worker IDs up to 65,535 (every preset's field); a wider custom field goes unlocked.
  if (workerId >= 2 ** 16) return null;
  const lease = warnSkew(claimLocal({ workerIds: { min: workerId, max: workerId }, onSkew: 'warn' }, 'explicit'), 'worker ID lock');
  releaseAtExit(lease, true);
  return lease;
}

/**
 * The local lease of a generator of its own (`new Snowflake({ lease:
 * 'local' })`): a worker ID among the whole worker field of its layout, for
 * as long as the generator lives (released at exit, or freed, with its
 * reserved bound, once the generator is garbage-collected).
 */
export function ownLease(workerBits) {
  const lease = claimLocal({ layout: { workerBits: Math.min(workerBits, 16) } }, 'own');
  releaseAtExit(lease, true);
  return lease;
}

/** Warns once, on stderr, when the clock of `lease` (`what`, for the message) is off. */
function warnSkew(lease, what) {
  lease.once('skew', ({ workerId, skewMs, against }) => {
    process.emitWarning(`snowmint: the clock of this process's ${what} (worker ID ${workerId}) is ${skewMs} ms from the ${against === 'host' ? "host's" : "peers'"} clock`, {
      code: 'ERR_CLOCK_SKEW',
    });
  });
  return lease;
}
