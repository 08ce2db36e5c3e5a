// node --test tests/json/ : snowmint/json in Node, against JSONTestSuite, unit, property
// and fuzz checks, on both paths: the module as this Node loads it (the engine paths on
// Node >= 22: JSON.parse source access and JSON.rawJSON) and once more with those hidden
// (the scanner and the markers, as on Node 20).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { checkConformanceCase, runConformance, unitChecks, propertyTest, fuzzParse, loadPaths, engineFeatures } from './suite.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// JSONTestSuite's parsing cases, vendored (tests/vectors/jsontestsuite/, MIT).
export const CONFORMANCE_DIR = path.resolve(ROOT, 'tests/vectors/jsontestsuite/test_parsing');
const MODULE_URL = new URL('../../npm/src/json.js', import.meta.url).href;

function loadCases() {
  return readdirSync(CONFORMANCE_DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()
    .map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(CONFORMANCE_DIR, name))) }));
}

const cases = loadCases();
const paths = await loadPaths(MODULE_URL);

test('JSONTestSuite is present and complete', () => {
  const kinds = { y: 0, n: 0, i: 0 };
  for (const c of cases) kinds[c.name[0]]++;
  assert.deepEqual(kinds, { y: 95, n: 188, i: 35 });
});

test('the engine paths are taken where Node has the features (Node >= 22), the scanner otherwise', () => {
  const major = Number(process.versions.node.split('.')[0]);
  const expected = major >= 22 ? { sourceAccess: true, rawJSON: true } : { sourceAccess: false, rawJSON: false };
  assert.deepEqual(engineFeatures(), expected);
  assert.deepEqual(
    paths.map((p) => [p.path, p.features]),
    [
      ['engine', expected],
      ['scanner', { sourceAccess: false, rawJSON: false }],
    ],
  );
  assert.notEqual(paths[0].json, paths[1].json, 'two module instances');
});

