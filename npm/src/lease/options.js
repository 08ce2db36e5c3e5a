// The checked, defaulted options every kind of lease shares: its clock, the
// timing of a lease with a TTL, and the range of worker IDs it may claim.

import { ConfigError } from '../errors.js';

/** The clock a lease computes deadlines on: a TestClock, a function, or the given default. */
export function clockOf(clock, fallback) {
  if (clock === undefined) return fallback;
  if (typeof clock === 'function') return clock;
  if (clock && typeof clock.now === 'function') return () => clock.now();
  throw new ConfigError('ERR_INVALID_OPTION', 'clock must be a TestClock or a function returning Unix ms');
}

/** Checked, defaulted timing options of a lease with a TTL. */
export function ttlOptions(o) {
  const ttlMs = o.ttlMs ?? 10_000;
  const renewMs = o.renewMs ?? Math.round(ttlMs / 3);
  const marginMs = o.marginMs ?? Math.round(ttlMs / 5);
  for (const [k, v] of Object.entries({ ttlMs, renewMs, marginMs })) {
    if (!Number.isInteger(v) || v <= 0) throw new ConfigError('ERR_INVALID_OPTION', `${k} must be a positive integer, got ${v}`);
  }
  if (renewMs + marginMs >= ttlMs) {
    throw new ConfigError('ERR_INVALID_OPTION', `renewMs (${renewMs}) + marginMs (${marginMs}) must be below ttlMs (${ttlMs}): a renewal must land before the fence`);
  }
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
