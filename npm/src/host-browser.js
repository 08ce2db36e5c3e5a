// The browser entry's host, and `snowmint/wasm`'s everywhere (Node included):
// the public API over the full wasm module, built at the first call that
// needs it (npm/entries/browser.js). The texts of web/texts.js need only their
// minting modules, and configure(), nextId(), Snowflake and TestClock only
// the Snowflake module (web/snowflake.js): the entry takes those from there,
// so this API's own are never called, and its decode() reads the default
// generator of that one (web/host.js).
import { createApi } from './api.js';
import { browserHost } from './web/host.js';
import { wasmBackend } from './wasm-backend.js';

let api = null;

/** The API over the full wasm module, built at the first call. */
export function browserApi() {
  api ??= createApi(wasmBackend(), browserHost);
  return api;
}
