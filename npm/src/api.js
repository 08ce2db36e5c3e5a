// The public API, built once from a backend (backend.d.ts): argument checks,
// error classes, per-thread buffering of IDs, decode records. Pure ESM with
// no Node built-ins: the Node (native) and browser (wasm) entries share it.
//
// Buffering: a call across the napi boundary costs ~175 ns, so the hot
// functions never cross it per ID. One backend call claims a run of
// consecutive IDs (one tick of a Snowflake, a batch of ULID/UUID texts) into
// memory JavaScript owns, and JavaScript hands them out. A run is handed out
// only while the host clock reads from `start` to `start + freshMs + unitMs`
// (`performance.now()`, or `host.now`), which keeps
// every ID at most one tick older than the moment it is handed out; runs are
// claimed in order from one generator, so uniqueness and per-thread order
// are exactly the core's. Run sizes start small and double while a run is
// used up in time (halve when most of it expires), so idle threads do not
// burn sequence numbers.

import { call, checkOptions, deepFreeze, nameCheck, stringArg, typeError } from './api/checks.js';
import { fromRaw, snowflakeDecoder as decodeSnowflake } from './api/decode.js';
import { createConvert } from './api/convert.js';
import { createOptions } from './api/options.js';
import { createAt } from './api/at.js';
import { createSources } from './api/sources.js';
import { createSnowflakes, decimalId, idText, idTypeError } from './api/snowflakes.js';

/**
 * The names of the public API, in one place: `createApi` returns exactly
 * these, and the entries (npm/entries/node.js, npm/entries/browser.js) are generated
 * from this list (npm/build/entries.mjs) so they can never differ.
 */
export const API_NAMES = Object.freeze([
  'nextId',
  'nextIdString',
  'nextIds',
  'nextIdAsync',
  'configure',
  'Snowflake',
  'TestClock',
  'ulid',
  'uuidv7',
  'uuidv4',
  'uuidv1',
  'uuidv6',
  'ksuid',
  'objectId',
  'typeid',
  'decode',
  'ulidToUuid',
  'uuidToUlid',
  'isUuid',
  'uuidVersion',
  'toHuman',
  'fromHuman',
  // Validation, bytes, UUIDs from given bits (api/convert.js).
  'isValid',
  'toBytes',
  'fromBytes',
  'uuidv3',
  'uuidv5',
  'uuidv8',
  'uuidv1ToV6',
  'uuidv6ToV1',
  'NAMESPACES',
  'minId',
  'maxId',
  'compare',
  'NIL',
  'MAX',
  'presets',
  'constants',
  'backendName',
]);

/**
 * Builds the public API over `backend`. `host.defaultOptions()` gives the
 * default generator's options when configure() was not called (Node: the
 * SNOWMINT_WORKER_ID variable; the place for a worker-ID lease);
 * `host.clockMarginMs` shortens every run's validity (coarse browser clocks);
 * `host.now` replaces `performance.now()` as the clock that bounds a run
 * (a browser's performance.now() costs ~5x Date.now(); a run is also dropped
 * when that clock steps back past the run's start).
 */
