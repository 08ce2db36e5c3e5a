// Validation, bytes and the UUIDs built from given bits (v3, v5, v8, v1 <-> v6):
// the shared vectors, the type and value checks, and typed errors. Runs
// against the native addon (20-node.sh) and the wasm build (30-wasm.sh).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { sm, throwsCode, vectors } from './pkg.js';

const unhex = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (b) => Number.parseInt(b, 16));
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

test('isValid agrees with valid.json, strict and lenient', () => {
  for (const v of vectors('valid.json')) {
    const options = {};
    if (v.kind !== null) options.kind = v.kind;
    if (v.preset !== null) options.preset = v.preset;
    if (v.version !== null) options.version = v.version;
    assert.equal(sm.isValid(v.input, options), v.strict, `${v.name}: strict`);
    assert.equal(sm.isValid(v.input, { ...options, lenient: true }), v.lenient, `${v.name}: lenient`);
  }
});

test('isValid: every canonical vector text is valid, every invalid.json input is not, values of other types are false', () => {
  for (const v of vectors('uuid.json')) {
    const rfc = v.rfc_variant && v.version >= 1 && v.version <= 8;
    assert.equal(sm.isValid(v.text, { kind: 'uuid' }), rfc || v.name === 'nil' || v.name === 'max', v.name);
    assert.equal(sm.isValid(v.text, { kind: 'uuid', version: v.version }), v.rfc_variant, v.name);
  }
  for (const v of vectors('ulid.json')) assert.ok(sm.isValid(v.text, { kind: 'ulid' }), v.name);
  for (const v of vectors('ksuid.json')) assert.ok(sm.isValid(v.text), v.name);
  for (const v of vectors('objectid.json')) assert.ok(sm.isValid(v.text), v.name);
  for (const v of vectors('typeid/valid.json')) assert.ok(sm.isValid(v.typeid, { kind: 'typeid' }), v.name);
  for (const v of vectors('typeid/invalid.json')) assert.equal(sm.isValid(v.typeid, { kind: 'typeid', lenient: true }), false, v.name);
  for (const v of vectors('invalid.json')) {
    const options = { lenient: true };
    if (v.kind !== null) options.kind = v.kind;
    if (v.preset !== null) options.preset = v.preset;
    assert.equal(sm.isValid(v.input, options), false, v.name);
  }
  // A bigint is a Snowflake; a preset's layout must hold it.
  assert.equal(sm.isValid(175928847299117063n, { preset: 'discord' }), true);
  assert.equal(sm.isValid(-1n), false);
  assert.equal(sm.isValid(175928847299117063n, { kind: 'ulid' }), false);
  for (const value of [undefined, null, 5, {}, [], new Uint8Array(16), Symbol('x')]) assert.equal(sm.isValid(value), false);
});

