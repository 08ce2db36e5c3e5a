// Node entry: loads the napi-rs addon (node/) built into native/ and builds
// the public API over it (api.js). Resolves the default generator's worker ID
// from SNOWMINT_WORKER_ID; the worker-ID lease plugs in here too.
import { createRequire } from 'node:module';
import { createApi } from './api.js';
import { makeError } from './errors.js';

const require = createRequire(import.meta.url);

/** The addon for this platform: native/snowmint.<platform>-<arch>[-<libc>].node. */
function loadAddon() {
  const base = `${process.platform}-${process.arch}`;
  const tried = [];
  for (const name of [`${base}-gnu`, `${base}-musl`, base]) {
    try {
      return require(`../native/snowmint.${name}.node`);
    } catch (e) {
      if (e.code !== 'MODULE_NOT_FOUND' && !/invalid ELF|cannot open shared object|GLIBC|musl/.test(e.message)) throw e;
      tried.push(`snowmint.${name}.node (${e.message.split('\n')[0]})`);
    }
  }
  throw makeError(
    'ERR_NO_NATIVE_BINARY',
    `snowmint has no native binary for ${base}; tried ${tried.join(', ')}. Use 'snowmint/wasm' instead, or build from source (scripts/build.sh).`,
  );
}

/** SNOWMINT_WORKER_ID, when set, is the default generator's worker ID. */
function defaultOptions() {
  const raw = process.env.SNOWMINT_WORKER_ID;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw makeError('ERR_WORKER_ID_RANGE', `SNOWMINT_WORKER_ID='${raw}' is not a worker ID: expected a non-negative integer (0 to 1023 for the default layout)`);
  }
  return { workerId: Number(raw.trim()) };
}

const api = createApi({ ...loadAddon(), name: 'native' }, { defaultOptions });

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
