// A worker_thread that mints with the zero-config default generator for
// workerData.forMs, through lost leases (LeaseError ERR_LEASE_LOST, counted),
// and posts every ID it handed out (after a first message, 'minting', once it
// has minted).
import { parentPort, workerData } from 'node:worker_threads';
import { nextId } from '../../npm/entries/node.js';

const ids = [nextId()];
let lost = 0;
parentPort.postMessage('minting'); // the parent deletes the directory only once every thread mints
const end = performance.now() + workerData.forMs;
while (performance.now() < end) {
  for (let i = 0; i < 1000; i++) {
    try {
      ids.push(nextId());
    } catch (e) {
      if (e.code !== 'ERR_LEASE_LOST') throw e;
      lost++;
    }
  }
}
const out = BigUint64Array.from(ids);
parentPort.postMessage({ ids: out, lost }, [out.buffer]);
