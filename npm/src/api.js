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

import { ArgumentError, makeError } from './errors.js';
import { call, checkOptions, deepFreeze, describe, nameCheck, stringArg, typeError } from './api/checks.js';
import { fromRaw, snowflakeDecoder as decodeSnowflake } from './api/decode.js';
import { createConvert } from './api/convert.js';
import { createOptions } from './api/options.js';
import { createAt } from './api/at.js';
import { createSources } from './api/sources.js';

/** A Snowflake's decimal text, as the core's detect() tells it (1 to 20 ASCII digits). */
const DECIMAL = /^[0-9]{1,20}$/;
const U64_MAX = 0xffff_ffff_ffff_ffffn;

/**
 * The names of the public API, in one place: `createApi` returns exactly
 * these, and the entries (npm/src/node.js, npm/src/browser.js) are generated
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
  const { TestClock, toSpec, leased, isLease, SNOWFLAKE_OPTIONS } = createOptions(backend, C);
  const { IdSource, newTextSource } = createSources(backend, {
    now: host.now ?? (() => performance.now()),
    margin: host.clockMarginMs ?? 0,
    C,
    // Expiry words count on performance.now()'s clock (CLOCK_MONOTONIC) and no margin.
    words: host.now || host.clockMarginMs || !backend.expiryWords ? null : call(() => backend.expiryWords()),
  });
  const at = createAt(backend, { toSpec, idText: (id) => (typeof id === 'bigint' || typeof id === 'string' ? String(id) : throwIdType(id)) });
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

  // --- the process-wide default generator -------------------------------

  let def = null;
  /** The default generator's owner of a lease (configure() may rebuild it on the same lease). */
  const DEFAULT_OWNER = Symbol('snowmint.default');

  /**
   * The lease of what toSpec() says a generator needs (`need`): a lease
   * given, none, the host's lock of an explicit worker ID (none where the
   * host has no locks: the wasm build), or a worker ID leased for none
   * given: the default generator's zero-config lease, or with `lease:
   * 'local'` one of a generator's own.
   */
  function leaseOf(need, forDefault) {
    if (need === null || isLease(need)) return need;
    if (need.kind === 'explicit') return host.workerLease?.(need.workerId, forDefault) ?? null;
    if (forDefault) return host.defaultLease(need.workerBits, need.trustLocal);
    if (!need.trustLocal) throw noWorkerId();
    if (!host.ownLease)
      throw makeError('ERR_NO_WORKER_ID', `lease: 'local' needs the native addon's lock files, which this build (${backend.name}) has not: give a workerId or a lease from snowmint/lease.`);
    return host.ownLease(need.workerBits);
  }

  /** Installs (`defaultInit`) or replaces (`defaultConfigure`) the default generator; a lease's re-acquisition replaces it. */
  function installDefault(options, what, init) {
    const { spec, clockHandle, lease: need } = toSpec(options, what);
    const lease = leaseOf(need, true);
    const make = () => {
      const s = leased(spec, lease);
      call(() => (init ? backend.defaultInit(s, clockHandle) : backend.defaultConfigure(s, clockHandle)));
      init = false;
      return backend.defaultHandle();
    };
    def = new IdSource(make, lease, DEFAULT_OWNER);
    return def;
  }

  function initDefault() {
    return installDefault(host.defaultOptions ? host.defaultOptions() : undefined, 'default options', true);
  }

  /** Configures the process-wide default generator (every worker thread shares it); unset options fall back to the host's defaults. */
  function configure(options) {
    const given = checkOptions('configure() options', options, SNOWFLAKE_OPTIONS);
    // A lease or worker parts win over SNOWMINT_WORKER_ID (lease: 'none' keeps it: it only drops the lock).
    const explicit = (given.lease !== undefined && given.lease !== 'none') || C.workerParts.some((k) => given[k] !== undefined);
    const defaults = explicit ? undefined : host.defaultOptions?.();
    installDefault({ ...defaults, ...given }, 'configure() options', false);
  }

  function nextId() {
    return (def ?? initDefault()).next();
  }

  function nextIdString() {
    return (def ?? initDefault()).next().toString();
  }

  function nextIds(count) {
    return (def ?? initDefault()).batch(count);
  }

  /** nextId() that waits on a timer, not the thread, where the generator must wait. */
  async function nextIdAsync() {
    return (def ?? initDefault()).nextAsync();
  }

  /** The refusal of a generator of its own with no worker ID (see Snowflake). */
  function noWorkerId() {
    return makeError(
      'ERR_NO_WORKER_ID',
      "this Snowflake has no worker ID: every process (and every library) that builds one this way would mint on worker ID 0, and their IDs would collide. Give it a workerId unique among live generators, lease: 'local' (a worker ID leased among this machine's processes), or a lease from snowmint/lease (redisLease, etcdLease, zookeeperLease); or mint with nextId(), whose default generator leases one. ulid() and uuidv7() need no worker ID.",
    );
  }

  class Snowflake {
    #src = null;
    #start;
    #decode;
    #spec;
    /**
     * A generator of its own (options as for configure()). Without a worker
     * ID it decodes, and `at()` gives worker ID 0's IDs, but minting throws
     * ConfigError ERR_NO_WORKER_ID (no silent worker 0); a TestClock's
     * generator is a test's and mints on worker ID 0. An explicit worker ID
     * is locked at the first ID, so a generator built to decode, or for
     * `at()`, locks nothing.
     */
    constructor(options) {
      const { spec, clockHandle, lease: need, layout } = toSpec(options);
      const refused = need !== null && need.kind === 'zero' && !need.trustLocal;
      const source = (lease) => new IdSource(() => call(() => backend.snowflakeNew(leased(spec, lease), clockHandle)), lease);
      if (refused) this.#start = null;
      else if (need !== null && need.kind === 'explicit') {
        // Checked now, as every generator is (worker ID range, epoch); locked at the first ID.
        call(() => backend.snowflakeNew(spec, clockHandle));
        this.#start = () => source(leaseOf(need, false));
      } else {
        const lease = leaseOf(need, false);
        this.#src = source(lease);
        this.#spec = () => leased(spec, lease);
      }
      this.#spec ??= () => spec;
      this.#decode = snowflakeDecoder(layout, spec.layout ? undefined : spec.preset);
      this.layout = layout;
    }
    /** The generator's source of IDs, started at the first ID; throws for one without a worker ID. */
    #source() {
      if (this.#src !== null) return this.#src;
      if (this.#start === null) throw noWorkerId();
      this.#src = this.#start();
      return this.#src;
    }
    /** The worker ID (a lease's, which can change when a lost lease is re-acquired). */
    get workerId() {
      const src = this.#source();
      return call(() => src.h.workerId());
    }
    next() {
      return (this.#src ?? this.#source()).next();
    }
    /** next() that waits on a timer, not the thread, where the generator must wait. */
    async nextAsync() {
      return this.#source().nextAsync();
    }
    nextString() {
      return this.#source().next().toString();
    }
    nextBatch(count) {
      return this.#source().batch(count);
    }
    /** The ID of this generator's worker at `time` with `options.sequence` (default 0): not part of its monotonic stream. */
    at(time, options) {
      return at.snowflakeAt(this.#spec(), time, options);
    }
    decode(id) {
      if (typeof id === 'string') id = snowflakeText(id);
      else if (typeof id !== 'bigint') throw idTypeError(id);
      return this.#decode(id);
    }
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

  function throwIdType(id) {
    throw idTypeError(id);
  }

  function idTypeError(id) {
    const hint = typeof id === 'number' ? ' (a number cannot hold every 64-bit ID exactly: pass a bigint or a decimal string)' : '';
    return new ArgumentError('ERR_INVALID_ARG_TYPE', `id must be a bigint or a string, got ${describe(id)}${hint}`);
  }

  function snowflakeText(text) {
    return decimalId(text) ?? call(() => backend.decodeId(text, 'snowflake')).value;
  }

  /**
   * The value of a decimal Snowflake text read in JavaScript, or undefined
   * for the core to read (and name the problem): 1 to 20 ASCII digits up to
   * 2^64 - 1 are what the core's detect() calls a Snowflake and its decimal
   * parser accepts (leading zeros included); the shared vectors prove the two agree.
   */
  function decimalId(text) {
    if (!DECIMAL.test(text)) return undefined;
    const v = BigInt(text);
    return v <= U64_MAX ? v : undefined;
  }

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
    return def ? def.decode : presetDecoder(presets[0]);
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
    nextId,
    nextIdString,
    nextIds,
    nextIdAsync,
    configure,
    Snowflake,
    TestClock,
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
