// IDs at a given time, range bounds and comparison: the JavaScript side of
// the core's `at` module and `Id::compare` (argument checks only; every ID,
// bound and order comes from the core, except the order of two bigints).
//
// An ID minted for a given time is not part of the monotonic stream of
// ulid(), uuidv7(), ...: its random part is fresh from the CSPRNG, so it is
// unique through its random bits, not by order.

import { ArgumentError, makeError } from '../errors.js';
import { call, checkOptions, idText, isUint, stringArg, typeError } from './checks.js';

/** Unix ms of a `time` argument: an integer number of Unix ms, or a Date. */
export function timeArg(what, v) {
  const ms = v instanceof Date ? v.getTime() : v;
  if (typeof ms !== 'number') throw typeError(what, 'Unix milliseconds (a number) or a Date', v);
  if (!Number.isSafeInteger(ms)) {
    throw new ArgumentError('ERR_INVALID_ARG_VALUE', `${what} must be an integer number of Unix milliseconds, got ${v instanceof Date ? 'an invalid Date' : ms}`);
  }
  if (ms < 0) throw makeError('ERR_TIME_BEFORE_EPOCH', `${what} ${ms} (Unix ms) is before 1970-01-01, the earliest time snowmint mints an ID for`);
  return ms;
}

/**
 * The minting function `name` over `next` (the monotonic stream): with
 * `{ time }`, `at(ms)` gives an ID for that time instead.
 */
export function withTime(name, next, at) {
  return (options) => {
    if (options === undefined) return next();
    const o = checkOptions(`${name}() options`, options, ['time']);
    return o.time === undefined ? next() : at(timeArg('time', o.time));
  };
}

const U64 = (1n << 64n) - 1n;

/**
 * The Snowflake of `spec` (with its worker ID) over `backend` at `time`
 * with `options.sequence` (default 0): Snowflake#at. Apart from createAt,
 * so that a page that mints Snowflakes carries none of the rest.
 */
export function snowflakeAt(backend, spec, time, options) {
  const o = checkOptions('at() options', options, ['sequence']);
  const sequence = o.sequence ?? 0;
  if (typeof sequence !== 'number') throw typeError('sequence', 'an integer number', sequence);
  if (!isUint(sequence)) {
    // Out of any layout's range (negative, fractional, unsafe): the range named is the layout's, as the core names it above.
    const max = 2 ** call(() => backend.layoutOf(spec)).sequenceBits - 1;
    throw makeError('ERR_INVALID_ARG_VALUE', `sequence ${sequence} is out of range: this layout allows 0 to ${max}`);
  }
  const ms = timeArg('time', time);
  return call(() => backend.snowflakeAt(spec, ms, undefined, sequence));
}

/**
 * The other parts of the API over `backend` that take a time: `timed(kind,
 * next)` wraps a minting function so that `{ time }` mints for that time,
 * `typeidAt`, `minId`, `maxId` and `compare`. `layouts` checks their
 * layout options (api/layouts.js createLayouts).
 */
export function createAt(backend, { layoutSpec }) {
  /** `next` (the monotonic stream) without a time; with `{ time }`, an ID for that time. */
  function timed(kind, name, next) {
    return withTime(name, next, (ms) => call(() => backend.textAt(kind, ms, undefined, '')));
  }

  /** A TypeID for `options.time` with `prefix` (already checked). */
  function typeidAt(prefix, options) {
    const o = checkOptions('typeid() options', options, ['time']);
    if (o.time === undefined) return null;
    const ms = timeArg('time', o.time);
    return call(() => backend.textAt('typeid', ms, undefined, prefix));
  }

  /** minId (`max` false) or maxId (true). */
  function bound(max, kind, time, options) {
    const what = `${max ? 'maxId' : 'minId'}() options`;
    stringArg('kind', kind);
    const ms = timeArg('time', time);
    if (kind === 'snowflake') {
      const o = checkOptions(what, options, ['preset', 'layout', 'epoch']);
      const { spec } = layoutSpec(o);
      return call(() => backend.snowflakeAt(spec, ms, max, 0));
    }
    const o = checkOptions(what, options, kind === 'typeid' ? ['prefix'] : []);
    const prefix = o.prefix === undefined ? '' : stringArg('prefix', o.prefix);
    return call(() => backend.textAt(kind, ms, max, prefix));
  }

  /** The smallest ID of `kind` whose time is `time` (at the kind's resolution). */
  function minId(kind, time, options) {
    return bound(false, kind, time, options);
  }

  /** The largest ID of `kind` whose time is `time`. */
  function maxId(kind, time, options) {
    return bound(true, kind, time, options);
  }

  /** -1, 0 or 1: how `a` sorts against `b`, two IDs of one kind (bigints or texts in any spelling). */
  function compare(a, b) {
    // Two Snowflakes as bigints: their order needs no parsing.
    if (typeof a === 'bigint' && typeof b === 'bigint' && a >= 0n && b >= 0n && a <= U64 && b <= U64) {
      return a < b ? -1 : a > b ? 1 : 0;
    }
    const [x, y] = [idText(a), idText(b)];
    return call(() => backend.compareIds(x, y));
  }

  return { timed, typeidAt, minId, maxId, compare };
}
