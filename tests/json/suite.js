// Tests of snowmint/json as a browser-neutral ES module (no Node built-ins): the
// same functions run under node:test (tests/json/json.test.js) and in headless
// Chromium (tests/browser/json.test.js). Each takes the json module under test
// ({ parse, stringify, reviver }) and throws, or returns a list of failures.
// loadPaths() gives the module twice: as loaded on this engine (the engine paths
// where it has JSON.parse source access and JSON.rawJSON), and loaded once more
// with both features hidden, as on Node 20 (the scanner and the markers).

const MAX_SAFE = 9007199254740991n;

// ---- the two paths ------------------------------------------------------------

/** What this engine's JSON has: source text access in revivers, `JSON.rawJSON`. */
export function engineFeatures() {
  let source;
  try {
    JSON.parse('[1]', (k, v, context) => {
      if (k === '0') source = context?.source;
      return v;
    });
  } catch {
    // no source access
  }
  return { sourceAccess: source === '1', rawJSON: typeof JSON.rawJSON === 'function' };
}

/**
 * Imports snowmint/json twice: as it loads on this engine, and (a second
 * module instance, `?scanner`) while `JSON.parse` passes revivers no context
 * and `JSON.rawJSON` is absent, so that its load-time feature checks pick the
 * scanner and the markers. The engine's JSON is restored right after.
 * @param {string} moduleUrl absolute URL of npm/src/json.js
 * @returns {Promise<{ path: 'engine' | 'scanner', json: any, features: { sourceAccess: boolean, rawJSON: boolean } }[]>}
 */
export async function loadPaths(moduleUrl) {
  const engine = await import(moduleUrl);
  const parse = JSON.parse;
  const raw = Object.getOwnPropertyDescriptor(JSON, 'rawJSON');
  JSON.parse = (text, reviver) => {
    if (typeof reviver !== 'function') return parse(text);
    return parse(text, function (key, value) {
      return reviver.call(this, key, value);
    });
  };
  delete JSON.rawJSON;
  let scanner;
  try {
    scanner = await import(`${moduleUrl}?scanner`);
  } finally {
    JSON.parse = parse;
    if (raw) Object.defineProperty(JSON, 'rawJSON', raw);
  }
  return [
    { path: 'engine', json: engine, features: engineFeatures() },
    { path: 'scanner', json: scanner, features: { sourceAccess: false, rawJSON: false } },
  ];
}

// ---- small helpers ---------------------------------------------------------

/** Decodes bytes as a JS app sees a response body: UTF-8, invalid bytes as U+FFFD. */
export function decode(bytes) {
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes);
}

function show(v) {
  try {
    return typeof v === 'bigint' ? `${v}n` : typeof v === 'string' ? JSON.stringify(v) : Object.is(v, -0) ? '-0' : String(JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : x)) ?? v);
  } catch {
    return String(v);
  }
}

/**
 * Strict deep equality: Object.is on leaves (so -0 differs from 0, 1n from 1),
 * same array lengths, same own keys in the same order.
 * @returns {string | null} where they differ, or null
 */
export function diff(a, b, path = '$') {
  if (typeof a !== typeof b) return `${path}: ${show(a)} vs ${show(b)}`;
  if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b) ? null : `${path}: ${show(a)} vs ${show(b)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.join('\u0001') !== kb.join('\u0001')) return `${path}: keys ${show(ka)} vs ${show(kb)}`;
  for (const k of ka) {
    const d = diff(a[k], b[k], `${path}[${show(k)}]`);
    if (d) return d;
  }
  return null;
}

/**
 * Compares a lossless result with JSON.parse's: equal everywhere, except that
 * where JSON.parse gave a number for an unsafe integer the lossless result may
 * hold a bigint (or its literal as a string, in string mode) denoting it.
 * @param {'bigint' | 'string'} mode
 * @returns {string | null}
 */
export function losslessDiff(actual, native, mode, path = '$') {
  if (typeof native === 'number' && typeof actual === (mode === 'string' ? 'string' : 'bigint')) {
    let big;
    try {
      big = BigInt(actual);
    } catch {
      return `${path}: ${show(actual)} is not an integer`;
    }
    if (big >= -MAX_SAFE && big <= MAX_SAFE) return `${path}: ${show(actual)} is a safe integer, expected a number`;
    if (Number(big) !== native) return `${path}: ${show(actual)} does not round to ${native}`;
    if (mode === 'string' && !/^-?[1-9][0-9]*$/.test(actual)) return `${path}: ${show(actual)} is not a literal`;
    return null;
  }
  if (typeof actual !== typeof native) return `${path}: ${show(actual)} vs ${show(native)}`;
  if (typeof actual !== 'object' || actual === null || native === null) return Object.is(actual, native) ? null : `${path}: ${show(actual)} vs ${show(native)}`;
  if (Array.isArray(actual) !== Array.isArray(native)) return `${path}: array vs object`;
  const ka = Object.keys(actual);
  const kb = Object.keys(native);
  if (ka.join('\u0001') !== kb.join('\u0001')) return `${path}: keys ${show(ka)} vs ${show(kb)}`;
  for (const k of ka) {
    const d = losslessDiff(actual[k], native[k], mode, `${path}[${show(k)}]`);
    if (d) return d;
  }
  return null;
}

function fail(msg) {
  throw new Error(msg);
}
function eq(actual, expected, what) {
  const d = diff(actual, expected);
  if (d) fail(`${what}: ${d}`);
}
function throwsSyntax(fn, what) {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof SyntaxError)) fail(`${what}: threw ${e?.name} (${e?.message}), expected SyntaxError`);
    return e;
  }
  fail(`${what}: did not throw`);
}

/**
 * A parse error keeps JSON.parse's message and says where: JSON.parse's own
 * "at position N", or the position, line and column that parse() adds.
 */
function checkLocated(json, text, e, nativeError, what) {
  if (!e.message.startsWith(nativeError.message)) fail(`${what}: message ${show(e.message)} vs JSON.parse's ${show(nativeError.message)}`);
  const at = json.syntaxErrorOffset(text);
  if (at < 0 || at > text.length) fail(`${what}: syntaxErrorOffset ${at} for invalid text`);
  if (!/at position \d+/.test(e.message)) fail(`${what}: message ${show(e.message)} does not say where`);
}

