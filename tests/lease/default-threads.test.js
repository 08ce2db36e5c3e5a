// The zero-config default generator is one per process, shared by every
// worker_thread, and so is its lease: one worker ID and one lock file, however
// many threads race to make the first nextId() call.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { decode } from '../../npm/entries/node.js';
import { assertOneHeldLock, assertUnique, mintInThread } from './harness.js';
import { tempDir } from './servers.js';

const dir = tempDir('leases');
process.env.SNOWMINT_LEASE_DIR = dir; // the threads inherit it
delete process.env.SNOWMINT_WORKER_ID;
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('4 worker_threads x 500k nextId() with no configuration: one worker ID, one held lock file, 0 duplicates', async () => {
  const runs = await Promise.all([0, 1, 2, 3].map(() => mintInThread({ count: 500_000 })));
  const workerIds = new Set();
  for (const { ids } of runs) for (const id of ids) workerIds.add(decode(id).workerId);
  assert.equal(workerIds.size, 1, `worker IDs: ${[...workerIds]}`);
  assertOneHeldLock(dir, [...workerIds][0]);
  assert.equal(assertUnique(runs.map((r) => r.ids)), 2_000_000);
});
