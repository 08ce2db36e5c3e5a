// snowmint/json in real headless Chromium: the same suite as tests/json/, with the
// module and the JSONTestSuite files loaded over HTTP into a page, on both paths:
// Chromium's engine paths (JSON.parse source access, JSON.rawJSON: asserted present)
// and the scanner (the module loaded again with them hidden).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { withBrowser, REPO_ROOT } from './harness.js';
import { unitChecks } from '../json/suite.js';

const CASES = readdirSync(path.join(REPO_ROOT, 'tests/vectors/jsontestsuite/test_parsing'))
  .filter((n) => n.endsWith('.json'))
  .sort();

test('snowmint/json in headless Chromium', { timeout: 180_000 }, async (t) => {
  const result = await withBrowser(async ({ page, baseUrl, pageErrors }) => {
    const r = await page.evaluate(
      async ({ baseUrl, names }) => {
        const suite = await import(`${baseUrl}/tests/json/suite.js`);
        const cases = await Promise.all(
          names.map(async (name) => {
            const res = await fetch(`${baseUrl}/tests/vectors/jsontestsuite/test_parsing/${encodeURIComponent(name)}`);
            if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
            return { name, bytes: new Uint8Array(await res.arrayBuffer()) };
          }),
        );
        const paths = (await suite.loadPaths(`${baseUrl}/npm/src/json.js`)).map(({ path, json, features }) => {
          const property = suite.propertyTest(json, { seed: 20240601, runs: 2000 });
          const fuzz = suite.fuzzParse(json, { seed: 0x5a0f, runs: 3000 });
          return {
            path,
            features,
            conformance: suite.runConformance(json, cases),
            units: suite.runUnitChecks(json, features),
            property: { runs: property.runs, bigints: property.bigints, failures: property.failures },
            fuzz,
          };
        });
        // The page's own res.text() decoding agrees with the suite's TextDecoder.
        const probe = await fetch(`${baseUrl}/tests/vectors/jsontestsuite/test_parsing/i_string_UTF-8_invalid_sequence.json`);
        const viaText = await probe.text();
        return {
          userAgent: navigator.userAgent,
          paths,
          decodeAgrees: viaText === suite.decode(cases.find((c) => c.name === 'i_string_UTF-8_invalid_sequence.json').bytes),
          bigintToJSONLeft: 'toJSON' in BigInt.prototype,
        };
      },
      { baseUrl, names: CASES },
    );
    return { ...r, pageErrors };
  });

  t.diagnostic(result.userAgent);
  assert.deepEqual(
    result.paths.map((p) => [p.path, p.features]),
    [
      ['engine', { sourceAccess: true, rawJSON: true }],
      ['scanner', { sourceAccess: false, rawJSON: false }],
    ],
  );
  for (const p of result.paths) {
    const { counts, failures } = p.conformance;
    t.diagnostic(`[${p.path}] JSONTestSuite in Chromium: y ${counts.y}, n ${counts.n}, i ${counts.i} (${counts.iAccepted} accepted, ${counts.iRejected} rejected)`);
    t.diagnostic(`[${p.path}] fuzz: ${p.fuzz.runs} texts, ${p.fuzz.bigints} bigints, ${p.fuzz.mutantsRejected} mutants rejected`);
    assert.deepEqual(failures, [], p.path);
    assert.deepEqual({ y: counts.y, n: counts.n, i: counts.i }, { y: 95, n: 188, i: 35 });
    assert.deepEqual(p.units.failures, [], p.path);
    assert.equal(p.units.passed.length, unitChecks.length);
    assert.deepEqual(p.property.failures, [], p.path);
    assert.ok(p.property.bigints > 800);
    assert.deepEqual(p.fuzz.failures, [], p.path);
    assert.ok(p.fuzz.bigints > 800 && p.fuzz.mutantsRejected > 1000);
  }
  assert.equal(result.decodeAgrees, true);
  assert.equal(result.bigintToJSONLeft, false);
  assert.deepEqual(result.pageErrors, []);
});