// ---- conformance (JSONTestSuite) --------------------------------------------

/**
 * Checks one JSONTestSuite case; throws on failure.
 * `y_`: parse agrees with JSON.parse (bigints/strings for unsafe integers), in
 * both modes and through a reviver; `n_`: parse throws a SyntaxError as
 * JSON.parse does; `i_`: parse does what JSON.parse does, without crashing.
 * @param {{ parse: Function }} json
 * @param {{ name: string, bytes: Uint8Array }} c
 */
export function checkConformanceCase(json, c) {
  const text = decode(c.bytes);
  let native;
  let nativeError = null;
  try {
    native = JSON.parse(text);
  } catch (e) {
    nativeError = e;
  }
  const kind = c.name[0];
  if (kind === 'y' && nativeError) fail(`${c.name}: JSON.parse itself rejects it (${nativeError.message})`);
  if (kind === 'n' && !nativeError) fail(`${c.name}: JSON.parse itself accepts it`);
  if (nativeError) {
    const e = throwsSyntax(() => json.parse(text), c.name);
    checkLocated(json, text, e, nativeError, c.name);
    throwsSyntax(() => json.parse(text, (k, v) => v), `${c.name} (with reviver)`);
    throwsSyntax(() => json.parse(text, null, { bigint: 'string' }), `${c.name} (string mode)`);
    return 'rejected';
  }
  if (json.syntaxErrorOffset(text) !== -1) fail(`${c.name}: syntaxErrorOffset rejects text JSON.parse accepts`);
  const checks = [
    ['bigint', () => json.parse(text)],
    ['string', () => json.parse(text, null, { bigint: 'string' })],
    ['bigint', () => json.parse(text, (k, v) => v)],
    ['string', () => json.parse(text, { bigint: 'string' })],
    ['string', () => json.parse(text, (k, v) => v, { bigint: 'string' })],
  ];
  for (const [mode, run] of checks) {
    let actual;
    try {
      actual = run();
    } catch (e) {
      fail(`${c.name}: threw ${e?.name}: ${e?.message}`);
    }
    const d = losslessDiff(actual, native, mode);
    if (d) fail(`${c.name} (${mode} mode): ${d}`);
  }
  return 'accepted';
}

/**
 * Runs every case; returns counts and failures (an empty list when all pass).
 * @param {{ parse: Function }} json
 * @param {{ name: string, bytes: Uint8Array }[]} cases
 */
export function runConformance(json, cases) {
  const counts = { y: 0, n: 0, i: 0, iAccepted: 0, iRejected: 0 };
  const failures = [];
  for (const c of cases) {
    const kind = c.name[0];
    if (!(kind in counts)) continue;
    counts[kind]++;
    try {
      const r = checkConformanceCase(json, c);
      if (kind === 'i') counts[r === 'accepted' ? 'iAccepted' : 'iRejected']++;
    } catch (e) {
      failures.push(e.message);
    }
  }
  return { counts, failures };
}

// ---- unit checks ---------------------------------------------------------------

/**
 * Unit checks: [name, fn(json, features)] pairs; each fn throws on failure.
 * `features` says which paths the module instance uses (see loadPaths).
 */
