// The checked, defaulted options every kind of lease shares: its clock, the
// timing of a lease with a TTL, and the range of worker IDs it may claim.

import { ConfigError } from '../errors.js';
import { addon } from '../addon.js';

/** The clock a lease computes deadlines on: a TestClock, a function, or the given default. */
export function clockOf(clock, fallback) {
  if (clock === undefined) return fallback;
  if (typeof clock === 'function') return clock;
  if (clock && typeof clock.now === 'function') return () => clock.now();
  throw new ConfigError('ERR_INVALID_OPTION', 'clock must be a TestClock or a function returning Unix ms');
}

/**
 * Checked, defaulted timing options of a lease with a TTL: each given one a
 * positive integer; the defaults and `renewMs + marginMs < ttlMs` are the
 * lease crate's (`Timing::new`, lease/src/machine/timing.rs).
 */
export function ttlOptions(o) {
  for (const k of ['ttlMs', 'renewMs', 'marginMs']) {
    const v = o[k];
    if (v !== undefined && (!Number.isInteger(v) || v <= 0)) throw new ConfigError('ERR_INVALID_OPTION', `${k} must be a positive integer, got ${v}`);
  }
  let t;
  try {
    t = addon.leaseTiming(o.ttlMs ?? Number.NaN, o.renewMs ?? Number.NaN, o.marginMs ?? Number.NaN);
  } catch (e) {
    if (e.code !== 'ERR_INVALID_OPTION') throw e; // no addon: its own error
    throw new ConfigError('ERR_INVALID_OPTION', e.message);
  }
  const [ttlMs, renewMs, marginMs] = t;
  return { ttlMs, renewMs, marginMs };
}

/**
 * The worker IDs a lease may claim: `workerIds: { min, max }` within `size`,
 * the worker field of the layout in use (default: all of them). `layoutName`
 * names that layout in the message.
 */
export function idRange(o, size = 1024, layoutName = 'the default layout') {
  const min = o.workerIds?.min ?? 0;
  const max = o.workerIds?.max ?? size - 1;
  if (!Number.isInteger(min) || !Number.isInteger(max) || min < 0 || max < min || max >= size) {
    throw new ConfigError(
      'ERR_INVALID_OPTION',
      `workerIds must satisfy 0 <= min <= max < ${size} (the ${size} worker IDs of ${layoutName}), got { min: ${min}, max: ${max} }${max >= size && size < 65536 ? ': for a layout with a wider worker field, give the lease its preset or layout too' : ''}`,
    );
  }
  return { min, max };
}
