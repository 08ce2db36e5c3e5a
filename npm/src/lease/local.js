// The one-host lease: one lock file per worker ID in a directory, held with
// an OS file lock (flock) that the kernel drops when the process dies, so a
// crashed process never leaves a stale lease and nothing guesses from PIDs.
// Synchronous, so the default generator can lease its worker ID inside the
// first nextId() call. The file also holds the worker ID's high-water bound.

import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { LeaseError } from '../errors.js';
import { addon } from '../addon.js';
import { Lease, clockOf, idRange } from './lease.js';

/**
 * How far past the current tick one write of the bound reaches: a process
 * minting without pause writes its lock file about once per second, and a
 * successor after a crash waits at most this long (or takes another ID).
 */
const RESERVE_MS = 1000;

/** A lock file's name (node/src/lease.rs creates them): `worker-<id>.lock`. */
const FILE = /^worker-(\d+)\.lock$/;

/** The default lease directory: per user, under the OS temp dir. */
export function defaultLeaseDir() {
  let user;
  try {
    user = userInfo().username;
  } catch {
    user = String(process.getuid?.() ?? 'user');
  }
  return join(tmpdir(), `snowmint-leases-${user}`);
}

/** Local leases still held: released (exact high-water mark written) when the process exits. */
const live = new Set();
let exitHook = false;

/** `processWide`: the default generator's store, whose lock every thread shares (node/src/lease.rs). */
function localStore(dir, processWide) {
  const held = new Map();
  const io = (fn) => {
    try {
      return fn();
    } catch (e) {
      throw new LeaseError('ERR_LEASE_IO', e.message, { cause: e });
    }
  };
  return {
    kind: 'local',
    where: dir,
    sync: true,
    bounds() {
      const bounds = new Map();
      for (const name of io(() => readdirSync(dir))) {
        const m = FILE.exec(name);
        if (!m) continue;
        let text = '';
        try {
          text = readFileSync(join(dir, name), 'latin1').trim();
        } catch {
          continue; // removed meanwhile: no bound
        }
        if (text) bounds.set(Number(m[1]), Number(text));
      }
      return bounds;
    },
    claim(ids) {
      const file = io(() => addon.leaseLock(dir, ids, processWide));
      if (file === null) return null;
      held.set(file.workerId, file);
      // The bound as read under the lock: the snapshot the order came from may be stale.
      return { workerId: file.workerId, bound: file.claimedBound };
    },
    extend(id, _token, bound) {
      io(() => held.get(id).raise(bound));
      return true;
    },
    release(id, _token, hwm) {
      const file = held.get(id);
      held.delete(id);
      live.delete(this.lease);
      if (hwm !== null) io(() => file.set(hwm));
      file.unlock();
    },
  };
}

/** A held local lease on `options.dir` (or the default directory); see `localLease`. */
function claimLocal(options, processWide) {
  const dir = options.dir ?? (process.env.SNOWMINT_LEASE_DIR || defaultLeaseDir());
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new LeaseError('ERR_LEASE_IO', `cannot create the lease directory ${dir}: ${e.message}`, { cause: e });
  }
  const store = localStore(dir, processWide);
  const lease = new Lease(store, {
    clock: clockOf(options.clock, addon.monotonicNowMs),
    range: idRange(options),
    reserveMs: RESERVE_MS,
  });
  lease.acquire();
  store.lease = lease;
  return lease;
}

/**
 * Leases a worker ID among the processes of this machine (synchronously).
 * Every call takes a worker ID of its own, in any thread.
 *
 * @param {{ dir?: string, workerIds?: { min?: number, max?: number }, clock?: object | (() => number) }} [options]
 *   `dir`: the lease directory (default: `SNOWMINT_LEASE_DIR`, else a per-user
 *   directory under the OS temp dir); every process that must not share a
 *   worker ID has to use the same one.
 */
export function localLease(options = {}) {
  const lease = claimLocal(options, false);
  live.add(lease);
  if (!exitHook) {
    // The exact high-water mark, so the next holder of an ID need not wait
    // out the reserve. A crash skips this; the reserved bound still holds.
    process.once('exit', () => {
      for (const l of live) l.release();
    });
    exitHook = true;
  }
  return lease;
}

/**
 * The lease of the process-wide default generator (zero configuration): the
 * same worker ID and lock file in every worker_thread, since they all mint
 * from one generator. Every thread's extensions raise one bound, the
 * process-wide maximum. Never released: a thread that exits must not free
 * the worker ID of a generator the other threads still mint from, so the
 * kernel frees it when the process ends and the file keeps the reserved
 * bound (at most RESERVE_MS past the last ID).
 */
export function processLease(workerIds) {
  return claimLocal({ workerIds }, true);
}
