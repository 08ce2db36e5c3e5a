// The zero-config default generator's lease records one high-water bound for
// the whole process: a worker_thread that mints through the generator another
// thread installed advances the bound of the generator's worker ID.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { test } from 'node:test';
import { decode, nextId } from '../../npm/entries/node.js';
import { assertOneHeldLock, mintInThread, storedBound } from './harness.js';
import { tempDir } from './servers.js';

const dir = tempDir('leases');
process.env.SNOWMINT_LEASE_DIR = dir; // the thread inherits it
delete process.env.SNOWMINT_WORKER_ID;
test.after(() => rmSync(dir, { recursive: true, force: true }));

test('only a worker_thread mints: the recorded bound advances past its last ID', async () => {
  const { workerId } = decode(nextId()); // the main thread leases and installs the generator
  // Longer than one write of the bound reaches (1 s), so the bound the main
  // thread recorded is passed and only the worker's writes can cover it.
  const { last } = await mintInThread({ forMs: 2500 });
  assert.equal(decode(last).workerId, workerId);
  const stored = storedBound(dir, workerId);
  assert.ok(stored > decode(last).timestamp, `stored bound ${stored} is not above the worker's last ID's time ${decode(last).timestamp}`);
  assertOneHeldLock(dir, workerId);
});