for (const { path: which, json, features } of paths) {
  for (const kind of ['y', 'n', 'i']) {
    test(`[${which}] JSONTestSuite ${kind}_ files`, async (t) => {
      for (const c of cases.filter((x) => x.name[0] === kind)) {
        await t.test(c.name, () => {
          const r = checkConformanceCase(json, c);
          if (kind === 'y') assert.equal(r, 'accepted');
          if (kind === 'n') assert.equal(r, 'rejected');
        });
      }
    });
  }

  test(`[${which}] JSONTestSuite summary (runConformance, as the browser runs it)`, () => {
    const { counts, failures } = runConformance(json, cases);
    assert.deepEqual(failures, []);
    assert.equal(counts.y + counts.n + counts.i, cases.length);
  });

  test(`[${which}] y_ files: exact deep equality with JSON.parse when no integer is unsafe, -0 kept`, () => {
    let exact = 0;
    for (const c of cases.filter((x) => x.name.startsWith('y_'))) {
      const text = new TextDecoder().decode(c.bytes);
      if (/[0-9]{16}/.test(text)) continue;
      assert.deepStrictEqual(json.parse(text), JSON.parse(text), c.name);
      exact++;
    }
    assert.ok(exact > 80);
    const negZero = cases.find((c) => c.name === 'y_number_minus_zero.json');
    assert.ok(Object.is(json.parse(new TextDecoder().decode(negZero.bytes))[0], -0));
  });

  test(`[${which}] unsafe integers of JSONTestSuite become bigint`, () => {
    const text = (name) => new TextDecoder().decode(cases.find((c) => c.name === name).bytes);
    assert.deepStrictEqual(json.parse(text('i_number_too_big_pos_int.json')), [100000000000000000000n]);
    assert.deepStrictEqual(json.parse(text('i_number_too_big_neg_int.json')), [-123123123123123123123123123123n]);
    assert.deepStrictEqual(json.parse(text('i_number_very_big_negative_int.json')), [-237462374673276894279832749832423479823246327846n]);
    assert.deepStrictEqual(json.parse(text('i_number_too_big_pos_int.json'), null, { bigint: 'string' }), ['100000000000000000000']);
    assert.deepStrictEqual(
      json.parse(text('i_number_too_big_pos_int.json'), (k, v) => v, { bigint: 'string' }),
      ['100000000000000000000'],
    );
  });

  // A check that loops forever when it fails (re-entrant stringify) runs in a worker with a deadline.
  const LOOPS_WHEN_BROKEN = new Set(['stringify: re-entered from a toJSON or replacer, each call keeps its own mode']);
  for (const [name, fn] of unitChecks) {
    if (!LOOPS_WHEN_BROKEN.has(name)) {
      test(`[${which}] ${name}`, () => fn(json, features));
      continue;
    }
    test(`[${which}] ${name}`, async () => {
      const code = `
        const { parentPort, workerData } = require('node:worker_threads');
        import(workerData.suite).then(async (suite) => {
          const { json, features } = (await suite.loadPaths(workerData.json)).find((p) => p.path === workerData.which);
          const check = suite.unitChecks.find(([n]) => n === workerData.name)[1];
          try { check(json, features); parentPort.postMessage(null); } catch (e) { parentPort.postMessage(String(e && e.message)); }
        });`;
      const worker = new Worker(code, {
        eval: true,
        workerData: { name, which, json: MODULE_URL, suite: new URL('./suite.js', import.meta.url).href },
      });
      let timer;
      try {
        const failure = await Promise.race([
          once(worker, 'message').then(([m]) => m),
          once(worker, 'error').then(([e]) => `worker error: ${e.message}`),
          new Promise((resolve) => (timer = setTimeout(resolve, 10_000, 'did not return within 10 s (loops?)'))),
        ]);
        assert.equal(failure, null);
      } finally {
        clearTimeout(timer);
        await worker.terminate();
      }
    });
  }

  test(`[${which}] property: parse(stringify(v)) deep-equals v for random values carrying bigints`, () => {
    const r = propertyTest(json, { seed: 20240601, runs: 2000 });
    assert.deepEqual(r.failures, []);
    assert.ok(r.bigints > 800, `only ${r.bigints} bigints generated`);
  });

  test(`[${which}] fuzz: random texts against JSON.parse (safe numbers) and a BigInt-aware model; mutants rejected as JSON.parse rejects them`, () => {
    const r = fuzzParse(json, { seed: 0x5a0f, runs: 3000 });
    assert.deepEqual(r.failures, []);
    assert.ok(r.bigints > 800, `only ${r.bigints} bigints generated`);
    assert.ok(r.mutantsRejected > 1000, `only ${r.mutantsRejected} mutants rejected`);
  });

  test(`[${which}] parse and stringify keep exact outputs (node:assert)`, () => {
    assert.equal(json.stringify({ id: 1234567890123456789n, a: [1n] }), '{"id":"1234567890123456789","a":["1"]}');
    assert.equal(json.stringify({ id: 1234567890123456789n }, null, 2, { bigint: 'number' }), '{\n  "id": 1234567890123456789\n}');
    assert.equal(json.stringify({ a: 1n, b: 2, c: 3n }, ['c', 'b']), '{"c":"3","b":2}');
    assert.equal(
      json.stringify({ a: 1n }, (k, v) => (k === 'a' ? v * 10n : v), '--'),
      '{\n--"a": "10"\n}',
    );
    assert.deepStrictEqual(json.parse('{"a":18446744073709551615,"b":-0}'), { a: 18446744073709551615n, b: -0 });
    assert.throws(() => json.parse('{"a":18446744073709551615,}'), SyntaxError);
    assert.throws(() => json.parse('{"a":18446744073709551615,}'), { message: /position 26/ });
    assert.throws(() => json.parse('{"a":18446744073709551615,}', (k, v) => v), { message: /position 26/ });
    assert.equal(BigInt.prototype.toJSON, undefined);
  });
}
