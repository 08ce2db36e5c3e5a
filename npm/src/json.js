/**
 * snowmint/json — lossless 64-bit JSON.
 *
 * `JSON.parse` rounds every integer beyond ±(2^53 - 1) to the nearest double,
 * which silently corrupts 64-bit IDs such as Snowflakes; `JSON.stringify`
 * throws on `bigint`. This module fixes both while leaving everything else
 * exactly as the engine's own `JSON` does it:
 *
 * - {@link parse} finds the few integer literals that a double cannot hold
 *   with a fast pre-scan, turns only those into `bigint` (or strings), and
 *   lets the engine's `JSON.parse` do all the real work, validation and error
 *   reporting. Text without such literals goes straight to `JSON.parse`. With a
 *   reviver, on engines that give revivers the source text of each value
 *   (`context.source`: Node >= 21, Chromium), `JSON.parse` runs once with a
 *   reviver that takes unsafe integers from their source instead.
 * - {@link stringify} writes `bigint` values as decimal strings (or, by option,
 *   as raw integer literals, through `JSON.rawJSON` where the engine has it)
 *   and is otherwise `JSON.stringify`, including `toJSON`, replacer functions
 *   and arrays, and indentation.
 * - {@link reviver} builds a `JSON.parse` reviver that turns named fields sent
 *   as decimal strings (as Twitter and Discord do) into `bigint`.
 *
 * Plain ES2020, no Node built-ins: the same files run in Node and browsers.
 * This one checks the engine's features when it loads and builds `parse`
 * and `stringify` on them; the parts live in json/: the scanners
 * (`scan.js`), the markers (`markers.js`), where malformed text breaks
 * (`syntax.js`), `parse` (`parse.js`) and `stringify` (`stringify.js`).
 * Those are shared by every instance of this module (the tests load a second
 * one, `json.js?scanner`, with the features hidden), so none of them checks
 * a feature itself: what depends on the engine is passed in from here.
 *
 * @module snowmint/json
 */

import { parser } from './json/parse.js';
import { stringifier } from './json/stringify.js';

export { syntaxErrorOffset } from './json/syntax.js';

const nativeParse = JSON.parse;
const nativeStringify = JSON.stringify;

/**
 * Whether this engine's `JSON.parse` passes a reviver the source text of each
 * primitive value (`context.source`, the "JSON.parse source text access"
 * proposal). Checked once, at load time.
 */
const SOURCE_ACCESS = (() => {
  let source;
  try {
    nativeParse('[1]', (key, value, context) => {
      if (key === '0') source = context?.source;
      return value;
    });
  } catch {
    // An engine whose JSON.parse rejects this has no source access either.
  }
  return source === '1';
})();

/** `JSON.rawJSON` (same proposal, Node >= 21, Chromium), or undefined. */
const rawJSON = typeof JSON.rawJSON === 'function' ? JSON.rawJSON : undefined;

/**
 * Parses JSON like `JSON.parse`, except that integers beyond ±(2^53 - 1)
 * become `bigint` (or strings): see `parse` in json/parse.js.
 */
export const parse = parser(nativeParse, SOURCE_ACCESS);

/**
 * Serializes like `JSON.stringify`, except that `bigint` values are written
 * as decimal strings (or raw literals): see `stringify` in json/stringify.js.
 */
export const stringify = stringifier(nativeStringify, rawJSON);

const DECIMAL = /^-?(?:0|[1-9][0-9]*)$/;

/**
 * Builds a `JSON.parse` / {@link parse} reviver that turns the named fields,
 * when they hold a decimal integer string (`"175928847299117063"`), into
 * `bigint`; a named field holding an array gets each such element converted.
 * Anything else (numbers, other strings, other fields) is left alone.
 *
 * @example
 *   JSON.parse(body, reviver(['id', 'author_id', 'guild_id']))
 *
 * @param {string | Iterable<string>} fields field names
 * @returns {(this: any, key: string, value: any) => any}
 */
export function reviver(fields) {
  const names = new Set(typeof fields === 'string' ? [fields] : fields);
  return (key, value) => {
    if (!names.has(key)) return value;
    if (typeof value === 'string') return DECIMAL.test(value) ? BigInt(value) : value;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const v = value[i];
        if (typeof v === 'string' && DECIMAL.test(v)) value[i] = BigInt(v);
      }
    }
    return value;
  };
}
