// The minter of each text kind (mint.js) over its module's inlined bytes,
// each a pure export of its own, as each module is: a page keeps the modules of the kinds it
// mints (web/texts.js); the wasm backend of the Node fallback and workerd,
// all of them (MINTERS).
import * as KSUID_BYTES from '../../wasm/mint-ksuid.js';
import * as OBJECTID_BYTES from '../../wasm/mint-objectid.js';
import * as TYPEID_BYTES from '../../wasm/mint-typeid.js';
import * as ULID_BYTES from '../../wasm/mint-ulid.js';
import * as UUIDV1_BYTES from '../../wasm/mint-uuidv1.js';
import * as UUIDV4_BYTES from '../../wasm/mint-uuidv4.js';
import * as UUIDV6_BYTES from '../../wasm/mint-uuidv6.js';
import * as UUIDV7_BYTES from '../../wasm/mint-uuidv7.js';
import { KSUID, OBJECTID, ULID, UUIDV1, UUIDV4, UUIDV6, UUIDV7, failure, minter, mintModule, putText, textOf } from './mint.js';
import { moreWords } from './words.js';

// A module per kind (scripts/build.d/15-wasm.sh says why).
export const ulidMinter = /* @__PURE__ */ minter(ULID, /* @__PURE__ */ mintModule('ulid', ULID_BYTES));
export const uuidv7Minter = /* @__PURE__ */ minter(UUIDV7, /* @__PURE__ */ mintModule('uuidv7', UUIDV7_BYTES));
export const uuidv4Minter = /* @__PURE__ */ minter(UUIDV4, /* @__PURE__ */ mintModule('uuidv4', UUIDV4_BYTES));
export const uuidv1Minter = /* @__PURE__ */ minter(UUIDV1, /* @__PURE__ */ mintModule('uuidv1', UUIDV1_BYTES));
export const uuidv6Minter = /* @__PURE__ */ minter(UUIDV6, /* @__PURE__ */ mintModule('uuidv6', UUIDV6_BYTES));
export const ksuidMinter = /* @__PURE__ */ minter(KSUID, /* @__PURE__ */ mintModule('ksuid', KSUID_BYTES));
export const objectIdMinter = /* @__PURE__ */ minter(OBJECTID, /* @__PURE__ */ mintModule('objectid', OBJECTID_BYTES));

/**
 * A TypeID of `prefix` over the TypeID module: with the next UUIDv7 of its
 * monotonic stream (`ms` NaN), or one for Unix ms `ms`.
 */
export const typeidMinter = /* @__PURE__ */ ((instance) => (prefix, ms) => {
  const w = instance();
  const length = w.typeid(putText(w, prefix), ms);
  if (length < 0) throw failure(w, moreWords);
  return textOf(w, length);
})(/* @__PURE__ */ mintModule('typeid', TYPEID_BYTES));

/** Each minter by its kind's name (backend.d.ts TextKind), for the wasm backend's `mintText`. */
export const MINTERS = {
  ulid: ulidMinter,
  uuidv7: uuidv7Minter,
  uuidv4: uuidv4Minter,
  uuidv1: uuidv1Minter,
  uuidv6: uuidv6Minter,
  ksuid: ksuidMinter,
  objectid: objectIdMinter,
};
