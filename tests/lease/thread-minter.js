// A worker_thread that mints with the zero-config default generator, for the
// default-lease thread tests. workerData: { count } mints that many IDs and
// posts them; { forMs } mints for that long and posts the last ID.
import { parentPort, workerData } from 'node:worker_threads';
import { nextId } from '../../npm/entries/node.js';

if (workerData.count !== undefined) {
  const ids = new BigUint64Array(workerData.count);
  for (let i = 0; i < ids.length; i++) ids[i] = nextId();
  parentPort.postMessage({ ids }, [ids.buffer]);
} else {
  const end = performance.now() + workerData.forMs;
  let last;
  while (performance.now() < end) for (let i = 0; i < 1000; i++) last = nextId();
  parentPort.postMessage({ last });
}
