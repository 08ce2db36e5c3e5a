// The default generator is one per process: worker threads share it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { PACKAGE } from './pkg.js';

const PER_THREAD = 1_000_000;
const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import(workerData.pkg).then((sm) => {
    const ids = new BigUint64Array(workerData.n);
    for (let i = 0; i < ids.length; i++) ids[i] = sm.nextId();
    let increasing = true;
    for (let i = 1; i < ids.length; i++) if (ids[i] <= ids[i - 1]) increasing = false;
    parentPort.postMessage({ ids, increasing }, [ids.buffer]);
  });
`;

function run(n) {
  return new Promise((resolve, reject) => {
    const w = new Worker(WORKER, { eval: true, workerData: { pkg: PACKAGE, n } });
    w.once('message', resolve);
    w.once('error', reject);
  });
}

test('4 worker_threads x 1M nextId(): 0 duplicates, strictly increasing per thread', async () => {
  const results = await Promise.all([0, 1, 2, 3].map(() => run(PER_THREAD)));
  const all = new BigUint64Array(4 * PER_THREAD);
  results.forEach((r, i) => {
    assert.ok(r.increasing, `thread ${i} is not strictly increasing`);
    all.set(r.ids, i * PER_THREAD);
  });
  all.sort();
  let dups = 0;
  for (let i = 1; i < all.length; i++) if (all[i] === all[i - 1]) dups++;
  assert.equal(dups, 0);
});
