// Clock faults through the core's ManualClock (TestClock): every policy.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WASM_ENTRY, sm, throwsCode } from './pkg.js';

const T0 = 1_700_000_000_000;

test('TestClock moves both ways', () => {
  const c = new sm.TestClock(T0);
  assert.equal(c.advance(5).now(), T0 + 5);
  assert.equal(c.stepBack(10).now(), T0 - 5);
  assert.equal(c.set(new Date(T0)).now(), T0);
});

test('IDs follow the test clock, tick by tick, with no buffering', () => {
  const c = new sm.TestClock(T0);
  const g = new sm.Snowflake({ clock: c, workerId: 9 });
  const a = g.decode(g.next());
  assert.deepEqual([a.timestamp, a.sequence, a.workerId], [T0, 0, 9]);
  c.advance(7);
  const b = g.decode(g.next());
  assert.deepEqual([b.timestamp, b.sequence], [T0 + 7, 0]);
});

test("onBackwards 'fail' and 'wait' beyond its bound throw ClockError ERR_CLOCK_BACKWARDS", () => {
  const c = new sm.TestClock(T0);
  const fail = new sm.Snowflake({ clock: c, onBackwards: 'fail' });
  const wait = new sm.Snowflake({ clock: c, maxBackwardsMs: 3 });
  fail.next();
  wait.next();
  c.stepBack(5);
  throwsCode(assert, () => fail.next(), sm.ClockError, 'ERR_CLOCK_BACKWARDS', /backwards by 5 ms/);
  throwsCode(assert, () => wait.next(), sm.ClockError, 'ERR_CLOCK_BACKWARDS', /at most 3 ms/);
  c.advance(5);
  assert.ok(fail.next() > 0n, 'minting resumes once the clock is back');
});

test('a policy that would wait on a TestClock throws ClockError ERR_CLOCK_WOULD_WAIT at once, never spins', () => {
  const c = new sm.TestClock(T0);
  const wouldWait = (until) => new RegExp(`reads ${T0} .* until it reads ${until},`);
  // The 4,097th ID of a tick.
  const full = new sm.Snowflake({ clock: c });
  full.nextBatch(4096);
  throwsCode(assert, () => full.next(), sm.ClockError, 'ERR_CLOCK_WOULD_WAIT', wouldWait(T0 + 1));
  // Borrowing past its window (2 ticks ahead).
  const borrow = new sm.Snowflake({ clock: c, onExhausted: 'borrow', maxBorrowTicks: 2 });
  borrow.nextBatch(3 * 4096);
  throwsCode(assert, () => borrow.next(), sm.ClockError, 'ERR_CLOCK_WOULD_WAIT', wouldWait(T0 + 1));
  // A step back within 'wait''s bound.
  const back = new sm.Snowflake({ clock: c.set(T0 + 50) });
  const last = back.next();
  c.set(T0);
  throwsCode(assert, () => back.next(), sm.ClockError, 'ERR_CLOCK_WOULD_WAIT', wouldWait(T0 + 50));
  // Moved on by the caller, each mints again, after what it minted before.
  c.set(T0 + 50);
  assert.ok(back.next() > last);
  assert.equal(typeof full.next(), 'bigint');
  assert.equal(typeof borrow.next(), 'bigint');
});

test("onBackwards 'keep' keeps minting after the last ID, never below it", () => {
  const c = new sm.TestClock(T0);
  const g = new sm.Snowflake({ clock: c, onBackwards: 'keep' });
  const last = g.next();
  c.stepBack(1000);
  const ids = Array.from({ length: 10 }, () => g.next());
  assert.ok(ids[0] > last);
  for (let i = 1; i < ids.length; i++) assert.ok(ids[i] > ids[i - 1]);
});

test("a used-up tick borrows ahead under onExhausted 'borrow', within its bound", () => {
  const c = new sm.TestClock(T0);
  const g = new sm.Snowflake({ clock: c, onExhausted: 'borrow', maxBorrowTicks: 2 });
  const batch = g.nextBatch(4096 * 3); // this tick and two borrowed ones
  const last = g.decode(batch[batch.length - 1]);
  assert.deepEqual([last.timestamp, last.sequence], [T0 + 2, 4095]);
  for (let i = 1; i < batch.length; i++) assert.ok(batch[i] > batch[i - 1]);
});

test('epoch in the future, time before the epoch, time past the layout', () => {
  const c = new sm.TestClock(T0);
  throwsCode(assert, () => new sm.Snowflake({ clock: c, epoch: T0 + 1 }), sm.ConfigError, 'ERR_EPOCH_IN_FUTURE');
  // Before any ID, a clock that falls behind the epoch cannot mint at all.
  const fresh = new sm.Snowflake({ clock: c, epoch: T0 });
  c.stepBack(1);
  throwsCode(assert, () => fresh.next(), sm.ClockError, 'ERR_TIME_BEFORE_EPOCH');
  // After minting, falling behind the epoch is a step back: the policy decides.
  c.set(T0);
  const keep = new sm.Snowflake({ clock: c, epoch: T0, onBackwards: 'keep' });
  const fail = new sm.Snowflake({ clock: c, epoch: T0, onBackwards: 'fail' });
  const first = keep.next();
  fail.next();
  c.stepBack(1);
  assert.ok(keep.next() > first);
  throwsCode(assert, () => fail.next(), sm.ClockError, 'ERR_CLOCK_BACKWARDS');
  const small = { timeBits: 4, workerBits: 10, sequenceBits: 49, epoch: T0 };
  const s = new sm.Snowflake({ clock: c.set(T0 + 15), layout: small });
  s.next();
  c.advance(1);
  throwsCode(assert, () => s.next(), sm.ClockError, 'ERR_TIME_OVERFLOW');
});

