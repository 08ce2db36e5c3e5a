// The Node entry's host (npm/entries/node.js re-exports its API): loads the
// napi-rs addon (node/) built into native/ and builds the public API over it
// (api.js). Resolves the default generator's worker ID
// from SNOWMINT_WORKER_ID, else leases one among this machine's processes
// (refused where this machine is one replica of many); locks explicit worker
// IDs so that two live processes of one host never share one.
import { isMainThread } from 'node:worker_threads';
import { createApi } from './api.js';
import { makeError } from './errors.js';
import { addon, nativeError } from './addon.js';
import { wasmBackend } from './wasm-backend.js';
import { MINTERS, typeidMinter } from './web/minters.js';
import { uuidv3, uuidv5 } from './web/names.js';
import { snowflakeBackend } from './web/snowflake.js';
import { ownLease, processLease, workerLease } from './lease/local.js';

/**
 * SNOWMINT_WORKER_ID, when set, is the default generator's worker ID: one per
 * process, for the one process-wide generator. The wasm fallback has a
 * generator per thread, so there a worker thread does not take it (all its
 * threads would share it); see noLease.
 */
function defaultOptions() {
  const raw = process.env.SNOWMINT_WORKER_ID;
  if (raw === undefined || raw === '' || (nativeError && !isMainThread)) return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw makeError('ERR_WORKER_ID_RANGE', `SNOWMINT_WORKER_ID='${raw}' is not a worker ID: expected a non-negative integer (0 to 1023 for the default layout)`);
  }
  return { workerId: Number(raw.trim()) };
}

let zeroConfigLease = null;

/**
 * No worker ID configured: the default generator leases one among the
 * processes of this machine (snowmint/lease's local lease), so cluster or
 * pm2 workers never share one. Process-wide like the generator: every
 * worker_thread gets the same worker ID. Synchronous: it runs inside the
 * first nextId().
 */
function defaultLease(workerBits, trustLocal) {
  zeroConfigLease ??= processLease(Math.min(workerBits, 16), trustLocal); // the layout's whole worker field
  // The process keeps the worker ID it leased first (every thread shares it, and a
  // local lease is never lost), so a layout configured later gets that same worker ID
  // when its worker field can hold it, as it would have had it been configured first.
  if (zeroConfigLease.workerId >= 2 ** workerBits) {
    throw makeError(
      'ERR_WORKER_ID_RANGE',
      `this process's zero-config worker ID is ${zeroConfigLease.workerId} (leased at the first nextId()), but the layout has only ${2 ** workerBits} worker IDs: configure the layout before the first nextId(), or give a workerId or a lease`,
    );
  }
  return zeroConfigLease;
}

/**
 * The wasm fallback (no native binary loaded) has no file locks to lease a
 * worker ID with: without SNOWMINT_WORKER_ID or configure(), the default
 * generator refuses to start, as in the browser build, rather than mint on a
 * worker ID that every process and thread would share.
 */
function noLease() {
  const why = isMainThread
    ? `no worker ID configured, and none can be leased: ${nativeError.message}`
    : `no worker ID configured in this worker thread: on snowmint's wasm build (${nativeError.message.split(',')[0]}) each thread mints from a generator of its own, so SNOWMINT_WORKER_ID (one per process) does not apply here: call configure({ workerId }) with a worker ID of this thread's own.`;
  throw makeError('ERR_NO_WORKER_ID', `${why} Without one, every process and worker thread would mint on worker ID 0. Where no worker ID is at hand, use ulid() or uuidv7().`, { cause: nativeError });
}

let defaultWorkerLease = null;

/**
 * The lock of an explicit worker ID: the default generator keeps one per
 * thread while its worker ID stays the same (configure() may rebuild it on
 * the same lock); a generator of its own takes a handle of its own.
 */
function explicitLease(workerId, forDefault) {
  if (!forDefault) return workerLease(workerId);
  if (defaultWorkerLease?.workerId !== workerId) defaultWorkerLease = workerLease(workerId);
  return defaultWorkerLease;
}

// No native binary fits this platform: the same API over the wasm build,
// which has no lock files (explicit worker IDs go unlocked there).
const backend = nativeError ? wasmBackend(undefined, { minters: MINTERS, typeid: typeidMinter, snowflakes: snowflakeBackend(), names: { uuidv3, uuidv5 } }) : { ...addon, name: 'native' };
export const api = createApi(backend, nativeError ? { defaultOptions, defaultLease: noLease } : { defaultOptions, defaultLease, workerLease: explicitLease, ownLease });
