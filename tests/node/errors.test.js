// Every error path: typed classes with stable codes and messages that say
// what was wrong and what is allowed.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { test } from 'node:test';
import { PACKAGE, WASM_ENTRY, sm, throwsCode } from './pkg.js';

test('bad worker IDs', () => {
  throwsCode(assert, () => new sm.Snowflake({ workerId: 1024 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE', /allows 0 to 1023/);
  throwsCode(assert, () => new sm.Snowflake({ workerId: -1 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE', /0 to 1023/);
  throwsCode(assert, () => new sm.Snowflake({ workerId: 1.5 }), sm.ConfigError, 'ERR_WORKER_ID_RANGE');
  throwsCode(assert, () => new sm.Snowflake({ workerId: '1' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /integer number, got a string/);
  throwsCode(assert, () => sm.configure({ workerId: 70000, preset: 'sonyflake' }), sm.ConfigError, 'ERR_WORKER_ID_RANGE', /0 to 65535/);
});

test('bad layouts and options', () => {
  const l = (layout) => () => new sm.Snowflake({ layout });
  throwsCode(assert, l({ timeBits: 41, workerBits: 10, sequenceBits: 11 }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /add up to 63/);
  throwsCode(assert, l({ timeBits: 53, workerBits: 10, sequenceBits: 0 }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /sequence/);
  throwsCode(assert, l({ timeBits: 41, workerBits: 10, sequenceBits: 12, unitMs: 0 }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /unit/);
  throwsCode(assert, l({ timeBits: 41, workerBits: 10 }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /sequenceBits is required/);
  throwsCode(assert, l({ timeBits: 99, workerBits: 10, sequenceBits: 12 }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /0 to 63/);
  throwsCode(assert, l({ timeBits: 41, workerBits: 10, sequenceBits: 12, order: 'x' }), sm.ConfigError, 'ERR_INVALID_LAYOUT', /'worker-sequence'/);
  throwsCode(assert, () => new sm.Snowflake({ preset: 'facebook' }), sm.ConfigError, 'ERR_INVALID_OPTION', /'twitter', 'discord'/);
  throwsCode(assert, () => new sm.Snowflake({ wokerId: 1 }), sm.ConfigError, 'ERR_INVALID_OPTION', /unknown option 'wokerId'/);
  throwsCode(assert, () => new sm.Snowflake({ clock: 'atomic' }), sm.ConfigError, 'ERR_INVALID_OPTION', /'monotonic', 'system'/);
  throwsCode(assert, () => new sm.Snowflake({ onBackwards: 'ignore' }), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => new sm.Snowflake({ epoch: 'yesterday' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /Date/);
  throwsCode(assert, () => sm.configure('workerId=1'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /an object/);
  throwsCode(assert, () => sm.decode('1', { preset: 'x' }), sm.ConfigError, 'ERR_INVALID_OPTION');
  throwsCode(assert, () => sm.decode('1', { kind: 'guid' }), sm.ConfigError, 'ERR_INVALID_OPTION', /'ulid'/);
});

test('names are checked by the core, in its words, under the code of their place', () => {
  // The core's message (core/src/binding.rs name_index), whichever option or argument names it.
  const order = () => new sm.Snowflake({ layout: { timeBits: 41, workerBits: 10, sequenceBits: 12, order: 'worker' } });
  throwsCode(assert, order, sm.ConfigError, 'ERR_INVALID_LAYOUT', /^unknown layout order 'worker': expected one of 'worker-sequence', 'sequence-worker'$/);
  throwsCode(assert, () => new sm.Snowflake({ onExhausted: 'drop' }), sm.ConfigError, 'ERR_INVALID_OPTION', /^unknown onExhausted policy 'drop': expected one of /);
  throwsCode(assert, () => sm.fromBytes(new Uint8Array(16), 'guid'), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /^unknown kind 'guid'/);
  // A long name is cut in the message, and says so.
  throwsCode(assert, () => sm.decode('1', { preset: 'x'.repeat(100) }), sm.ConfigError, 'ERR_INVALID_OPTION', new RegExp(`^unknown preset '${'x'.repeat(40)}\\.\\.\\.'`));
  // 'test' is the core's name of a TestClock's clock: it takes the TestClock itself.
  throwsCode(assert, () => new sm.Snowflake({ clock: 'test' }), sm.ConfigError, 'ERR_INVALID_OPTION', /new TestClock\(\)/);
  throwsCode(assert, () => new sm.Snowflake({ preset: null }), sm.ConfigError, 'ERR_INVALID_OPTION', /^preset must be a string, got null$/);
});

test('malformed IDs of every kind', () => {
  const bad = [
    ['snowflake', '9223372036854775808', /larger than the maximum/],
    ['snowflake', '12a', /character 'a' at position 2/],
    ['ulid', '01ARZ3NDEKTSV4RRFFQ69G5FAU', /position 25/],
    ['ulid', '8ZZZZZZZZZZZZZZZZZZZZZZZZZ', /maximum/],
    ['uuid', 'c232ab00-9414-11ec-b3c8-9f6bdeced84', /invalid uuid/],
    ['ksuid', '0ujtsYcgvSTl8PAuAdqWYSMnLO!', /base62/],
    ['objectid', '507c7f79bcf86cd7994f6c0g', /hex/],
    ['typeid', 'User_01h455vb4pex5vsknk084sn02q', /lowercase/],
    ['human', '01-hz61-3s2u', /position 11/],
    [undefined, 'hello', /unrecognized ID of 5 characters/],
  ];
  for (const [kind, text, message] of bad) {
    throwsCode(assert, () => sm.decode(text, kind && { kind }), sm.InvalidIdError, 'ERR_PARSE', message);
  }
  throwsCode(assert, () => sm.decode(1n << 63n), sm.InvalidIdError, 'ERR_PARSE', /maximum 9223372036854775807/);
  throwsCode(assert, () => sm.decode(-5n), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.ulidToUuid('nope'), sm.InvalidIdError, 'ERR_PARSE', /expected 26 characters, found 4/);
  throwsCode(assert, () => sm.uuidVersion('nope'), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.typeid('_user'), sm.InvalidIdError, 'ERR_PARSE', /start or end/);
  throwsCode(assert, () => sm.toHuman(sm.ksuid()), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /not for a ksuid/);
  assert.equal(sm.isUuid('nope'), false);
  assert.equal(sm.isUuid(42), false);
});

test('wrong argument types', () => {
  if (WASM_ENTRY) sm.configure({ workerId: 1 }); // no zero-config worker ID there
  // biome-ignore lint/correctness/noPrecisionLoss: the point: a number cannot hold this ID
  throwsCode(assert, () => sm.decode(175928847299117063), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /pass a bigint or a decimal string/);
  throwsCode(assert, () => sm.decode(null), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /got null/);
  throwsCode(assert, () => sm.decode(1n, { kind: 'ulid' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.nextIds('10'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.nextIds(0), sm.ArgumentError, 'ERR_INVALID_COUNT', /1 to/);
  throwsCode(assert, () => sm.nextIds(2.5), sm.ArgumentError, 'ERR_INVALID_COUNT');
  throwsCode(assert, () => new sm.Snowflake({ workerId: 1 }).nextBatch(-1), sm.ArgumentError, 'ERR_INVALID_COUNT');
  throwsCode(assert, () => sm.typeid(5), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /prefix must be a string/);
  throwsCode(assert, () => sm.ulidToUuid(undefined), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.fromHuman(1), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.toHuman(1), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => new sm.TestClock('now'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => new sm.TestClock(0).advance(-1), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE');
});

test('messages name what was given: "an object", "undefined", "an Error", not "a Object" or "a undefined"', () => {
  const got = (value) => {
    try {
      sm.typeid(value);
    } catch (e) {
      return e.message;
    }
    assert.fail(`typeid(${String(value)}) did not throw`);
  };
  assert.equal(got({}), 'prefix must be a string, got an object');
  assert.equal(got(Object.create(null)), 'prefix must be a string, got an object');
  assert.equal(got(undefined), 'prefix must be a string, got undefined');
  assert.equal(got(null), 'prefix must be a string, got null');
  assert.equal(got(new Error('x')), 'prefix must be a string, got an Error');
  assert.equal(got(new Date(0)), 'prefix must be a string, got a Date');
  assert.equal(got([]), 'prefix must be a string, got an array');
  assert.equal(got(1n), 'prefix must be a string, got a bigint');
  throwsCode(assert, () => sm.decode(5n, { kind: 'objectid' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /^an ID of kind 'objectid' must be a string, got a bigint$/);
  throwsCode(assert, () => sm.configure(undefined ?? 5), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /got the number 5$/);
});

test('toHuman groups: 1 to 7, and 0 is an error rather than the whole ID', () => {
  const id = 175928847299117063n;
  assert.equal(sm.toHuman(id, { groups: 1 }), sm.toHuman(id).slice(-4));
  for (const groups of [0, -1, 8, 1.5, NaN]) {
    throwsCode(assert, () => sm.toHuman(id, { groups }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /groups must be an integer from 1 to 7/);
  }
  throwsCode(assert, () => sm.toHuman(id, { groups: '2' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /groups must be an integer number, got a string/);
});

test('parse errors count characters, not UTF-8 bytes', () => {
  const cases = [
    // 26 characters (27 bytes): the bad character, at its character position.
    [() => sm.decode('01ARZ3NDEKTSV4RRFFQ69G5FAé'), /^invalid ulid: a non-ASCII character at position 25 is not allowed/],
    [() => sm.ulidToUuid('01ARZ3NDEKTSV4RRFFQ69G5FAé'), /a non-ASCII character at position 25/],
    [() => sm.decode('01ARZ3NDEKTSV4RRFFQ69G5F😀', { kind: 'ulid' }), /expected 26 characters, found 25/],
    [() => sm.decode('é'.repeat(200), { kind: 'ulid' }), /expected 26 characters, found 200/],
    [() => sm.decode('é'.repeat(200)), /unrecognized ID of 200 characters/],
    [() => sm.decode('usér_01h455vb4pex5vsknk084sn02q'), /invalid typeid: a non-ASCII character at position 2/],
    [() => sm.uuidVersion('017f22e2-79b0-7cc3-98c4-dc0c0c07398é'), /position 35/],
    [() => sm.fromHuman('01-hz61-3s2ü'), /position 11/],
    [() => sm.decode('12€4', { kind: 'snowflake' }), /position 2/],
  ];
  for (const [fn, message] of cases) throwsCode(assert, fn, sm.InvalidIdError, 'ERR_PARSE', message);
});

test('SNOWMINT_WORKER_ID sets the default worker ID, and a bad one is a clear error', { skip: WASM_ENTRY && 'snowmint/wasm reads no environment (a browser has none)' }, () => {
  const script = `import(${JSON.stringify(PACKAGE)}).then((sm) => {
    try { console.log(sm.decode(sm.nextId()).workerId); } catch (e) { console.log(e.name, e.code, e.message); }
  });`;
  const run = (value) =>
    execFileSync(process.execPath, ['-e', script], { env: { ...process.env, SNOWMINT_WORKER_ID: value } })
      .toString()
      .trim();
  assert.equal(run('42'), '42');
  assert.match(run('abc'), /^ConfigError ERR_WORKER_ID_RANGE SNOWMINT_WORKER_ID='abc' is not a worker ID/);
  assert.match(run('4096'), /^ConfigError ERR_WORKER_ID_RANGE worker ID 4096 is out of range: this layout allows 0 to 1023/);
});

test("a lease whose high-water bound lies past the layout's last tick is a ClockError naming the bound", () => {
  // A lease as snowmint/lease hands it over (what api.js reads of one).
  const bound = 1288834974657 + 2 ** 41 + 1000;
  const lease = { workerId: 1, size: 1024, epoch: 0, resumeAfterMs: bound, check() {}, bind() {} };
  throwsCode(assert, () => new sm.Snowflake({ lease }), sm.ClockError, 'ERR_TIME_OVERFLOW', new RegExp(`time ${bound} \\(Unix ms\\) does not fit`));
});
