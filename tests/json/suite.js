// Tests of snowmint/json as a browser-neutral ES module (no Node built-ins): the
// same functions run under node:test (tests/json/json.test.js) and in headless
// Chromium (tests/browser/json.test.js). Each takes the json module under test
// ({ parse, stringify, reviver }) and throws, or returns a list of failures.

const MAX_SAFE = 9007199254740991n;

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

/** Unit checks: [name, fn(json)] pairs; each fn throws on failure. */
export const unitChecks = [
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
    (json) => {
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
      // The global JSON.stringify in a toJSON during a number-mode call: a TypeError that says so, not a loop.
      let err = null;
      try {
        json.stringify({ a: 1n, b: { toJSON: () => JSON.stringify({ c: 2n }) } }, number);
      } catch (e) {
        err = e;
      }
      if (!(err instanceof TypeError) || !/serialized a bigint itself/.test(err.message)) fail(`global JSON.stringify inside: TypeError expected, got ${err}`);
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
export function runUnitChecks(json) {
  const passed = [];
  const failures = [];
  for (const [name, fn] of unitChecks) {
    try {
      fn(json);
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
