// Validation, bytes and the UUIDs built from given bits (v3, v5, v8,
// v1 <-> v6): argument checks here, every rule in the core (one backend
// call each, see node/src/convert.rs and wasm/src/convert.rs).

import { call, checkOptions, nameCheck, stringArg, typeError, uintOption } from './checks.js';

const UTF8 = new TextEncoder();

const bytesArg = (what, v) => {
  if (!(v instanceof Uint8Array)) throw typeError(what, 'a Uint8Array', v);
  return v;
};

/** A name-based UUID's name as bytes: a string in UTF-8, or the bytes given. */
export function nameArg(name) {
  if (typeof name === 'string') return UTF8.encode(name);
  return bytesArg('name', name);
}

/** The parts of the API over `backend`, with the core's names `C`. */
export function createConvert(backend, C) {
  const oneOf = nameCheck(backend, C);
  const boolOption = (what, v) => {
    if (v !== undefined && typeof v !== 'boolean') throw typeError(what, 'a boolean', v);
    return v === true;
  };
  const kindOption = (v) => (v === undefined ? undefined : oneOf('kind', 'kinds', v));

  /** An ID's text and the kind to read it as: a bigint is a Snowflake. */
  function idText(id, kind) {
    if (typeof id === 'bigint') return [id.toString(), kind ?? 'snowflake'];
    if (typeof id === 'string') return [id, kind];
    throw typeError('id', 'a bigint or a string', id);
  }

  /** Whether `value` is a valid ID (strict: its canonical spelling only); false for anything else, never a throw. */
  function isValid(value, options) {
    const o = checkOptions('isValid() options', options, ['kind', 'preset', 'lenient', 'version']);
    const kind = kindOption(o.kind);
    const preset = o.preset === undefined ? undefined : oneOf('preset', 'presets', o.preset);
    const lenient = boolOption('lenient', o.lenient);
    const version = uintOption('version', o.version, undefined, 'ERR_INVALID_ARG_VALUE', 15);
    if (typeof value === 'bigint' && kind !== undefined && kind !== 'snowflake') return false;
    if (typeof value !== 'bigint' && typeof value !== 'string') return false;
    const [text, k] = idText(value, kind);
    return call(() => backend.isValid(text, k, lenient, preset, version));
  }

  /** An ID's bytes: 8 for a Snowflake (big-endian), 16 for a ULID, UUID or TypeID, 20 for a KSUID, 12 for an ObjectId. */
  function toBytes(id, options) {
    const o = checkOptions('toBytes() options', options, ['kind', 'guid']);
    const [text, kind] = idText(id, kindOption(o.kind));
    const guid = boolOption('guid', o.guid);
    return call(() => backend.toBytes(text, kind, guid));
  }

  /** The ID of `kind` with these bytes, as its canonical text (a Snowflake as a bigint). */
  function fromBytes(bytes, kind, options) {
    const o = checkOptions('fromBytes() options', options, ['guid', 'prefix']);
    bytesArg('bytes', bytes);
    kind = oneOf('kind', 'kinds', kind, 'ERR_INVALID_ARG_VALUE');
    const guid = boolOption('guid', o.guid);
    const prefix = o.prefix === undefined ? '' : stringArg('prefix', o.prefix);
    return call(() => backend.fromBytes(bytes, kind, guid, prefix));
  }

  /** A namespace as UUID text: a UUID string, or its 16 bytes. */
  function namespaceArg(namespace) {
    if (namespace instanceof Uint8Array) return fromBytes(namespace, 'uuid');
    return stringArg('namespace', namespace);
  }

  return {
    isValid,
    toBytes,
    fromBytes,
    uuidv3: (name, namespace) => call(() => backend.uuidv3(nameArg(name), namespaceArg(namespace))),
    uuidv5: (name, namespace) => call(() => backend.uuidv5(nameArg(name), namespaceArg(namespace))),
    uuidv8: (bytes) => call(() => backend.uuidv8(bytesArg('bytes', bytes))),
    uuidv1ToV6: (uuid) => call(() => backend.uuidv1ToV6(stringArg('uuid', uuid))),
    uuidv6ToV1: (uuid) => call(() => backend.uuidv6ToV1(stringArg('uuid', uuid))),
    NAMESPACES: C.namespaces,
  };
}
