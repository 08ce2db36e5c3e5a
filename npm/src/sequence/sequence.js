// A block sequence: the core's state machine (the native addon's SequenceHandle) says
// when to ask the store for a block and how large; this class does the I/O
// and hands out the IDs. The core hands out runs of consecutive IDs that end
// where the next block is due, and this class counts through a run itself
// (a BigInt increment instead of a call across the binding per ID), asking
// the core again when the run is used up.

import { makeError, fromBackend } from '../errors.js';
import { checkOptions, countArg, describe, MAX_BATCH, typeError, call } from '../api/checks.js';
import { addon } from '../addon.js';

const OPTIONS = ['name', 'blockSize', 'minBlockSize', 'maxBlockSize', 'targetBlockMs', 'start', 'timeoutMs'];
/** The number options, in the order of the backend's `sizes` array. */
const SIZE_OPTIONS = ['blockSize', 'minBlockSize', 'maxBlockSize', 'targetBlockMs', 'timeoutMs'];
const MAX_U64 = (1n << 64n) - 1n;
/** A run as long as the core has: JS counts through it. */
const MAX_RUN = Number.MAX_SAFE_INTEGER;

const now = () => Math.floor(performance.now());

/** The store protocol every *Store() factory implements (see index.d.ts `SequenceStore`). */
function checkStore(store) {
  if (store === null || typeof store !== 'object' || typeof store.reserve !== 'function' || typeof store.describe !== 'string') {
    throw makeError(
      'ERR_SEQUENCE_STORE',
      'sequence(store) needs a store from postgresStore(client), mysqlStore(pool), sqliteStore(db) or redisStore(client) (or an object with describe and reserve(name, size, start)), got ' +
        (store === null || typeof store !== 'object' ? String(store) : `an object without ${typeof store.reserve !== 'function' ? 'reserve()' : 'describe'}`),
    );
  }
  return store;
}

/** The options as the backend takes them: sizes as numbers (NaN for absent), start as a bigint. */
function specOf(options) {
  const sizes = new Float64Array(SIZE_OPTIONS.length);
  SIZE_OPTIONS.forEach((key, i) => {
    const v = options[key];
    if (v === undefined) sizes[i] = Number.NaN;
    else if (typeof v !== 'number') throw typeError(`sequence option ${key}`, 'an integer number', v);
    else if (!Number.isSafeInteger(v) || v < 0) {
      throw makeError('ERR_SEQUENCE_OPTION', `sequence option ${key} must be a positive integer, got ${v}`);
    } else sizes[i] = v;
  });
  let start = options.start;
  if (start !== undefined) {
    if (typeof start === 'number' && Number.isSafeInteger(start)) start = BigInt(start);
    if (typeof start !== 'bigint') throw typeError('sequence option start', 'a bigint or an integer number', options.start);
    if (start < 0n) throw makeError('ERR_SEQUENCE_OPTION', `sequence option start must be 0 or more, got ${start}`);
    // The core refuses anything past 2^63-1 with the limit in its message.
    if (start > MAX_U64) start = MAX_U64;
  }
  return { sizes, start };
}

export class Sequence {
  #h;
  #store;
  #name;
  #start;
  /** The run being counted through: next ID and end (exclusive). */
  #next = 0n;
  #end = 0n;
  #run = new BigUint64Array(2);
  /** The store request in flight (never rejects), or null. */
  #inflight = null;
  #lastError = null;
  #closed = false;
  #roundTrips = 0;
  #failures = 0;
  #waits = 0;
  #timeoutMs;

  constructor(store, options) {
    checkStore(store);
    const o = checkOptions('sequence options', options, OPTIONS);
    if (typeof o.name !== 'string') throw typeError('sequence option name', 'a string', o.name);
    const { sizes, start } = specOf(o);
    this.#h = call(() => addon.sequenceNew(o.name, sizes, start));
    this.#store = store;
    this.#name = o.name;
    this.#start = this.#h.start();
    const config = new Float64Array(SIZE_OPTIONS.length);
    this.#h.sizes(config);
    this.#timeoutMs = config[4];
  }

  get name() {
    return this.#name;
  }

  /** The next ID from the buffered blocks, or SequenceError ERR_SEQUENCE_EMPTY when none is buffered (a block is then asked for). */
  nextSync() {
    const id = this.#next;
    if (id < this.#end) {
      this.#next = id + 1n;
      return id;
    }
    return this.#refill();
  }

