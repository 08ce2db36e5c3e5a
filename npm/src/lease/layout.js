// The worker IDs a lease hands out: the whole worker field of the layout its
// generator will use (1,024 for Twitter and Discord, 8,192 for Instagram,
// 65,536 for Sonyflake), or a `workerIds` range within it. A lease is
// claimed before any generator exists, so it is told the layout with the
// generator's own options (`preset`, `layout`), checked by the core.
import { api } from '../host-node.js';
import { idRange } from './options.js';

/** `{ min, max }` of the worker IDs a lease with options `o` may claim. */
export function workerIdRange(o) {
  const given = {};
  if (o.preset !== undefined) given.preset = o.preset;
  if (o.layout !== undefined) given.layout = o.layout;
  const { workerBits } = new api.Snowflake(given).layout;
  const name = o.layout !== undefined ? `the given layout (${workerBits} worker bits)` : `the '${o.preset ?? api.presets[0]}' preset`;
  return idRange(o, 2 ** workerBits, name);
}
