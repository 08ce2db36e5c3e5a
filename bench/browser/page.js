// The browser benchmark's page code (bundled by run.js with the peers): every
// contender in this one page, interleaved rounds, median ns per ID.
import { monotonicFactory } from 'ulid';
import { v7 as uuidV7, v4 as uuidV4 } from 'uuid';
import { uuidv7 as uuidv7Pkg } from 'uuidv7';
import * as sm from '../../npm/src/browser.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** ns per call of `f` over `n` calls; the last result is kept so nothing is optimized away. */
function timeCalls(f, n) {
  let last;
  const t = performance.now();
  for (let i = 0; i < n; i++) last = f();
  if (last === undefined) throw new Error('no result');
  return ((performance.now() - t) * 1e6) / n;
}

/** Interleaved rounds (round 0 warms up); median ns per ID of each contender, snowmint first. */
function compare(title, n, rounds, contenders) {
  const samples = contenders.map(() => []);
  for (let r = 0; r <= rounds; r++) {
    contenders.forEach(([, f], i) => {
      const ns = timeCalls(f, n);
      if (r > 0) samples[i].push(ns);
    });
  }
  return { title, rows: contenders.map(([name], i) => ({ name, ns: median(samples[i]) })) };
}

/** Runs every comparison; `rounds` per comparison. */
window.runBench = (rounds) => [
  compare('ULID, monotonic', 20_000, rounds, [
    ['snowmint ulid()', sm.ulid],
    ['ulid monotonicFactory()', monotonicFactory()],
  ]),
  compare('UUIDv7', 50_000, rounds, [
    ['snowmint uuidv7()', sm.uuidv7],
    ['uuidv7 uuidv7()', uuidv7Pkg],
    ['uuid v7()', uuidV7],
  ]),
  compare('UUIDv4', 50_000, rounds, [
    ['snowmint uuidv4()', sm.uuidv4],
    ['crypto.randomUUID()', () => crypto.randomUUID()],
    ['uuid v4()', uuidV4],
  ]),
];
