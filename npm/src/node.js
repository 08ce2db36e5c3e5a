// Node entry: loads the napi-rs addon (node/) built into native/ and builds
// the public API over it (api.js). Resolves the default generator's worker ID
// from SNOWMINT_WORKER_ID; the worker-ID lease plugs in here too.
import { createApi } from './api.js';
import { makeError } from './errors.js';
import { addon } from './addon.js';

/** SNOWMINT_WORKER_ID, when set, is the default generator's worker ID. */
function defaultOptions() {
  const raw = process.env.SNOWMINT_WORKER_ID;
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d{1,15}$/.test(raw.trim())) {
    throw makeError('ERR_WORKER_ID_RANGE', `SNOWMINT_WORKER_ID='${raw}' is not a worker ID: expected a non-negative integer (0 to 1023 for the default layout)`);
  }
  return { workerId: Number(raw.trim()) };
}

const api = createApi({ ...addon, name: 'native' }, { defaultOptions });

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
