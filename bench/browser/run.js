// snowmint's browser build against its npm peers in one headless Chromium
// page (the test harness's server and launcher), printed as ratios: absolute
// times on a shared machine are noise, ratios from interleaved rounds are not;
// then the wasm build's gzipped size against issue 16's 25 KB goal.
// Run: node bench/browser/run.js [--check]   (--check: exit 1 if a goal is missed)
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, withBrowser } from '../../tests/browser/harness.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
/** snowmint at least this many times faster than the peer, by the issue that set it: 16's, and 26's (no speed lost to the split modules). */
const GOALS = {
  'ulid monotonicFactory()': [
    ['issue 16', 5],
    ['issue 26', 3.5],
  ],
  'uuidv7 uuidv7()': [
    ['issue 16', 5],
    ['issue 26', 3.5],
  ],
};
/** Issue 16's size goal for what a page loads, gzipped (the test suite's budget is 38 KB). */
const SIZE_GOAL_KB = 25;
/** What a page loads for the wasm build, each file gzipped: the files scripts/test.d/95-wasm-size.sh counts. */
const SIZE_FILES = ['npm/wasm/snowmint_bg.js', 'npm/wasm/constants.js', 'npm/src/wasm-backend.js'];

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
const goals = [];
for (const { title, rows } of results) {
  console.log(`\n${title}`);
  const [base] = rows;
  for (const row of rows) {
    const ratio = row.ns / base.ns;
    const rowGoals = GOALS[row.name] ?? [];
    const verdict = rowGoals.map(([issue, goal]) => `  (${issue}: >= ${goal}x ${ratio >= goal ? 'met' : 'MISSED'})`).join('');
    for (const [issue, goal] of rowGoals) goals.push({ goal: `${base.name} vs ${row.name}: >= ${goal}x (${issue})`, got: `${ratio.toFixed(2)}x`, met: ratio >= goal });
    console.log(`  ${row.name.padEnd(26)} ${row.ns.toFixed(1).padStart(8)} ns${row === base ? '' : `   snowmint ${ratio.toFixed(2)}x faster${verdict}`}`);
  }
}
// gzip -9 itself, as the size test runs it (Node's zlib compresses the module ~1% differently).
const sizeKb = SIZE_FILES.reduce((sum, f) => sum + execFileSync('gzip', ['-9', '-c', path.join(REPO_ROOT, f)], { maxBuffer: 1 << 26 }).length, 0) / 1024;
const sizeMet = sizeKb <= SIZE_GOAL_KB;
console.log(`\nsize: ${sizeKb.toFixed(1)} KB gz vs issue 16's ${SIZE_GOAL_KB} KB goal: ${sizeMet ? 'met' : 'missed'}  (${SIZE_FILES.join(' + ')}, each gzip -9)`);
goals.push({ goal: `size of the wasm build, gzipped: <= ${SIZE_GOAL_KB} KB`, got: `${sizeKb.toFixed(1)} KB`, met: sizeMet });

console.log('\nGoals');
const goalWidth = Math.max(...goals.map((g) => g.goal.length));
for (const g of goals) console.log(`  ${g.met ? 'met   ' : 'MISSED'} ${g.goal.padEnd(goalWidth)}  ${g.got}`);
if (goals.some((g) => !g.met) && process.argv.includes('--check')) process.exit(1);
