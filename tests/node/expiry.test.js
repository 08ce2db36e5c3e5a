// The freshness rule of the per-thread runs with the event loop stalled, and
// the mechanism that keeps it without a clock read per ID on Linux: a run's
// expiry word, cleared by a kernel timer's signal (node/src/expiry.rs).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { PACKAGE, SRC, WASM_ENTRY, sm } from './pkg.js';

/**
 * Where runs must have expiry words: the native addon on Linux, except under
 * qemu-user (SNOWMINT_EMULATED, set by the platform suites for linux-arm64):
 * there the addon gets no words and falls back to the clock check, which the
 * stalled-event-loop tests still hold it to.
 */
const WORDS = !WASM_ENTRY && sm.backendName === 'native' && process.platform === 'linux' && !process.env.SNOWMINT_EMULATED;
const ADDON = new URL('addon.js', SRC).href;
const { addon } = WORDS ? await import(ADDON) : { addon: null };

/**
 * Mints bursts of 40 nextId(), a Snowflake's, ulid() and uuidv7(), busy-waits 0-3 ms in
 * JavaScript (no yield: no timer or I/O callback can run), mints again, for
 * `rounds` rounds. Returns every ID handed out more than one tick (plus the
 * core clock's 1 ms anchor rounding, as in generate.test.js) before the
 * Date.now() read right before the call: a lower bound of when it was handed
 * out, so a correct run is never flagged. The read right after the call is
 * no bound: the thread may be descheduled, or collect garbage, between the
 * handout and that read (2 cores, other jobs). Runs in worker threads too
 * (as source text).
 */
function stalledRounds(sm, rounds, workerId) {
  const g = new sm.Snowflake({ workerId });
  const time = (id) => sm.decode(id).timestamp;
  const kinds = [
    ['nextId', () => sm.nextId(), time],
    ['Snowflake', () => g.next(), (id) => g.decode(id).timestamp],
    ['ulid', () => sm.ulid(), time],
    ['uuidv7', () => sm.uuidv7(), time],
  ];
  const stale = [];
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < 2; k++) {
      for (const [name, mint, timestamp] of kinds) {
        // A burst, so that runs grow past MIN_RUN and are judged by their words.
        for (let b = 0; b < 40; b++) {
          const before = Date.now();
          const id = mint();
          const after = Date.now();
          const ts = timestamp(id);
          if (before - ts > 2) stale.push(`${name} ${id} of ${ts} handed out at ${before}..${after} (round ${r})`);
        }
      }
      if (k === 0) {
        const until = performance.now() + Math.random() * 3;
        while (performance.now() < until);
      }
    }
  }
  return stale;
}

test('no ID is handed out more than one tick after its tick, with the event loop stalled 0-3 ms between mints', () => {
  if (WASM_ENTRY) sm.configure({ workerId: 1 });
  const stale = stalledRounds(sm, 300, 7);
  assert.deepEqual(stale.slice(0, 5), [], `${stale.length} stale IDs`);
});

const WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const stalledRounds = new Function('return ' + workerData.fn)();
  Promise.all([import(workerData.pkg), workerData.addon && import(workerData.addon)]).then(([sm, native]) => {
    if (sm.backendName !== 'native') sm.configure({ workerId: 10 + workerData.i }); // no process-wide worker ID there
    const words = native ? native.addon.expiryWords() instanceof Int32Array : null;
    parentPort.postMessage({ stale: stalledRounds(sm, 200, 20 + workerData.i), words });
  });