export const unitChecks = [
  [
    'parse: 4,214 integers of 16-20 digits and the 64-bit edges are exact (the two-halves path and BigInt())',
    (json) => {
      const edges = [
        '9007199254740993',
        '9223372036854775807',
        '9223372036854775808',
        '-9223372036854775808',
        '-9223372036854775809',
        '9999999999999999999',
        '-9999999999999999999',
        '18446744073709551615',
        '18446744073709551616',
        '4294967296000000000',
        '4294967295999999999',
        '1000000000000000000',
        '-1000000000000000000',
        '1000000000065536000',
      ];
      // Deterministic literals of every length from 16 to 20 digits, either sign; more
      // than the 4,096 markers that parse keeps made.
      const literals = [...edges];
      let x = 0x2545f4914f6cdd1dn;
      for (let i = 0; i < 4200; i++) {
        x = (x * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
        const digits = 16 + (i % 5);
        const v = 10n ** BigInt(digits - 1) + (x % (9n * 10n ** BigInt(digits - 1)));
        literals.push((i & 8 ? '-' : '') + v);
      }
      // A literal within ±(2^53 - 1) stays a number, as JSON.parse gives it.
      const safe = (l) => BigInt(l) >= -9007199254740991n && BigInt(l) <= 9007199254740991n;
      const text = `[${literals.join(',')}]`;
      eq(
        json.parse(text),
        literals.map((l) => (safe(l) ? Number(l) : BigInt(l))),
        'parse',
      );
      eq(
        json.parse(text, { bigint: 'string' }),
        literals.map((l) => (safe(l) ? Number(l) : l)),
        'as strings',
      );
    },
  ],
  [
    'parse: unsafe integers become bigint, everything else as JSON.parse',
    (json) => {
      const t =
        '{"a":12345678901234567890,"b":[-9007199254740992,9007199254740991,-9007199254740991,9007199254740992,9999999999999999,1e30,12345678901234567890.5,1234567890123456789e2,-0,0.30000000000000004,-0.0,1E400],"c":"12345678901234567890"}';
      eq(
        json.parse(t),
        {
          a: 12345678901234567890n,
          b: [
            -9007199254740992n,
            9007199254740991,
            -9007199254740991,
            9007199254740992n,
            9999999999999999n,
            1e30,
            // biome-ignore lint/correctness/noPrecisionLoss: doubles that are not exact integers must stay numbers
            12345678901234567890.5,
            // biome-ignore lint/correctness/noPrecisionLoss: as above
            1234567890123456789e2,
            -0,
            0.30000000000000004,
            -0,
            Infinity,
          ],
          c: '12345678901234567890',
        },
        'parse',
      );
      if (!Object.is(json.parse('-0'), -0)) fail('-0 at the root');
      if (!Object.is(json.parse('[-0]')[0], -0)) fail('-0 in an array');
      eq(json.parse(' -98765432109876543210 '), -98765432109876543210n, 'root integer');
      eq(json.parse('123456789012345678901234567890'), 123456789012345678901234567890n, 'beyond 64 bits');
      eq(json.parse('[\t12345678901234567890\r\n,\n-12345678901234567890 ]'), [12345678901234567890n, -12345678901234567890n], 'whitespace');
      eq(
        json.parse(t, (k, v) => v),
        json.parse(t),
        'through a reviver',
      );
      eq(
        json.parse(t, (k, v) => v, { bigint: 'string' }),
        json.parse(t, { bigint: 'string' }),
        'string mode through a reviver',
      );
      eq(
        json.parse('[18446744073709551615,18446744073709551616,-9223372036854775808,-18446744073709551617,99999999999999999999]'),
        [18446744073709551615n, 18446744073709551616n, -9223372036854775808n, -18446744073709551617n, 99999999999999999999n],
        'around 2^64',
      );
    },
  ],
  [
    'parse: a reviver gets context.source where the engine passes context, the literal for a bigint',
    (json, features) => {
      const seen = [];
      json.parse('{"a":12345678901234567890,"b":[1.50,-0,"x"],"c":1e400}', function (k, v, context) {
        // biome-ignore lint/complexity/noArguments: the number of arguments is what is checked
        seen.push([k, arguments.length, context?.source]);
        return v;
      });
      const expected = features.sourceAccess
        ? [
            ['a', 3, '12345678901234567890'],
            ['0', 3, '1.50'],
            ['1', 3, '-0'],
            ['2', 3, '"x"'],
            ['b', 3, undefined],
            ['c', 3, '1e400'],
            ['', 3, undefined],
          ]
        : ['a', '0', '1', '2', 'b', 'c', ''].map((k) => [k, 2, undefined]);
      eq(seen, expected, 'reviver arguments');
    },
  ],
  [
    'parse: string mode and options in the reviver slot',
    (json) => {
      const t = '[12345678901234567890,-12345678901234567890,1,"x"]';
      eq(json.parse(t, null, { bigint: 'string' }), ['12345678901234567890', '-12345678901234567890', 1, 'x'], 'string mode');
      eq(json.parse(t, { bigint: 'string' }), ['12345678901234567890', '-12345678901234567890', 1, 'x'], 'options as 2nd argument');
      eq(json.parse(t, null, { bigint: 'bigint' }), [12345678901234567890n, -12345678901234567890n, 1, 'x'], 'bigint mode');
    },
  ],
  [
    'parse: digits inside strings and keys stay as they are',
    (json) => {
      const t = '{"12345678901234567890":"a: 12345678901234567890, [12345678901234567891]","k":[12345678901234567892],"s":"\\" ,12345678901234567893 ","e":"\\\\"}';
      eq(json.parse(t), { '12345678901234567890': 'a: 12345678901234567890, [12345678901234567891]', k: [12345678901234567892n], s: '" ,12345678901234567893 ', e: '\\' }, 'strings');
      eq(json.parse('"[12345678901234567890]"'), '[12345678901234567890]', 'embedded JSON');
      eq(
        json.parse('["\\u0000", 12345678901234567890, "\\u0000\\u00001", "\u009f1", "\\u009f0", "\\u009F0"]'),
        ['\u0000', 12345678901234567890n, '\u0000\u00001', '\u009f1', '\u009f0', '\u009f0'],
        'marker look-alikes',
      );
      eq(
        json.parse('{"__proto__":12345678901234567890}'),
        JSON.parse('{"__proto__":0}', (k, v) => (k === '__proto__' ? 12345678901234567890n : v)),
        '__proto__ key',
      );
      const o = json.parse('{"__proto__":12345678901234567890}');
      // biome-ignore lint/suspicious/noProto: the test is that __proto__ stays an own data property
      if (Object.getPrototypeOf(o) !== Object.prototype || o.__proto__ !== 12345678901234567890n) fail('__proto__ must stay an own data property');
    },
  ],
  [
    "parse: malformed input throws JSON.parse's SyntaxError",
    (json) => {
      const bad = [
        '{12345678901234567890:1}',
        '{"a":1, 12345678901234567890 : 2}',
        '[012345678901234567890]',
        '[-012345678901234567890]',
        '[12345678901234567890',
        '[12345678901234567890,]',
        '[12345678901234567890.]',
        '[12345678901234567890e]',
        '[--12345678901234567890]',
        '[1 12345678901234567890]',
        '["abc 12345678901234567890]',
        '["\t12345678901234567890"]',
        '[12345678901234567890] x',
        '[+12345678901234567890]',
        '',
        '{"a":12345678901234567890}}',
      ];
      for (const t of bad) {
        let nativeMsg = null;
        try {
          JSON.parse(t);
        } catch (e) {
          nativeMsg = e.message;
        }
        if (nativeMsg === null) fail(`JSON.parse accepts ${show(t)}`);
        const e = throwsSyntax(() => json.parse(t), show(t));
        checkLocated(json, t, e, { message: nativeMsg }, show(t));
        throwsSyntax(() => json.parse(t, (k, v) => v), `${show(t)} with reviver`);
      }
    },
  ],
  [
    'parse: a value that is not a string is converted as JSON.parse converts it (Symbol: TypeError)',
    (json) => {
      const values = [Symbol('s'), undefined, function f() {}, () => 1, 10n, 12345678901234567890n, null, true, 5, { toString: () => '[1]' }, { toString: () => ({}) }, ['1'], new Date(0)];
      for (const v of values) {
        const outcome = (f) => {
          try {
            return { value: f(v) };
          } catch (e) {
            return { error: e.constructor };
          }
        };
        const native = outcome(JSON.parse);
        const ours = outcome(json.parse);
        const what = typeof v === 'symbol' ? 'Symbol()' : typeof v === 'bigint' ? `${v}n` : typeof v === 'function' ? 'a function' : show(v);
        if (native.error) {
          if (ours.error !== native.error) fail(`parse(${what}): ${native.error.name} expected, as JSON.parse throws, got ${ours.error ? ours.error.name : `the value ${show(ours.value)}`}`);
        } else if (ours.error) {
          fail(`parse(${what}) threw ${ours.error.name}; JSON.parse gives ${show(native.value)}`);
        } else if (typeof v === 'bigint' && v > 9007199254740991n) {
          eq(ours.value, v, `parse(${what}) keeps the integer exact`);
        } else {
          eq(ours.value, native.value, `parse(${what})`);
        }
      }
    },
  ],
  [
    'parse: reviver semantics kept, and it sees bigints',
    (json) => {
      const seen = [];
      const out = json.parse('{"a":[12345678901234567890,2],"b":{"c":-12345678901234567890},"d":1}', (k, v) => {
        seen.push([k, typeof v === 'object' && v !== null ? (Array.isArray(v) ? 'array' : 'object') : v]);
        if (k === 'd') return undefined;
        if (typeof v === 'bigint') return v + 1n;
        return v;
      });
      eq(out, { a: [12345678901234567891n, 2], b: { c: -12345678901234567889n } }, 'result');
      eq(
        seen,
        [
          ['0', 12345678901234567890n],
          ['1', 2],
          ['a', 'array'],
          ['c', -12345678901234567890n],
          ['b', 'object'],
          ['d', 1],
          ['', 'object'],
        ],
        'call order',
      );
      eq(
        json.parse('[1,12345678901234567890]', (k, v) => (k === '0' ? undefined : v)),
        JSON.parse('[1,2]', (k, v) => (k === '0' ? undefined : k === '1' ? 12345678901234567890n : v)),
        'deleted element',
      );
      let err = null;
      try {
        json.parse('[12345678901234567890]', () => {
          throw new SyntaxError('mine');
        });
      } catch (e) {
        err = e;
      }
      if (err?.message !== 'mine') fail(`an error thrown by the reviver must propagate, got ${err?.message}`);
    },
  ],
  [
    'parse: deep nesting',
    (json) => {
      const depth = 3000;
      const t = '['.repeat(depth) + '12345678901234567890' + ']'.repeat(depth);
      let v = json.parse(t);
      for (let i = 0; i < depth; i++) v = v[0];
      eq(v, 12345678901234567890n, 'innermost');
    },
  ],
  [
    'stringify: identical to JSON.stringify without bigints',
    (json) => {
      const date = new Date(Date.UTC(2024, 0, 2, 3, 4, 5, 6));
      const values = [
        { a: 1, b: [true, null, 'x', { c: undefined, d: () => 1 }], e: -0, f: NaN, g: Infinity, h: date, i: 'é\u2028"\\\ud800', 2: 'two' },
        [undefined, () => {}, Symbol('s')],
        {
          toJSON(key) {
            return { key, n: new Number(3), s: new String('s'), b: new Boolean(false) };
          },
        },
        undefined,
        'plain',
        42,
        null,
        [],
        {},
      ];
      const replacers = [undefined, null, (k, v) => (k === 'a' ? undefined : typeof v === 'number' ? v * 2 : v), ['b', 'a', 2, 'h', 'key'], [], ['zzz']];
      const spaces = [undefined, 0, 2, 20, -1, '\t', 'abcdefghijklmno', '', new Number(3), new String('--')];
      for (const v of values) {
        for (const r of replacers) {
          for (const s of spaces) {
            const expected = JSON.stringify(v, r, s);
            const actual = json.stringify(v, r, s);
            if (actual !== expected) fail(`stringify(${show(v)}, ${show(r)}, ${show(s)}): ${show(actual)} vs ${show(expected)}`);
          }
        }
      }
    },
  ],
  [
    'stringify: bigints as decimal strings, nested, with replacer and space',
    (json) => {
      const v = { id: 1234567890123456789n, small: 5n, neg: -98765432109876543210n, obj: Object(7n), list: [1n, [2n, { deep: 3n }]], n: 1 };
      const asStrings = (x) => JSON.stringify(x, (k, y) => (typeof y === 'bigint' ? String(y) : y instanceof BigInt ? String(y.valueOf()) : y));
      const expected = '{"id":"1234567890123456789","small":"5","neg":"-98765432109876543210","obj":"7","list":["1",["2",{"deep":"3"}]],"n":1}';
      if (json.stringify(v) !== expected) fail(`default: ${json.stringify(v)}`);
      if (json.stringify(v) !== asStrings(v)) fail('default vs replacer');
      if (json.stringify(v, null, 2) !== JSON.stringify(JSON.parse(expected), null, 2)) fail('space 2');
      if (json.stringify(v, null, '\t') !== JSON.stringify(JSON.parse(expected), null, '\t')) fail('space tab');
      if (json.stringify(v, ['list', 'id', 'deep']) !== '{"list":["1",["2",{"deep":"3"}]],"id":"1234567890123456789"}') fail(`array replacer: ${json.stringify(v, ['list', 'id', 'deep'])}`);
      const seen = [];
      const out = json.stringify(v, (k, x) => {
        if (typeof x === 'bigint') seen.push(k);
        return k === 'small' ? undefined : typeof x === 'bigint' ? x * 2n : x;
      });
      if (out !== '{"id":"2469135780246913578","neg":"-197530864219753086420","obj":"7","list":["2",["4",{"deep":"6"}]],"n":1}') fail(`replacer fn: ${out}`);
      eq(seen, ['id', 'small', 'neg', '0', '0', 'deep'], 'the replacer sees bigints');
      if (json.stringify(12n) !== '"12"') fail('root bigint');
      if (json.stringify(Object(12n)) !== '"12"') fail('root BigInt object');
      // As in JSON.stringify, a value's toJSON runs once: a toJSON that returns a bigint makes it throw.
      let toJSONError = null;
      try {
        json.stringify({ a: { toJSON: () => 3n } });
      } catch (e) {
        toJSONError = e;
      }
      if (!(toJSONError instanceof TypeError)) fail('a toJSON returning a bigint: TypeError expected, as JSON.stringify');
      if ('toJSON' in BigInt.prototype) fail('BigInt.prototype.toJSON left behind');
    },
  ],
  [
    'stringify: bigints as raw literals with {bigint: "number"}',
    (json) => {
      const v = { id: 1234567890123456789n, neg: -98765432109876543210n, s: '\u0000snowmint:0:5', t: '"\u0000snowmint:', list: [1n, Object(2n)] };
      const expected = '{"id":1234567890123456789,"neg":-98765432109876543210,"s":"\\u0000snowmint:0:5","t":"\\"\\u0000snowmint:","list":[1,2]}';
      for (let i = 0; i < 3; i++) {
        if (json.stringify(v, null, undefined, { bigint: 'number' }) !== expected) fail(`raw: ${json.stringify(v, null, undefined, { bigint: 'number' })}`);
      }
      if (json.stringify(v, { bigint: 'number' }) !== expected) fail('options as 2nd argument');
      if (
        json.stringify(v, null, 1, { bigint: 'number' }) !==
        JSON.stringify(JSON.parse(expected), null, 1).replace('"id": 1234567890123456800', '"id": 1234567890123456789').replace('"neg": -98765432109876540000', '"neg": -98765432109876543210')
      )
        fail('raw with space');
      if (
        json.stringify(v, (k, x) => (typeof x === 'bigint' ? x + 1n : x), undefined, { bigint: 'number' }) !==
        expected.replace('1234567890123456789', '1234567890123456790').replace('-98765432109876543210', '-98765432109876543209').replace('[1,', '[2,')
      )
        fail('raw with replacer');
      if (json.stringify(5n, { bigint: 'number' }) !== '5') fail('root raw');
      eq(json.parse(json.stringify(v, { bigint: 'number' })), { id: 1234567890123456789n, neg: -98765432109876543210n, s: v.s, t: v.t, list: [1, 2] }, 'round trip');
      if ('toJSON' in BigInt.prototype) fail('BigInt.prototype.toJSON left behind');
    },
  ],
  [
    'stringify: toJSON of the user, errors, and no global pollution',
    (json) => {
      const cyclic = { id: 1n };
      cyclic.self = cyclic;
      let err = null;
      try {
        json.stringify(cyclic);
      } catch (e) {
        err = e;
      }
      if (!(err instanceof TypeError)) fail('cyclic: TypeError expected');
      if ('toJSON' in BigInt.prototype) fail('BigInt.prototype.toJSON left behind after an error');
      let threw = false;
      try {
        JSON.stringify({ a: 1n });
      } catch {
        threw = true;
      }
      if (!threw) fail('JSON.stringify must still throw on bigint');
      // A toJSON of the user's on BigInt.prototype wins, as in JSON.stringify.
      const desc = Object.getOwnPropertyDescriptor(BigInt.prototype, 'toJSON');
      try {
        BigInt.prototype.toJSON = function () {
          return `big:${this}`;
        };
        if (json.stringify({ a: 1n }) !== JSON.stringify({ a: 1n })) fail('user toJSON');
        if (json.stringify({ a: 1n }) !== '{"a":"big:1"}') fail('user toJSON output');
        if (typeof BigInt.prototype.toJSON !== 'function' || BigInt.prototype.toJSON.call(2n) !== 'big:2') fail('user toJSON replaced');
      } finally {
        if (desc) Object.defineProperty(BigInt.prototype, 'toJSON', desc);
        else delete BigInt.prototype.toJSON;
      }
      const withToJSON = { when: new Date(0), wrapped: { toJSON: (k) => `key=${k}`, id: 9n } };
      if (json.stringify(withToJSON) !== '{"when":"1970-01-01T00:00:00.000Z","wrapped":"key=wrapped"}') fail(`toJSON: ${json.stringify(withToJSON)}`);
    },
  ],
  [
    'stringify: re-entered from a toJSON or replacer, each call keeps its own mode',
    (json, features) => {
      const number = { bigint: 'number' };
      const inner = { id: 12345678901234567890n };
      // A default-mode call whose toJSON calls stringify in number mode, and the reverse.
      const rawInside = { a: 1n, nested: { toJSON: () => json.stringify(inner, number) } };
      eq(json.stringify(rawInside), JSON.stringify({ a: '1', nested: '{"id":12345678901234567890}' }), 'number mode inside the default mode');
      const stringInside = { a: 1n, nested: { toJSON: () => json.stringify(inner) } };
      eq(json.stringify(stringInside, number), '{"a":1,"nested":' + JSON.stringify('{"id":"12345678901234567890"}') + '}', 'default mode inside number mode');
      const sameInside = { a: 2n, nested: { toJSON: () => json.stringify(inner, number) } };
      eq(json.stringify(sameInside, number), '{"a":2,"nested":' + JSON.stringify('{"id":12345678901234567890}') + '}', 'number mode inside number mode');
      // From a replacer function, which sees bigints as they are in both calls.
      const viaReplacer = json.stringify({ a: 3n, b: 'x' }, (k, v) => (k === 'b' ? json.stringify([4n], number) : v));
      eq(viaReplacer, '{"a":"3","b":"[4]"}', 'number mode inside a replacer');
      eq(
        json.stringify({ a: 5n, b: 'x' }, (k, v) => (k === 'b' ? json.stringify([6n]) : v), undefined, number),
        '{"a":5,"b":' + JSON.stringify('["6"]') + '}',
        'default mode inside a replacer in number mode',
      );
      if ('toJSON' in BigInt.prototype) fail('BigInt.prototype.toJSON left behind');
      // The global JSON.stringify in a toJSON during a number-mode call: with markers, a
      // TypeError that says so, not a loop; with JSON.rawJSON, the raw literal.
      let err = null;
      let out;
      try {
        out = json.stringify({ a: 1n, b: { toJSON: () => JSON.stringify({ c: 2n }) } }, number);
      } catch (e) {
        err = e;
      }
      if (features.rawJSON) eq(out, '{"a":1,"b":"{\\"c\\":2}"}', 'global JSON.stringify inside, with JSON.rawJSON');
      else if (!(err instanceof TypeError) || !/serialized a bigint itself/.test(err.message)) fail(`global JSON.stringify inside: TypeError expected, got ${err}`);
      if ('toJSON' in BigInt.prototype) fail('BigInt.prototype.toJSON left behind after the TypeError');
    },
  ],
  [
    'reviver(fields): named decimal-string fields become bigint',
    (json) => {
      const t = '{"id":"175928847299117063","author_id":"-42","name":"123","guild_id":"007","ids":["1","x",2],"nested":{"id":"18446744073709551616"},"other":"9"}';
      const expected = { id: 175928847299117063n, author_id: -42n, name: '123', guild_id: '007', ids: [1n, 'x', 2], nested: { id: 18446744073709551616n }, other: '9' };
      eq(JSON.parse(t, json.reviver(['id', 'author_id', 'guild_id', 'ids'])), expected, 'JSON.parse + reviver');
      eq(json.parse(t, json.reviver(new Set(['id', 'author_id', 'guild_id', 'ids']))), expected, 'parse + reviver (Set)');
      eq(JSON.parse('{"id":"5","x":"6"}', json.reviver('id')), { id: 5n, x: '6' }, 'single name');
      eq(JSON.parse('{"id":5}', json.reviver(['id'])), { id: 5 }, 'numbers untouched');
    },
  ],
];

/** Runs every unit check; returns the names that passed and the failures. */
export function runUnitChecks(json, features) {
  const passed = [];
  const failures = [];
  for (const [name, fn] of unitChecks) {
    try {
      fn(json, features);
      passed.push(name);
    } catch (e) {
      failures.push(`${name}: ${e?.message}`);
    }
  }
  return { passed, failures };
}

// ---- property test ------------------------------------------------------------

/** mulberry32: a small seeded PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const STRING_BITS = [
  'a',
  'id',
  ' ',
  '"',
  '\\',
  '/',
  '\n',
  '\u0000',
  '\u001f',
  '\u009f',
  'é',
  '\u2028',
  '😀',
  '\ud800',
  '12345678901234567890',
  '-9007199254740993',
  ':',
  ',',
  '[',
  '{',
  '\\u0000',
  '0',
];

/**
 * A random JSON-able value carrying bigints (always outside the safe range, so
 * that they come back as bigints) besides numbers, strings, booleans, null.
 */
export function randomValue(rnd, depth = 0) {
  const pick = (n) => Math.floor(rnd() * n);
  const str = () => {
    let s = '';
    for (let i = pick(6); i > 0; i--) s += STRING_BITS[pick(STRING_BITS.length)];
    return s;
  };
  const big = () => {
    const kind = pick(4);
    let v;
    if (kind === 0) v = MAX_SAFE + 1n + BigInt(pick(1000));
    else if (kind === 1) v = (BigInt(pick(2 ** 31)) << 32n) | BigInt(pick(2 ** 32)) | (1n << 62n);
    else if (kind === 2) v = (1n << 64n) - 1n - BigInt(pick(1000));
    else v = BigInt('9' + '0123456789'.repeat(2 + pick(5)));
    return rnd() < 0.3 ? -v : v;
  };
  const r = pick(depth > 4 ? 6 : 9);
  switch (r) {
    case 0:
      return big();
    case 1:
      return rnd() < 0.5 ? big() : pick(2 ** 31) - 2 ** 30;
    case 2:
      return [0.5, 1e21, 1e-7, 0.30000000000000004, 9007199254740991, -9007199254740991, 123.456, 5e-324, 1.7976931348623157e308][pick(9)];
    case 3:
      return str();
    case 4:
      return rnd() < 0.5;
    case 5:
      return null;
    case 6:
    case 7: {
      const o = {};
      for (let i = pick(5); i > 0; i--) o[rnd() < 0.1 ? String(pick(100)) : str()] = randomValue(rnd, depth + 1);
      return o;
    }
    default: {
      const a = [];
      for (let i = pick(5); i > 0; i--) a.push(randomValue(rnd, depth + 1));
      return a;
    }
  }
}

function countBigints(v) {
  if (typeof v === 'bigint') return 1;
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const k of Object.keys(v)) n += countBigints(v[k]);
  return n;
}

