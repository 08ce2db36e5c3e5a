// What every part of the API (api.js) over one backend shares, made once:
// the Snowflake generators' part (snowflakes.js) and the reading part
// (read.js) take it, together in createApi or each alone in the browser.

import { deepFreeze } from './checks.js';
import { createLayouts } from './layouts.js';

/**
 * The core's names and defaults `C` (core/src/binding.rs), read once from
 * `backend`, and the layout options' checks made from them (layouts.js).
 */
export function createShared(backend) {
  const C = deepFreeze(JSON.parse(backend.constants()));
  return { C, layouts: createLayouts(backend, C) };
}
