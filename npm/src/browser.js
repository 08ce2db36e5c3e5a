// Browser entry, and `snowmint/wasm` everywhere (Node included): the public
// API over the wasm backend. With the wasm backend the default generator is
// one per wasm instance, that is per page, worker or worker thread.
import { createApi } from './api.js';
import { wasmBackend } from './wasm-backend.js';

// Date.now() bounds how long a batch of IDs is handed out: in Chromium it
// costs a fifth of performance.now(), which would otherwise dominate ulid().
const api = createApi(wasmBackend(), { now: Date.now });

export * from './errors.js';
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