function bigintsToStrings(v) {
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return v.map(bigintsToStrings);
  if (typeof v === 'object' && v !== null) {
    const o = {};
    for (const k of Object.keys(v)) o[k] = bigintsToStrings(v[k]);
    return o;
  }
  return v;
}

/**
 * parse(stringify(v, {bigint:'number'})) deep-equals v, and
 * parse(stringify(v)) deep-equals v with bigints as decimal strings,
 * for `runs` random values; with and without indentation.
 * @returns {{ runs: number, bigints: number, failures: string[] }}
 */
export function propertyTest(json, { seed = 0x5eed, runs = 500 } = {}) {
  const rnd = prng(seed);
  const failures = [];
  let bigints = 0;
  for (let i = 0; i < runs && failures.length < 5; i++) {
    const v = randomValue(rnd);
    const space = [undefined, 2, '\t'][i % 3];
    const raw = json.stringify(v, null, space, { bigint: 'number' });
    bigints += countBigints(v);
    let d = diff(json.parse(raw), v);
    if (d) failures.push(`run ${i} (raw${space === undefined ? '' : ', space'}): ${d}; text ${raw}`);
    const asStrings = json.stringify(v, null, space);
    if (asStrings !== JSON.stringify(bigintsToStrings(v), null, space)) failures.push(`run ${i}: default stringify differs from JSON.stringify of the string form`);
    d = diff(json.parse(asStrings), bigintsToStrings(v));
    if (d) failures.push(`run ${i} (strings): ${d}`);
  }
  return { runs, bigints, failures };
}

