// Benchmark: snowmint/json against native JSON, lossless-json and json-bigint,
// in one process, on two documents of about 140 KiB:
//   ids:  1,000 objects with two 63-bit IDs each (IDs everywhere);
//   api:  an API payload: floats with 16-17 significant digits, long strings
//         with escapes and unicode, few IDs (one per 700-byte record).
//
//   cd bench/json && npm install && node bench.js [--rounds N] [--alternatives] [--cpu]
//   ~/.cache/snowmint/node/gnu-x64-22.23.3/bin/node bench.js     # Node 22: the engine paths
//
// Every contestant is first checked to return the same values; then the runs are
// interleaved (one batch of each contestant per round) and the median batch time
// per operation is reported, with the ratios checked against the goals of issue 16
// (each printed met or missed, with the ratio).
import { parse as losslessParse, stringify as losslessStringify, isSafeNumber, parseNumberAndBigInt } from 'lossless-json';
import JSONbigFactory from 'json-bigint';
import { availableParallelism, loadavg } from 'node:os';
import { parse, stringify } from '../../npm/src/json.js';

// The module once more with the engine's JSON features hidden at load, as on Node 20
// (for the --alternatives rows that compare the scanner with the engine paths).
async function loadScannerPath() {
  const parse = JSON.parse;
  const raw = Object.getOwnPropertyDescriptor(JSON, 'rawJSON');
  JSON.parse = (text, reviver) =>
    typeof reviver === 'function'
      ? parse(text, function (k, v) {
          return reviver.call(this, k, v);
        })
      : parse(text);
  delete JSON.rawJSON;
  try {
    return await import('../../npm/src/json.js?scanner');
  } finally {
    JSON.parse = parse;
    if (raw) Object.defineProperty(JSON, 'rawJSON', raw);
  }
}
const scannerPath = await loadScannerPath();

const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 25;
const ALTERNATIVES = args.includes('--alternatives');
// --cpu: time batches by this process's CPU time instead of the wall clock (steadier on a
// machine that other jobs keep busy; GC threads' time is counted too).
const CPU = args.includes('--cpu');
const JSONbig = JSONbigFactory({ useNativeBigInt: true });

// ---- the documents -----------------------------------------------------------

