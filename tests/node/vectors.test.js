// The shared vectors (tests/vectors/): every decode, conversion and parser
// error agrees with them, including the Snowflake decode done in JavaScript.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sm, throwsCode, vectors } from './pkg.js';

test('snowflake vectors decode from bigint and from text, with preset or layout', () => {
  for (const v of vectors('snowflake.json')) {
    const options = v.preset
      ? { preset: v.preset }
      : {
          layout: {
            timeBits: v.layout.time_bits,
            workerBits: v.layout.worker_bits,
            sequenceBits: v.layout.sequence_bits,
            unitMs: v.layout.unit_ms,
            epoch: v.layout.epoch_ms,
            order: v.layout.order,
          },
        };
    for (const id of [BigInt(v.id), v.id]) {
      const r = sm.decode(id, options);
      assert.equal(r.kind, 'snowflake', v.name);
      assert.equal(r.id, BigInt(v.id), v.name);
      assert.equal(r.timestamp, v.timestamp_ms, v.name);
      assert.equal(r.date.toISOString(), v.iso, v.name);
      assert.equal(BigInt(r.workerId), BigInt(v.fields.worker_id), v.name);
      assert.equal(BigInt(r.sequence), BigInt(v.fields.sequence), v.name);
      for (const [key, value] of Object.entries(v.fields)) {
        if (key.endsWith('_part')) assert.equal(BigInt(r.parts[key.slice(0, -5)]), BigInt(value), `${v.name} ${key}`);
      }
    }
  }
});

test('ulid vectors: time, random part, UUID pairing', () => {
  for (const v of vectors('ulid.json')) {
    for (const input of v.inputs) {
      const r = sm.decode(input);
      assert.equal(r.kind, 'ulid', v.name);
      assert.equal(r.timestamp, v.timestamp_ms, v.name);
      assert.equal(r.date.toISOString(), v.iso, v.name);
      assert.equal(BigInt(`0x${r.random}`), BigInt(v.random), v.name);
      assert.equal(r.uuid, v.uuid, v.name);
      assert.equal(sm.ulidToUuid(input), v.uuid, v.name);
    }
    assert.equal(sm.uuidToUlid(v.uuid), v.text, v.name);
  }
});

test('uuid vectors: version, variant, time, v1/v6 fields, every spelling', () => {
  for (const v of vectors('uuid.json')) {
    for (const input of [v.text, ...v.inputs]) {
      const r = sm.decode(input, { kind: 'uuid' });
      assert.equal(r.kind, 'uuid', v.name);
      assert.equal(r.uuid, v.text, v.name);
      assert.equal(r.version, v.version, v.name);
      assert.equal(r.variant === 'rfc9562', v.rfc_variant, v.name);
      assert.equal(r.timestamp, v.timestamp_ms ?? undefined, v.name);
      assert.equal(r.date?.toISOString(), v.iso ?? undefined, v.name);
      if (v.fields.clock_seq !== undefined) {
        assert.equal(r.clockSeq, Number(v.fields.clock_seq), v.name);
        assert.equal(BigInt(`0x${r.node}`), BigInt(v.fields.node), v.name);
      }
      assert.ok(sm.isUuid(input), v.name);
      assert.equal(sm.uuidVersion(input), v.version, v.name);
    }
    assert.equal(sm.uuidToUlid(v.text), v.ulid, v.name);
  }
});

test('ksuid and objectid vectors', () => {
  for (const v of vectors('ksuid.json')) {
    const r = sm.decode(v.text);
    assert.deepEqual([r.kind, r.timestamp, r.date.toISOString(), r.payload], ['ksuid', v.timestamp_ms, v.iso, v.payload], v.name);
  }
  for (const v of vectors('objectid.json')) {
    const r = sm.decode(v.text);
    assert.deepEqual([r.kind, r.timestamp, r.date.toISOString(), r.random, r.counter], ['objectid', v.timestamp_ms, v.iso, v.random, v.counter], v.name);
  }
});

test('human form vectors: full and short forms, tolerant read-back', () => {
  for (const v of vectors('human.json')) {
    const id = v.kind === 'snowflake' ? BigInt(v.id) : v.id;
    assert.equal(sm.toHuman(id), v.human, v.name);
    for (const s of v.short) assert.equal(sm.toHuman(id, { groups: s.groups }), s.text, `${v.name} ${s.groups}`);
    for (const groups of v.refusedGroups) assert.throws(() => sm.toHuman(id, { groups }), { name: 'ArgumentError', code: 'ERR_INVALID_ARG_VALUE' }, `${v.name} ${groups}`);
    for (const input of v.inputs) assert.equal(sm.fromHuman(input), id, `${v.name} ${input}`);
  }
});

test('typeid conformance suite', () => {
  for (const v of vectors('typeid/valid.json')) {
    const r = sm.decode(v.typeid, { kind: 'typeid' });
    assert.equal(r.prefix, v.prefix, v.name);
    assert.equal(r.uuid, v.uuid, v.name);
  }
  for (const v of vectors('typeid/invalid.json')) {
    throwsCode(assert, () => sm.decode(v.typeid, { kind: 'typeid' }), sm.InvalidIdError, 'ERR_PARSE');
  }
});

test('invalid inputs are rejected with InvalidIdError ERR_PARSE, saying where', () => {
  for (const v of vectors('invalid.json')) {
    const options = v.kind === null && v.preset === null ? undefined : { kind: v.kind ?? undefined, preset: v.preset ?? undefined };
    throwsCode(assert, () => sm.decode(v.input, options), sm.InvalidIdError, 'ERR_PARSE');
    if (v.position !== null) {
      assert.throws(
        () => sm.decode(v.input, options),
        (e) => e.message.includes(`position ${v.position}`),
        v.name,
      );
    }
  }
});

test('bound vectors: minId/maxId of every timed kind, Snowflakes as bigints', () => {
  for (const v of vectors('bounds.json')) {
    const options = v.kind === 'snowflake' ? { preset: v.preset } : v.prefix ? { prefix: v.prefix } : undefined;
    const want = v.kind === 'snowflake' ? [BigInt(v.min), BigInt(v.max)] : [v.min, v.max];
    assert.deepEqual([sm.minId(v.kind, v.timestamp_ms, options), sm.maxId(v.kind, v.timestamp_ms, options)], want, v.name);
    assert.deepEqual(sm.minId(v.kind, new Date(v.iso), options), want[0], v.name);
  }
});

test('compare vectors: order by value in any spelling, errors across kinds', () => {
  for (const v of vectors('compare.json')) {
    if (v.result === null) {
      throwsCode(assert, () => sm.compare(v.a, v.b), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE');
    } else {
      assert.equal(sm.compare(v.a, v.b), v.result, v.name);
      assert.equal(sm.compare(v.b, v.a), -v.result || 0, v.name);
    }
  }
});
