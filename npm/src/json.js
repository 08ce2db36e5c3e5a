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
 * Plain ES2020, no Node built-ins: the same file runs in Node and browsers.
 *
 * @module snowmint/json
 */

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

/** Largest safe integer, as a number. */
const MAX_SAFE = 9007199254740991;

/** Largest safe integer, as 16 decimal digits (every 16-digit literal above it is unsafe). */
const MAX_SAFE_DIGITS = '9007199254740991';

/**
 * Fast, optimistic search for unsafe integer literals: looks only at runs of
 * 16+ digits (probing one character in 16 to find them) that are preceded by
 * what may precede a JSON value (`[`, `:`, `,`, whitespace, start of text,
 * optionally then `-`). It does not track strings, so a run inside a string
 * such as `"a: 12345678901234567890"` is also returned; rewriting such a run
 * into a marker always makes the text invalid (the marker's opening quote ends
 * the string and its backslash then stands outside one), so a wrong guess can
 * only make `JSON.parse` throw, never change a result, and {@link parse} then
 * falls back to {@link findUnsafeIntegers}. A text for which this finds
 * nothing has no unsafe integer value at all, if it is valid JSON.
 *
 * @param {string} text
 * @returns {number[] | null} flat list of [start, end) offsets, or null if none
 */
function findUnsafeIntegerCandidates(text) {
  const n = text.length;
  let found = null;
  let i = 15;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c > 57 || c < 48) {
      i += 16; // no run of 16 digits can contain position i
      continue;
    }
    let s = i - 1;
    while (s >= 0 && (c = text.charCodeAt(s)) >= 48 && c <= 57) s--;
    if (s >= 0 && c === 46) {
      i += 16; // a fraction's digits (floats of 16-17 digits are common); any later run is still probed
      continue;
    }
    s++;
    let e = i + 1;
    while (e < n && (c = text.charCodeAt(e)) >= 48 && c <= 57) e++;
    i = e + 16;
    const count = e - s;
    if (count < 16) continue;
    if (e < n && (c === 46 || c === 101 || c === 69)) continue; // fraction or exponent
    if (text.charCodeAt(s) === 48) continue; // leading zero: invalid, JSON.parse rejects it
    if (count === 16 && text.slice(s, e) <= MAX_SAFE_DIGITS) continue;
    let start = s;
    if (start > 0 && text.charCodeAt(start - 1) === 45) start--;
    if (start > 0) {
      c = text.charCodeAt(start - 1);
      if (c !== 58 && c !== 44 && c !== 91 && c !== 32 && c !== 10 && c !== 13 && c !== 9) continue;
    }
    let k = e;
    while (k < n && ((c = text.charCodeAt(k)) === 32 || c === 10 || c === 13 || c === 9)) k++;
    if (k < n && c === 58) continue; // in key position: leave the error to JSON.parse
    (found || (found = [])).push(start, e);
  }
  return found;
}

/**
 * Finds the integer literals in `text` that lie outside ±(2^53 - 1) and stand
 * where a JSON value stands (not inside a string, not used as a key, without a
 * fraction or an exponent, without a leading zero). Validates nothing: a
 * malformed text is left for `JSON.parse` to reject.
 *
 * @param {string} text
 * @returns {number[] | null} flat list of [start, end) offsets, or null if none
 */
function findUnsafeIntegers(text) {
  const n = text.length;
  let found = null;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // A string: jump to its closing quote (one not escaped by an odd run of backslashes).
      let j = text.indexOf('"', i + 1);
      while (j !== -1 && text.charCodeAt(j - 1) === 92) {
        let k = j - 2;
        while (text.charCodeAt(k) === 92) k--;
        if (((j - k) & 1) === 1) break; // even number of backslashes: the quote is real
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) return found; // unterminated string: JSON.parse will say so
      i = j + 1;
    } else if ((c >= 48 && c <= 57) || c === 45) {
      const start = i;
      if (c === 45) i++;
      const digits = i;
      let d = 0;
      while (i < n && (d = text.charCodeAt(i)) >= 48 && d <= 57) i++;
      const count = i - digits;
      if (count < 16) {
        if (count === 0) continue; // a lone '-': not ours
        // Skip a fraction or exponent so that its digits are not taken for an integer.
        while (i < n && ((d = text.charCodeAt(i)) === 46 || d === 101 || d === 69 || d === 43 || d === 45 || (d >= 48 && d <= 57))) i++;
        continue;
      }
      if (d === 46 || d === 101 || d === 69) {
        // 12345678901234567890.5 or 1234567890123456789e3: a double, as JSON.parse gives it.
        while (i < n && ((d = text.charCodeAt(i)) === 46 || d === 101 || d === 69 || d === 43 || d === 45 || (d >= 48 && d <= 57))) i++;
        continue;
      }
      if (text.charCodeAt(digits) === 48) continue; // leading zero: invalid, JSON.parse rejects it
      if (count === 16 && text.slice(digits, i) <= MAX_SAFE_DIGITS) continue;
      // A number in key position ({12345678901234567890: 1}) is invalid; a string there would
      // not be, so never rewrite a literal that is followed by ':'.
      let k = i;
      while (k < n && ((d = text.charCodeAt(k)) === 32 || d === 10 || d === 13 || d === 9)) k++;
      if (k < n && d === 58) continue;
      (found || (found = [])).push(start, i);
    } else {
      i++;
    }
  }
  return found;
}

