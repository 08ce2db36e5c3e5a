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

import { createAt } from './api/at.js';
import { call, stringArg } from './api/checks.js';
import { createRead } from './api/read.js';
import { createShared } from './api/shared.js';
import { createSources } from './api/sources.js';
import { createSnowflakes } from './api/snowflakes.js';

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
  const shared = createShared(backend);
  const { C } = shared;
  const at = createAt(backend, shared.layouts);
  const sources = createSources(backend, {
    now: host.now ?? (() => performance.now()),
    margin: host.clockMarginMs ?? 0,
    C,
    // Expiry words count on performance.now()'s clock (CLOCK_MONOTONIC) and no margin.
    words: host.now || host.clockMarginMs || !backend.expiryWords ? null : call(() => backend.expiryWords()),
  });
  const { newTextSource } = sources;
  const snowflakes = createSnowflakes(backend, host, { ...shared, sources });
  /**
   * The default generator's decoder, if it exists: the host's (the
   * browser's, whose configure() and nextId() are the Snowflake module's),
   * else this API's (workerd's, and Node's).
   */
  const defaultDecoder = () => host.defaultDecoder?.() ?? snowflakes.defaultDecoder();

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
    ...createRead(backend, { ...shared, at }, defaultDecoder),
  };
}
