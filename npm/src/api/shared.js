// What every part of the API (api.js) over one backend shares, made once:
// the Snowflake generators' part (snowflakes.js) and the reading part
// (read.js) take it, together in createApi or each alone in the browser.

import { createAt } from './at.js';
import { deepFreeze, idText } from './checks.js';
import { createOptions } from './options.js';

/**
 * The core's names and defaults `C` (core/src/binding.rs), read once from
 * `backend`, and the option and bound helpers made from them.
 */
export function createShared(backend) {
  const C = deepFreeze(JSON.parse(backend.constants()));
  const options = createOptions(backend, C);
  return { C, options, at: createAt(backend, { toSpec: options.toSpec, idText }) };
}