// ---- fuzz: random JSON texts against JSON.parse and a BigInt-aware model ------

const WHITESPACE = ['', '', '', ' ', '\n', '\t', '\r\n', '  '];
const STRING_PIECES = [
  'a',
  'id',
  ' ',
  '12345678901234567890',
  ': 12345678901234567890,',
  '[-98765432109876543210]',
  '0.12345678901234567',
  '\u009f0',
  '\u009f',
  '\u0000',
  '\u0000\u00001',
  '"',
  '\\',
  '/',
  '\n',
  '\u001f',
  'é',
  '\u2028',
  '😀',
  '\ud800',
  '東京',
];

/** Writes `s` as a JSON string literal, escaping each character in one of its allowed ways at random. */
function encodeString(rnd, s) {
  let out = '"';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    const hex = (u) => `\\u${u.toString(16).padStart(4, '0')}`;
    const escaped = ch.length === 2 ? hex(c) + hex(ch.charCodeAt(1)) : rnd() < 0.5 ? hex(c) : hex(c).toUpperCase().replace('\\U', '\\u');
    if (ch === '"' || ch === '\\') out += rnd() < 0.5 ? `\\${ch}` : escaped;
    else if (c < 0x20) out += ch === '\n' && rnd() < 0.5 ? '\\n' : escaped;
    else if (ch === '/' && rnd() < 0.3) out += '\\/';
    else out += rnd() < 0.2 ? escaped : ch;
  }
  return `${out}"`;
}

