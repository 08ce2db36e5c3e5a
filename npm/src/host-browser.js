// The browser entry's host, and `snowmint/wasm`'s everywhere (Node included):
// the public API over the full wasm module, built at the first call that
// needs it (npm/src/browser.js; the texts of web/texts.js need only the
// minting module). With the wasm backend the default generator is one per
// wasm instance, that is per page, worker or worker thread.
import { createApi } from './api.js';
import { makeError } from './errors.js';
import { wasmBackend } from './wasm-backend.js';

/**
 * No worker ID configured: a browser has nothing to lease one from, and a
 * default of 0 would be shared by every page, tab and worker that mints
 * (duplicates, silently). So the default generator refuses to start.
 */
function defaultLease() {
  throw makeError(
    'ERR_NO_WORKER_ID',
    'no worker ID configured: a Snowflake is unique only while no two generators share a worker ID, and every page, tab and worker minting without one would use worker ID 0. Give each its own with configure({ workerId }) (assigned by your server), or use ulid() or uuidv7(), which need no worker ID.',
  );
}

let api = null;

/** The API over the full wasm module, built at the first call. */
export function browserApi() {
  // Date.now() bounds how long a batch of IDs is handed out: in Chromium it
  // costs a fifth of performance.now(), which would otherwise dominate ulid().
  api ??= createApi(wasmBackend(), { now: Date.now, defaultLease });
  return api;
}