export function createApi(backend, host = {}) {
  /** The names and defaults the core defines (core/src/binding.rs), read once. */
  const C = deepFreeze(JSON.parse(backend.constants()));
  const { presets } = C;
  const oneOf = nameCheck(backend, C);
  const options = createOptions(backend, C);
  const { toSpec } = options;
  const sources = createSources(backend, {
    now: host.now ?? (() => performance.now()),
    margin: host.clockMarginMs ?? 0,
    C,
    // Expiry words count on performance.now()'s clock (CLOCK_MONOTONIC) and no margin.
    words: host.now || host.clockMarginMs || !backend.expiryWords ? null : call(() => backend.expiryWords()),
  });
  const { newTextSource } = sources;
  const at = createAt(backend, { toSpec, idText });
  const snowflakes = createSnowflakes(backend, host, { C, options, sources, at });
  /**
   * The default generator's decoder, if it exists: the host's (the
   * browser's, whose configure() and nextId() are the Snowflake module's),
   * else this API's (workerd's, and Node's).
   */
  const defaultDecoder = () => host.defaultDecoder?.() ?? snowflakes.defaultDecoder();
  /** Reads a Snowflake of `layout` in JavaScript (api/decode.js). */
  const snowflakeDecoder = (layout, preset) => decodeSnowflake(backend, layout, preset);

  // Decoders of the presets decode() was asked for, and the last one: callers
  // name the same preset again and again, and a string compare costs a
  // fraction of a Map look-up. The look-up is apart (newPresetDecoder) so
  // that this stays small enough for V8 to inline decode() whole.
  const presetDecoders = new Map();
  let lastPreset = null;
  let lastPresetDecoder = null;
  function presetDecoder(name) {
    return name === lastPreset ? lastPresetDecoder : newPresetDecoder(name);
  }
  function newPresetDecoder(name) {
    let d = presetDecoders.get(name);
    if (!d) {
      const { layout } = toSpec({ preset: oneOf('preset', 'presets', name) });
      d = snowflakeDecoder(layout, name);
      presetDecoders.set(name, d);
    }
    lastPreset = name;
    lastPresetDecoder = d;
    return d;
  }

  // --- strings -------------------------------------------------------------

  /** A minting function over its own batches; `timed` for kinds that embed the time. */
  const source = (kind, timed = true) => {
    const texts = newTextSource(kind, C.textKinds[kind], timed);
    return () => texts.next();
  };
  const ulid = at.timed('ulid', 'ulid', source('ulid'));
  const uuidv7 = at.timed('uuidv7', 'uuidv7', source('uuidv7'));
  const uuidv4 = source('uuidv4', false);
  const uuidv1 = at.timed('uuidv1', 'uuidv1', source('uuidv1'));
  const uuidv6 = at.timed('uuidv6', 'uuidv6', source('uuidv6'));
  const ksuid = at.timed('ksuid', 'ksuid', source('ksuid'));
  const objectId = at.timed('objectid', 'objectId', source('objectid'));

  function typeid(prefix, options) {
    const p = stringArg('prefix', prefix);
    return (options !== undefined && at.typeidAt(p, options)) || call(() => backend.typeid(p));
  }

  // --- decode and conversions ----------------------------------------------

  const DECODE_OPTIONS = ['kind', 'preset', 'layout'];

  /**
   * checkOptions() for decode(), kept apart so its key loop sees only
   * decode's options (a shared loop slows every caller down); an unknown
   * key is reported by checkOptions() itself, in the same words.
   */
  function checkDecodeOptions(options) {
    if (options === null || typeof options !== 'object' || Array.isArray(options)) return rejectDecodeOptions(options);
    for (const key in options) {
      if (key !== 'preset' && key !== 'kind' && key !== 'layout' && Object.hasOwn(options, key)) return rejectDecodeOptions(options);
    }
  }
  const rejectDecodeOptions = (options) => checkOptions('decode() options', options, DECODE_OPTIONS);

  /**
   * The Snowflake decoder decode()'s options name, read when a Snowflake is
   * decoded (only then, as before).
   */
  function decoderFor(o) {
    const layout = o?.layout;
    if (layout !== undefined) return snowflakeDecoder(toSpec({ layout }).layout);
    const preset = o?.preset;
    if (preset !== undefined) return presetDecoder(preset);
    return defaultDecoder() ?? presetDecoder(presets[0]);
  }

  /** decode()'s options checked, and the kind they name (null: none). */
  function decodeKind(options) {
    if (options === undefined) return null;
    checkDecodeOptions(options);
    const k = options.kind;
    return k === undefined ? null : oneOf('kind', 'kinds', k);
  }

  /** Any ID (bigint or string) -> a record of its fields; see index.d.ts. */
  function decode(id, options) {
    return typeof id === 'bigint' ? decodeBigint(id, options) : decodeString(id, options);
  }

  /**
   * decode() of a bigint: apart from decodeString() so that this path stays
   * small enough for V8 to inline, decoder included, into its callers
   * (together they were not, in about half the runs: 2x slower).
   */
  function decodeBigint(id, options) {
    const kind = decodeKind(options);
    if (kind !== null && kind !== 'snowflake') throw typeError(`an ID of kind '${kind}'`, 'a string', id);
    return decoderFor(options)(id);
  }

  /** decode() of anything but a bigint. */
  function decodeString(id, options) {
    const kind = decodeKind(options);
    if (typeof id !== 'string') throw idTypeError(id);
    if (kind === null || kind === 'snowflake') {
      const v = decimalId(id);
      if (v !== undefined) return decoderFor(options)(v);
    }
    const raw = call(() => backend.decodeId(id, kind));
    return fromRaw(raw, (value) => decoderFor(options)(value));
  }

  function ulidToUuid(text) {
    return call(() => backend.ulidToUuid(stringArg('ulid', text)));
  }

  function uuidToUlid(text) {
    return call(() => backend.uuidToUlid(stringArg('uuid', text)));
  }

  function isUuid(text) {
    if (typeof text !== 'string') return false;
    try {
      backend.decodeId(text, 'uuid');
      return true;
    } catch {
      return false;
    }
  }

  function uuidVersion(text) {
    return call(() => backend.decodeId(stringArg('uuid', text), 'uuid')).version;
  }

  function toHuman(id, options) {
    const o = checkOptions('toHuman() options', options, ['groups']);
    if (typeof id !== 'bigint' && typeof id !== 'string') throw idTypeError(id);
    // The core judges the number (1 to 7: core/src/binding.rs human_groups).
    if (o.groups !== undefined && typeof o.groups !== 'number') throw typeError('groups', 'an integer number', o.groups);
    return call(() => backend.toHuman(String(id), o.groups ?? null));
  }

  function fromHuman(text) {
    return call(() => backend.fromHuman(stringArg('text', text)));
  }

  return {
    ...snowflakes.api,
    ulid,
    uuidv7,
    uuidv4,
    uuidv1,
    uuidv6,
    ksuid,
    objectId,
    typeid,
    decode,
    ulidToUuid,
    uuidToUlid,
    isUuid,
    uuidVersion,
    toHuman,
    fromHuman,
    ...createConvert(backend, C),
    minId: at.minId,
    maxId: at.maxId,
    compare: at.compare,
    NIL: C.uuidNil,
    MAX: C.uuidMax,
    presets,
    constants: C,
    backendName: backend.name,
  };
}
