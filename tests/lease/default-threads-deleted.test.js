// The zero-config lease is one lock for the whole process: when a cleaner
// deletes the lease directory while worker_threads mint, every thread stops
// handing out IDs of the lost worker ID, the first to notice claims a new
// lock for the process, the others take that one: 0 duplicates, and one held
// lock file afterwards.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { decode, nextId } from '../../npm/entries/node.js';
import { assertOneHeldLock, assertUnique } from './harness.js';
import { tempDir } from './servers.js';

const work = tempDir('threads-deleted');
const dir = join(work, 'leases');
process.env.SNOWMINT_LEASE_DIR = dir; // the threads inherit it
delete process.env.SNOWMINT_WORKER_ID;
test.after(() => rmSync(work, { recursive: true, force: true }));

/** Starts a minting thread: `minting` resolves once it mints, `done` with what it minted. */
const mint = (forMs) => {
  const w = new Worker(new URL('./thread-lost-minter.js', import.meta.url), { workerData: { forMs } });
  const failed = new Promise((_, reject) => w.once('error', reject));
  const minting = Promise.race([once(w, 'message'), failed]);
  const done = minting.then(() => Promise.race([once(w, 'message').then(([m]) => m), failed]));
  return { minting, done };
};

test('the lease directory deleted while 3 worker_threads mint with no configuration: 0 duplicates, one held lock file after', async () => {
  const first = nextId();
  // Long enough that the threads still mint well after the deletion, however slowly they started.
  const threads = [0, 1, 2].map(() => mint(1500));
  await Promise.all(threads.map((t) => t.minting));
  await sleep(200);
  rmSync(dir, { recursive: true });
  const done = await Promise.all(threads.map((t) => t.done));
  assert.ok(
    done.some((r) => r.lost > 0),
    'no thread noticed the deleted lock file',
  );
  assertUnique([BigUint64Array.of(first), ...done.map((r) => r.ids)]);
  // biome-ignore lint/complexity/useMathMinMax: BigInts, which Math.max refuses
  const last = done.map((r) => r.ids.at(-1)).reduce((a, b) => (a > b ? a : b));
  assertOneHeldLock(dir, decode(last).workerId);
});