/** xorshift32: the same documents in every run. */
function prng(seed) {
  let s = seed;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

/** A 63-bit Snowflake-like ID: 41 bits of time since the Twitter epoch, then 22 random bits. */
const id63 = (rnd, ms) => (BigInt(ms) << 22n) | BigInt(Math.floor(rnd() * 4194304)) | (1n << 62n);

function makeIdDoc(n) {
  const rnd = prng(0x2545f491);
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
  const doc = [];
  for (let i = 0; i < n; i++) {
    doc.push({
      id: id63(rnd, 1700000000000 + i * 997),
      authorId: id63(rnd, 1600000000000 + Math.floor(rnd() * 1e11)),
      seq: 100000 + i,
      title: `${words[i % 8]} ${words[(i * 5 + 3) % 8]}`,
      score: Math.round(rnd() * 100000) / 100,
      active: rnd() < 0.5,
      tags: [words[(i * 3) % 8]],
    });
  }
  return doc;
}

function makeApiDoc(n) {
  const rnd = prng(0x1b873593);
  const phrases = [
    'Café "Zürich" — naïve façade, déjà vu',
    'line one\nline two\n\ttabbed line three',
    'path C:\\Users\\snow\\mint and a / slash',
    '東京都渋谷区 ☃ 😀 emoji and CJK 数据',
    'quote: "x", backslash \\ and a \u0001 control',
    'price € 12.50 / ½ kg, 3 × 4 ≥ 11',
    'Ünïcödé ñ ç ø å — mixed scripts Ελληνικά Русский',
    'plain ASCII words that pad the text as real descriptions do, nothing special',
  ];
  const text = (k) => Array.from({ length: k }, () => phrases[Math.floor(rnd() * phrases.length)]).join(' ');
  const float = (scale) => (rnd() - 0.5) * scale + rnd() * 1e-9; // full 16-17 significant digits
  const doc = [];
  for (let i = 0; i < n; i++) {
    doc.push({
      id: id63(rnd, 1700000000000 + i * 7919),
      kind: 'measurement',
      location: { lat: float(180), lon: float(360), alt: float(2000) },
      readings: Array.from({ length: 8 }, () => float(100)),
      stats: { mean: float(10), stddev: rnd(), ratio: rnd(), weight: float(1e6) },
      note: text(4),
      author: { name: text(1), verified: rnd() < 0.5, karma: Math.floor(rnd() * 100000) },
    });
  }
  return doc;
}

/** APIs escape some non-ASCII as \uXXXX (Python's json.dumps does all of it): escape é and €. */
const escapeSome = (s) => s.replace(/[é€]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const DOCUMENTS = [
  { name: 'ids', what: '1,000 objects, 2,000 63-bit IDs (IDs everywhere)', doc: makeIdDoc(1000) },
  { name: 'api', what: '200 records: 16-17-digit floats, long strings with escapes and unicode, 200 IDs', doc: makeApiDoc(200) },
];

// ---- checks --------------------------------------------------------------------

/**
 * Deep equality that ignores prototypes (json-bigint makes null-prototype
 * objects); with `intsAsBigint`, a bigint may stand for an equal safe integer
 * (lossless-json's parseNumberAndBigInt makes every integer a bigint).
 */
function same(a, b, intsAsBigint = false) {
  if (intsAsBigint && typeof a === 'bigint' && typeof b === 'number') return Number.isSafeInteger(b) && BigInt(b) === a;
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k, i) => k === kb[i] && same(a[k], b[k], intsAsBigint));
}

// ---- timing --------------------------------------------------------------------

function batch(run, reps) {
  if (CPU) {
    const c0 = process.cpuUsage();
    for (let i = 0; i < reps; i++) run();
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1e3 / reps; // ms per call
  }
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) run();
  return Number(process.hrtime.bigint() - t0) / 1e6 / reps; // ms per call
}

function measure(group) {
  const names = Object.keys(group);
  // Size a batch at ~20 ms per contestant, after a warm-up.
  const reps = {};
  for (const name of names) {
    batch(group[name], 30);
    reps[name] = Math.max(3, Math.round(20 / batch(group[name], 10)));
  }
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...names].reverse() : names;
    for (const name of order) samples[name].push(batch(group[name], reps[name]));
  }
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[s.length >> 1];
  };
  return Object.fromEntries(names.map((n) => [n, median(samples[n])]));
}

// ---- the run ---------------------------------------------------------------------

const sourceAccess = (() => {
  let source;
  JSON.parse('[1]', (k, v, context) => {
    if (k === '0') source = context?.source;
    return v;
  });
  return source === '1';
})();
const hasRawJSON = typeof JSON.rawJSON === 'function';
console.log(
  `Node ${process.version}; median of ${ROUNDS} interleaved rounds per operation, ${CPU ? 'CPU' : 'wall-clock'} time; load average ${loadavg()[0].toFixed(2)} on ${availableParallelism()} CPUs at the start`,
);
console.log(`engine: JSON.parse source access ${sourceAccess ? 'yes' : 'no'}, JSON.rawJSON ${hasRawJSON ? 'yes' : 'no'}`);
console.log(
  `snowmint paths: parse = scanner; parse with a reviver = ${sourceAccess ? 'engine (context.source)' : 'scanner'}; stringify {bigint:number} = ${hasRawJSON ? 'engine (JSON.rawJSON)' : 'markers + one regex pass'}`,
);

