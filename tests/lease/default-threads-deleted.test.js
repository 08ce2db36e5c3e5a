// The zero-config lease is one lock for the whole process: when a cleaner
// deletes the lease directory while worker_threads mint, every thread stops
// handing out IDs of the lost worker ID, the first to notice claims a new
// lock for the process, the others take that one: 0 duplicates, and one held
// lock file afterwards.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { decode, nextId } from '../../npm/src/node.js';
import { assertOneHeldLock, assertUnique } from './harness.js';
import { tempDir } from './servers.js';

const work = tempDir('threads-deleted');
const dir = join(work, 'leases');
process.env.SNOWMINT_LEASE_DIR = dir; // the threads inherit it
delete process.env.SNOWMINT_WORKER_ID;
test.after(() => rmSync(work, { recursive: true, force: true }));

const mint = (forMs) =>
  new Promise((resolve, reject) => {
    const w = new Worker(new URL('./thread-lost-minter.js', import.meta.url), { workerData: { forMs } });
    w.once('message', resolve);
    w.once('error', reject);
  });

test('the lease directory deleted while 3 worker_threads mint with no configuration: 0 duplicates, one held lock file after', async () => {
  const first = nextId();
  const runs = Promise.all([0, 1, 2].map(() => mint(1500)));
  await sleep(400);
  rmSync(dir, { recursive: true });
  const done = await runs;
  assert.ok(
    done.some((r) => r.lost > 0),
    'no thread noticed the deleted lock file',
  );
  assertUnique([BigUint64Array.of(first), ...done.map((r) => r.ids)]);
  // biome-ignore lint/complexity/useMathMinMax: BigInts, which Math.max refuses
  const last = done.map((r) => r.ids.at(-1)).reduce((a, b) => (a > b ? a : b));
  assertOneHeldLock(dir, decode(last).workerId);
});