`;

test('the same in 2 worker_threads minting at once (each thread has its own words and timer)', async () => {
  const run = (i) =>
    new Promise((resolve, reject) => {
      const workerData = { pkg: PACKAGE, addon: WORDS ? ADDON : null, fn: stalledRounds.toString(), i, wasm: WASM_ENTRY };
      const w = new Worker(WORKER, { eval: true, workerData });
      w.once('message', resolve);
      w.once('error', reject);
    });
  const results = await Promise.all([0, 1].map(run));
  for (const [i, r] of results.entries()) {
    assert.deepEqual(r.stale.slice(0, 5), [], `thread ${i}: ${r.stale.length} stale IDs`);
    if (WORDS) assert.equal(r.words, true, `thread ${i} has no expiry words (its signal blocked, or no timer)`);
  }
});

test("Linux: a run's word is 1 right after its claim and is cleared by the timer's signal within the tick, with no clock read in JS", { skip: !WORDS && 'no expiry words here' }, () => {
  const words = addon.expiryWords();
  assert.ok(words instanceof Int32Array, 'this thread has expiry words');
  assert.equal(addon.expiryWords(), words, 'one array per thread');
  assert.ok(addon.expiryDebug()[0] > 0, 'a real-time signal is installed');
  const slot = addon.expirySlot();
  assert.ok(slot > 0);
  try {
    const timing = new Float64Array(5);
    let best = Infinity;
    for (let attempt = 0; attempt < 5; attempt++) {
      const t0 = performance.now();
      addon.mintText('ulid', 16, timing, slot);
      assert.equal(timing[4], 1, 'the claim reports its word set');
      assert.equal(words[slot], 1, 'the word is 1 right after the claim');
      // Only the signal handler can clear it: this loop reads no clock and never yields.
      let spins = 0;
      while (words[slot] !== 0 && ++spins < 4e9);
      const took = performance.now() - t0 - timing[0];
      assert.equal(words[slot], 0, 'the word was never cleared');
      // The deadline: the claim's start + fresh + 1 ms - 0.2 ms (expiry.rs SAFETY_NS).
      assert.ok(took >= 0.79, `cleared ${took} ms after the claim, before its deadline`);
      best = Math.min(best, took);
    }
    assert.ok(best <= 1, `cleared at best ${best} ms after the claim: not within the tick`);
    // A claim without a slot, or with slot 0, sets no word.
    addon.mintText('ulid', 16, timing, 0);
    assert.equal(timing[4], 0);
  } finally {
    addon.expiryFree(slot);
  }
});

test('Linux: the API hands out runs with expiry words (the timer is armed after a claim)', { skip: !WORDS && 'no expiry words here' }, () => {
  let armed = false;
  for (let i = 0; i < 20 && !armed; i++) {
    const until = performance.now() + 2;
    while (performance.now() < until); // the last run expired: the next ulid() claims
    for (let k = 0; k < 40; k++) sm.ulid(); // a burst: the run grows past MIN_RUN and claims a word
    armed = addon.expiryDebug()[1] > 0;
  }
  assert.ok(armed, 'no timer armed after 20 claims');
});

test('idle: a process that minted uses no CPU while idle (no busy thread, the timer fires once and is not re-armed)', () => {
  const code = `
    const sm = await import(process.env.PKG);
    if (process.env.WASM) sm.configure({ workerId: 1 });
    sm.nextId(); sm.ulid(); sm.uuidv7(); new sm.Snowflake({ workerId: 2 }).next();
    // What the first calls start in the background (V8 compiling the wasm
    // modules in a higher tier) is done before the idle time is measured.
    await new Promise((r) => setTimeout(r, 500));
    const c0 = process.cpuUsage();
    await new Promise((r) => setTimeout(r, 2000));
    const c = process.cpuUsage(c0);
    const armed = process.env.ADDON ? (await import(process.env.ADDON)).addon.expiryDebug()[1] : -1;
    console.log(JSON.stringify({ us: c.user + c.system, armed }));
  `;
  const env = { ...process.env, PKG: PACKAGE, ADDON: WORDS ? ADDON : '', WASM: WASM_ENTRY ? '1' : '' };
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', code], { env, encoding: 'utf8' }));
  // A busy thread costs about 2,000 ms here, a re-armed timer a share of
  // it; under qemu-user every instruction of the runtime's own background
  // work costs many, so the bound there is ten times as large (and there are
  // no expiry timers there): still a tenth of a busy thread.
  const bound = process.env.SNOWMINT_EMULATED ? 200_000 : 20_000;
  assert.ok(out.us < bound, `${out.us / 1000} ms of CPU over 2 s idle`);
  assert.equal(out.armed, -1, 'a timer is still armed after 2 s idle');
});

test('worker_threads terminated while their timers are armed: their timers are deleted before their words are freed', async () => {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    import(workerData.pkg).then((sm) => {
      if (sm.backendName !== 'native') sm.configure({ workerId: 30 });
      sm.ulid();
      parentPort.postMessage('minted');
      for (;;) { sm.ulid(); sm.uuidv7(); }
    });
  `;
  for (let i = 0; i < 20; i++) {
    const w = new Worker(code, { eval: true, workerData: { pkg: PACKAGE } });
    await new Promise((resolve, reject) => {
      w.once('message', resolve);
      w.once('error', reject);
    });
    await new Promise((r) => setTimeout(r, i % 3));
    await w.terminate();
  }
  // This thread still mints, and no signal of a freed thread's state crashed the process.
  await new Promise((r) => setTimeout(r, 5));
  assert.equal(typeof sm.ulid(), 'string');
  if (WORDS) {
    // Every terminated thread's timer is deleted: only this thread's is left.
    const timers = readFileSync('/proc/self/timers', 'utf8').match(/^notify:.*$/gm) ?? [];
    assert.deepEqual(timers, [`notify: signal/tid.${process.pid}`]);
  }
});
