// The per-thread buffering of npm/src/api/sources.js against a fake backend
// and a fake host clock: the rules api.js keeps on top of the core's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createSources, nextRunSize } from '../../npm/src/api/sources.js';

const C = { minRun: 16, maxIdRun: 4096, maxTextRun: 256, clocks: ['monotonic', 'system', 'test'] };
const LAYOUT = { timeBits: 41, workerBits: 10, sequenceBits: 12, unitMs: 1, epoch: 0, order: 'worker-sequence', split: null };

/** A generator handle that hands out 1, 2, 3... and reports what the test sets. */
function fakeHandle() {
  const h = { next: 1n, fills: 0, layouts: 0, report: [0, 0, 1], layoutNow: LAYOUT, gen: 1 };
  Object.assign(h, {
    fill(out, max, timing) {
      h.fills++;
      for (let i = 0; i < max; i++) out[i] = h.next++;
      timing.set(h.report);
      return max;
    },
    fillAll(out, timing) {
      for (let i = 0; i < out.length; i++) out[i] = h.next++;
      timing.set(h.report);
    },
    layout() {
      h.layouts++;
      return h.layoutNow;
    },
    generation: () => h.gen,
    clockKind: () => 'monotonic',
    highWaterMs: () => null,
  });
  return h;
}

function setup() {
  const clock = { t: 1000 };
  const { IdSource } = createSources({}, { now: () => clock.t, margin: 0, C: { ...C } });
  const h = fakeHandle();
  return { clock, h, src: new IdSource(() => h) };
}

test('a run is handed out only within one tick of its claim, then refilled', () => {
  const { clock, h, src } = setup();
  assert.equal(src.next(), 1n);
  assert.equal(src.next(), 2n);
  assert.equal(h.fills, 1);
  clock.t += 1; // one tick (unitMs 1, fresh 0) later: the rest of the run is stale
  assert.equal(src.next(), 17n, 'a stale run must not be handed out');
  assert.equal(h.fills, 2);
  clock.t -= 5; // the host clock stepped back past the run's start
  assert.equal(src.next(), 17n + 16n, 'a run is dropped when the clock steps back past its start');
});

test('runs double while used up in time and halve when most of one expires', () => {
  const { clock, h, src } = setup();
  for (let i = 0; i < 16; i++) src.next();
  src.next();
  assert.equal(src.len, 32, 'a run used up in time doubles');
  assert.equal(h.fills, 2);
  for (let i = 0; i < 31; i++) src.next();
  src.next();
  assert.equal(src.len, 64, 'and again');
  // 10 of 64 handed out before the tick ended: most of it expired.
  for (let i = 0; i < 9; i++) src.next();
  clock.t += 1;
  src.next();
  assert.equal(src.len, 32, 'a run mostly expired halves');
  clock.t += 1;
  src.next();
  assert.equal(src.len, 16, 'and again');
  clock.t += 1;
  src.next();
  assert.equal(src.len, 16, 'never below the smallest run');
});

test('text runs follow the same rule: double while used up, halve when most expire', () => {
  const clock = { t: 1000 };
  const backend = { mintText: (kind, n) => 'x'.repeat(n * 2) };
  const { newTextSource } = createSources(backend, { now: () => clock.t, margin: 0, C: { ...C } });
  const texts = newTextSource('ulid', 2, true);
  texts.next();
  assert.equal(texts.run, 16);
  for (let i = 0; i < 16; i++) texts.next();
  assert.equal(texts.run, 32, 'used up in time: doubled');
  clock.t += 1;
  texts.next();
  assert.equal(texts.run, 16, 'one of 32 used before it expired: halved');
});

test('nextRunSize: one rule for both sources', () => {
  assert.equal(nextRunSize(16, 0, 0, 16, 4096), 16, 'nothing claimed yet');
  assert.equal(nextRunSize(16, 16, 16, 16, 4096), 32);
  assert.equal(nextRunSize(4096, 4096, 4096, 16, 4096), 4096, 'capped');
  assert.equal(nextRunSize(64, 31, 64, 16, 4096), 32, 'fewer than half used');
  assert.equal(nextRunSize(64, 32, 64, 16, 4096), 64, 'half used: kept');
  assert.equal(nextRunSize(16, 1, 16, 16, 4096), 16, 'floored');
});

