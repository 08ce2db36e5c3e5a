// Writes sequence.json: the inputs of the block-sequence vectors (option
// and name checks, scripts of state-machine steps, some from a simulated
// client at a steady rate) with the answers of the core through the Node
// addon. Regression values: the Rust and Node tests check that both give
// them again. Run: node tests/vectors/sequence.mjs (after a build).
import { writeFileSync } from 'node:fs';
import { addon } from '../../npm/src/addon.js';
const MAX = (1n << 63n) - 1n;
const sizesOf = (o) => new Float64Array(['blockSize', 'minBlockSize', 'maxBlockSize', 'targetBlockMs', 'timeoutMs'].map((k) => o[k] ?? Number.NaN));
const startOf = (o) => (o.start === undefined ? undefined : BigInt(o.start));
const err = (f) => { try { f(); return null; } catch (e) { return { code: e.code, message: e.message }; } };

const optionCases = [
  {}, { blockSize: 500 }, { minBlockSize: 1000 }, { blockSize: 50, minBlockSize: 10, maxBlockSize: 1000, targetBlockMs: 100 },
  { blockSize: 0 }, { maxBlockSize: 2 ** 32 + 1 }, { targetBlockMs: 0 }, { targetBlockMs: 86_400_001 }, { start: '9223372036854775808' },
  { start: '9223372036854775807' }, { start: '0' }, { timeoutMs: 0 }, { timeoutMs: 250 }, { timeoutMs: 600_001 }, { minBlockSize: 100, maxBlockSize: 10 }, { blockSize: 5, minBlockSize: 10 },
];
const options = optionCases.map((o) => {
  let out;
  const e = err(() => {
    const h = addon.sequenceNew('s', sizesOf(o), startOf(o));
    const s = new Float64Array(5);
    h.sizes(s);
    out = { config: [...s], start: String(h.start()) };
  });
  return { options: o, ...(e ? { error: e.code, message: e.message } : out) };
});
const names = ['orders', '_x', 'A1_b', 'n'.repeat(63), '', '1st', 'orders"; DROP TABLE x; --', 'a-b', 'ä', 'a b', 'n'.repeat(64)].map((name) => {
  const e = err(() => addon.sequenceCheckName(name));
  return { name, error: e?.code ?? null, ...(e ? { message: e.message } : {}) };
});

function script(o, gen) {
  const h = addon.sequenceNew('s', sizesOf(o), startOf(o));
  const run = new BigUint64Array(2);
  const steps = [];
  for (const [op, a, b] of gen) {
    if (op === 'request') steps.push(['request', a, h.request(a)]);
    else if (op === 'fail') { h.fail(a); steps.push(['fail', a]); }
    else if (op === 'add') { const e = err(() => h.addBlock(BigInt(a), b)); steps.push(['add', String(a), b, e?.code ?? null]); }
    else if (op === 'take') { const e = err(() => h.take(run, a)); steps.push(['take', a, e ? e.code : [String(run[0]), Number(run[1])], h.buffered(), h.blockSize()]); }
  }
  return { options: o, steps };
}
// A scripted client: at each ms, consume `rate` IDs, answer each request after `delay` ms (or fail it at chosen times).
function client(o, { rate, ms, delay = 0, failAt = [], counterStart = 1n, maxTake = 1e9 }) {
  const ops = [];
  let counter = counterStart;
  let pending = null;
  // Simulate against the addon to decide answers; record ops.
  const h = addon.sequenceNew('s', sizesOf(o), startOf(o));
  const run = new BigUint64Array(2);
  for (let t = 0; t < ms; t++) {
    if (pending && pending.at <= t) {
      if (failAt.includes(pending.t0)) { h.fail(t); ops.push(['fail', t]); }
      else { const e = err(() => h.addBlock(counter, pending.size)); ops.push(['add', counter, pending.size]); if (!e) counter += BigInt(pending.size); }
      pending = null;
    }
    let left = rate;
    while (left > 0) {
      const size = h.request(t);
      ops.push(['request', t]);
      if (size > 0) pending = { size, at: t + delay, t0: t };
      if (delay === 0 && pending) {
        if (failAt.includes(t)) { h.fail(t); ops.push(['fail', t]); } else { h.addBlock(counter, pending.size); ops.push(['add', counter, pending.size]); counter += BigInt(pending.size); }
        pending = null;
      }
      const e = err(() => h.take(run, Math.min(left, maxTake)));
      ops.push(['take', Math.min(left, maxTake)]);
      if (e) break;
      left -= Number(run[1]);
    }
  }
  return ops;
}
const scripts = [
  script({ blockSize: 10 }, [['take', 100], ['request', 0], ['request', 0], ['add', 1n, 10], ['take', 100], ['request', 1], ['add', 11n, 10], ['request', 1], ['take', 2], ['take', 100], ['take', 100], ['take', 100], ['take', 100]]),
  script({ blockSize: 10, start: String(MAX - 9n) }, [['request', 0], ['add', MAX - 8n, 10], ['request', 0], ['add', MAX - 9n, 10], ['take', 10], ['take', 10], ['request', 0], ['add', MAX + 1n, 1], ['request', 0], ['add', 0n, 1]]),
  script({ blockSize: 10 }, [['request', 1000], ['fail', 1000], ['request', 1024], ['request', 1025], ['fail', 1025], ['request', 1074], ['request', 1075], ['add', 100n, 10], ['take', 5], ['request', 1075], ['add', 105n, 10]]),
  script({ blockSize: 50, minBlockSize: 10, maxBlockSize: 100000, targetBlockMs: 100 }, client({ blockSize: 50, minBlockSize: 10, maxBlockSize: 100000, targetBlockMs: 100 }, { rate: 40, ms: 250 })),
  script({ blockSize: 5000, minBlockSize: 10, maxBlockSize: 100000, targetBlockMs: 100 }, client({ blockSize: 5000, minBlockSize: 10, maxBlockSize: 100000, targetBlockMs: 100 }, { rate: 8, ms: 700, maxTake: 5 })),
  script({ minBlockSize: 10, maxBlockSize: 2000, targetBlockMs: 50 }, client({ minBlockSize: 10, maxBlockSize: 2000, targetBlockMs: 50 }, { rate: 25, ms: 150, delay: 4, failAt: [0, 60, 61, 62], maxTake: 9 })),
];
const json = {
  description: 'Block sequences (core/src/sequence.rs): option checks, name checks, and scripts of state-machine steps with their answers. Each step: ["request", nowMs, size or 0] | ["add", start, len, error code or null] | ["take", max, [start, len] or error code, buffered after, blockSize after] | ["fail", nowMs]. IDs are decimal strings. Expected values are regression values from the core, checked by the Rust and Node tests alike.',
  options, names, scripts,
};
writeFileSync(new URL('./sequence.json', import.meta.url), JSON.stringify(json).replace(/\["(request|add|take|fail)"/g, '\n["$1"').replace(/\{"(options|name)"/g, '\n{"$1"') + '\n');
console.log(scripts.map((s) => s.steps.length));
