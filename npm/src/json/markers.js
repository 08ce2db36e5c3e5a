// The markers of snowmint/json's parse: unsafe integer literals are rewritten
// into marker strings that no string of the document can equal, the text goes
// to `JSON.parse`, and the values are put back in place of the markers.

/**
 * Whether a string of `text` may hold U+009F: raw, or escaped as `\u009f` or
 * `\u009F` (an escaped backslash before it is taken for an escape too, which
 * only costs the other marker). One `indexOf` pass for `u009`: searching for
 * the escape itself is slow in texts with many backslashes.
 *
 * @param {string} text
 */
export function holdsU009F(text) {
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
export function integerAt(text, start, end) {
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
export function commonMarker(m) {
  if (m >= COMMON_MARKERS) return `"\u009f${m}"`;
  while (commonMarkers.length <= m) commonMarkers.push(`"\u009f${commonMarkers.length}"`);
  return commonMarkers[m];
}

/**
 * The index written after the marker prefix.
 *
 * @param {string} marker
 * @param {number} plen prefix length
 */
export function markerIndex(marker, plen) {
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
export function restoreMarkers(root, prefix, values) {
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
