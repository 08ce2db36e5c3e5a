// The public API, built once from a backend (backend.d.ts): argument checks,
// error classes, per-thread buffering of IDs, decode records. Pure ESM with
// no Node built-ins: the Node (native) and browser (wasm) entries share it.
//
// Buffering: a call across the napi boundary costs ~175 ns, so the hot
// functions never cross it per ID. One backend call claims a run of
// consecutive IDs (one tick of a Snowflake, a batch of ULID/UUID texts) into
// memory JavaScript owns, and JavaScript hands them out. A run is handed out
// only while the host clock reads from `start` to `start + timing[0] + unitMs`
// (`performance.now()`, or `host.now`), which keeps
// every ID at most one tick older than the moment it is handed out; runs are
// claimed in order from one generator, so uniqueness and per-thread order
// are exactly the core's. Run sizes start small and double while a run is
// used up in time (halve when most of it expires), so idle threads do not
// burn sequence numbers.

import { ArgumentError, SnowmintError, fromBackend, makeError } from './errors.js';

const MAX_BATCH = 1 << 24;
const U63 = (1n << 63n) - 1n;
/**
 * A decoded Snowflake. `date` is computed when read: building a Date costs
 * more than decoding the fields, and most callers want only one of them.
 */
class SnowflakeRecord {
  constructor(id, timestamp, workerId, sequence) {
    this.kind = 'snowflake';
    this.id = id;
    this.timestamp = timestamp;
    this.workerId = workerId;
    this.sequence = sequence;
  }

  get date() {
    return new Date(this.timestamp);
  }

  /** JSON keeps `date` (as its ISO text) like a plain record would. */
  toJSON() {
    return { ...this, id: String(this.id), date: this.date };
  }
}

/** Scratch views that split a 64-bit value into 32-bit halves (see snowflakeDecoder). */
const SPLIT64 = new BigUint64Array(1);
const SPLIT32 = new Uint32Array(SPLIT64.buffer);
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
const LO = LITTLE_ENDIAN ? 0 : 1;
const HI = 1 - LO;

function deepFreeze(o) {
  for (const v of Object.values(o)) if (typeof v === 'object' && v !== null) deepFreeze(v);
  return Object.freeze(o);
}

/** `typeof` as words for messages: null and undefined as such, arrays and class instances named, "a"/"an" as English has it. */
function describe(v) {
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'number') return `the number ${v}`;
  if (typeof v !== 'object') return `a ${typeof v}`;
  const name = v.constructor?.name;
  if (!name || name === 'Object') return 'an object';
  return `${/^[AEIOU]/i.test(name) ? 'an' : 'a'} ${name}`;
}

function typeError(what, expected, got) {
  return new ArgumentError('ERR_INVALID_ARG_TYPE', `${what} must be ${expected}, got ${describe(got)}`);
}

function optionError(message) {
  return makeError('ERR_INVALID_OPTION', message);
}