test('a new generation (another thread configured the default generator) is adopted before the run is handed out', () => {
  const { h, src } = setup();
  src.next();
  assert.equal(h.layouts, 1, 'read once: the first run is of the generation read by the constructor');
  h.report = [0, 0, 2];
  h.gen = 2;
  h.layoutNow = { ...LAYOUT, sequenceBits: 8, workerBits: 14 };
  src.len = 0; // force a refill
  const fills = h.fills;
  src.next();
  assert.equal(h.layouts, 2);
  assert.equal(h.fills, fills + 2, 'the run of the old generation was dropped, not handed out');
  assert.equal(src.layout.sequenceBits, 8);
  assert.equal(src.cap, 256, 'the run cap follows the new layout');
  assert.ok(src.run <= 256);
});

test('a layout read while another thread reconfigures again is read once more, and no run of another generation is handed out', () => {
  const { h, src } = setup();
  src.next();
  // The next run is claimed at generation 2, but by the time its layout is
  // read the default generator is already at 3: every later run reports 3.
  const fill = h.fill;
  h.fill = (out, max, timing) => {
    const n = fill(out, max, timing);
    timing[2] = h.fills === 2 ? 2 : 3;
    return n;
  };
  let reads = 0;
  h.generation = () => (reads++ === 0 ? 2 : 3);
  h.layoutNow = { ...LAYOUT, sequenceBits: 6, workerBits: 16 };
  src.len = 0;
  src.next();
  assert.equal(reads, 4, 'generation read 2 then 3 around the first layout read, 3 and 3 around the second');
  assert.equal(src.generation, 3);
  assert.equal(h.fills, 3, 'the run of generation 2 was dropped: its layout is not the one read');
  assert.equal(src.layout.sequenceBits, 6);
});

test("a lease checks every claimed run's high-water mark before any ID of it is handed out", () => {
  const clock = { t: 1000 };
  const { IdSource } = createSources({}, { now: () => clock.t, margin: 0, C: { ...C } });
  const h = fakeHandle();
  const checked = [];
  const lease = { epoch: 0, bind() {}, check: (ms) => checked.push(ms) };
  h.report = [0, 123456, 1];
  const src = new IdSource(() => h, lease);
  src.next();
  src.batch(3);
  assert.deepEqual(checked, [123456]);
  src.batch(100);
  assert.deepEqual(checked, [123456, 123456]);
  lease.check = () => {
    throw new Error('lease lost');
  };
  src.len = 0;
  assert.throws(() => src.next(), /lease lost/);
});

test('nextAsync(): where the core says wait, one timer for all pending calls, served in order; errors reject only their call', async () => {
  const { h, src } = setup();
  // The core would wait 3 ms (count 0, timing[3]) for the first two claims, then mints.
  const fill = h.fill;
  let waits = 2;
  const calls = [];
  h.fill = (out, max, timing, wait) => {
    calls.push(wait);
    if (waits > 0) {
      waits--;
      timing.set([0, 0, 1, 3]);
      return 0;
    }
    return fill(out, max, timing);
  };
  const pending = Array.from({ length: 5 }, () => src.nextAsync());
  assert.deepEqual(calls, [false], 'later calls queue behind the first wait instead of asking again');
  assert.deepEqual(await Promise.all(pending), [1n, 2n, 3n, 4n, 5n]);
  assert.deepEqual(calls, [false, false, false], 'one claim per timer');
  assert.equal(await src.nextAsync(), 6n, 'from the run, no wait');
  // A queued call whose claim fails is rejected; the next one is served.
  src.len = 0;
  const steps = ['wait', 'fail'];
  h.fill = (out, max, timing) => {
    const step = steps.shift();
    if (step === 'wait') {
      timing.set([0, 0, 1, 3]);
      return 0;
    }
    if (step === 'fail') throw Object.assign(new Error('the clock moved backwards by 5000 ms'), { code: 'ERR_CLOCK_BACKWARDS' });
    return fill(out, max, timing);
  };
  const [a, b] = [src.nextAsync(), src.nextAsync()];
  await assert.rejects(a, (e) => e.code === 'ERR_CLOCK_BACKWARDS');
  assert.equal(await b, 17n);
});

