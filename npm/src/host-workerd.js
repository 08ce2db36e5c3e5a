// The workerd entry's host (Cloudflare Workers: the `workerd` export
// condition; npm/src/workerd.js re-exports its API): the browser build's API,
// over the wasm module workerd compiled itself (wasm-module.js, which must
// stay the first import).
import './wasm-module.js';

export { api } from './host-browser.js';
