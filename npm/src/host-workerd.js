// The workerd entry's host (Cloudflare Workers: the `workerd` export
// condition; npm/entries/workerd.js re-exports its API): the browser build's API,
// over the wasm module workerd compiled itself (wasm-module.js, which must
// stay the first import). workerd compiles no wasm from bytes, so its texts
// come from the full module too, not from the inlined minting module.
import './wasm-module.js';
import { browserApi } from './host-browser.js';

export const api = browserApi();
