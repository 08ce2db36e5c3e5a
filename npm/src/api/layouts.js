// The layout options (`preset`, `layout`, `epoch`) into the spec fields they
// set: what a generator's options (options.js) and the reading functions
// (decode(), minId(), maxId(): read.js, at.js) share. Apart from options.js,
// so that a page that only reads IDs carries no TestClock and no lease checks.

import { makeError } from '../errors.js';
import { call, checkOptions, msOption, nameCheck, uintOption } from './checks.js';

/** The layout parts of the API over `backend`, with the core's names and defaults `C`. */
export function createLayouts(backend, C) {
  const oneOf = nameCheck(backend, C);
  const LAYOUT_OPTIONS = ['timeBits', 'workerBits', 'sequenceBits', 'unitMs', 'epoch', 'order'];

  /**
   * `{ layout, epoch }` of options `o` (already checked by their caller's
   * checkOptions): the custom layout, checked here, and the epoch (from
   * `o.epoch`, else the layout's), each undefined where not given.
   */
  function layoutOf(o) {
    let layout;
    let epoch = o.epoch === undefined ? undefined : msOption('epoch', o.epoch, 'ERR_INVALID_LAYOUT');
    if (o.layout !== undefined) {
      const l = checkOptions('layout', o.layout, LAYOUT_OPTIONS);
      const bits = (k) => {
        if (l[k] === undefined) throw makeError('ERR_INVALID_LAYOUT', `invalid Snowflake layout: layout.${k} is required`);
        return uintOption(`layout.${k}`, l[k], 0, 'ERR_INVALID_LAYOUT', 63);
      };
      layout = {
        timeBits: bits('timeBits'),
        workerBits: bits('workerBits'),
        sequenceBits: bits('sequenceBits'),
        unitMs: uintOption('layout.unitMs', l.unitMs, 1, 'ERR_INVALID_LAYOUT', 0xffffffff),
        order: l.order === undefined ? C.orders[0] : oneOf('layout.order', 'orders', l.order, 'ERR_INVALID_LAYOUT'),
      };
      if (epoch === undefined) epoch = l.epoch === undefined ? 0 : msOption('layout.epoch', l.epoch, 'ERR_INVALID_LAYOUT');
    }
    return { layout, epoch };
  }

  /** The preset named by `o.preset` (checked), or the first. */
  const presetOf = (o) => (o.preset === undefined ? C.presets[0] : oneOf('preset', 'presets', o.preset));

  /**
   * The spec of a Snowflake generator of `o`'s preset, layout and epoch
   * (options checked by the caller), every other field at the core's
   * default, and the core's description of its layout.
   */
  function layoutSpec(o) {
    const { layout, epoch } = layoutOf(o);
    const spec = {
      workerId: 0,
      preset: presetOf(o),
      layout,
      epoch,
      clock: C.clocks[0],
      onBackwards: C.onBackwards[0],
      maxBackwardsMs: C.maxBackwardsMs,
      onExhausted: C.onExhausted[0],
      maxBorrowTicks: C.maxBorrowTicks,
    };
    return { spec, layout: call(() => backend.layoutOf(spec)) };
  }

  return { oneOf, layoutOf, presetOf, layoutSpec };
}