/**
 * A random number literal with the value JSON.parse gives it and, for an
 * integer literal beyond ±(2^53 - 1), the bigint it stands for.
 */
function randomNumber(rnd, unsafe) {
  const pick = (n) => Math.floor(rnd() * n);
  const digits = (n) => {
    let d = String(1 + pick(9));
    while (d.length < n) d += pick(10);
    return d;
  };
  const sign = rnd() < 0.3 ? '-' : '';
  let literal;
  switch (unsafe && rnd() < 0.4 ? 7 : pick(7)) {
    case 0:
      literal = sign + (rnd() < 0.1 ? '0' : digits(1 + pick(15)));
      break;
    case 1: // around the safe limit, still safe
      literal = sign + String(9007199254740991 - pick(1000));
      break;
    case 2: // a double as JavaScript writes it: up to 17 significant digits
      literal = String((rnd() - 0.5) * 10 ** (pick(40) - 20));
      break;
    case 3: // 16-17 significant digits, fixed notation
      literal = sign + (rnd() * 10 ** pick(8)).toPrecision(16 + pick(2)).replace(/e\+?/, 'e');
      break;
    case 4: // long integer part with a fraction or an exponent: a double, never a bigint
      literal = sign + digits(16 + pick(10)) + (rnd() < 0.5 ? `.${digits(1 + pick(3))}` : `${rnd() < 0.5 ? 'e' : 'E'}${['', '+', '-'][pick(3)]}${pick(30)}`);
      break;
    case 5:
      literal = `${sign}0.${'0'.repeat(pick(5))}${digits(1 + pick(17))}`;
      break;
    case 6:
      literal = `${sign}${pick(10)}e${['', '+', '-'][pick(3)]}${pick(400)}`;
      break;
    default: {
      // beyond the safe range: 16 to 40 digits
      const n = 16 + pick(25);
      let d = digits(n);
      if (n === 16 && d <= '9007199254740991') d = String(9007199254740992n + BigInt(pick(1e6)));
      literal = sign + d;
    }
  }
  const value = Number(literal);
  if (!/^-?[0-9]+$/.test(literal) || Number.isSafeInteger(value)) return { literal, value };
  // An integer literal beyond the safe range (JavaScript writes doubles from 1e21 down that way too).
  if (!unsafe) return { literal: `${literal}.0`, value };
  return { literal, value, big: BigInt(literal) };
}

