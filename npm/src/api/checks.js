// Argument and option checks shared by the API's parts: each throws the
// public error class (errors.js) with a message that says what was wrong and
// what is allowed.

import { ArgumentError, fromBackend, makeError } from '../errors.js';

/** Largest batch `nextIds(n)` / `nextBatch(n)` hands out at once. */
export const MAX_BATCH = 1 << 24;

export function deepFreeze(o) {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}

/** `typeof` as words for messages: null and undefined as such, arrays and class instances named, "a"/"an" as English has it. */
export function describe(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v !== 'object') return `a ${typeof v}`;
  const name = v.constructor?.name;
  if (!name || name === 'Object') return 'an object';
  return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}

export function typeError(what, expected, got) {
  return new ArgumentError('ERR_INVALID_ARG_TYPE', `${what} must be ${expected}, got ${describe(got)}`);
}

export function optionError(message) {
  return makeError('ERR_INVALID_OPTION', message);
}

/**
 * The check of a name over `backend`, whose constants are `C`: `oneOf(what,
 * list, value, code)` gives `value` if the core's name list `list` (a key
 * of `C`) holds it, and else throws the core's own refusal
 * (`backend.nameIndex`, the one check of a name) under `code`, the error
 * code of the API's place; a value that is not a string is refused here,
 * as JavaScript's types are.
 */
export function nameCheck(backend, C) {
  return (what, list, value, code = 'ERR_INVALID_OPTION') => {
    if (typeof value !== 'string') throw makeError(code, `${what} must be a string, got ${describe(value)}`);
    if (C[list].includes(value)) return value;
    try {
      backend.nameIndex(list, value);
    } catch (e) {
      throw makeError(code, e.message);
    }
    return value;
  };
}

const NO_OPTIONS = Object.freeze({});

export function checkOptions(what, options, allowed) {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw typeError(what, 'an object', options);
  }
  for (const key in options) {
    if (Object.hasOwn(options, key) && !allowed.includes(key)) {
      throw optionError(`unknown option '${key}' in ${what}: expected ${allowed.map((a) => `'${a}'`).join(', ')}`);
    }
  }
  return options;
}

export function isUint(v, max = Number.MAX_SAFE_INTEGER) {
  return Number.isInteger(v) && v >= 0 && v <= max;
}

/** A non-negative integer option, `code` naming the error when it is not. */
export function uintOption(what, v, dflt, code, max = Number.MAX_SAFE_INTEGER) {
  if (v === undefined) return dflt;
  if (typeof v !== 'number') throw typeError(what, 'an integer number', v);
  if (!isUint(v, max)) throw makeError(code, `${what} must be an integer from 0 to ${max}, got ${v}`);
  return v;
}

export function msOption(what, v, code) {
  if (v instanceof Date) v = v.getTime();
  if (typeof v !== 'number') throw typeError(what, 'Unix milliseconds (a number) or a Date', v);
  if (!isUint(v)) throw makeError(code, `${what} must be a non-negative integer of Unix milliseconds, got ${v}`);
  return v;
}

export function countArg(count, max) {
  if (typeof count !== 'number') throw typeError('count', 'an integer number', count);
  if (!Number.isInteger(count) || count < 1 || count > max) {
    throw new ArgumentError('ERR_INVALID_COUNT', `invalid count ${count}: expected an integer from 1 to ${max}`);
  }
  return count;
}

export function stringArg(what, v) {
  if (typeof v !== 'string') throw typeError(what, 'a string', v);
  return v;
}

export function call(fn) {
  try {
    return fn();
  } catch (e) {
    throw fromBackend(e);
  }
}

/** A Snowflake's decimal text, as the core's detect() tells it (1 to 20 ASCII digits). */
const DECIMAL = /^[0-9]{1,20}$/;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * The value of a decimal Snowflake text read in JavaScript, or undefined
 * for the core to read (and name the problem): 1 to 20 ASCII digits up to
 * 2^64 - 1 are what the core's detect() calls a Snowflake and its decimal
 * parser accepts (leading zeros included); the shared vectors prove the two agree.
 */
export function decimalId(text) {
  if (!DECIMAL.test(text)) return undefined;
  const v = BigInt(text);
  return v <= U64_MAX ? v : undefined;
}

export function idTypeError(id) {
  const hint = typeof id === 'number' ? ' (a number cannot hold every 64-bit ID exactly: pass a bigint or a decimal string)' : '';
  return new ArgumentError('ERR_INVALID_ARG_TYPE', `id must be a bigint or a string, got ${describe(id)}${hint}`);
}

/** An ID argument as text (bigint or string), for the core. */
export const idText = (id) => {
  if (typeof id === 'bigint' || typeof id === 'string') return String(id);
  throw idTypeError(id);
};
