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

function localStore(dir) {
  const path = (id) => join(dir, `worker-${id}.lock`);
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
      for (const id of ids) {
        const file = io(() => addon.leaseFileLock(path(id)));
        if (file === null) continue;
        held.set(id, file);
        // Read under the lock: the snapshot the order came from may be stale.
        return { workerId: id, bound: io(() => file.read()) };
      }
      return null;
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

/**
 * Leases a worker ID among the processes of this machine (synchronously).
 *
 * @param {{ dir?: string, workerIds?: { min?: number, max?: number }, clock?: object | (() => number) }} [options]
 *   `dir`: the lease directory (default: `SNOWMINT_LEASE_DIR`, else a per-user
 *   directory under the OS temp dir); every process that must not share a
 *   worker ID has to use the same one.
 */
export function localLease(options = {}) {
  const dir = options.dir ?? (process.env.SNOWMINT_LEASE_DIR || defaultLeaseDir());
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new LeaseError('ERR_LEASE_IO', `cannot create the lease directory ${dir}: ${e.message}`, { cause: e });
  }
  const store = localStore(dir);
  const lease = new Lease(store, {
    clock: clockOf(options.clock, addon.monotonicNowMs),
    range: idRange(options),
    reserveMs: RESERVE_MS,
  });
  lease.acquire();
  store.lease = lease;
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