function oneOf(what, value, allowed, code = 'ERR_INVALID_OPTION') {
  if (typeof value === 'string' && allowed.includes(value)) return value;
  const shown = typeof value === 'string' ? `'${value}'` : describe(value);
  throw makeError(code, `${what} ${shown} is not supported: expected one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
}

const NO_OPTIONS = Object.freeze({});

function checkOptions(what, options, allowed) {
  if (options === undefined) return NO_OPTIONS;
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw typeError(what, 'an object', options);
  }
  for (const key in options) {
    if (Object.hasOwn(options, key) && !allowed.includes(key)) {
      throw optionError(`unknown option '${key}' in ${what}: expected ${allowed.map((a) => `'${a}'`).join(', ')}`);
    }
  }
  return options;
}

function isUint(v, max = Number.MAX_SAFE_INTEGER) {
  return Number.isInteger(v) && v >= 0 && v <= max;
}

/** A non-negative integer option, `code` naming the error when it is not. */
function uintOption(what, v, dflt, code, max = Number.MAX_SAFE_INTEGER) {
  if (v === undefined) return dflt;
  if (typeof v !== 'number') throw typeError(what, 'an integer number', v);
  if (!isUint(v, max)) throw makeError(code, `${what} must be an integer from 0 to ${max}, got ${v}`);
  return v;
}

function msOption(what, v, code) {
  if (v instanceof Date) v = v.getTime();
  if (typeof v !== 'number') throw typeError(what, 'Unix milliseconds (a number) or a Date', v);
  if (!isUint(v)) throw makeError(code, `${what} must be a non-negative integer of Unix milliseconds, got ${v}`);
  return v;
}

function countArg(count, max) {
  if (typeof count !== 'number') throw typeError('count', 'an integer number', count);
  if (!Number.isInteger(count) || count < 1 || count > max) {
    throw new ArgumentError('ERR_INVALID_COUNT', `invalid count ${count}: expected an integer from 1 to ${max}`);
  }
  return count;
}

function stringArg(what, v) {
  if (typeof v !== 'string') throw typeError(what, 'a string', v);
  return v;
}

function call(fn) {
  try {
    return fn();
  } catch (e) {
    throw fromBackend(e);
  }
}

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
  const { presets, minRun: MIN_RUN, maxIdRun: MAX_ID_RUN, maxTextRun: MAX_TEXT_RUN } = C;
  const margin = host.clockMarginMs ?? 0;
  /** What a run reports (backend.d.ts): [fresh ms, high-water ms, generation]. */
  const timing = new Float64Array(3);
  const now = host.now ?? (() => performance.now());
  /** Whether the run a source claimed at `start` may still be handed out. */
  const fresh = (src) => {
    const t = now();
    return t < src.deadline && t >= src.start;
  };
  const TEST_CLOCK = Symbol('snowmint.testClock');

  class TestClock {
    /** A manual clock reading `ms` (Unix ms; default now): for injecting clock faults. */
    constructor(ms = Date.now()) {
      this[TEST_CLOCK] = call(() => backend.testClockNew(msOption('TestClock ms', ms, 'ERR_INVALID_ARG_VALUE')));
    }
    now() {
      return this[TEST_CLOCK].now();
    }
    set(ms) {
      this[TEST_CLOCK].set(msOption('ms', ms, 'ERR_INVALID_ARG_VALUE'));
      return this;
    }
    advance(ms) {
      this[TEST_CLOCK].advance(uintOption('ms', ms, 0, 'ERR_INVALID_ARG_VALUE'));
      return this;
    }
    stepBack(ms) {
      this[TEST_CLOCK].stepBack(uintOption('ms', ms, 0, 'ERR_INVALID_ARG_VALUE'));
      return this;
    }
  }

  const SNOWFLAKE_OPTIONS = ['workerId', 'lease', 'preset', 'layout', 'epoch', 'clock', 'onBackwards', 'maxBackwardsMs', 'onExhausted', 'maxBorrowTicks'];
  const LAYOUT_OPTIONS = ['timeBits', 'workerBits', 'sequenceBits', 'unitMs', 'epoch', 'order'];

  /** A worker-ID lease (snowmint/lease): what api.js needs of one, see npm/src/lease/lease.js. */
  function isLease(v) {
    return v !== null && typeof v === 'object' && typeof v.check === 'function' && typeof v.bind === 'function' && Number.isInteger(v.epoch);
  }

  /**
   * Checks Snowflake options into a backend spec, its TestClock handle, its
   * worker-ID lease and the core's description of its layout (asked once); `leaseFallback(workerBits)` leases a worker ID when the
   * options give neither a workerId nor a lease (the host's zero-config lease).
   */
  function toSpec(options, what = 'Snowflake options', leaseFallback = undefined) {
    const o = checkOptions(what, options, SNOWFLAKE_OPTIONS);
    let layout;
    let epoch = o.epoch === undefined ? undefined : msOption('epoch', o.epoch, 'ERR_INVALID_LAYOUT');
    if (o.layout !== undefined) {
      const l = checkOptions('layout', o.layout, LAYOUT_OPTIONS);
      const bits = (k) => {
        if (l[k] === undefined) throw makeError('ERR_INVALID_LAYOUT', `invalid Snowflake layout: layout.${k} is required`);
        return uintOption(`layout.${k}`, l[k], 0, 'ERR_INVALID_LAYOUT', 63);
      };
      layout = {
        timeBits: bits('timeBits'),
        workerBits: bits('workerBits'),
        sequenceBits: bits('sequenceBits'),
        unitMs: uintOption('layout.unitMs', l.unitMs, 1, 'ERR_INVALID_LAYOUT', 0xffffffff),
        order: l.order === undefined ? C.orders[0] : oneOf('layout.order', l.order, C.orders, 'ERR_INVALID_LAYOUT'),
      };
      if (epoch === undefined) epoch = l.epoch === undefined ? 0 : msOption('layout.epoch', l.epoch, 'ERR_INVALID_LAYOUT');
    }
    let clock = C.clocks[0];
    let clockHandle;
    if (o.clock instanceof TestClock) {
      clock = 'test';
      clockHandle = o.clock[TEST_CLOCK];
    } else if (o.clock !== undefined) {
      clock = oneOf('clock', o.clock, C.clocks.slice(0, 2)); // 'test' takes a TestClock
    }
    const spec = {
      workerId: 0,
      preset: o.preset === undefined ? presets[0] : oneOf('preset', o.preset, presets),
      layout,
      epoch,
      clock,
      onBackwards: o.onBackwards === undefined ? C.onBackwards[0] : oneOf('onBackwards', o.onBackwards, C.onBackwards),
      maxBackwardsMs: uintOption('maxBackwardsMs', o.maxBackwardsMs, C.maxBackwardsMs, 'ERR_INVALID_OPTION'),
      onExhausted: o.onExhausted === undefined ? C.onExhausted[0] : oneOf('onExhausted', o.onExhausted, C.onExhausted),
      maxBorrowTicks: uintOption('maxBorrowTicks', o.maxBorrowTicks, C.maxBorrowTicks, 'ERR_INVALID_OPTION', 0xffffffff),
    };
    // Validated and described by the core, once.
    const info = call(() => backend.layoutOf(spec));
    if (o.workerId !== undefined) {
      if (typeof o.workerId !== 'number') throw typeError('workerId', 'an integer number', o.workerId);
      if (!isUint(o.workerId)) {
        const max = 2 ** info.workerBits - 1;
        throw makeError('ERR_WORKER_ID_RANGE', `worker ID ${o.workerId} is out of range: it must be an integer from 0 to ${max}`);
      }
      spec.workerId = o.workerId;
    }
    let lease = null;
    if (o.lease !== undefined) {
      if (o.workerId !== undefined) throw optionError(`${what}: give a workerId or a lease, not both`);
      if (!isLease(o.lease)) throw typeError('lease', 'a lease from snowmint/lease', o.lease);
      lease = o.lease;
      const ids = 2 ** info.workerBits;
      if (lease.size > ids) {
        throw makeError('ERR_WORKER_ID_RANGE', `the lease may hand out worker IDs up to ${lease.size - 1}, but the layout has only ${ids}: limit the lease's workerIds`);
      }
    } else if (o.workerId === undefined && leaseFallback) {
      // The host's zero-config lease: one per process, claimed for the first layout
      // it served; the host checks that its worker ID fits this one.
      lease = leaseFallback(info.workerBits);
    }
    return { spec, clockHandle, lease, layout: info };
  }

  /** The spec of a generator on a lease's current worker ID, starting after the lease's high-water bound. */
  function leased(spec, lease) {
    return lease === null ? spec : { ...spec, workerId: lease.workerId, resumeAfterMs: lease.resumeAfterMs };
  }

  /** Builds a preset's `parts` object; literal shapes for the known names keep decode fast. */
  function partsMaker(high, low) {
    if (high === 'datacenter' && low === 'worker') return (h, l) => ({ datacenter: h, worker: l });
    if (high === 'worker' && low === 'process') return (h, l) => ({ worker: h, process: l });
    return (h, l) => ({ [high]: h, [low]: l });
  }

  /**
   * Reads a Snowflake's fields in JavaScript (proven equal to the core by the
   * shared vectors). The two 32-bit halves come from a typed-array view: one
   * store instead of two BigInt operations, each of which allocates.
   */
  function snowflakeDecoder(layout, preset) {
    const sb = BigInt(layout.sequenceBits);
    const wb = BigInt(layout.workerBits);
    const wMask = (1n << wb) - 1n;
    const sMask = (1n << sb) - 1n;
    const seqFirst = layout.order === 'sequence-worker';
    const [wShift, sShift] = seqFirst ? [0n, wb] : [sb, 0n];
    const num = (v, bits) => (bits <= 53n ? Number(v) : v);
    const { split, unitMs, epoch } = layout;
    const parts = split && partsMaker(split.high, split.low);
    const lowDiv = split ? 2 ** split.lowBits : 1;
    const ws = layout.workerBits + layout.sequenceBits;
    // Worker and sequence in the low 32 bits: two BigInt operations, then number math.
    const low32 = ws <= 32;
    const tickDiv = 2 ** ws;
    const hiMul = 2 ** (32 - ws);
    const wDiv = 2 ** (seqFirst ? 0 : layout.sequenceBits);
    const sDiv = 2 ** (seqFirst ? layout.workerBits : 0);
    const wMod = 2 ** layout.workerBits;
    const sMod = 2 ** layout.sequenceBits;
    return (id) => {
      if (id < 0n || id > U63) {
        // The core's parser names the problem (sign, size) in its own words.
        call(() => backend.decodeText(String(id), 'snowflake'));
      }
      let tick, workerId, sequence;
      if (low32) {
        SPLIT64[0] = id;
        const hi = SPLIT32[HI];
        const lo = SPLIT32[LO];
        tick = hi * hiMul + Math.floor(lo / tickDiv);
        workerId = Math.floor(lo / wDiv) % wMod;
        sequence = Math.floor(lo / sDiv) % sMod;
      } else {
        tick = Number(id >> (wb + sb));
        workerId = num((id >> wShift) & wMask, wb);
        sequence = num((id >> sShift) & sMask, sb);
      }
      const rec = new SnowflakeRecord(id, tick * unitMs + epoch, workerId, sequence);
      if (preset) rec.preset = preset;
      if (parts) rec.parts = parts(Math.floor(workerId / lowDiv), workerId % lowDiv);
      return rec;
    };
  }

  const presetDecoders = new Map();
  function presetDecoder(name) {
    let d = presetDecoders.get(name);
    if (!d) {
      const { layout } = toSpec({ preset: name });
      d = snowflakeDecoder(layout, name);
      presetDecoders.set(name, d);
    }
    return d;
  }

  /**
   * Hands out a generator's IDs from per-thread runs (see the top of the
   * file). `make()` builds the generator (again when its lease is
   * re-acquired, maybe on another worker ID); with a lease, every claim is
   * checked against it before any of its IDs is handed out, so a buffered run
   * never outlives the lease's high-water bound.
   */
  class IdSource {
    constructor(make, lease = null, owner = this) {
      this.make = make;
      this.lease = lease;
      this.epoch = lease?.epoch;
      this.h = make();
      lease?.bind(owner, () => this.h.highWaterMs());
      this.buf = new BigUint64Array(0);
      this.adopt(-1);
      this.pos = 0;
      this.len = 0;
      this.start = 0;
      this.deadline = -Infinity;
    }

    /**
     * Takes the generator's layout and clock as they are now, as of
     * `generation`: the process-wide default generator can be reconfigured
     * by another thread, and every run reports the generation it came from.
     */
    adopt(generation) {
      this.generation = generation;
      const handle = this.h;
      this.layout = call(() => handle.layout());
      this.unit = this.layout.unitMs - margin;
      this.buffered = call(() => handle.clockKind()) === C.clocks[0];
      this.cap = this.buffered ? Math.min(MAX_ID_RUN, 2 ** this.layout.sequenceBits) : 1;
      if (this.buf.length < this.cap) this.buf = new BigUint64Array(this.cap);
      this.run = Math.min(this.run ?? MIN_RUN, this.cap);
      this.decode = snowflakeDecoder(this.layout);
    }

    /** After a claim: the lease covers it, and a reconfiguration is seen before any of its IDs is handed out. */
    claimed() {
      if (this.lease !== null) this.lease.check(timing[1]);
      if (timing[2] !== this.generation) this.adopt(timing[2]);
    }

    next() {
      if (this.pos < this.len && fresh(this)) return this.buf[this.pos++];
      return this.refill();
    }

    /** Rebuilds the generator if its lease was re-acquired since. */
    follow() {
      if (this.epoch !== this.lease.epoch) {
        this.epoch = this.lease.epoch;
        this.h = this.make();
      }
    }

    refill() {
      if (this.len > 0) {
        if (this.pos >= this.len) this.run = Math.min(this.run * 2, this.cap);
        else if (this.pos * 2 < this.len) this.run = Math.max(this.run >> 1, Math.min(MIN_RUN, this.cap));
      }
      this.len = 0;
      if (this.lease !== null) this.follow();
      const start = (this.start = now());
      const n = call(() => this.h.fill(this.buf, this.run, timing));
      const fresh = timing[0];
      this.claimed();
      this.deadline = this.buffered ? start + fresh + this.unit : -Infinity;
      this.len = n;
      this.pos = 1;
      return this.buf[0];
    }

    /** `count` IDs: first what is left of the current run (keeping order), then fresh ones. */
    batch(count) {
      countArg(count, MAX_BATCH);
      const out = new BigUint64Array(count);
      let have = 0;
      if (this.pos < this.len && fresh(this)) {
        have = Math.min(count, this.len - this.pos);
        out.set(this.buf.subarray(this.pos, this.pos + have));
        this.pos += have;
      }
      if (have < count) {
        this.len = 0;
        if (this.lease !== null) this.follow();
        call(() => this.h.fillAll(have ? out.subarray(have) : out, timing));
        this.claimed();
      }
      return out;
    }
  }

  /** Hands out ID texts from per-thread batches (one backend call each). */
  class TextSource {
    constructor(kind, width, timed) {
      this.kind = kind;
      this.width = width;
      this.timed = timed;
      this.run = MIN_RUN;
      this.text = '';
      this.off = 0;
      this.start = 0;
      this.deadline = Infinity;
    }

    next() {
      const o = this.off;
      if (o < this.text.length && (!this.timed || fresh(this))) {
        this.off = o + this.width;
        return this.text.slice(o, o + this.width);
      }
      return this.refill();
    }

    refill() {
      const len = this.text.length;
      if (len > 0) {
        if (this.off >= len) this.run = Math.min(this.run * 2, MAX_TEXT_RUN);
        else if (this.off * 2 < len) this.run = Math.max(this.run >> 1, MIN_RUN);
      }
      this.text = '';
      const start = (this.start = now());
      const text = call(() => backend.mintText(this.kind, this.run, timing));
      if (this.timed) this.deadline = start + timing[0] + 1 - margin;
      this.text = text;
      this.off = this.width;
      return text.slice(0, this.width);
    }
  }

  // --- the process-wide default generator -------------------------------

  let def = null;
  /** The default generator's owner of a lease (configure() may rebuild it on the same lease). */
  const DEFAULT_OWNER = Symbol('snowmint.default');

  /** Installs (`defaultInit`) or replaces (`defaultConfigure`) the default generator; a lease's re-acquisition replaces it. */
  function installDefault(options, what, init) {
    const { spec, clockHandle, lease } = toSpec(options, what, host.defaultLease);
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
    // An explicit lease wins over SNOWMINT_WORKER_ID.
    const defaults = given.lease === undefined ? host.defaultOptions?.() : undefined;
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

  class Snowflake {
    #src;
    #decode;
    /** A generator of its own (options as for configure()). */
    constructor(options) {
      const { spec, clockHandle, lease } = toSpec(options);
      this.#src = new IdSource(() => call(() => backend.snowflakeNew(leased(spec, lease), clockHandle)), lease);
      this.#decode = snowflakeDecoder(this.#src.layout, spec.layout ? undefined : spec.preset);
      this.layout = this.#src.layout;
    }
    /** The worker ID (a lease's, which can change when a lost lease is re-acquired). */
    get workerId() {
      return call(() => this.#src.h.workerId());
    }
    next() {
      return this.#src.next();
    }
    nextString() {
      return this.#src.next().toString();
    }
    nextBatch(count) {
      return this.#src.batch(count);
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
    const texts = new TextSource(kind, C.textKinds[kind], timed);
    return () => texts.next();
  };
  const ulid = source('ulid');
  const uuidv7 = source('uuidv7');
  const uuidv4 = source('uuidv4', false);
  const uuidv1 = source('uuidv1');
  const uuidv6 = source('uuidv6');
  const ksuid = source('ksuid');
  const objectId = source('objectid');

  function typeid(prefix) {
    return call(() => backend.typeid(stringArg('prefix', prefix)));
  }

  // --- decode and conversions ----------------------------------------------

  function idTypeError(id) {
    const hint = typeof id === 'number' ? ' (a number cannot hold every 64-bit ID exactly: pass a bigint or a decimal string)' : '';
    return new ArgumentError('ERR_INVALID_ARG_TYPE', `id must be a bigint or a string, got ${describe(id)}${hint}`);
  }

  function snowflakeText(text) {
    return call(() => backend.decodeText(text, 'snowflake')).value;
  }

  const DECODE_OPTIONS = ['kind', 'preset', 'layout'];

  function decoderFor(o) {
    if (o.layout !== undefined) return snowflakeDecoder(toSpec({ layout: o.layout }).layout);
    if (o.preset !== undefined) return presetDecoder(oneOf('preset', o.preset, presets));
    return def ? def.decode : presetDecoder(presets[0]);
  }

  /** Any ID (bigint or string) -> a record of its fields; see index.d.ts. */
  function decode(id, options) {
    const o = checkOptions('decode() options', options, DECODE_OPTIONS);
    const kind = o.kind === undefined ? null : oneOf('kind', o.kind, C.kinds);
    if (typeof id === 'bigint') {
      if (kind !== null && kind !== 'snowflake') throw typeError(`an ID of kind '${kind}'`, 'a string', id);
      return decoderFor(o)(id);
    }
    if (typeof id !== 'string') throw idTypeError(id);
    const raw = call(() => backend.decodeText(id, kind));
    return fromRaw(raw, o);
  }

  function withTime(rec, ms) {
    if (ms !== null && ms !== undefined) {
      rec.timestamp = ms;
      rec.date = new Date(ms);
    }
    return rec;
  }

  function fromRaw(raw, o) {
    switch (raw.kind) {
      case 'snowflake':
        return decoderFor(o)(raw.value);
      case 'ulid':
        return Object.assign(withTime({ kind: 'ulid' }, raw.timestamp), { random: raw.hex, uuid: raw.uuid });
      case 'uuid': {
        const rec = withTime({ kind: 'uuid', uuid: raw.uuid, version: raw.version, variant: raw.variant }, raw.timestamp);
        if (raw.clockSeq !== null && raw.clockSeq !== undefined) {
          rec.clockSeq = raw.clockSeq;
          rec.node = raw.node;
        }
        return rec;
      }
      case 'ksuid':
        return Object.assign(withTime({ kind: 'ksuid' }, raw.timestamp), { payload: raw.hex });
      case 'objectid':
        return Object.assign(withTime({ kind: 'objectid' }, raw.timestamp), { random: raw.hex, counter: raw.counter });
      case 'typeid':
        return withTime({ kind: 'typeid', prefix: raw.prefix, uuid: raw.uuid }, raw.timestamp);
      default:
        throw new SnowmintError('ERR_INTERNAL', `internal error in snowmint: unknown kind ${raw.kind}`);
    }
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
      backend.decodeText(text, 'uuid');
      return true;
    } catch {
      return false;
    }
  }

  function uuidVersion(text) {
    return call(() => backend.decodeText(stringArg('uuid', text), 'uuid')).version;
  }

  function toHuman(id, options) {
    const o = checkOptions('toHuman() options', options, ['groups']);
    if (typeof id !== 'bigint' && typeof id !== 'string') throw idTypeError(id);
    let groups = null;
    if (o.groups !== undefined) {
      // Groups of four digits kept from the right: a 128-bit ID has 7; 0 would keep nothing.
      if (typeof o.groups !== 'number') throw typeError('groups', 'an integer number', o.groups);
      if (!Number.isInteger(o.groups) || o.groups < 1 || o.groups > 7) {
        throw new ArgumentError('ERR_INVALID_ARG_VALUE', `groups must be an integer from 1 to 7 (the groups of four digits to keep, from the right), got ${o.groups}`);
      }
      groups = o.groups;
    }
    return call(() => backend.toHuman(String(id), groups));
  }

  function fromHuman(text) {
    return call(() => backend.fromHuman(stringArg('text', text)));
  }

  return {
    nextId,
    nextIdString,
    nextIds,
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
    presets,
    constants: C,
    backendName: backend.name,
  };
}
