// configure(), nextId() and the other functions of the default generator,
// the Snowflake class and TestClock: the part of the API (api.js) over a
// backend's Snowflake generators. Apart, so that the browser builds it over
// the Snowflake module alone (web/snowflake.js): a page that mints only
// Snowflakes downloads no parser, decoder or text minting.

import { makeError } from '../errors.js';
import { call, checkOptions, decimalId, idTypeError } from './checks.js';
import { snowflakeAt } from './at.js';
import { snowflakeDecoder } from './decode.js';
import { createOptions } from './options.js';
import { createShared } from './shared.js';
import { createSources } from './sources.js';

/** The public names createSnowflakes gives (the browser entry takes them from its API: npm/build/entries.mjs). */
export const SNOWFLAKE_NAMES = Object.freeze(['nextId', 'nextIdString', 'nextIds', 'nextIdAsync', 'configure', 'Snowflake', 'TestClock']);

/**
 * The Snowflake part of the API over `backend`, with `host` as createApi
 * (api.js) takes it. `shared` is what it shares with the rest of the API
 * (shared.js createShared; made here when not given), with createApi's
 * `sources` (createSources; made here when absent).
 * Gives `api`, the public functions (SNOWFLAKE_NAMES), and
 * `defaultDecoder()`: the default generator's decoder, or undefined before
 * it exists.
 */
export function createSnowflakes(backend, host, shared = createShared(backend)) {
  const { C } = shared;
  const { TestClock, toSpec, leased, isLease, SNOWFLAKE_OPTIONS } = createOptions(backend, C, shared.layouts);
  const { IdSource } = shared.sources ?? createSources(backend, { now: host.now ?? (() => performance.now()), margin: host.clockMarginMs ?? 0, C });

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
      this.#decode = snowflakeDecoder(backend, layout, spec.layout ? undefined : spec.preset);
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
      return snowflakeAt(backend, this.#spec(), time, options);
    }
    decode(id) {
      if (typeof id === 'string') id = snowflakeText(id);
      else if (typeof id !== 'bigint') throw idTypeError(id);
      return this.#decode(id);
    }
  }

  function snowflakeText(text) {
    // A text JavaScript did not read: the core's parser names the problem.
    return decimalId(text) ?? call(() => backend.parseSnowflake(text, 64));
  }

  return {
    api: { nextId, nextIdString, nextIds, nextIdAsync, configure, Snowflake, TestClock },
    defaultDecoder: () => def?.decode,
  };
}