/**
 * A random JSON text with its model: `bigint` (what parse must give in bigint
 * mode), `string` (in string mode); unsafe integer literals only if `unsafe`.
 */
export function randomDocument(rnd, unsafe) {
  const pick = (n) => Math.floor(rnd() * n);
  const ws = () => WHITESPACE[pick(WHITESPACE.length)];
  const str = () => {
    let s = '';
    for (let i = pick(5); i > 0; i--) s += STRING_PIECES[pick(STRING_PIECES.length)];
    return s;
  };
  const define = (o, k, v) => Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  let bigints = 0;
  const gen = (depth) => {
    const r = pick(depth > 3 ? 5 : 8);
    if (r <= 1) {
      const { literal, value, big } = randomNumber(rnd, unsafe);
      if (big === undefined) return { text: literal, bigint: value, string: value };
      bigints++;
      return { text: literal, bigint: big, string: literal };
    }
    if (r === 2) {
      const s = str();
      return { text: encodeString(rnd, s), bigint: s, string: s };
    }
    if (r === 3) {
      const v = [true, false, null][pick(3)];
      return { text: String(v), bigint: v, string: v };
    }
    if (r === 4 || r === 5) {
      const items = Array.from({ length: pick(5) }, () => gen(depth + 1));
      return {
        text: `[${ws()}${items.map((x) => x.text).join(`${ws()},${ws()}`)}${ws()}]`,
        bigint: items.map((x) => x.bigint),
        string: items.map((x) => x.string),
      };
    }
    const keys = ['id', 'a', '12345678901234567890', '__proto__', '0', '7', 'é'];
    const o = { text: [], bigint: {}, string: {} };
    for (let i = pick(5); i > 0; i--) {
      const k = rnd() < 0.5 ? keys[pick(keys.length)] : str(); // repeated keys: the last one wins, in the first one's place
      const v = gen(depth + 1);
      o.text.push(`${encodeString(rnd, k)}${ws()}:${ws()}${v.text}`);
      define(o.bigint, k, v.bigint);
      define(o.string, k, v.string);
    }
    return { text: `{${ws()}${o.text.join(`${ws()},${ws()}`)}${ws()}}`, bigint: o.bigint, string: o.string };
  };
  const doc = gen(0);
  return { text: ws() + doc.text + ws(), bigint: doc.bigint, string: doc.string, bigints };
}