test('the wasm modules refuse a name the core does not know, never read it as the first entry', async () => {
  const { wasmBackend } = await import('../../npm/src/wasm-backend.js');
  const { snowflakeBackend } = await import('../../npm/src/web/snowflake.js');
  const spec = { workerId: 0, preset: 'twitter', clock: 'monotonic', onBackwards: 'wait', maxBackwardsMs: 1000, onExhausted: 'wait', maxBorrowTicks: 16 };
  // The full module's layouts, and the Snowflake module's layouts and generators.
  for (const backend of [wasmBackend(), snowflakeBackend()]) {
    assert.equal(backend.layoutOf(spec).epoch, 1288834974657);
    for (const [key, value, what] of [
      ['preset', 'snowflake', 'preset'],
      ['onBackwards', 'skip', 'onBackwards policy'],
      ['onExhausted', 'drop', 'onExhausted policy'],
    ]) {
      assert.throws(
        () => backend.layoutOf({ ...spec, [key]: value }),
        (e) => e.code === 'ERR_INVALID_OPTION' && e.message.startsWith(`unknown ${what}: expected one of`),
        `${key}: ${value}`,
      );
    }
  }
  const backend = snowflakeBackend();
  for (const [key, value] of [
    ['preset', 'snowflake'],
    ['clock', 'sundial'],
    ['onBackwards', 'skip'],
    ['onExhausted', 'drop'],
  ]) {
    assert.throws(
      () => backend.snowflakeNew({ ...spec, [key]: value }),
      (e) => e.code === 'ERR_INVALID_OPTION' && /^unknown [a-zA-Z ]+: expected one of/.test(e.message),
      `${key}: ${value}`,
    );
  }
  // A name given is named, and cut where the core cuts it.
  assert.throws(() => backend.nameIndex('presets', 'é'.repeat(30)), {
    code: 'ERR_INVALID_OPTION',
    message: `unknown preset '${'é'.repeat(20)}...': expected one of 'twitter', 'discord', 'instagram', 'sonyflake', 'mastodon'`,
  });
  assert.equal(backend.nameIndex('presets', 'discord'), 1);
});

test('expiry words: a run grown past MIN_RUN is handed out while its word is set, with no clock read; a MIN_RUN run, and a source whose word cannot be set, read the clock', () => {
  const words = new Int32Array(8);
  const freed = [];
  const backend = { expirySlot: () => 3, expiryFree: (slot) => freed.push(slot) };
  const clock = { t: 1000, reads: 0 };
  const now = () => {
    clock.reads++;
    return clock.t;
  };
  const { IdSource } = createSources(backend, { now, margin: 0, C: { ...C }, words });
  const h = fakeHandle();
  let setsWord = 1;
  const passed = [];
  const fill = h.fill;
  h.fill = (out, max, timing, wait, slot) => {
    passed.push(slot);
    const n = fill(out, max, timing, wait);
    if (slot !== 0) words[slot] = setsWord; // the addon sets the word after the claim and reports it
    timing[4] = slot !== 0 ? setsWord : 0;
    return n;
  };
  const src = new IdSource(() => h);
  assert.equal(src.slot, 3);
  for (let i = 1n; i <= 16n; i++) assert.equal(src.next(), i);
  assert.deepEqual(passed, [0], 'a run of MIN_RUN IDs claims no word (the clock judges it)');
  assert.equal(src.next(), 17n); // used up in time: a run of 32, with a word
  assert.deepEqual(passed, [0, 3]);
  const reads = clock.reads;
  clock.t += 5; // the clock is not what bounds this run: its word is
  assert.equal(src.next(), 18n);
  assert.equal(src.next(), 19n);
  assert.equal(clock.reads, reads, 'no clock read per ID');
  words[3] = 0; // the timer's signal cleared it
  assert.equal(src.next(), 49n, 'a run whose word is cleared is not handed out');
  assert.deepEqual(passed, [0, 3, 0], 'mostly unused, the run shrank to MIN_RUN: no word');
  for (let i = 50n; i <= 64n; i++) assert.equal(src.next(), i);
  setsWord = 0; // a claim whose word could not be set
  assert.equal(src.next(), 65n);
  assert.deepEqual([src.slot, freed], [0, [3]], 'the source gave its slot back and reads the clock');
  assert.equal(src.next(), 66n);
  clock.t += 1; // one tick later by the clock: stale
  assert.equal(src.next(), 97n);
  assert.deepEqual(passed, [0, 3, 0, 3, 0]);
});
