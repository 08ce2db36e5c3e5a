// What the stores share: the checks of their arguments and the reserve loop.
// Every store keeps one counter per sequence name holding the LAST ID handed
// out in any block, and advances it by a block's size in one atomic
// statement guarded so that it never passes 2^63-1: the block is then
// (last - size, last]. Its largest ID is exactly 2^63-1, the same bound the
// core's state machine checks, so a guard that holds an update back always
// answers with a block the core refuses (ERR_SEQUENCE_OVERFLOW).

import { makeError } from '../errors.js';
import { checkOptions, call } from '../api/checks.js';
import { addon } from '../addon.js';

export const DEFAULT_TABLE = 'snowmint_sequences';
/** 2^63-1 in SQL: the guard `last_id <= MAX_SQL - size`. */
export const MAX_SQL = '9223372036854775807';

export function storeError(message) {
  return makeError('ERR_SEQUENCE_STORE', message);
}

/** A store's options with `table` checked as an identifier (it is spliced into SQL, quoted). */
export function tableOptions(what, options, allowed) {
  const o = checkOptions(what, options, allowed);
  const table = o.table ?? DEFAULT_TABLE;
  if (typeof table !== 'string') throw storeError(`${what}: table must be a string, got ${typeof table}`);
  call(() => addon.sequenceCheckName(table));
  return { ...o, table };
}

/** A value a driver returned for a BIGINT (bigint, decimal string, or a number that is exact). */
export function bigintOf(v) {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return BigInt(v);
  if (typeof v === 'number' && Number.isSafeInteger(v)) return BigInt(v);
  throw new Error(`the driver returned ${typeof v === 'number' ? `the inexact number ${v}` : String(v)} for a 64-bit integer: configure it to return big integers as strings or bigints`);
}

/**
 * A store from three operations on one counter per name:
 * - ensure(name, last): creates the table/key and the counter (at `last`) if missing;
 * - advance(name, size): adds `size` in one atomic statement unless that
 *   passes 2^63-1, returning the new value, or null when nothing was updated;
 * - read(name): the counter, or null when there is none.
 */
export function counterStore(describe, { ensure, advance, read }) {
  const ready = new Set();
  return Object.freeze({
    describe,
    async reserve(name, size, start) {
      for (let retried = false; ; retried = true) {
        if (!ready.has(name)) {
          await ensure(name, start - 1n);
          ready.add(name);
        }
        const last = await advance(name, size);
        if (last !== null) return { start: bigintOf(last) - BigInt(size) + 1n, size };
        // Held back by the guard: the block after the counter would pass
        // 2^63-1, and the core refuses it, saying so. Or the row is gone.
        const current = await read(name);
        if (current !== null) return { start: bigintOf(current) + 1n, size };
        ready.delete(name);
        if (retried) throw new Error(`the counter of sequence '${name}' disappeared while it was created`);
      }
    },
  });
}