test('isValid: bad options throw (the value never does)', () => {
  throwsCode(assert, () => sm.isValid('x', { kind: 'nope' }), sm.ConfigError, 'ERR_INVALID_OPTION', /'snowflake'/);
  throwsCode(assert, () => sm.isValid('x', { preset: 'nope' }), sm.ConfigError, 'ERR_INVALID_OPTION', /'discord'/);
  throwsCode(assert, () => sm.isValid('x', { strict: true }), sm.ConfigError, 'ERR_INVALID_OPTION', /unknown option 'strict'/);
  throwsCode(assert, () => sm.isValid('x', { lenient: 'yes' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /lenient must be a boolean/);
  throwsCode(assert, () => sm.isValid('x', { version: 16 }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /version must be an integer from 0 to 15, got 16/);
  throwsCode(assert, () => sm.isValid('x', { version: '7' }), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
});

test('toBytes and fromBytes agree with bytes.json, in both byte orders', () => {
  for (const v of vectors('bytes.json')) {
    const id = v.kind === 'snowflake' ? BigInt(v.text) : v.text;
    const bytes = sm.toBytes(id);
    assert.ok(bytes instanceof Uint8Array, v.name);
    assert.equal(hex(bytes), v.hex, v.name);
    assert.equal(hex(sm.toBytes(v.text, { kind: v.kind })), v.hex, v.name);
    const options = v.prefix === null ? undefined : { prefix: v.prefix };
    assert.equal(sm.fromBytes(unhex(v.hex), v.kind, options), id, v.name);
    if (v.guid_hex !== null) {
      assert.equal(hex(sm.toBytes(id, { guid: true })), v.guid_hex, `${v.name}: GUID order`);
      assert.equal(sm.fromBytes(unhex(v.guid_hex), v.kind, { guid: true }), id, `${v.name}: GUID order`);
    }
    const n = unhex(v.hex).length;
    for (const len of [0, n - 1, n + 1]) {
      throwsCode(assert, () => sm.fromBytes(new Uint8Array(len), v.kind), sm.InvalidIdError, 'ERR_PARSE', new RegExp(`expected ${n} bytes, found ${len}`));
    }
  }
  // Any 8 bytes are a Snowflake; a Buffer is a Uint8Array.
  assert.equal(sm.fromBytes(Buffer.from('ffffffffffffffff', 'hex'), 'snowflake'), 2n ** 64n - 1n);
  // Every lenient spelling gives the same bytes.
  assert.equal(hex(sm.toBytes('{017F22E2-79B0-7CC3-98C4-DC0C0C07398F}')), '017f22e279b07cc398c4dc0c0c07398f');
});

test('toBytes and fromBytes: typed errors for wrong kinds, types and options', () => {
  throwsCode(assert, () => sm.toBytes('175928847299117063', { guid: true }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /GUID byte order is defined for 128-bit IDs/);
  throwsCode(assert, () => sm.fromBytes(new Uint8Array(12), 'objectid', { guid: true }), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /128-bit/);
  throwsCode(assert, () => sm.fromBytes(new Uint8Array(16), 'human'), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /human form is text only/);
  throwsCode(assert, () => sm.fromBytes(new Uint8Array(16), 'guid'), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /^unknown kind 'guid': expected one of 'snowflake', /);
  throwsCode(assert, () => sm.fromBytes([1, 2, 3], 'uuid'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /bytes must be a Uint8Array, got an array/);
  throwsCode(assert, () => sm.fromBytes(new Uint8Array(16), 'typeid', { prefix: 'User' }), sm.InvalidIdError, 'ERR_PARSE', /prefix/);
  throwsCode(assert, () => sm.toBytes(5), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE');
  throwsCode(assert, () => sm.toBytes('not-an-id'), sm.InvalidIdError, 'ERR_PARSE', /unrecognized ID/);
  throwsCode(assert, () => sm.toBytes('x', { endian: 'little' }), sm.ConfigError, 'ERR_INVALID_OPTION');
});

test('uuidv3, uuidv5, uuidv8 and v1 <-> v6 agree with the RFC 9562 vectors in uuid.json', () => {
  const seen = { nameBased: 0, v8: 0, reordered: 0 };
  for (const v of vectors('uuid.json')) {
    if (v.name_based) {
      const make = v.version === 3 ? sm.uuidv3 : sm.uuidv5;
      const ns = sm.NAMESPACES[v.name_based.namespace];
      assert.equal(make(v.name_based.name, ns), v.text, v.name);
      // The name as bytes, the namespace as bytes or in another spelling.
      assert.equal(make(new TextEncoder().encode(v.name_based.name), sm.toBytes(ns)), v.text, v.name);
      assert.equal(make(v.name_based.name, `{${ns.toUpperCase()}}`), v.text, v.name);
      seen.nameBased++;
    }
    if (v.v8_input) {
      assert.equal(sm.uuidv8(unhex(v.v8_input)), v.text, v.name);
      seen.v8++;
    }
    if (v.reordered) {
      const convert = v.version === 1 ? sm.uuidv1ToV6 : sm.uuidv6ToV1;
      assert.equal(convert(v.text), v.reordered, v.name);
      assert.equal(convert(v.text.toUpperCase()), v.reordered, v.name);
      seen.reordered++;
    }
  }
  assert.deepEqual(seen, { nameBased: 2, v8: 2, reordered: 2 });
  assert.deepEqual(sm.NAMESPACES, {
    DNS: '6ba7b810-9dad-11d1-80b4-00c04fd430c8',
    URL: '6ba7b811-9dad-11d1-80b4-00c04fd430c8',
    OID: '6ba7b812-9dad-11d1-80b4-00c04fd430c8',
    X500: '6ba7b814-9dad-11d1-80b4-00c04fd430c8',
  });
  assert.ok(Object.isFrozen(sm.NAMESPACES));
  // A name is UTF-8: the same bytes, the same UUID.
  assert.equal(sm.uuidv5('é', sm.NAMESPACES.URL), sm.uuidv5(new Uint8Array([0xc3, 0xa9]), sm.NAMESPACES.URL));
  assert.notEqual(sm.uuidv5('a', sm.NAMESPACES.URL), sm.uuidv5('a', sm.NAMESPACES.DNS));
});

/** RFC 9562's name-based UUID of `name` in `namespace` (text), by node:crypto: a second implementation. */
function nameBased(hash, version, namespace, name) {
  const b = createHash(hash)
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(name)
    .digest()
    .subarray(0, 16);
  b[6] = (b[6] & 0x0f) | (version << 4);
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

test('uuidv3 and uuidv5 of names of any length (the wasm modules hash them in parts) agree with node:crypto', () => {
  for (const length of [0, 1, 36863, 36864, 36865, 100_000, 1 << 20]) {
    const name = Uint8Array.from({ length }, (_, i) => (i * 7 + length) & 0xff);
    assert.equal(sm.uuidv3(name, sm.NAMESPACES.URL), nameBased('md5', 3, sm.NAMESPACES.URL, name), `v3, ${length} bytes`);
    assert.equal(sm.uuidv5(name, sm.NAMESPACES.OID), nameBased('sha1', 5, sm.NAMESPACES.OID, name), `v5, ${length} bytes`);
  }
  const text = 'ü'.repeat(50_000);
  assert.equal(sm.uuidv5(text, sm.NAMESPACES.DNS), nameBased('sha1', 5, sm.NAMESPACES.DNS, Buffer.from(text)));
});

test('uuidv3 and uuidv5: a namespace refused says where and what is allowed, whatever its length', () => {
  const ns = sm.NAMESPACES.DNS;
  const refused = [
    [`${ns.slice(0, 35)}Z`, /invalid uuid: character 'Z' at position 35 is not allowed \(allowed: hex digits 0-9, a-f\)/],
    [`${ns.slice(0, 8)}_${ns.slice(9)}`, /character '_' at position 8 is not allowed \(allowed: '-' between the groups of 8-4-4-4-12 hex digits\)/],
    [`{${ns})`, /character '\)' at position 37 is not allowed \(allowed: '\}' to close a braced UUID\)/],
    [`urn:uuid-${ns}`, /character '-' at position 8 is not allowed \(allowed: the prefix urn:uuid:\)/],
    [`${ns.slice(0, 35)}é`, /a non-ASCII character at position 35 is not allowed \(allowed: hex digits 0-9, a-f\)/],
    [`${ns.slice(0, 35)}\u0007`, /byte 0x07 at position 35 is not allowed/],
    ['x'.repeat(40_000), /expected 32, 36, 38 \(braced\) or 45 \(urn:uuid:\) characters, found 40000$/],
    ['é'.repeat(20_000), /characters, found 20000$/],
  ];
  for (const [namespace, message] of refused) {
    for (const make of [sm.uuidv3, sm.uuidv5]) throwsCode(assert, () => make('x', namespace), sm.InvalidIdError, 'ERR_PARSE', message);
  }
  for (const length of [0, 15, 17, 40_000]) {
    throwsCode(assert, () => sm.uuidv5('x', new Uint8Array(length)), sm.InvalidIdError, 'ERR_PARSE', new RegExp(`expected 16 bytes, found ${length}$`));
  }
});

test('minted v1 and v6 UUIDs convert into each other', () => {
  for (let i = 0; i < 100; i++) {
    const v1 = sm.uuidv1();
    const v6 = sm.uuidv1ToV6(v1);
    assert.equal(sm.uuidVersion(v6), 6);
    assert.equal(sm.decode(v6).timestamp, sm.decode(v1).timestamp);
    assert.equal(sm.uuidv6ToV1(v6), v1);
    const w6 = sm.uuidv6();
    assert.equal(sm.uuidv1ToV6(sm.uuidv6ToV1(w6)), w6);
  }
});

test('more UUIDs: typed errors', () => {
  throwsCode(assert, () => sm.uuidv1ToV6(sm.uuidv7()), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /expected a version 1 UUID, got one of version 7/);
  throwsCode(assert, () => sm.uuidv6ToV1(sm.uuidv1()), sm.ArgumentError, 'ERR_INVALID_ARG_VALUE', /expected a version 6 UUID, got one of version 1/);
  throwsCode(assert, () => sm.uuidv1ToV6('nope'), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.uuidv8(new Uint8Array(15)), sm.InvalidIdError, 'ERR_PARSE', /expected 16 bytes, found 15/);
  throwsCode(assert, () => sm.uuidv8('0123456789abcdef'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /bytes must be a Uint8Array/);
  throwsCode(assert, () => sm.uuidv5('x', 'dns'), sm.InvalidIdError, 'ERR_PARSE');
  throwsCode(assert, () => sm.uuidv5('x', new Uint8Array(4)), sm.InvalidIdError, 'ERR_PARSE', /expected 16 bytes, found 4/);
  throwsCode(assert, () => sm.uuidv3(42, sm.NAMESPACES.DNS), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /name must be a Uint8Array/);
  throwsCode(assert, () => sm.uuidv3('x'), sm.ArgumentError, 'ERR_INVALID_ARG_TYPE', /namespace must be a string/);
});

test('uuidVersion gives the nibble as written, fromBytes keeps all 128 bits: isValid says what RFC 9562 defines', () => {
  const v9 = '00000000-0000-9000-8000-000000000000';
  assert.equal(sm.uuidVersion(v9), 9);
  assert.equal(sm.isValid(v9, { kind: 'uuid' }), false);
  assert.equal(sm.uuidVersion(sm.NIL), 0);
  assert.equal(sm.uuidVersion(sm.MAX), 15);
  // A Microsoft-variant GUID (variant bits 110): it round-trips, and is no RFC 9562 UUID.
  const guid = unhex('017f22e279b07cc3c8c4dc0c0c07398f');
  const text = sm.fromBytes(guid, 'uuid');
  assert.equal(text, '017f22e2-79b0-7cc3-c8c4-dc0c0c07398f');
  assert.deepEqual(sm.toBytes(text), guid);
  assert.equal(sm.isValid(text, { kind: 'uuid' }), false);
  assert.equal(sm.isValid(text, { kind: 'uuid', lenient: true }), false);
});