let failed = false;
for (const { name: docName, what, doc } of DOCUMENTS) {
  const canonical = losslessStringify(doc); // IDs as int64 literals, as a server sends them
  const text = escapeSome(canonical);
  // The same document with the IDs already strings: what native JSON.stringify can do,
  // and whose output is byte-identical to snowmint's default stringify.
  const docStrings = JSON.parse(JSON.stringify(doc, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
  // What a native-only app holds after JSON.parse: the IDs as (rounded) numbers.
  const docNumbers = JSON.parse(text);
  const identity = (k, v) => v;

  const parsers = {
    'JSON.parse (native, lossy)': () => JSON.parse(text),
    'snowmint parse': () => parse(text),
    'lossless-json parse (safe numbers, BigInt beyond)': () => losslessParse(text, null, (v) => (isSafeNumber(v) ? Number(v) : BigInt(v))),
    'lossless-json parse (parseNumberAndBigInt)': () => losslessParse(text, null, parseNumberAndBigInt),
    'json-bigint parse': () => JSONbig.parse(text),
  };
  const revivers = {
    'JSON.parse + identity reviver (native, lossy)': () => JSON.parse(text, identity),
    'snowmint parse + identity reviver': () => parse(text, identity),
  };
  const stringifiers = {
    'JSON.stringify (native, IDs as strings)': () => JSON.stringify(docStrings),
    'JSON.stringify (native, IDs as lossy numbers)': () => JSON.stringify(docNumbers),
    'snowmint stringify': () => stringify(doc),
    'snowmint stringify {bigint:number}': () => stringify(doc, { bigint: 'number' }),
    'lossless-json stringify': () => losslessStringify(doc),
    'json-bigint stringify': () => JSONbig.stringify(doc),
  };
  const alternatives = {
    'alt: JSON.parse + a context.source reviver (engine path without a user reviver)': sourceAccess
      ? () => JSON.parse(text, (k, v, c) => (typeof v === 'number' && !Number.isSafeInteger(v) && !/[.eE]/.test(c.source) ? BigInt(c.source) : v))
      : undefined,
    'alt: snowmint parse + identity reviver, scanner path (features hidden)': sourceAccess ? () => scannerPath.parse(text, identity) : undefined,
    'alt: snowmint stringify {bigint:number}, markers (features hidden)': hasRawJSON ? () => scannerPath.stringify(doc, { bigint: 'number' }) : undefined,
    'alt: JSON.stringify + bigint replacer': () => JSON.stringify(doc, (k, v) => (typeof v === 'bigint' ? String(v) : v)),
    'alt: snowmint stringify with a replacer fn (replacer path)': () => stringify(doc, identity),
  };

  // Correctness first: a contestant that does not return the document is not timed.
  const problems = [];
  const excluded = (group, name, why) => {
    problems.push(`${name}: ${why} (not timed)`);
    delete group[name];
  };
  for (const [name, run] of Object.entries({ ...parsers, ...revivers })) {
    if (name.includes('native, lossy')) continue;
    let out;
    try {
      out = run();
    } catch (e) {
      excluded(name in parsers ? parsers : revivers, name, `throws ${e.name}: ${e.message}`);
      continue;
    }
    if (!same(out, doc, name.includes('parseNumberAndBigInt'))) excluded(name in parsers ? parsers : revivers, name, 'does not return the document');
  }
  if (stringify(doc) !== JSON.stringify(docStrings)) problems.push('snowmint stringify differs from JSON.stringify of the string-ID document');
  for (const name of ['snowmint stringify {bigint:number}', 'lossless-json stringify', 'json-bigint stringify']) {
    if (stringifiers[name]() !== canonical) excluded(stringifiers, name, 'output differs from the int64 text');
  }
  if (!same(parse(stringify(doc, { bigint: 'number' })), doc)) problems.push('round trip failed');
  for (const [name, run] of Object.entries(alternatives)) if (run === undefined) delete alternatives[name];
  const ours = ['snowmint parse', 'snowmint parse + identity reviver', 'snowmint stringify', 'snowmint stringify {bigint:number}'];
  const broken = problems.filter((p) => ours.some((o) => p.startsWith(o)) || !p.endsWith('(not timed)'));

  const ids = (canonical.match(/:\d{16,}[,}\]]/g) || []).length;
  console.log(`\n## ${docName}: ${what}; ${(text.length / 1024).toFixed(1)} KiB of JSON, ${ids} IDs\n`);
  for (const p of problems) console.log(`note: ${p}`);
  if (broken.length) {
    console.error('snowmint disagrees:\n  ' + broken.join('\n  '));
    process.exit(1);
  }

  const r = { ...measure(parsers), ...measure(revivers), ...measure(stringifiers), ...(ALTERNATIVES ? measure(alternatives) : {}) };
  const width = Math.max(...Object.keys(r).map((n) => n.length));
  console.log(`| ${'operation'.padEnd(width)} | ms/op  | MB/s  |`);
  console.log(`|${'-'.repeat(width + 2)}|-------:|------:|`);
  for (const [name, ms] of Object.entries(r)) {
    console.log(`| ${name.padEnd(width)} | ${ms.toFixed(3).padStart(6)} | ${(text.length / 1e3 / ms).toFixed(0).padStart(5)} |`);
  }

  // lossless-json's fastest BigInt-preserving mode in this run.
  const lossless = Math.min(...['lossless-json parse (parseNumberAndBigInt)', 'lossless-json parse (safe numbers, BigInt beyond)'].map((n) => r[n] ?? Infinity));
  const goals = [
    // [name, ratio, op, goal, is a goal of issue 16]
    ['parse: snowmint / JSON.parse', r['snowmint parse'] / r['JSON.parse (native, lossy)'], '<=', 1.3, true],
    ['parse: lossless-json (fastest BigInt mode) / snowmint', lossless / r['snowmint parse'], '>=', 2.5, true],
    ['stringify: snowmint / JSON.stringify (same output: IDs as strings)', r['snowmint stringify'] / r['JSON.stringify (native, IDs as strings)'], '<=', 1.2, true],
    ['parse: json-bigint / snowmint (info)', r['json-bigint parse'] / r['snowmint parse'], '>=', 2, false],
    ['parse with a reviver: snowmint / JSON.parse with it (info)', r['snowmint parse + identity reviver'] / r['JSON.parse + identity reviver (native, lossy)'], '<=', 1.3, false],
    ['stringify: snowmint / JSON.stringify (IDs as lossy numbers) (info)', r['snowmint stringify'] / r['JSON.stringify (native, IDs as lossy numbers)'], '<=', 1.2, false],
    ['stringify: lossless-json / snowmint (info)', r['lossless-json stringify'] / r['snowmint stringify'], '>=', 1.5, false],
    ['stringify {bigint:number}: lossless-json / snowmint (info)', r['lossless-json stringify'] / r['snowmint stringify {bigint:number}'], '>=', 1.5, false],
    ['stringify {bigint:number}: snowmint / JSON.stringify (info)', r['snowmint stringify {bigint:number}'] / r['JSON.stringify (native, IDs as strings)'], '<=', 1.2, false],
  ];
  console.log('');
  for (const [name, ratio, op, goal, isGoal] of goals) {
    if (!Number.isFinite(ratio)) {
      console.log(`${name.padEnd(72)}      -   goal ${op} ${goal}  n/a (a contestant was not timed)`);
      continue;
    }
    const ok = op === '>=' ? ratio >= goal : ratio <= goal;
    const by = op === '>=' ? 1 - ratio / goal : ratio / goal - 1;
    const verdict = ok ? 'met' : `${isGoal ? 'MISSED' : 'missed'} by ${(100 * by).toFixed(0)}%`;
    if (!ok && isGoal) failed = true;
    console.log(`${name.padEnd(72)} ${ratio.toFixed(2).padStart(6)}x  goal ${op} ${goal}  ${verdict}`);
  }
}
if (failed) process.exitCode = 1;
