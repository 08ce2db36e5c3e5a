// The README's Redis lease example, run as written against a real Redis (the
// imports pointed at this repository): it leases a worker ID, mints, and on
// SIGTERM or SIGINT releases the lease, closes its client and exits 0,
// rather than hanging on the open client or skipping the release.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { startRedis, tempDir } from './servers.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const SPECIFIERS = {
  snowmint: new URL('../../npm/src/node.js', import.meta.url).href,
  'snowmint/lease': new URL('../../npm/src/lease/index.js', import.meta.url).href,
  ioredis: import.meta.resolve('ioredis'),
};

test("the README's Redis lease example leases, mints, and shuts down cleanly on SIGTERM and SIGINT", { timeout: 90_000 }, async (t) => {
  const redis = await startRedis();
  const dir = tempDir('readme');
  t.after(async () => {
    await redis.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const code = README.split('## Worker IDs (leases)')[1].split('```js\n')[1].split('```')[0];
  const file = join(dir, 'example.mjs');
  writeFileSync(
    file,
    code.replace(/from '([^']+)'/g, (all, spec) => `from '${SPECIFIERS[spec] ?? spec}'`),
  );
  const ids = [];
  for (const signal of ['SIGTERM', 'SIGINT']) {
    const child = spawn(process.execPath, [file], { env: { ...process.env, REDIS_URL: redis.url }, stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = await once(createInterface({ input: child.stdout }), 'line');
    const m = /^worker ID (\d+)$/.exec(line);
    assert.ok(m, line);
    ids.push(Number(m[1]));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    const [status, killedBy] = await once(child, 'exit');
    clearTimeout(timer);
    assert.deepEqual([status, killedBy], [0, null], `${signal}: the example must release, close its client and exit 0`);
  }
  // Released, not left to expire: the second run took the first's worker ID again at once.
  assert.equal(ids[1], ids[0]);
});
