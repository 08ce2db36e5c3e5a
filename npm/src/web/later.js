// The browser entry's API beyond the texts of web/texts.js: the full module
// (host-browser.js) is instantiated at the first call of any of it, so a
// page that imports none of it downloads none of it. Each name is its own
// pure export (npm/entries/browser.js), which a bundler drops when unused.
import C from '../../wasm/constants.js';
import { deepFreeze } from '../api/checks.js';

/** The function `name` of the API `api()` builds. */
export function later(api, name) {
  return (...args) => api()[name](...args);
}

/**
 * The class `name` of the API `api()` builds: `new` gives an instance of
 * it, and `instanceof` tests against it (a subclass of this stand-in
 * would not inherit the real class's methods).
 */
export function laterClass(api, name) {
  function Later(...args) {
    return new (api()[name])(...args);
  }
  Object.defineProperty(Later, 'name', { value: name });
  Object.defineProperty(Later, Symbol.hasInstance, { value: (v) => v instanceof api()[name] });
  return Later;
}

/** The core's values (npm/wasm/constants.js, written by the build), frozen once. */
const ALL = /* @__PURE__ */ deepFreeze(C);

/** The core's value `key`; `constants` for all of them. */
export function value(key) {
  return key === 'constants' ? ALL : ALL[key];
}
