// Benchmark: snowmint/json against native JSON, lossless-json and json-bigint,
// in one process, on a ~137 KiB document of 1,000 objects with two 63-bit IDs each.
//
//   cd bench/json && npm install && node bench.js [--rounds N] [--alternatives]
//
// Every contestant is first checked to return the same values; then the runs are
// interleaved (one batch of each contestant per round) and the median batch time
// per operation is reported, with the ratios checked against the goals of issue 6.
import { parse as losslessParse, stringify as losslessStringify, isSafeNumber } from 'lossless-json';
import JSONbigFactory from 'json-bigint';
import { parse, stringify } from '../../npm/src/json.js';

const args = process.argv.slice(2);
const ROUNDS = Number(args[args.indexOf('--rounds') + 1]) || 25;
const ALTERNATIVES = args.includes('--alternatives');
const JSONbig = JSONbigFactory({ useNativeBigInt: true });

// ---- the document ---------------------------------------------------------

function makeDoc(n) {
  let s = 0x2545f491;
  const rnd = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
  // A 63-bit Snowflake-like ID: 41 bits of time since the Twitter epoch, then 22 random bits.
  const id63 = (ms) => (BigInt(ms) << 22n) | BigInt(Math.floor(rnd() * 4194304)) | (1n << 62n);
  const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
  const doc = [];
  for (let i = 0; i < n; i++) {
    doc.push({
      id: id63(1700000000000 + i * 997),
      authorId: id63(1600000000000 + Math.floor(rnd() * 1e11)),
      seq: 100000 + i,
      title: `${words[i % 8]} ${words[(i * 5 + 3) % 8]}`,
      score: Math.round(rnd() * 100000) / 100,
      active: rnd() < 0.5,
      tags: [words[(i * 3) % 8]],
    });
  }
  return doc;
}

const doc = makeDoc(1000);
const text = losslessStringify(doc); // IDs as int64 literals, as a server sends them
// The same document with the IDs already strings: what native JSON.stringify can do,
// and whose output is byte-identical to snowmint's default stringify.
const docStrings = JSON.parse(JSON.stringify(doc, (k, v) => (typeof v === 'bigint' ? String(v) : v)));
// What a native-only app holds after JSON.parse: the IDs as (rounded) numbers.
const docNumbers = JSON.parse(text);

// ---- contestants ----------------------------------------------------------

const parsers = {
  'JSON.parse (native, lossy)': () => JSON.parse(text),
  'snowmint parse': () => parse(text),
  'lossless-json parse': () => losslessParse(text, null, (v) => (isSafeNumber(v) ? Number(v) : BigInt(v))),
  'json-bigint parse': () => JSONbig.parse(text),
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
  'alt: JSON.parse + bigint reviver (lossy, info)': () => JSON.parse(text, (k, v) => v),
  'alt: snowmint parse with a reviver (marker reviver instead of the walk)': () => parse(text, (k, v) => v),
  'alt: JSON.stringify + bigint replacer': () => JSON.stringify(doc, (k, v) => (typeof v === 'bigint' ? String(v) : v)),
  'alt: snowmint stringify with a replacer fn (replacer path)': () => stringify(doc, (k, v) => v),
};

// ---- correctness first ----------------------------------------------------

/** Deep equality that ignores prototypes (json-bigint makes null-prototype objects). */
function same(a, b) {
  if (typeof a !== typeof b) return false;
  if (typeof a !== 'object' || a === null || b === null) return Object.is(a, b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every((k, i) => k === kb[i] && same(a[k], b[k]));
}

const problems = [];
for (const [name, run] of Object.entries(parsers)) {
  if (name.startsWith('JSON.parse')) continue; // lossy by definition
  if (!same(run(), doc)) problems.push(`${name} does not return the document`);
}
const expectedStrings = JSON.stringify(docStrings);
if (stringify(doc) !== expectedStrings) problems.push('snowmint stringify differs from JSON.stringify of the string-ID document');
for (const name of ['snowmint stringify {bigint:number}', 'lossless-json stringify', 'json-bigint stringify']) {
  if (stringifiers[name]() !== text) problems.push(`${name} differs from the int64 text`);
}
if (!same(parse(stringify(doc, { bigint: 'number' })), doc)) problems.push('round trip failed');
if (problems.length) {
  console.error('contestants disagree:\n  ' + problems.join('\n  '));
  process.exit(1);
}

// ---- timing ---------------------------------------------------------------

function batch(run, reps) {
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

const kib = (text.length / 1024).toFixed(1);
console.log(`Node ${process.version}, ${doc.length} objects, ${2 * doc.length} 63-bit IDs, ${kib} KiB of JSON; median of ${ROUNDS} interleaved rounds\n`);

const results = { ...measure(parsers), ...measure(stringifiers), ...(ALTERNATIVES ? measure(alternatives) : {}) };
const width = Math.max(...Object.keys(results).map((n) => n.length));
console.log(`| ${'operation'.padEnd(width)} | ms/op  | MB/s  |`);
console.log(`|${'-'.repeat(width + 2)}|-------:|------:|`);
for (const [name, ms] of Object.entries(results)) {
  console.log(`| ${name.padEnd(width)} | ${ms.toFixed(3).padStart(6)} | ${(text.length / 1e3 / ms).toFixed(0).padStart(5)} |`);
}

const r = results;
const goals = [
  ['parse: lossless-json / snowmint', r['lossless-json parse'] / r['snowmint parse'], '>=', 2],
  ['parse: json-bigint / snowmint', r['json-bigint parse'] / r['snowmint parse'], '>=', 2],
  ['parse: snowmint / JSON.parse', r['snowmint parse'] / r['JSON.parse (native, lossy)'], '<=', 2],
  ['stringify: lossless-json / snowmint', r['lossless-json stringify'] / r['snowmint stringify'], '>=', 1.5],
  ['stringify: snowmint / JSON.stringify (IDs as strings)', r['snowmint stringify'] / r['JSON.stringify (native, IDs as strings)'], '<=', 1.5],
  ['stringify: snowmint / JSON.stringify (IDs as lossy numbers)', r['snowmint stringify'] / r['JSON.stringify (native, IDs as lossy numbers)'], '<=', 1.5],
  ['stringify {bigint:number}: lossless-json / snowmint (info)', r['lossless-json stringify'] / r['snowmint stringify {bigint:number}'], '>=', 1.5],
  ['stringify {bigint:number}: snowmint / JSON.stringify (info)', r['snowmint stringify {bigint:number}'] / r['JSON.stringify (native, IDs as strings)'], '<=', 1.5],
];
console.log('');
let failed = false;
for (const [name, ratio, op, goal] of goals) {
  const ok = op === '>=' ? ratio >= goal : ratio <= goal;
  const info = name.endsWith('(info)');
  if (!ok && !info) failed = true;
  console.log(`${name.padEnd(62)} ${ratio.toFixed(2).padStart(6)}x  goal ${op} ${goal}  ${info ? (ok ? 'met' : 'not met') : ok ? 'PASS' : 'FAIL'}`);
}
if (failed) process.exitCode = 1;
