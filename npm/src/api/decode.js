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
 * Reads a Snowflake's fields in JavaScript (proven equal to the core by the
 * shared vectors). The two 32-bit halves come from a typed-array view: one
 * store instead of two BigInt operations, each of which allocates.
 */
export function snowflakeDecoder(backend, layout, preset) {
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
  // 63 bits, or 64 for the layouts that use them all (Discord, Mastodon).
  const bits = layout.timeBits + ws;
  const maxId = (1n << BigInt(bits)) - 1n;
  // Worker and sequence in the low 32 bits: one typed-array store, then
  // 32-bit shifts and masks. No division or % on numbers: V8 sometimes
  // compiles this closure on its own, where it cannot fold the captured
  // divisors into shifts, and a % is then a call to fmod (2x slower).
  const low32 = ws <= 32;
  const hiMul = 2 ** (32 - ws);
  const tickShift = ws; // 32 (lo holds no time bits) is special-cased: x >>> 32 is x.
  const wShiftN = seqFirst ? 0 : layout.sequenceBits;
  const sShiftN = seqFirst ? layout.workerBits : 0;
  // Masks as int32 (a 32-bit field's is -1); >>> 0 turns the result back into a uint32.
  const wMaskN = (2 ** layout.workerBits - 1) | 0;
  const sMaskN = (2 ** layout.sequenceBits - 1) | 0;
  return (id) => {
    if (id < 0n || id > maxId) {
      // The core's parser names the problem (sign, size) in its own words.
      call(() => backend.snowflakeCheck(String(id), bits));
    }
    let tick, workerId, sequence;
    if (low32) {
      SPLIT64[0] = id;
      const hi = SPLIT32[HI];
      const lo = SPLIT32[LO];
      tick = hi * hiMul + (tickShift === 32 ? 0 : lo >>> tickShift);
      workerId = ((lo >>> wShiftN) & wMaskN) >>> 0;
      sequence = ((lo >>> sShiftN) & sMaskN) >>> 0;
    } else {
      tick = Number(id >> (wb + sb));
      workerId = num((id >> wShift) & wMask, wb);
      sequence = num((id >> sShift) & sMask, sb);
    }
    const rec = new SnowflakeRecord(id, tick * unitMs + epoch, workerId, sequence);
    if (preset) rec.preset = preset;
    if (parts) {
      const high = Math.floor(workerId / lowDiv);
      rec.parts = parts(high, workerId - high * lowDiv);
    }
    return rec;
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
