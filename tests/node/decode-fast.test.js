// decode()'s fast paths agree with the slow ones: a decimal text read in
// JavaScript gives the value the core reads (toHuman() parses the same text
// in the core), and a { preset } resolved from the cache gives the same
// record and the same errors as the full option checks.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sm, throwsCode } from './pkg.js';

const TEXTS = ['0', '00', '007', '1541815603606036480', '01541815603606036480', '9223372036854775807', '9223372036854775808', '18446744073709551615', '00000000000000000001'];
const REJECTED = ['', '18446744073709551616', '99999999999999999999', '000000000000000000001', '+1', '-1', ' 1', '1 ', '0x1f', '1e3', '１'];

test('decimal texts decode to the value the core reads, from every entry point', () => {
  for (const text of TEXTS) {
    const core = sm.fromHuman(sm.toHuman(text));
    const options = core >> 63n ? { preset: 'discord' } : { preset: 'twitter' };
    for (const o of [options, { ...options, kind: 'snowflake' }]) {
      assert.equal(sm.decode(text, o).id, core, text);
      assert.deepEqual({ ...sm.decode(text, o) }, { ...sm.decode(core, o) }, text);
    }
    assert.equal(new sm.Snowflake(options).decode(text).id, core, text);
  }
});

test('texts the core rejects are still rejected by the core, in its words', () => {
  for (const text of REJECTED) {
    let want;
    try {
      sm.toHuman(text);
    } catch (e) {
      want = e;
    }
    assert.ok(want, text);
    for (const o of [undefined, { preset: 'twitter' }]) {
      assert.throws(
        () => sm.decode(text, o),
        (e) => e.code === want.code && e.constructor === want.constructor,
        text,
      );
    }
  }
});

test('{ preset } from the cache: same record and same errors as the full checks', () => {
  const id = 1541815603606036480n;
  const first = sm.decode(id, { preset: 'twitter' });
  const again = sm.decode(id, { preset: 'twitter' });
  assert.deepEqual(again, first);
  assert.deepEqual(Object.keys(again), ['kind', 'id', 'timestamp', 'workerId', 'sequence', 'preset', 'parts']);
  // Inherited options count as given; inherited unknown keys are ignored, own ones are not.
  assert.deepEqual(sm.decode(id, Object.create({ preset: 'twitter' })), first);
  throwsCode(assert, () => sm.decode(id, Object.create({ kind: 'ulid' }, { preset: { value: 'twitter', enumerable: true } })), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(
    assert,
    () => sm.decode(id, { preset: 'twitter', presets: 1 }),
    sm.ConfigError,
    'ERR_INVALID_OPTION',
    /^unknown option 'presets' in decode\(\) options: expected 'kind', 'preset', 'layout'$/,
  );
  throwsCode(assert, () => sm.decode(id, Object.assign([], { preset: 'twitter' })), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /^decode\(\) options must be an object, got an array$/);
  throwsCode(assert, () => sm.decode(id, null), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /got null/);
  throwsCode(assert, () => sm.decode(id, { preset: 'Twitter' }), sm.ConfigError, 'ERR_INVALID_OPTION', /^unknown preset 'Twitter': expected one of 'twitter', 'discord'/);
  throwsCode(assert, () => sm.decode(id, { preset: 1 }), sm.ConfigError, 'ERR_INVALID_OPTION', /^preset must be a string, got the number 1$/);
  throwsCode(assert, () => sm.decode(1n << 63n, { preset: 'twitter' }), sm.InvalidIdError, 'ERR_PARSE', /maximum 9223372036854775807/);
  throwsCode(assert, () => sm.decode(-1n, { preset: 'twitter' }), sm.InvalidIdError, 'ERR_PARSE');
});

test('a record has the parts of its layout, whichever decoder reads it', () => {
  const id = 1541815603606036480n;
  const parts = { datacenter: 11, worker: 26 };
  // The preset's decoder (no default generator yet), then the default generator's own.
  assert.deepEqual(sm.decode(id).parts, parts);
  sm.configure({ workerId: 1 });
  sm.nextId();
  const rec = sm.decode(id);
  assert.deepEqual([rec.workerId, rec.parts], [378, parts]);
  assert.deepEqual(new sm.Snowflake({ workerId: 2 }).decode(id).parts, parts);
  assert.deepEqual(sm.decode(id, { preset: 'discord' }).parts, { worker: 11, process: 26 });
  assert.equal(new sm.Snowflake({ layout: { timeBits: 41, workerBits: 10, sequenceBits: 12 }, workerId: 2 }).decode(id).parts, undefined);
});
