// snowmint's browser build against its npm peers in one headless Chromium
// page (the test harness's server and launcher), printed as ratios: absolute
// times on a shared machine are noise, ratios from interleaved rounds are not.
// Run: node bench/browser/run.js [--check]   (--check: exit 1 if a goal is missed)
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, withBrowser } from '../../tests/browser/harness.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
/** snowmint at least this many times faster than the peer. */
const GOALS = { 'ulid monotonicFactory()': 3, 'uuidv7 uuidv7()': 3 };

const out = path.join(REPO_ROOT, 'tmp/bench-browser/page.js');
mkdirSync(path.dirname(out), { recursive: true });
execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/esbuild'), ['bench/browser/page.js', '--bundle', '--format=esm', '--minify', `--outfile=${out}`, '--log-level=error'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
});

const { userAgent, results } = await withBrowser(
  async ({ page, baseUrl }) => {
    await page.addScriptTag({ url: `${baseUrl}/tmp/bench-browser/page.js`, type: 'module' });
    await page.waitForFunction(() => window.runBench);
    return { userAgent: await page.evaluate(() => navigator.userAgent), results: await page.evaluate((r) => window.runBench(r), ROUNDS) };
  },
  { timeoutMs: 600_000 },
);

console.log(`${userAgent}\n${ROUNDS} interleaved rounds, median ns per ID`);
let missed = 0;
for (const { title, rows } of results) {
  console.log(`\n${title}`);
  const [base] = rows;
  for (const row of rows) {
    const ratio = row.ns / base.ns;
    const goal = GOALS[row.name];
    const verdict = goal === undefined ? '' : ratio >= goal ? `  (goal >= ${goal}x: met)` : `  (goal >= ${goal}x: MISSED)`;
    if (goal !== undefined && ratio < goal) missed++;
    console.log(`  ${row.name.padEnd(26)} ${row.ns.toFixed(1).padStart(8)} ns${row === base ? '' : `   snowmint ${ratio.toFixed(2)}x faster${verdict}`}`);
  }
}
if (missed && process.argv.includes('--check')) process.exit(1);
