// The browser entry's host, and `snowmint/wasm`'s everywhere (Node included):
// the public API over the full wasm module, built at the first call that
// needs it (npm/entries/browser.js). The texts of web/texts.js need only their
// minting modules, and configure(), nextId(), Snowflake and TestClock only
// the Snowflake module (web/snowflake.js): the entry takes those from there,
// and the rest from readApi(), whose decode() reads the default generator
// of that module (web/host.js). workerd (host-workerd.js) takes the whole
// API, browserApi().
import { createApi } from './api.js';
import { createRead } from './api/read.js';
import { createShared } from './api/shared.js';
import { browserHost } from './web/host.js';
import { wasmBackend } from './wasm-backend.js';

let api = null;
let read = null;

/** The whole API over the full wasm module, built at the first call. */
export function browserApi() {
  api ??= createApi(wasmBackend(), browserHost);
  return api;
}

/** decode(), the conversions and bounds over the full wasm module (api/read.js), built at the first call. */
export function readApi() {
  if (read === null) {
    const backend = wasmBackend();
    read = createRead(backend, createShared(backend), browserHost.defaultDecoder);
  }
  return read;
}
