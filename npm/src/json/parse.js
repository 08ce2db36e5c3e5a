// snowmint/json's parse: the scanner and marker path, and the engine path
// where `JSON.parse` gives revivers the source text.

import { commonMarker, holdsU009F, integerAt, markerIndex, restoreMarkers } from './markers.js';
import { findUnsafeIntegerCandidates, findUnsafeIntegers } from './scan.js';
import { located } from './syntax.js';

/** Largest safe integer, as a number. */
const MAX_SAFE = 9007199254740991;

/** Returned by parseRewritten when JSON.parse rejected the rewritten text. */
const FAILED = {};

/**
 * Options of {@link parse}.
 *
 * @typedef {object} ParseOptions
 * @property {'bigint' | 'string'} [bigint='bigint'] what an integer outside
 *   ±(2^53 - 1) becomes: a `bigint`, or its literal as a string
 *   (`"-12345678901234567890"`).
 */

/**
 * The `parse` of one load of snowmint/json (json.js): over the engine's
 * `JSON.parse` as that load found it (`nativeParse`), and whether it gives
 * revivers the source text of each value (`sourceAccess`). json.js checks
 * both when it loads, so a second instance loaded with the features hidden
 * takes the scanner path (tests/json/suite.js, `loadPaths`).
 *
 * @param {typeof JSON.parse} nativeParse
 * @param {boolean} sourceAccess
 */
export function parser(nativeParse, sourceAccess) {
  /** @type {unknown} the error behind the last FAILED */
  let failure;

  /**
   * Parses JSON like `JSON.parse`, except that integer literals outside
   * ±(2^53 - 1) become `bigint` (or strings, with `{ bigint: 'string' }`)
   * instead of being rounded. Every other value is exactly what `JSON.parse`
   * gives (`-0`, `1e30`, `12345678901234567890.5` and `0.30000000000000004` stay
   * numbers). A reviver sees the `bigint` values and is applied with
   * `JSON.parse`'s own semantics. Malformed text throws the `SyntaxError` that
   * `JSON.parse` throws for it.
   *
   * @param {string} text JSON text (other values are converted to a string as by `JSON.parse`: a Symbol throws `TypeError`)
   * @param {((this: any, key: string, value: any, context?: any) => any) | ParseOptions | null} [reviver]
   *   as for `JSON.parse`; an options object may be given here instead
   * @param {ParseOptions} [options]
   * @returns {any}
   * @throws {SyntaxError} if `text` is not valid JSON
   */
  function parse(text, reviver, options) {
    // ToString, as JSON.parse applies it: a Symbol throws TypeError (String() would not).
    if (typeof text !== 'string') text = `${text}`;
    try {
      return parseText(text, reviver, options);
    } catch (err) {
      throw located(err, text);
    }
  }

  /** {@link parse} for a string. */
  function parseText(text, reviver, options) {
    if (options === undefined && typeof reviver === 'object' && reviver !== null && !Array.isArray(reviver)) {
      options = reviver;
      reviver = undefined;
    }
    const fn = typeof reviver === 'function' ? reviver : undefined;
    const asString = options != null && options.bigint === 'string';
    // A reviver makes JSON.parse slow anyway (3-5x); with source access it then does the whole job.
    if (fn !== undefined && sourceAccess) return parseWithSource(text, fn, asString);
    let spans = findUnsafeIntegerCandidates(text);
    if (spans === null) return fn === undefined ? nativeParse(text) : nativeParse(text, fn);
    let result = parseRewritten(text, spans, fn, asString);
    if (result !== FAILED) return result;
    // A guess was inside a string (or the text is malformed): scan properly.
    spans = findUnsafeIntegers(text);
    if (spans === null) return fn === undefined ? nativeParse(text) : nativeParse(text, fn);
    result = parseRewritten(text, spans, fn, asString);
    if (result !== FAILED) return result;
    // The rewrite keeps valid text valid and invalid text invalid: report the error
    // that JSON.parse gives for the original text, with its positions.
    nativeParse(text);
    throw failure;
  }

  /**
   * Replaces the given literals by marker strings, parses with JSON.parse and
   * puts the values back.
   *
   * @param {string} text
   * @param {number[]} spans
   * @param {Function | undefined} fn
   * @param {boolean} asString
   * @returns {any} the result, or FAILED if JSON.parse threw a SyntaxError while parsing
   */
  function parseRewritten(text, spans, fn, asString) {
    // Markers are strings that no string of the document can equal. Preferred: a raw
    // U+009F (a C1 control, one byte, never seen in practice) where the text holds it
    // neither raw nor escaped. Otherwise a run of U+0000, which a document can only write
    // as the escape \u0000: k NULs cannot occur if "\u0000" x k does not.
    let escaped;
    let prefix;
    if (!holdsU009F(text)) {
      escaped = '"\u009f';
      prefix = '\u009f';
    } else {
      let nuls = 1;
      if (text.includes('\\u0000')) {
        const runs = /(?:\\u0000)+/g;
        for (let m; (m = runs.exec(text)) !== null; ) nuls = Math.max(nuls, m[0].length / 6 + 1);
      }
      escaped = '"' + '\\u0000'.repeat(nuls);
      prefix = '\0'.repeat(nuls);
    }
    const common = prefix === '\u009f';
    const count = spans.length / 2;
    const values = new Array(count);
    let rewritten = '';
    let last = 0;
    for (let m = 0; m < count; m++) {
      const start = spans[2 * m];
      const end = spans[2 * m + 1];
      values[m] = asString ? text.slice(start, end) : integerAt(text, start, end);
      rewritten += text.slice(last, start) + (common ? commonMarker(m) : escaped + m + '"');
      last = end;
    }
    rewritten += text.slice(last);

    if (fn === undefined) {
      let result;
      try {
        result = nativeParse(rewritten);
      } catch (err) {
        failure = err;
        return FAILED;
      }
      return restoreMarkers(result, prefix, values);
    }

    // Only engines without source access get here: their revivers get two arguments.
    let parsing = true;
    const plen = prefix.length;
    const wrapped = function (key, value) {
      parsing = false;
      if (typeof value === 'string' && value.startsWith(prefix)) value = values[markerIndex(value, plen)];
      return fn.call(this, key, value);
    };
    try {
      return nativeParse(rewritten, wrapped);
    } catch (err) {
      if (!parsing) throw err; // thrown by the reviver
      failure = err;
      return FAILED;
    }
  }

  /**
   * The engine path: `JSON.parse` with a reviver that turns each number beyond
   * ±(2^53 - 1) whose source is an integer literal into a `bigint` (or its
   * literal), before the user's reviver sees it with the engine's `context`.
   *
   * @param {string} text
   * @param {Function} fn the user's reviver
   * @param {boolean} asString
   * @returns {any}
   */
  function parseWithSource(text, fn, asString) {
    return nativeParse(text, function (key, value, context) {
      if (typeof value === 'number' && (value > MAX_SAFE || value < -MAX_SAFE)) {
        const source = context.source;
        // An integer literal beyond the safe range has neither fraction nor exponent.
        if (source !== undefined && !/[.eE]/.test(source)) value = asString ? source : BigInt(source);
      }
      return fn.call(this, key, value, context);
    });
  }

  return parse;
}