test('configure() with a test clock, then back: the default never goes back', () => {
  if (WASM_ENTRY) sm.configure({ workerId: 4 }); // no zero-config worker ID there
  const before = sm.nextId();
  const c = new sm.TestClock(Date.now() + 50);
  sm.configure({ clock: c, workerId: 5 });
  const during = sm.nextId();
  assert.ok(during > before);
  assert.equal(sm.decode(during).workerId, 5);
  sm.configure({ workerId: 6 });
  const after = sm.nextId();
  assert.ok(after > during, 'the new generator resumes after the last tick of the old one (waiting out 50 ms)');
  assert.equal(sm.decode(after).workerId, 6);
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `fn` while a 1 ms interval beats; returns its result and the longest gap (ms) between beats, its start and its end. */
async function withHeartbeat(fn) {
  let prev = performance.now();
  let maxGap = 0;
  const gap = () => {
    const now = performance.now();
    maxGap = Math.max(maxGap, now - prev);
    prev = now;
  };
  const beat = setInterval(gap, 1);
  try {
    const result = await fn();
    gap();
    return { result, maxGap };
  } finally {
    clearInterval(beat);
  }
}

test("nextAsync() waits on timers, not the event loop, while a TestClock stepped back 100 ms catches up under onBackwards 'wait'", { timeout: 10_000 }, async () => {
  // A blocking wait would hold the event loop for the whole 100 ms (on a
  // TestClock, forever). The longest gap between 1 ms beats is also what a
  // busy machine deschedules this process for, so the best of three runs counts.
  const gaps = [];
  for (let run = 0; run < 3 && !(Math.min(...gaps) < 50); run++) {
    const c = new sm.TestClock(T0 + 100);
    const g = new sm.Snowflake({ clock: c, onBackwards: 'wait' });
    const last = g.next();
    c.stepBack(100);
    // Synchronously, a wait on a TestClock could never end: it fails at once.
    throwsCode(assert, () => g.next(), sm.ClockError, 'ERR_CLOCK_WOULD_WAIT');
    // The test moves the clock 5 ms every 5 ms.
    const mover = setInterval(() => c.advance(5), 5);
    let caughtUp;
    try {
      const r = await withHeartbeat(async () => {
        const id = await g.nextAsync();
        caughtUp = c.now();
        return id;
      });
      assert.ok(caughtUp >= T0 + 100, `resolved at ${caughtUp - T0}, before the clock caught up with the last ID (100)`);
      assert.ok(r.result > last, 'after the last ID');
      assert.equal(g.decode(r.result).timestamp, T0 + 100, "in the last ID's tick, once the clock reads it again");
      gaps.push(r.maxGap);
    } finally {
      clearInterval(mover);
    }
  }
  assert.ok(Math.min(...gaps) < 50, `the event loop stalled for ${gaps.map((g) => g.toFixed(1)).join(', ')} ms`);
  // Beyond maxBackwardsMs it rejects as next() throws.
  const c = new sm.TestClock(T0 + 200);
  const bounded = new sm.Snowflake({ clock: c, maxBackwardsMs: 50 });
  bounded.next();
  c.stepBack(100);
  await assert.rejects(bounded.nextAsync(), (e) => e instanceof sm.ClockError && e.code === 'ERR_CLOCK_BACKWARDS');
});

test('nextIdAsync() under sequence exhaustion waits for the next tick and resolves with a strictly larger ID', { timeout: 10_000 }, async () => {
  const c = new sm.TestClock(Date.now());
  sm.configure({ clock: c, workerId: 7 });
  const used = sm.nextIds(4096); // the whole tick
  let resolved = false;
  const pending = sm.nextIdAsync().then((id) => {
    resolved = true;
    return id;
  });
  await sleep(30);
  assert.equal(resolved, false, 'resolved before the clock reached the next tick');
  c.advance(1);
  const id = await pending;
  assert.ok(id > used[4095]);
  assert.equal(sm.decode(id).timestamp, c.now());
  sm.configure({ workerId: 7 });

  // On the monotonic clock: 20,000 concurrent calls outrun the sequence of
  // several ticks, wait on timers, and all resolve to distinct IDs.
  const ids = await Promise.all(Array.from({ length: 20_000 }, () => sm.nextIdAsync()));
  assert.equal(new Set(ids).size, ids.length, 'duplicates');
  assert.ok(
    ids.every((x, i) => i === 0 || x > ids[i - 1]),
    'queued calls are served in order',
  );
  assert.ok(ids.every((x) => typeof x === 'bigint' && x > id));
  const ticks = new Set(ids.map((x) => sm.decode(x).timestamp));
  assert.ok(ticks.size >= 5, `20,000 IDs in ${ticks.size} ticks of 4,096`);
  // A generator on the raw system clock (no buffering) too.
  assert.equal(typeof (await new sm.Snowflake({ clock: 'system', workerId: 3 }).nextAsync()), 'bigint');
});
