// snowmint/json's stringify: `JSON.stringify` with a `toJSON` on
// BigInt.prototype while it runs (or a replacer function where that cannot
// be), and raw integer literals through `JSON.rawJSON` or markers.

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

/** @param {bigint} b */
const decimal = (b) => '' + b;

/** The default mode's toJSON, kept to one call: `this` is the bigint (or a BigInt object). */
function decimalToJSON() {
  return typeof this === 'bigint' ? '' + this : '' + bigintValueOf.call(this);
}

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

/**
 * The `stringify` of one load of snowmint/json (json.js): over the engine's
 * `JSON.stringify` as that load found it (`nativeStringify`) and its
 * `JSON.rawJSON`, or undefined where it has none (then raw literals take
 * the markers). A second instance loaded with `JSON.rawJSON` hidden takes
 * the marker path (tests/json/suite.js, `loadPaths`).
 *
 * @param {typeof JSON.stringify} nativeStringify
 * @param {((text: string) => unknown) | undefined} rawJSON
 */
export function stringifier(nativeStringify, rawJSON) {
  let markerSeq = 0;

  /** @param {bigint} b the bigint as a raw JSON literal (only where the engine has `JSON.rawJSON`) */
  const rawLiteral = (b) => rawJSON('' + b);

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
  function stringify(value, replacer, space, options) {
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

  return stringify;
}
