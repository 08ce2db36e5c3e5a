// The scanners of snowmint/json's parse: where a text holds integer literals
// beyond ±(2^53 - 1) that `JSON.parse` would round. Pure functions of the text.

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
export function findUnsafeIntegerCandidates(text) {
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
export function findUnsafeIntegers(text) {
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
