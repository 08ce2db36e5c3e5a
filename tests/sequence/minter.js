// One process minting from a sequence: argv[2] is JSON { kind, conn, name,
// count, options, rate (IDs per second; 0: as fast as it can), out (a file
// the IDs are appended to, 8 bytes each, every 1000 IDs) }. Prints JSON
// { stalls, lateStalls, stats, ms } at the end: a stall is a next() that
// found no ID buffered; a late stall is one after the first second.

import { openSync, writeSync, closeSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { sequence } from '../../npm/src/sequence/index.js';
import { openStore } from './stores.js';

const { kind, conn, name, count, options = {}, rate = 0, out } = JSON.parse(process.argv[2]);
const { store, close } = await openStore(kind, conn);
const seq = sequence(store, { name, ...options });
const fd = openSync(out, 'w');
const ids = new BigUint64Array(count);
let flushed = 0;
let stalls = 0;
let lateStalls = 0;
const t0 = performance.now();
for (let i = 0; i < count; i++) {
  let id;
  try {
    id = seq.nextSync();
  } catch (e) {
    if (e.code !== 'ERR_SEQUENCE_EMPTY') throw e;
    stalls++;
    if (performance.now() - t0 > 1000) lateStalls++;
    id = await seq.next();
  }
  ids[i] = id;
  if ((i + 1) % 1000 === 0) {
    writeSync(fd, ids.subarray(flushed, i + 1));
    flushed = i + 1;
  }
  if (rate > 0) {
    const due = t0 + ((i + 1) * 1000) / rate;
    const wait = due - performance.now();
    if (wait >= 1) await sleep(wait);
  }
}
writeSync(fd, ids.subarray(flushed));
closeSync(fd);
const ms = performance.now() - t0;
const stats = seq.stats();
await seq.close();
await close();
process.stdout.write(JSON.stringify({ stalls, lateStalls, stats, ms }));
