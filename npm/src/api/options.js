// Generator options: the TestClock class, and the checks that turn
// Snowflake options into a backend spec, a test clock handle and a lease.

import { makeError } from '../errors.js';
import { call, checkOptions, isUint, msOption, optionError, typeError, uintOption } from './checks.js';

/**
 * The option parts of the API over `backend`, with the core's names and
 * defaults `C` and the layout options' checks `layouts` (layouts.js).
 */
export function createOptions(backend, C, { oneOf, layoutOf, presetOf }) {
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

  // The named worker parts of the presets that split the worker field (C.workerParts).
  const SNOWFLAKE_OPTIONS = ['workerId', 'lease', ...C.workerParts, 'preset', 'layout', 'epoch', 'clock', 'onBackwards', 'maxBackwardsMs', 'onExhausted', 'maxBorrowTicks'];

  /** A worker-ID lease (snowmint/lease): what api.js needs of one, see npm/src/lease/lease.js. */
  function isLease(v) {
    return v !== null && typeof v === 'object' && typeof v.check === 'function' && typeof v.bind === 'function' && Number.isInteger(v.epoch);
  }

  /**
   * Checks Snowflake options into a backend spec, its TestClock handle, its
   * worker-ID lease and the core's description of its layout (asked once).
   * `lease` is a lease from snowmint/lease, null (none: a TestClock, or
   * `lease: 'none'`), or what the host is to provide (api.js): `{ kind:
   * 'explicit', workerId }`, the lock of a given worker ID, or `{ kind:
   * 'zero', workerBits, trustLocal }`, a worker ID leased for none given.
   */
  function toSpec(options, what = 'Snowflake options') {
    const o = checkOptions(what, options, SNOWFLAKE_OPTIONS);
    const { layout, epoch } = layoutOf(o);
    let clock = C.clocks[0];
    let clockHandle;
    if (o.clock instanceof TestClock) {
      clock = 'test';
      clockHandle = o.clock[TEST_CLOCK];
    } else if (o.clock !== undefined) {
      clock = oneOf('clock', 'clocks', o.clock);
      if (clock === 'test') throw optionError("clock: 'test' takes a TestClock: pass clock: new TestClock()");
    }
    const spec = {
      workerId: 0,
      preset: presetOf(o),
      layout,
      epoch,
      clock,
      onBackwards: o.onBackwards === undefined ? C.onBackwards[0] : oneOf('onBackwards', 'onBackwards', o.onBackwards),
      maxBackwardsMs: uintOption('maxBackwardsMs', o.maxBackwardsMs, C.maxBackwardsMs, 'ERR_INVALID_OPTION'),
      onExhausted: o.onExhausted === undefined ? C.onExhausted[0] : oneOf('onExhausted', 'onExhausted', o.onExhausted),
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
    const parts = C.workerParts.filter((k) => o[k] !== undefined);
    if (parts.length > 0) spec.workerParts = workerParts(o, parts, info, what);
    const explicit = o.workerId !== undefined || parts.length > 0;
    let lease = null;
    if (isLease(o.lease)) {
      if (o.workerId !== undefined) throw optionError(`${what}: give a workerId or a lease, not both`);
      lease = o.lease;
      const ids = 2 ** info.workerBits;
      if (lease.size > ids) {
        throw makeError('ERR_WORKER_ID_RANGE', `the lease may hand out worker IDs up to ${lease.size - 1}, but the layout has only ${ids}: limit the lease's workerIds`);
      }
    } else if (o.lease !== undefined && o.lease !== 'local' && o.lease !== 'none') {
      throw typeError('lease', "a lease from snowmint/lease, 'local' or 'none'", o.lease);
    } else if (o.lease === 'none' && !explicit) {
      throw optionError(`${what}: lease: 'none' (mint without locking the worker ID) needs a workerId to mint on`);
    } else if (clock !== 'test' && o.lease !== 'none') {
      // What the host must lease or lock (a TestClock's IDs are a test's: nothing to lock).
      lease = explicit
        ? { kind: 'explicit', workerId: spec.workerParts ? (spec.workerParts[0] << info.split.lowBits) | spec.workerParts[1] : spec.workerId }
        : { kind: 'zero', workerBits: info.workerBits, trustLocal: o.lease === 'local' };
    }
    return { spec, clockHandle, lease, layout: info };
  }

  /**
   * `[high, low]` of a preset's named worker parts (`{ datacenter, worker }`
   * for Twitter, `{ worker, process }` for Discord; a missing one is 0): the
   * core packs them and checks each against its width.
   */
  function workerParts(o, given, info, what) {
    if (o.workerId !== undefined || isLease(o.lease)) {
      throw optionError(`${what}: give a workerId, a lease or the worker field's parts (${given.join(', ')}), not more than one`);
    }
    const { split } = info;
    const names = split ? [split.high, split.low] : [];
    const stray = given.find((k) => !names.includes(k));
    if (stray !== undefined) {
      throw optionError(
        split
          ? `${what}: this layout splits its worker field into '${split.high}' and '${split.low}', not '${stray}'`
          : `${what}: this layout does not split its worker field, so '${stray}' does not apply: give a workerId`,
      );
    }
    // Checked here, not only by the core: the parts name the worker ID to lock before the generator is built.
    const widths = [info.workerBits - split.lowBits, split.lowBits];
    return names.map((k, i) => {
      const v = uintOption(k, o[k], 0, 'ERR_WORKER_ID_RANGE');
      if (v >= 2 ** widths[i]) throw makeError('ERR_WORKER_ID_RANGE', `${k} ${v} is out of range: this layout allows 0 to ${2 ** widths[i] - 1}`);
      return v;
    });
  }

  /** The spec of a generator on a lease's current worker ID, starting after the lease's high-water bound. */
  function leased(spec, lease) {
    return lease === null ? spec : { ...spec, workerId: lease.workerId, resumeAfterMs: lease.resumeAfterMs };
  }

  return { TestClock, toSpec, leased, isLease, SNOWFLAKE_OPTIONS };
}
