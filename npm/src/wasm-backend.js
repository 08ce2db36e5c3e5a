// @ts-check
// The wasm backend: the wasm-bindgen build of wasm/ (npm/wasm/), with the
// interface of backend.d.ts that the napi addon also implements. Its
// Snowflake generators and test clocks come from the Snowflake module, and
// its texts (`mintText`) and name-based UUIDs from the minting modules of wasm/mint/, where a
// host gives them (web/snowflake.js, web/minters.js: the browser entry
// builds configure(), nextId(), Snowflake and its texts over those itself,
// so its full API goes without them). The
// module is inlined as a string (wasm/embed.mjs) and compiled synchronously
// at first use, so it loads the same way in a page, a worker, a bundle or
// Node: no fetch (works offline), no bundler plugin, no top-level await, no
// Node built-in. workerd's entry passes in the module workerd compiled
// (wasm-module.js).
import * as wasm from '../wasm/snowmint.js';
import text, { key } from '../wasm/snowmint_bg.js';
import constants from '../wasm/constants.js';
import { specArgs } from './spec.js';
import { worded } from './wasm-words.js';

/** @type {import('./backend.js').Backend | null} */
let backend = null;

/**
 * The backend (backend.d.ts) over a wasm instance of `module`, or of the
 * inlined bytes, with the parts of it other modules hold, where a host
 * gives them: `minters` (web/minters.js MINTERS) mint its texts, `typeid`
 * (web/minters.js typeidMinter) its TypeIDs, `snowflakes`
 * (web/snowflake.js snowflakeBackend()) its Snowflakes, and `names`
 * (web/names.js) its name-based UUIDs.
 * @param {WebAssembly.Module} [module]
 * @param {{
 *   minters?: Record<string, { texts(count: number, report: Float64Array): string }>,
 *   typeid?: (prefix: string, ms: number) => string,
 *   snowflakes?: Partial<import('./backend.js').Backend>,
 *   names?: { uuidv3(name: Uint8Array, namespace: string): string, uuidv5(name: Uint8Array, namespace: string): string },
 * }} [parts]
 * @returns {import('./backend.js').Backend}
 */
export function wasmBackend(module, parts = {}) {
  const { minters, typeid, snowflakes, names } = parts;
  if (backend) return backend;
  let bytes;
  if (!module) {
    bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) ^ key;
  }
  wasm.initSync({ module: module ?? /** @type {Uint8Array} */ (bytes) });
  // Its errors cross as numbers (wasm/src/lib.rs core_error): worded here.
  const w = /** @type {typeof wasm} */ (
    Object.fromEntries(
      Object.entries(wasm).map(([name, f]) => [
        name,
        (/** @type {any[]} */ ...args) => {
          try {
            return /** @type {Function} */ (f)(...args);
          } catch (e) {
            throw worded(e);
          }
        },
      ]),
    )
  );
  // Names cross as their indexes in the core's own lists; the core refuses
  // an index that names nothing (indexOf's -1 included).
  const C = constants;
  /** @type {import('./backend.js').Backend} */
  const made = {
    // Snowflake generators and test clocks (the rest of it is this module's too).
    .../** @type {import('./backend.js').Backend} */ (snowflakes),
    ...w,
    name: 'wasm',
    // Written by the build from the core (scripts/build.d/15-wasm.sh).
    constants: () => JSON.stringify(constants),
    layoutOf: (spec) => w.layoutOf(specArgs(C, spec)),
    snowflakeAt: (spec, ms, bound, sequence) => w.snowflakeAt(specArgs(C, spec), ms, bound, sequence),
    mintText: (kind, n, timing) => /** @type {NonNullable<typeof minters>} */ (minters)[kind].texts(n, timing),
    typeid: (prefix) => /** @type {NonNullable<typeof typeid>} */ (typeid)(prefix, Number.NaN),
    uuidv3: (name, namespace) => /** @type {NonNullable<typeof names>} */ (names).uuidv3(name, namespace),
    uuidv5: (name, namespace) => /** @type {NonNullable<typeof names>} */ (names).uuidv5(name, namespace),
  };
  backend = made;
  return made;
}