  /** The next ID; waits for a block only when none is buffered. */
  async next() {
    for (;;) {
      // Also after a wait: callers that waited together share the run the first of them took.
      const id = this.#next;
      if (id < this.#end) {
        this.#next = id + 1n;
        return id;
      }
      try {
        return this.#refill();
      } catch (e) {
        if (e.code !== 'ERR_SEQUENCE_EMPTY') throw e;
      }
      this.#waits++;
      await this.#waitForBlock();
    }
  }

  /** `count` IDs, in increasing order. */
  async nextBatch(count) {
    countArg(count, MAX_BATCH);
    const out = new BigUint64Array(count);
    let i = 0;
    while (i < count) {
      out[i++] = await this.next();
      // The rest of the run without a promise per ID.
      while (i < count && this.#next < this.#end) out[i++] = this.#next++;
    }
    return out;
  }

  /** Stops asking for blocks; the unused rest of the buffered blocks is a gap. */
  async close() {
    this.#closed = true;
    this.#next = this.#end = 0n;
    await this.#inflight;
  }

  /** What the sequence is doing: the size of the last block asked for, IDs buffered, store round trips and failed ones, and how often next() waited for a block. */
  stats() {
    return {
      blockSize: this.#h.blockSize(),
      buffered: Number(this.#end - this.#next) + this.#h.buffered(),
      roundTrips: this.#roundTrips,
      failures: this.#failures,
      waits: this.#waits,
    };
  }

  /** The run is used up: asks for a block if one is due, then takes the next run (or throws ERR_SEQUENCE_EMPTY). */
  #refill() {
    if (this.#closed) throw closedError(this.#name);
    this.#request();
    try {
      this.#h.take(this.#run, MAX_RUN);
    } catch (e) {
      const err = fromBackend(e);
      // The buffer is dry and the store's last answer was a failure: say that.
      if (err.code === 'ERR_SEQUENCE_EMPTY' && this.#lastError && !this.#inflight) throw this.#lastError;
      throw err;
    }
    const id = this.#run[0];
    this.#next = id + 1n;
    this.#end = id + this.#run[1];
    return id;
  }

  #request() {
    if (this.#inflight) return;
    const size = this.#h.request(now());
    // Cleared in a later microtask, so even a store that fails synchronously cannot clear it before it is set.
    if (size > 0) this.#inflight = this.#fetch(size).finally(() => (this.#inflight = null));
  }

  async #fetch(size) {
    this.#roundTrips++;
    try {
      let block;
      try {
        block = await answerWithin(this.#store.reserve(this.#name, size, this.#start), this.#timeoutMs);
      } catch (e) {
        throw makeError('ERR_SEQUENCE_UNAVAILABLE', `sequence '${this.#name}': ${this.#store.describe} did not answer a request for a block of ${size} IDs: ${e?.message ?? e}`, { cause: e });
      }
      if (typeof block?.start !== 'bigint' || !Number.isSafeInteger(block.size) || block.size < 1) {
        throw makeError('ERR_SEQUENCE_STORE', `sequence '${this.#name}': ${this.#store.describe} answered ${describe(block)}: reserve() must resolve to { start: bigint, size: a positive integer }`);
      }
      call(() => this.#h.addBlock(block.start, block.size));
      this.#lastError = null;
    } catch (e) {
      this.#failures++;
      this.#h.fail(now());
      this.#lastError = e;
    }
  }

  /** Waits for the request in flight (asking for one if due); throws the last failure when no request can be made now. */
  async #waitForBlock() {
    if (this.#closed) throw closedError(this.#name);
    this.#request();
    if (this.#inflight) return this.#inflight;
    // A failure's backoff holds the next request back.
    throw this.#lastError ?? makeError('ERR_SEQUENCE_EMPTY', `sequence '${this.#name}': no block is buffered and none can be asked for now`);
  }
}

/**
 * The store's answer, or a rejection after `ms`: a hung server must not hang
 * next(). A later answer is dropped (its block is a gap); the core asks again.
 */
function answerWithin(answer, ms) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms (the timeoutMs option)`)), ms);
    timer.unref?.();
  });
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

function closedError(name) {
  return makeError('ERR_SEQUENCE_CLOSED', `sequence '${name}' is closed: create a new one with sequence(store, options)`);
}
