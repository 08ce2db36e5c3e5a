// The wasm backend: the wasm-bindgen build of wasm/ (npm/wasm/), with the
// interface of backend.d.ts that the napi addon also implements. The module
// is inlined as a string (wasm/embed.mjs) and compiled synchronously at import,
// so it loads the same way in a page, a worker, a bundle or Node: no fetch
// (works offline), no bundler plugin, no top-level await, no Node built-in.
// workerd's entry passes in the module workerd compiled (wasm-module.js).
import * as wasm from '../wasm/snowmint.js';
import text, { key } from '../wasm/snowmint_bg.js';
import constants from '../wasm/constants.js';

// wasm-bindgen cannot borrow an optional handle, so a TestClock goes in as a
// fresh handle to the same clock (the caller's stays usable).
const share = (clock) => clock?.share();

let backend = null;
const ascii = new TextDecoder();

/** The backend (backend.d.ts) over a wasm instance of `module`, or of the inlined bytes. */
export function wasmBackend(module) {
  if (backend) return backend;
  if (!module) {
    module = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) module[i] = text.charCodeAt(i) ^ key;
  }
  wasm.initSync({ module });
  // Names cross as their indexes in the core's own lists; the core refuses
  // an index that names nothing (indexOf's -1 included).
  const C = constants;
  const kinds = Object.keys(C.textKinds);
  /** A SnowflakeSpec as the numbers wasm/src/snowflake.rs reads (`Spec`): names become indexes. */
  const specArgs = (s) => {
    const l = s.layout;
    return new Float64Array([
      s.workerId,
      C.presets.indexOf(s.preset),
      l ? 1 : 0,
      l ? l.timeBits : 0,
      l ? l.workerBits : 0,
      l ? l.sequenceBits : 0,
      l ? l.unitMs : 0,
      l ? C.orders.indexOf(l.order) : 0,
      s.epoch ?? NaN,
      C.clocks.indexOf(s.clock),
      C.onBackwards.indexOf(s.onBackwards),
      s.maxBackwardsMs,
      C.onExhausted.indexOf(s.onExhausted),
      s.maxBorrowTicks,
      s.resumeAfterMs ?? NaN,
      s.workerParts ? s.workerParts[0] : NaN,
      s.workerParts ? s.workerParts[1] : 0,
    ]);
  };
  backend = {
    ...wasm,
    name: 'wasm',
    // Written by the build from the core (scripts/build.d/15-wasm.sh).
    constants: () => JSON.stringify(constants),
    layoutOf: (spec) => wasm.layoutOf(specArgs(spec)),
    snowflakeNew: (spec, clock) => wasm.snowflakeNew(specArgs(spec), share(clock)),
    defaultInit: (spec, clock) => wasm.defaultInit(specArgs(spec), share(clock)),
    defaultConfigure: (spec, clock) => wasm.defaultConfigure(specArgs(spec), share(clock)),
    snowflakeAt: (spec, ms, bound, sequence) => wasm.snowflakeAt(specArgs(spec), ms, bound, sequence),
    // Exported as decodeId: wasm-bindgen's glue has a decodeText of its own.
    decodeText: wasm.decodeId,
    // ASCII bytes (wasm/src/lib.rs)
    mintText: (kind, n, timing) => ascii.decode(wasm.mintBytes(kinds.indexOf(kind), n, timing)),
  };
  return backend;
}