/** Breaks a text at random: drops, inserts or replaces a character, or cuts it short. */
function mutate(rnd, text) {
  const pick = (n) => Math.floor(rnd() * n);
  const at = pick(text.length + 1);
  const ch = '{}[],:"\\0123456789-+.eE tfn\u009f'[pick(29)];
  switch (pick(4)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + ch + text.slice(at);
    case 2:
      return text.slice(0, at) + ch + text.slice(at + 1);
    default:
      return text.slice(0, at);
  }
}

/**
 * Random documents: with safe numbers only, parse must deep-equal JSON.parse
 * (Object.is on leaves, key order); with unsafe integers, it must equal the
 * generator's BigInt-aware model, in both modes and through a reviver; a
 * mutated text must be rejected exactly when JSON.parse rejects it, else
 * agree with it up to the bigints.
 * @returns {{ runs: number, bigints: number, mutantsRejected: number, failures: string[] }}
 */
export function fuzzParse(json, { seed = 0xf022, runs = 1000 } = {}) {
  const rnd = prng(seed);
  const failures = [];
  let bigints = 0;
  let mutantsRejected = 0;
  const identity = (k, v) => v;
  for (let i = 0; i < runs && failures.length < 5; i++) {
    const unsafe = i % 2 === 1;
    const doc = randomDocument(rnd, unsafe);
    bigints += doc.bigints;
    const { text } = doc;
    const variants = [
      ['bigint', () => json.parse(text), doc.bigint],
      ['string', () => json.parse(text, { bigint: 'string' }), doc.string],
      ['bigint, reviver', () => json.parse(text, identity), doc.bigint],
      ['string, reviver', () => json.parse(text, identity, { bigint: 'string' }), doc.string],
    ];
    for (const [what, run, expected] of variants) {
      let d;
      try {
        const actual = run();
        d = unsafe ? diff(actual, expected) : diff(actual, JSON.parse(text));
      } catch (e) {
        d = `threw ${e?.name}: ${e?.message}`;
      }
      if (d) failures.push(`run ${i} (${what}${unsafe ? ', vs the model' : ', vs JSON.parse'}): ${d}; text ${JSON.stringify(text).slice(0, 400)}`);
    }
    const broken = mutate(rnd, text);
    let nativeError = null;
    let native;
    try {
      native = JSON.parse(broken);
    } catch (e) {
      nativeError = e;
    }
    try {
      if (nativeError) {
        mutantsRejected++;
        const e = throwsSyntax(() => json.parse(broken), 'mutant');
        checkLocated(json, broken, e, nativeError, 'mutant');
        throwsSyntax(() => json.parse(broken, identity), 'mutant with a reviver');
      } else {
        const d = losslessDiff(json.parse(broken), native, 'bigint') ?? losslessDiff(json.parse(broken, identity), native, 'bigint');
        if (d) fail(d);
      }
    } catch (e) {
      failures.push(`run ${i} (mutant): ${e?.message}; text ${JSON.stringify(broken).slice(0, 400)}`);
    }
  }
  return { runs, bigints, mutantsRejected, failures };
}
