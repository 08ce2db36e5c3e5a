// Decode records: a Snowflake's fields read in JavaScript (two 32-bit
// halves, proven equal to the core by the shared vectors), the other kinds'
// records built from what the backend parsed.

import { SnowmintError } from '../errors.js';
import { call } from './checks.js';

/**
 * A decoded Snowflake. `date` is computed when read: building a Date costs
 * more than decoding the fields, and most callers want only one of them.
 */
export class SnowflakeRecord {
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

/** Builds a preset's `parts` object; literal shapes for the known names keep decode fast. */
function partsMaker(high, low) {
  if (high === 'datacenter' && low === 'worker') return (h, l) => ({ datacenter: h, worker: l });
  if (high === 'worker' && low === 'process') return (h, l) => ({ worker: h, process: l });
  return (h, l) => ({ [high]: h, [low]: l });
}

/**
 * The record maker of a decoder: (id, ms, workerId, sequence) -> record,
 * with `preset` where the decoder was asked for one and the worker field's
 * `parts` where the layout splits it. Apart from the field reading so that
 * each closure stays small enough for V8 to inline decode() whole.
 */
function recordMaker(preset, split) {
  if (preset === undefined && !split) return (id, ms, w, s) => new SnowflakeRecord(id, ms, w, s);
  // Split layouts have worker fields of a few bits: uint32 shifts and masks.
  const parts = split ? partsMaker(split.high, split.low) : null;
  const lowBits = split ? split.lowBits : 0;
  const lowMask = 2 ** lowBits - 1;
  return (id, ms, w, s) => {
    const rec = new SnowflakeRecord(id, ms, w, s);
    if (preset !== undefined) rec.preset = preset;
    if (parts !== null) rec.parts = parts(w >>> lowBits, w & lowMask);
    return rec;
  };
}

/**
 * Reads a Snowflake's fields in JavaScript (proven equal to the core by the
 * shared vectors). Where worker and sequence fit in the low 32 bits (every
 * preset), the two 32-bit halves come from a typed-array view: one store
 * instead of BigInt shifts, each of which allocates.
 */
export function snowflakeDecoder(backend, layout, preset) {
  const { workerBits, sequenceBits, unitMs, epoch } = layout;
  const seqFirst = layout.order === 'sequence-worker';
  const record = recordMaker(preset, layout.split);
  const ws = workerBits + sequenceBits;
  // 63 bits, or 64 for the layouts that use them all (Discord, Mastodon).
  const bits = layout.timeBits + ws;
  const maxId = (1n << BigInt(bits)) - 1n;
  // The core's parser names the problem (sign, size) in its own words.
  const outOfRange = (id) => call(() => backend.parseSnowflake(String(id), bits));
  if (ws > 32) return wideDecoder(layout, maxId, outOfRange, record);
  // No division or % on numbers: V8 sometimes compiles this closure on its
  // own, where it cannot fold the captured divisors into shifts, and a % is
  // then a call to fmod (2x slower).
  const hiMul = 2 ** (32 - ws);
  const loTime = ws < 32; // x >>> 32 is x, not 0: a 32-bit lo holds no time bits
  const wShift = seqFirst ? 0 : sequenceBits;
  const sShift = seqFirst ? workerBits : 0;
  // Masks as int32 (a 32-bit field's is -1); >>> 0 turns the result back into a uint32.
  const wMask = (2 ** workerBits - 1) | 0;
  const sMask = (2 ** sequenceBits - 1) | 0;
  return (id) => {
    if (id < 0n || id > maxId) outOfRange(id);
    SPLIT64[0] = id;
    const hi = SPLIT32[HI];
    const lo = SPLIT32[LO];
    const tick = hi * hiMul + (loTime ? lo >>> ws : 0);
    return record(id, tick * unitMs + epoch, ((lo >>> wShift) & wMask) >>> 0, ((lo >>> sShift) & sMask) >>> 0);
  };
}

/** Custom layouts whose worker and sequence take more than 32 bits: BigInt shifts and masks. */
function wideDecoder(layout, maxId, outOfRange, record) {
  const wb = BigInt(layout.workerBits);
  const sb = BigInt(layout.sequenceBits);
  const [wShift, sShift] = layout.order === 'sequence-worker' ? [0n, wb] : [sb, 0n];
  const wMask = (1n << wb) - 1n;
  const sMask = (1n << sb) - 1n;
  const num = (v, bits) => (bits <= 53n ? Number(v) : v);
  const { unitMs, epoch } = layout;
  return (id) => {
    if (id < 0n || id > maxId) outOfRange(id);
    const tick = Number(id >> (wb + sb));
    return record(id, tick * unitMs + epoch, num((id >> wShift) & wMask, wb), num((id >> sShift) & sMask, sb));
  };
}

function withTime(rec, ms) {
  if (ms !== null && ms !== undefined) {
    rec.timestamp = ms;
    rec.date = new Date(ms);
  }
  return rec;
}

export function fromRaw(raw, snowflake) {
  switch (raw.kind) {
    case 'snowflake':
      return snowflake(raw.value);
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
