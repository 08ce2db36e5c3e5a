// The browser benchmark's page code (bundled by run.js with the peers): every
// contender in this one page, interleaved rounds, median ns per ID.
import { monotonicFactory } from 'ulid';
import { v7 as uuidV7, v4 as uuidV4 } from 'uuid';
import { uuidv7 as uuidv7Pkg } from 'uuidv7';
import * as sm from '../../npm/entries/browser.js';

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** ns per call of `f` over `n` calls; the last result is kept so nothing is optimized away. */
function timeCalls(f, n) {
  let last;
  const t = performance.now();
  for (let i = 0; i < n; i++) last = f();
  if (last === undefined) throw new Error('no result');
  return ((performance.now() - t) * 1e6) / n;
}

/**
 * Interleaved rounds; median ns per ID of each contender, snowmint first.
 * As many rounds as are measured warm every contender up first: after one
 * warm-up round, ulid's monotonicFactory() was still tiering up (595-625
 * ns per ID, 360-365 ns warm), which flattered snowmint's ratio.
 */
function compare(title, n, rounds, contenders) {
  const samples = contenders.map(() => []);
  for (let r = -rounds; r < rounds; r++) {
    contenders.forEach(([, f], i) => {
      const ns = timeCalls(f, n);
      if (r >= 0) samples[i].push(ns);
    });
  }
  return { title, rows: contenders.map(([name], i) => ({ name, ns: median(samples[i]) })) };
}

/** Runs every comparison; `rounds` per comparison, of 50,000 calls (5 ms and more: the page's timer steps by 0.1 ms). */
window.runBench = (rounds) => [
  compare('ULID, monotonic', 50_000, rounds, [
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
