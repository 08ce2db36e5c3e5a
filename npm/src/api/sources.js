// Per-thread buffering of IDs and texts.
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
//
// Expiry words (the Node addon on Linux, node/src/expiry.rs): reading the
// clock per ID would cost more than the rest of handing it out, so there
// each source owns a slot of `words`, an Int32Array the addon owns. A claim
// given the slot sets its word to 1 and arms a kernel timer for the run's
// deadline (the one above, minus a safety margin); the timer's signal clears
// the word on this thread before it runs any more JavaScript. A run is then
// handed out while its word is not 0: one load per ID, no clock read. Slot 0
// is never set: a source without a slot (all taken), or whose claim reported
// that its word could not be set (timing[4] 0), reads the clock as before.
// A word costs a timer re-arm per claim (5-7 us in the kernel once the timer
// has fired), which pays only for runs handed out in bursts: a source that
// mints an ID now and then keeps its runs at MIN_RUN, and those claim no
// word and are judged by the clock.

import { MAX_BATCH, call, countArg } from './checks.js';
import { snowflakeDecoder } from './decode.js';

/**
 * The buffered sources over `backend`: `now()` is the host clock that bounds
 * a run, `margin` shortens every run (coarse clocks), `C` the core's run sizes;
 * `words` the backend's expiry words (`backend.expiryWords()`), or null.
 */
