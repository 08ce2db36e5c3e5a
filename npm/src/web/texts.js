// ulid(), uuidv7(), uuidv4(), uuidv1(), uuidv6(), ksuid(), objectId() and
// typeid() of the browser entry, each over its own minting module (mint.js): each
// function is a pure export, so a bundler drops those a page does not
// import with their modules, and none of them pulls in the full module
// (parsing, decoding, Snowflakes). The same batches and freshness rule as
// the Node API (api/sources.js TextSource), the same `{ time }` option (api/at.js withTime).
import { withTime } from '../api/at.js';
import { stringArg } from '../api/checks.js';
import { TextSource, freshBy } from '../api/sources.js';
import { KSUID, MAX_TEXT_RUN, MIN_RUN, OBJECTID, ULID, UUIDV1, UUIDV4, UUIDV6, UUIDV7, WIDTHS } from './mint.js';
import { ksuidMinter, objectIdMinter, typeidMinter, ulidMinter, uuidv1Minter, uuidv4Minter, uuidv6Minter, uuidv7Minter } from './minters.js';

// Date.now() bounds how long a batch is handed out (no expiry words in a
// browser): in Chromium it costs a fifth of performance.now().
const fresh = /* @__PURE__ */ freshBy(Date.now);

/**
 * The minting function of text kind `kind` over its minter `m`; `name`
 * (the function's) for a kind that takes `{ time }`.
 */
function texts(kind, m, name) {
  /** How its text source claims and judges its batches (api/sources.js TextSource). */
  const batches = {
    mint: (kind, count, report) => m.texts(count, report),
    now: Date.now,
    margin: 0,
    minRun: MIN_RUN,
    maxRun: MAX_TEXT_RUN,
    report: new Float64Array(1),
    fresh,
    takeSlot: () => 0,
    slotFor: () => 0,
    claimedWord: () => {},
  };
  let source = null;
  const next = () => (source ??= new TextSource(batches, kind, WIDTHS[kind], name !== undefined)).next();
  return name === undefined ? next : withTime(name, next, m.textAt);
}

export const ulid = /* @__PURE__ */ texts(ULID, ulidMinter, 'ulid');
export const uuidv7 = /* @__PURE__ */ texts(UUIDV7, uuidv7Minter, 'uuidv7');
export const uuidv4 = /* @__PURE__ */ texts(UUIDV4, uuidv4Minter);
export const uuidv1 = /* @__PURE__ */ texts(UUIDV1, uuidv1Minter, 'uuidv1');
export const uuidv6 = /* @__PURE__ */ texts(UUIDV6, uuidv6Minter, 'uuidv6');
export const ksuid = /* @__PURE__ */ texts(KSUID, ksuidMinter, 'ksuid');
export const objectId = /* @__PURE__ */ texts(OBJECTID, objectIdMinter, 'objectId');

/** A TypeID of `prefix`; with `{ time }`, one for that time (api/at.js withTime). */
export function typeid(prefix, options) {
  const p = stringArg('prefix', prefix);
  if (options === undefined) return typeidMinter(p, Number.NaN);
  return withTime(
    'typeid',
    () => typeidMinter(p, Number.NaN),
    (ms) => typeidMinter(p, ms),
  )(options);
}
