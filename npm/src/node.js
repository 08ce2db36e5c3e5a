// Node entry: loads the napi-rs addon (node/) built into native/ and builds
// the public API over it (api.js). Resolves the default generator's worker ID
// from SNOWMINT_WORKER_ID, else leases one among this machine's processes.
import { createApi } from './api.js';
import { makeError } from './errors.js';
import { addon, nativeError } from './addon.js';
import { wasmBackend } from './wasm-backend.js';
import { processLease } from './lease/local.js';

/** SNOWMINT_WORKER_ID, when set, is the default generator's worker ID. */
function defaultOptions() {
  const raw = process.env.SNOWMINT_WORKER_ID;
  if (raw === undefined || raw === '') return undefined;
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
function defaultLease(workerBits) {
  zeroConfigLease ??= processLease({ max: Math.min(2 ** workerBits, 1024) - 1 });
  return zeroConfigLease;
}

// No native binary fits this platform: the same API over the wasm build.
const backend = nativeError ? wasmBackend() : { ...addon, name: 'native' };
const api = createApi(backend, { defaultOptions, defaultLease });

export { SnowmintError, InvalidIdError, ConfigError, ClockError, ArgumentError, LeaseError } from './errors.js';
export const {
  nextId,
  nextIdString,
  nextIds,
  configure,
  Snowflake,
  TestClock,
  ulid,
  uuidv7,
  uuidv4,
  uuidv1,
  uuidv6,
  ksuid,
  objectId,
  typeid,
  decode,
  ulidToUuid,
  uuidToUlid,
  isUuid,
  uuidVersion,
  toHuman,
  fromHuman,
  presets,
  backendName,
} = api;