export function createSources(backend, { now, margin, C, words = null }) {
  const { minRun: MIN_RUN, maxIdRun: MAX_ID_RUN, maxTextRun: MAX_TEXT_RUN } = C;
  /** What a run reports (backend.d.ts): [fresh ms, high-water ms, generation, wait ms, expiry word set]. */
  const timing = new Float64Array(5);
  /** Whether the run a source claimed at `start` may still be handed out, by the clock. */
  const clockFresh = (src) => {
    const t = now();
    return t < src.deadline && t >= src.start;
  };
  // Chosen once, so that the hot paths stay monomorphic.
  const fresh = words === null ? clockFresh : (src) => (src.word !== 0 ? words[src.word] !== 0 : clockFresh(src));
  /** A slot of `words` for a new source (0: none); given back when the source is collected. */
  const slots = words === null ? null : new FinalizationRegistry((slot) => backend.expiryFree(slot));
  const takeSlot = (src) => {
    if (slots === null) return 0;
    const slot = backend.expirySlot();
    if (slot !== 0) slots.register(src, slot, src);
    return slot;
  };
  /** The slot a claim of `run` IDs passes: the source's for a run grown past MIN_RUN (a burst), else 0 (the clock judges it). */
  const slotFor = (src, run) => (run > MIN_RUN ? src.slot : 0);
  /**
   * After a claim given `slot`: `src.word` is the slot whose word judges the
   * run (0: the clock does). A word that could not be set makes the source
   * read the clock from now on.
   */
  const claimedWord = (src, slot) => {
    src.word = slot !== 0 && timing[4] === 1 ? slot : 0;
    if (slot !== 0 && src.word === 0) {
      slots.unregister(src);
      backend.expiryFree(slot);
      src.slot = 0;
    }
  };

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
      this.adopt();
      this.pos = 0;
      this.len = 0;
      this.start = 0;
      this.deadline = -Infinity;
      this.slot = takeSlot(this);
      this.word = 0;
      /** Pending nextAsync() calls, served from index `served` on. */
      this.waiting = [];
      this.served = 0;
    }

    /**
     * Takes the generator's layout and clock as they are now, and the
     * generation they belong to: the process-wide default generator can be
     * reconfigured by another thread at any moment, so the layout counts only
     * if the generation read before it is still the one after it.
     */
    adopt() {
      const handle = this.h;
      let generation;
      do {
        generation = call(() => handle.generation());
        this.layout = call(() => handle.layout());
        this.buffered = call(() => handle.clockKind()) === C.clocks[0];
      } while (call(() => handle.generation()) !== generation);
      this.generation = generation;
      this.unit = this.layout.unitMs - margin;
      this.cap = this.buffered ? Math.min(MAX_ID_RUN, 2 ** this.layout.sequenceBits) : 1;
      if (this.buf.length < this.cap) this.buf = new BigUint64Array(this.cap);
      this.run = Math.min(this.run ?? MIN_RUN, this.cap);
      this.decode = snowflakeDecoder(backend, this.layout);
    }

    /**
     * After a claim: the lease covers it, and the run came from the
     * generation whose layout and clock this thread holds. After another
     * thread's configure() it did not: the layout is read again and the run
     * dropped (a gap, never an ID read or timed with the wrong layout).
     */
    claimed() {
      if (this.lease !== null) this.lease.check(timing[1]);
      if (timing[2] === this.generation) return true;
      this.adopt();
      return false;
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

    /**
     * Claims a new run and hands out its first ID, waiting (blocking) where
     * the generator must; with `wait` false it returns undefined there
     * instead, and `timing[3]` says how many ms to wait.
     */
    refill(wait = true) {
      if (this.len > 0) {
        if (this.pos >= this.len) this.run = Math.min(this.run * 2, this.cap);
        else if (this.pos * 2 < this.len) this.run = Math.max(this.run >> 1, Math.min(MIN_RUN, this.cap));
      }
      this.len = 0;
      if (this.lease !== null) this.follow();
      let start, n, slot;
      do {
        start = this.start = now();
        slot = this.buffered ? slotFor(this, this.run) : 0;
        n = call(() => this.h.fill(this.buf, this.run, timing, wait, slot));
        if (n === 0) return undefined;
      } while (!this.claimed());
      this.deadline = this.buffered ? start + timing[0] + this.unit : -Infinity;
      claimedWord(this, slot);
      this.len = n;
      this.pos = 1;
      return this.buf[0];
    }

    /**
     * The next ID without blocking the thread: where the generator must wait
     * (a used-up tick, a clock behind the last ID), the core says for how
     * long, and the call waits on a timer. Calls made meanwhile queue behind
     * it (one timer for all) and are served in order when it fires.
     */
    nextAsync() {
      if (this.waiting.length === 0) {
        const id = this.tryNext();
        if (id !== undefined) return Promise.resolve(id);
      }
      return new Promise((resolve, reject) => {
        if (this.waiting.push({ resolve, reject }) === 1) setTimeout(() => this.serve(), timing[3]);
      });
    }

    /** An ID if the generator can mint one now; else undefined, and `timing[3]` says how many ms to wait. */
    tryNext() {
      return this.pos < this.len && fresh(this) ? this.buf[this.pos++] : this.refill(false);
    }

    /** Serves the queued nextAsync() calls in order until the generator must wait again. */
    serve() {
      const queue = this.waiting;
      for (; this.served < queue.length; this.served++) {
        let id;
        try {
          id = this.tryNext();
        } catch (e) {
          queue[this.served].reject(e);
          continue;
        }
        if (id === undefined) {
          setTimeout(() => this.serve(), timing[3]);
          return;
        }
        queue[this.served].resolve(id);
      }
      this.waiting = [];
      this.served = 0;
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
        const rest = have ? out.subarray(have) : out;
        do call(() => this.h.fillAll(rest, timing));
        while (!this.claimed());
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
      this.slot = timed ? takeSlot(this) : 0;
      this.word = 0;
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
      const slot = this.timed ? slotFor(this, this.run) : 0;
      const text = call(() => backend.mintText(this.kind, this.run, timing, slot));
      if (this.timed) {
        this.deadline = start + timing[0] + 1 - margin;
        claimedWord(this, slot);
      }
      this.text = text;
      this.off = this.width;
      return text.slice(0, this.width);
    }
  }

  return { IdSource, TextSource };
}
