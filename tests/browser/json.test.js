// snowmint/json in real headless Chromium: the same suite as tests/json/, with the
// module and the JSONTestSuite files loaded over HTTP into a page.
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
        const json = await import(`${baseUrl}/npm/src/json.js`);
        const suite = await import(`${baseUrl}/tests/json/suite.js`);
        const cases = await Promise.all(
          names.map(async (name) => {
            const res = await fetch(`${baseUrl}/tests/vectors/jsontestsuite/test_parsing/${encodeURIComponent(name)}`);
            if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
            return { name, bytes: new Uint8Array(await res.arrayBuffer()) };
          }),
        );
        const conformance = suite.runConformance(json, cases);
        const units = suite.runUnitChecks(json);
        const property = suite.propertyTest(json, { seed: 20240601, runs: 2000 });
        // The page's own res.text() decoding agrees with the suite's TextDecoder.
        const probe = await fetch(`${baseUrl}/tests/vectors/jsontestsuite/test_parsing/i_string_UTF-8_invalid_sequence.json`);
        const viaText = await probe.text();
        return {
          userAgent: navigator.userAgent,
          conformance,
          units,
          property: { runs: property.runs, bigints: property.bigints, failures: property.failures },
          decodeAgrees: viaText === suite.decode(cases.find((c) => c.name === 'i_string_UTF-8_invalid_sequence.json').bytes),
          bigintToJSONLeft: 'toJSON' in BigInt.prototype,
        };
      },
      { baseUrl, names: CASES },
    );
    return { ...r, pageErrors };
  });

  t.diagnostic(result.userAgent);
  const { counts, failures } = result.conformance;
  t.diagnostic(`JSONTestSuite in Chromium: y ${counts.y}, n ${counts.n}, i ${counts.i} (${counts.iAccepted} accepted, ${counts.iRejected} rejected)`);
  assert.deepEqual(failures, []);
  assert.deepEqual({ y: counts.y, n: counts.n, i: counts.i }, { y: 95, n: 188, i: 35 });
  assert.deepEqual(result.units.failures, []);
  assert.equal(result.units.passed.length, unitChecks.length);
  assert.deepEqual(result.property.failures, []);
  assert.ok(result.property.bigints > 800);
  assert.equal(result.decodeAgrees, true);
  assert.equal(result.bigintToJSONLeft, false);
  assert.deepEqual(result.pageErrors, []);
});