/**
 * The index written after the marker prefix.
 *
 * @param {string} marker
 * @param {number} plen prefix length
 */
function markerIndex(marker, plen) {
  let x = 0;
  for (let j = plen; j < marker.length; j++) x = x * 10 + marker.charCodeAt(j) - 48;
  return x;
}

/**
 * Restores marker strings to their values in a parsed tree, iteratively (no
 * recursion limit), stopping as soon as every marker has been seen.
 *
 * @param {unknown} root
 * @param {string} prefix
 * @param {unknown[]} values
 * @returns {unknown}
 */
function restoreMarkers(root, prefix, values) {
  const plen = prefix.length;
  const pc = prefix.charCodeAt(0);
  if (typeof root === 'string') return root.startsWith(prefix) ? values[markerIndex(root, plen)] : root;
  if (typeof root !== 'object' || root === null) return root;
  const hasOwn = Object.prototype.hasOwnProperty;
  let remaining = values.length;
  const stack = [root];
  while (stack.length !== 0) {
    const o = stack.pop();
    if (Array.isArray(o)) {
      for (let i = 0, len = o.length; i < len; i++) {
        const v = o[i];
        if (typeof v === 'string') {
          if (v.charCodeAt(0) === pc && v.startsWith(prefix)) {
            o[i] = values[markerIndex(v, plen)];
            if (--remaining === 0) return root;
          }
        } else if (typeof v === 'object' && v !== null) {
          stack.push(v);
        }
      }
    } else {
      // for-in is the fastest walk over JSON.parse's objects; the own-property checks
      // keep enumerable properties someone added to Object.prototype out of it.
      for (const key in o) {
        const v = o[key];
        if (typeof v === 'string') {
          if (v.charCodeAt(0) === pc && v.startsWith(prefix) && hasOwn.call(o, key)) {
            const value = values[markerIndex(v, plen)];
            if (key === '__proto__') {
              Object.defineProperty(o, key, { value, writable: true, enumerable: true, configurable: true });
            } else {
              o[key] = value;
            }
            if (--remaining === 0) return root;
          }
        } else if (typeof v === 'object' && v !== null && hasOwn.call(o, key)) {
          stack.push(v);
        }
      }
    }
  }
  return root;
}

/**
 * Options of {@link parse}.
 *
 * @typedef {object} ParseOptions
 * @property {'bigint' | 'string'} [bigint='bigint'] what an integer outside
 *   ±(2^53 - 1) becomes: a `bigint`, or its literal as a string
 *   (`"-12345678901234567890"`).
 */

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
export function parse(text, reviver, options) {
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
  if (fn !== undefined && SOURCE_ACCESS) return parseWithSource(text, fn, asString);
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
 * Node 20's `JSON.parse` names no position in many of its messages
 * (`Unexpected token '}', "{"a":}" is not valid JSON`). On that error path
 * only, find the offset of the first error and say where, with line and column.
 * An error thrown by a reviver (the text itself is valid) passes unchanged.
 *
 * @param {unknown} err
 * @param {string} text
 * @returns {unknown}
 */
function located(err, text) {
  if (!(err instanceof SyntaxError) || /at position \d+/.test(err.message)) return err;
  const at = syntaxErrorOffset(text);
  if (at < 0) return err;
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  const column = at - before.lastIndexOf('\n');
  return new SyntaxError(`${err.message} (at position ${at}, line ${line} column ${column})`);
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
// biome-ignore lint/suspicious/noControlCharactersInRegex: JSON strings may not hold raw control characters; this is the rule that says so
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;

/**
 * The offset of the first JSON syntax error in `s`, or -1 if it is valid
 * (RFC 8259). Iterative, so deep nesting cannot overflow the stack.
 *
 * @param {string} s
 * @returns {number}
 */
export function syntaxErrorOffset(s) {
  const n = s.length;
  let i = 0;
  /** @type {number[]} open containers: 0x7b '{' or 0x5b '[' */
  const open = [];
  const skip = () => {
    for (let c = s.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = s.charCodeAt(++i));
  };
  const token = (/** @type {RegExp} */ re) => {
    re.lastIndex = i;
    if (!re.test(s)) return false;
    i = re.lastIndex;
    return true;
  };
  const key = () => {
    skip();
    if (!token(STRING)) return false;
    skip();
    if (s.charCodeAt(i) !== 0x3a) return false;
    i++;
    return true;
  };
  for (;;) {
    skip();
    const c = s.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) {
      i++;
      skip();
      if (s.charCodeAt(i) === c + 2) i++;
      else {
        open.push(c);
        if (c === 0x7b && !key()) return i;
        continue;
      }
    } else if (!(c === 0x22 ? token(STRING) : token(LITERAL) || token(NUMBER))) {
      return i;
    }
    // After a value: close containers until a ',' asks for the next value.
    for (;;) {
      skip();
      if (open.length === 0) return i < n ? i : -1;
      const top = open[open.length - 1];
      const d = s.charCodeAt(i);
      if (d === 0x2c) {
        i++;
        if (top === 0x7b && !key()) return i;
        break;
      }
      if (d !== top + 2) return i;
      i++;
      open.pop();
    }
  }
}

/** Returned by parseRewritten when JSON.parse rejected the rewritten text. */
const FAILED = {};
/** @type {unknown} the error behind the last FAILED */
let failure;

/**
 * Whether a string of `text` may hold U+009F: raw, or escaped as `\u009f` or
 * `\u009F` (an escaped backslash before it is taken for an escape too, which
 * only costs the other marker). One `indexOf` pass for `u009`: searching for
 * the escape itself is slow in texts with many backslashes.
 *
 * @param {string} text
 */
function holdsU009F(text) {
  if (text.includes('\u009f')) return true;
  for (let i = text.indexOf('u009'); i !== -1; i = text.indexOf('u009', i + 4)) {
    const c = text.charCodeAt(i + 4);
    if ((c === 102 || c === 70) && text.charCodeAt(i - 1) === 92) return true;
  }
  return false;
}

/** 64 bits seen as two 32-bit halves (little-endian, as every engine lays typed arrays out here) or one bigint. */
const halves = new Uint32Array(2);
const asInt64 = new BigInt64Array(halves.buffer);
const asUint64 = new BigUint64Array(halves.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const [LO, HI] = LITTLE_ENDIAN ? [0, 1] : [1, 0];
const TWO_16 = 65536;
const TWO_32 = 4294967296;

/**
 * The integer literal `text[start, end)` (an optional '-', then 16 or more
 * digits) as a bigint. Up to 19 digits, that is every 64-bit ID but the
 * 20-digit ones, the value is built from two exact doubles and read out of a
 * 64-bit typed array, about twice as fast as `BigInt(literal)`; longer
 * literals, and negative ones below -2^63, go through `BigInt`.
 *
 * @param {string} text
 * @param {number} start
 * @param {number} end
 * @returns {bigint}
 */
function integerAt(text, start, end) {
  const negative = text.charCodeAt(start) === 45;
  const first = negative ? start + 1 : start;
  if (end - first > 19) return BigInt(text.slice(start, end));
  // value = H * 10^9 + L, with H = Hh * 2^16 + Hl: every product below stays under 2^53.
  const split = end - 9;
  let h = 0;
  for (let i = first; i < split; i++) h = h * 10 + text.charCodeAt(i) - 48;
  let l = 0;
  for (let i = split; i < end; i++) l = l * 10 + text.charCodeAt(i) - 48;
  // Math.floor, not %: V8 compiles a double's % to a call into C.
  const hh = Math.floor(h / TWO_16);
  const a = (h - hh * TWO_16) * 1e9 + l; // < 2^47
  const b = hh * 1e9; // < 2^48; value = b * 2^16 + a
  const bh = Math.floor(b / TWO_16);
  const ah = Math.floor(a / TWO_32);
  const low = (b - bh * TWO_16) * TWO_16 + (a - ah * TWO_32);
  const carry = low >= TWO_32 ? 1 : 0;
  let lo = low - carry * TWO_32;
  let hi = bh + ah + carry;
  if (!negative) {
    halves[LO] = lo;
    halves[HI] = hi;
    return asUint64[0];
  }
  if (hi > 2147483648 || (hi === 2147483648 && lo !== 0)) return BigInt(text.slice(start, end));
  // Two's complement of the magnitude.
  if (lo === 0) hi = (TWO_32 - hi) % TWO_32;
  else {
    lo = TWO_32 - lo;
    hi = TWO_32 - 1 - hi;
  }
  halves[LO] = lo;
  halves[HI] = hi;
  return asInt64[0];
}

/** `"\u009f<m>"` for the first markers asked for: the usual ones, made once per process (at most 4,096: 160 KB). */
const commonMarkers = [];
const COMMON_MARKERS = 4096;

/** @param {number} m */
function commonMarker(m) {
  if (m >= COMMON_MARKERS) return `"\u009f${m}"`;
  while (commonMarkers.length <= m) commonMarkers.push(`"\u009f${commonMarkers.length}"`);
  return commonMarkers[m];
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

/**
 * Options of {@link stringify}.
 *
 * @typedef {object} StringifyOptions
 * @property {'string' | 'number'} [bigint='string'] how a `bigint` is written:
 *   as a JSON string of its decimal digits (`"1234567890123456789"`, safe for
 *   every JavaScript reader), or as a raw integer literal
 *   (`1234567890123456789`, for servers that read int64).
 */

/** @param {unknown} v */
function isBigIntObject(v) {
  if (!(v instanceof BigInt)) return false;
  try {
    BigInt.prototype.valueOf.call(v);
    return true;
  } catch {
    return false;
  }
}

const bigintValueOf = BigInt.prototype.valueOf;
let markerSeq = 0;

/**
 * Serializes like `JSON.stringify`, except that `bigint` values (and `BigInt`
 * objects) are written as decimal strings, or as raw integer literals with
 * `{ bigint: 'number' }`. Everything else is exactly `JSON.stringify`'s:
 * `toJSON` runs first (so a `BigInt.prototype.toJSON` of your own still wins),
 * a replacer function sees each `bigint` as it is and may return one, a
 * replacer array selects and orders properties, `space` indents, and
 * `undefined` comes back where `JSON.stringify` returns it.
 *
 * `BigInt.prototype` is not changed outside the call. (Inside it, a
 * `toJSON` is present on `BigInt.prototype` while the engine serializes,
 * when no replacer function is given: that is what makes this nearly as fast
 * as `JSON.stringify`. A `toJSON` or getter of yours that calls the global
 * `JSON.stringify` during the call would see bigints serialized, not a
 * TypeError; with `{ bigint: 'number' }` that is a TypeError saying so, except
 * on engines with `JSON.rawJSON`, where it gets the raw literals too.)
 * A `toJSON`, getter or replacer may call this `stringify` itself: the inner
 * call writes bigints in its own mode and the outer call keeps its own.
 *
 * @param {any} value
 * @param {((this: any, key: string, value: any) => any) | (string | number)[] | StringifyOptions | null} [replacer]
 *   as for `JSON.stringify`; an options object may be given here instead
 * @param {string | number} [space] as for `JSON.stringify`
 * @param {StringifyOptions} [options]
 * @returns {string | undefined} `undefined` where `JSON.stringify` gives it (e.g. for `undefined`)
 * @throws {TypeError} on a cyclic structure, as `JSON.stringify` does
 */
export function stringify(value, replacer, space, options) {
  if (options === undefined && typeof replacer === 'object' && replacer !== null && !Array.isArray(replacer)) {
    options = replacer;
    replacer = undefined;
  }
  if (options == null || options.bigint !== 'number') {
    return serialize(value, replacer, space, decimal, decimalToJSON);
  }
  if (rawJSON !== undefined) return serialize(value, replacer, space, rawLiteral, rawLiteralToJSON);
  // Raw literals: each bigint is first written as a string "<M><digits><M>", then one
  // regex pass drops the quotes and markers. The count of replacements proves that no
  // string of the document looked like a marker; if one did, try again with another.
  for (;;) {
    const marker = '\0snowmint:' + (markerSeq++).toString(36) + ':';
    let made = 0;
    const convert = (b) => {
      made++;
      return marker + b + marker;
    };
    const out = serialize(value, replacer, space, convert, function toJSON() {
      return convert(bigintValueOf.call(this));
    });
    if (made === 0 || out === undefined) return out;
    const q = nativeStringify(marker).slice(1, -1); // the marker as it appears in the output
    const e = q.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
    const result = out.replace(new RegExp('"' + e + '(-?[0-9]+)' + e + '"', 'g'), '$1');
    const found = (out.length - result.length) / (2 * q.length + 2);
    if (found === made) return result;
    if (found < made) {
      // A converted bigint did not end up as a value of its own: code of the caller's
      // serialized it during the call (the global JSON.stringify in a toJSON or replacer).
      // Another marker would meet the same fate, so say so instead of trying again.
      throw new TypeError(
        "stringify with { bigint: 'number' }: a toJSON, getter or replacer serialized a bigint itself during the call (with JSON.stringify?); call snowmint/json's stringify there instead",
      );
    }
  }
}

/** @param {bigint} b */
const decimal = (b) => '' + b;

/** @param {bigint} b the bigint as a raw JSON literal (only where the engine has `JSON.rawJSON`) */
const rawLiteral = (b) => rawJSON('' + b);

/** The default mode's toJSON, kept to one call: `this` is the bigint (or a BigInt object). */
function decimalToJSON() {
  return typeof this === 'bigint' ? '' + this : '' + bigintValueOf.call(this);
}

/** The raw-literal mode's toJSON where the engine has `JSON.rawJSON`. */
function rawLiteralToJSON() {
  return rawJSON(decimalToJSON.call(this));
}

/**
 * The toJSON that the stringify call in progress has put on BigInt.prototype,
 * or undefined. A stringify called from inside another (a toJSON, getter or
 * replacer that calls it) puts its own in place of the outer call's until it
 * returns, so each call writes bigints in its own mode.
 *
 * @type {((this: any) => unknown) | undefined}
 */
let installedToJSON;

/**
 * Puts `toJSON` on BigInt.prototype (removes it for undefined).
 *
 * @param {((this: any) => unknown) | undefined} toJSON
 * @returns {boolean} false if BigInt.prototype is frozen
 */
function setBigIntToJSON(toJSON) {
  try {
    if (toJSON === undefined) delete BigInt.prototype.toJSON;
    else Object.defineProperty(BigInt.prototype, 'toJSON', { value: toJSON, writable: true, configurable: true, enumerable: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON.stringify with bigints (and BigInt objects) passed through `convert`.
 *
 * @param {any} value
 * @param {any} replacer
 * @param {any} space
 * @param {(b: bigint) => unknown} convert
 * @param {(this: any) => unknown} toJSON the same, as a toJSON method of BigInt.prototype
 * @returns {string | undefined}
 */
function serialize(value, replacer, space, convert, toJSON) {
  const outer = installedToJSON;
  // Any other toJSON reachable from a bigint (BigInt.prototype's or Object.prototype's)
  // is the user's and JSON.stringify applies it already: change nothing.
  if (outer === undefined && typeof replacer !== 'function' && 'toJSON' in BigInt.prototype) return nativeStringify(value, replacer, space);
  // Ours while this call runs; none with a replacer function, which must see bigints as they are.
  const own = typeof replacer === 'function' ? undefined : toJSON;
  if (own === outer) return own === undefined ? replacing(value, replacer, space, convert) : nativeStringify(value, replacer, space);
  if (!setBigIntToJSON(own)) {
    // A frozen BigInt.prototype: a replacer function does the work instead.
    return replacing(value, Array.isArray(replacer) ? propertyListReplacer(replacer) : undefined, space, convert);
  }
  installedToJSON = own;
  try {
    return own === undefined ? replacing(value, replacer, space, convert) : nativeStringify(value, replacer, space);
  } finally {
    setBigIntToJSON(outer);
    installedToJSON = outer;
  }
}

/** JSON.stringify with a replacer function that converts bigints after `user` (a replacer function, or undefined). */
function replacing(value, user, space, convert) {
  return nativeStringify(
    value,
    function (key, v) {
      if (user !== undefined) v = user.call(this, key, v);
      if (typeof v === 'bigint') return convert(v);
      if (typeof v === 'object' && v !== null && isBigIntObject(v)) return convert(bigintValueOf.call(v));
      return v;
    },
    space,
  );
}

/**
 * Emulates a property-list replacer with a replacer function (needed only where
 * BigInt.prototype is frozen): each object is re-created with the listed keys,
 * in the list's order (integer-like keys still come first, as in any object).
 *
 * @param {unknown[]} list
 * @returns {(key: string, value: any) => any}
 */
function propertyListReplacer(list) {
  /** @type {string[]} */
  const keys = [];
  for (const item of list) {
    let k;
    if (typeof item === 'string') k = item;
    else if (typeof item === 'number' || item instanceof Number || item instanceof String) k = String(item);
    else continue;
    if (!keys.includes(k)) keys.push(k);
  }
  return (key, v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    if (v instanceof Number || v instanceof String || v instanceof Boolean || v instanceof BigInt) return v;
    const out = {};
    for (const k of keys) {
      const x = v[k];
      if (x !== undefined) Object.defineProperty(out, k, { value: x, writable: true, enumerable: true, configurable: true });
    }
    return out;
  };
}

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
