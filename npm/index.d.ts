// Public types of `snowmint` (the same for the Node and browser entries).

export type Preset = 'twitter' | 'discord' | 'instagram' | 'sonyflake' | 'mastodon';

export interface LayoutOptions {
  timeBits: number;
  workerBits: number;
  sequenceBits: number;
  /** Length of one tick in ms (default 1). */
  unitMs?: number;
  /** Unix ms or a Date (default 0). */
  epoch?: number | Date;
  /** Field order after the time (default 'worker-sequence'). */
  order?: 'worker-sequence' | 'sequence-worker';
}

/** A manual clock (the core's ManualClock), for injecting clock faults in tests. */
export class TestClock {
  /** Starts at `ms` (Unix ms; default: now). */
  constructor(ms?: number | Date);
  now(): number;
  set(ms: number | Date): this;
  advance(ms: number): this;
  stepBack(ms: number): this;
}

export interface SnowflakeOptions {
  /**
   * 0 to the layout's largest worker ID (1023 for Twitter). Default for the
   * default generator: SNOWMINT_WORKER_ID, else a worker ID leased among the
   * processes of this machine (snowmint/lease); the wasm build (browsers,
   * `snowmint/wasm`, Node without a native binary) has none to lease, so its
   * nextId() throws ConfigError `ERR_NO_WORKER_ID` until one is configured,
   * and so does the zero-config lease on a platform that runs replicas of one
   * image (docs/deploy.md). A generator of its own has no default: without a
   * workerId or a lease its first ID throws `ERR_NO_WORKER_ID` (a TestClock's
   * mints on 0). Natively, an explicit worker ID is locked on this host: a
   * second live process with it gets `ERR_WORKER_ID_IN_USE`.
   */
  workerId?: number;
  /** Twitter's worker field by its parts (5 + 5 bits): instead of workerId, `{ datacenter, worker }`. */
  datacenter?: number;
  /** Twitter's low part of the worker field; Discord's high part (`{ worker, process }`). */
  worker?: number;
  /** Discord's low part of the worker field (5 bits). */
  process?: number;
  /**
   * A worker-ID lease (snowmint/lease) instead of a workerId: the generator
   * takes the lease's worker ID, starts after its high-water bound, and throws
   * LeaseError while the lease does not cover what it would mint.
   * 'local': this host's lease directory is enough (as SNOWMINT_LEASE=local):
   * zero config is not refused on a replica platform; for `new Snowflake`, a
   * worker ID of its own leased among this machine's processes.
   * 'none': with a workerId, mint without locking it on this host (no
   * ERR_WORKER_ID_IN_USE, no high-water mark across restarts: at your risk).
   */
  lease?: import('./src/lease/index.js').Lease | 'local' | 'none';
  /** Default 'twitter'. */
  preset?: Preset;
  /** A custom layout instead of a preset. */
  layout?: LayoutOptions;
  /** Overrides the preset's or layout's epoch (Unix ms or a Date). */
  epoch?: number | Date;
  /** 'monotonic' (default), the raw 'system' clock, or a TestClock. */
  clock?: 'monotonic' | 'system' | TestClock;
  /** When the clock steps back: wait up to maxBackwardsMs (default), keep minting on the last tick, or fail. */
  onBackwards?: 'wait' | 'keep' | 'fail';
  /** Default 1000. */
  maxBackwardsMs?: number;
  /** When a tick's sequence is used up: wait for the next tick (default) or borrow up to maxBorrowTicks ahead. */
  onExhausted?: 'wait' | 'borrow';
  /** Default 16. */
  maxBorrowTicks?: number;
}

/** A validated Snowflake layout, as the core describes it. */
export interface LayoutInfo {
  timeBits: number;
  workerBits: number;
  sequenceBits: number;
  unitMs: number;
  /** Unix ms. */
  epoch: number;
  order: 'worker-sequence' | 'sequence-worker';
  /** Presets that split the worker field into two named parts. */
  split: { high: string; low: string; lowBits: number } | null;
}

export interface SnowflakeRecord {
  kind: 'snowflake';
  id: bigint;
  /** Start of the ID's tick, Unix ms. */
  timestamp: number;
  /** `new Date(timestamp)`, built when read (a getter, not an own property). */
  readonly date: Date;
  /** The whole worker field. */
  workerId: number;
  sequence: number;
  preset?: Preset;
  /** Twitter: { datacenter, worker }; Discord: { worker, process }. */
  parts?: Record<string, number>;
}

export interface UlidRecord {
  kind: 'ulid';
  timestamp: number;
  date: Date;
  /** The 80 random bits, 20 hex digits. */
  random: string;
  /** The same 128 bits as a UUID. */
  uuid: string;
}

export interface UuidRecord {
  kind: 'uuid';
  /** Canonical lowercase hyphenated text. */
  uuid: string;
  version: number;
  variant: 'rfc9562' | 'ncs' | 'microsoft' | 'future';
  /** v1, v6, v7 only. */
  timestamp?: number;
  date?: Date;
  /** v1, v6 only. */
  clockSeq?: number;
  /** v1, v6 only: 12 hex digits. */
  node?: string;
}

export interface KsuidRecord {
  kind: 'ksuid';
  timestamp: number;
  date: Date;
  /** 16 bytes, 32 hex digits. */
  payload: string;
}

export interface ObjectIdRecord {
  kind: 'objectid';
  timestamp: number;
  date: Date;
  /** The 5 per-process random bytes, 10 hex digits. */
  random: string;
  counter: number;
}

export interface TypeIdRecord {
  kind: 'typeid';
  prefix: string;
  uuid: string;
  timestamp?: number;
  date?: Date;
}

export type DecodedId = SnowflakeRecord | UlidRecord | UuidRecord | KsuidRecord | ObjectIdRecord | TypeIdRecord;

export type IdKind = 'snowflake' | 'ulid' | 'uuid' | 'ksuid' | 'objectid' | 'typeid' | 'human';

export interface DecodeOptions {
  /** Force a kind instead of detecting it from the text. */
  kind?: IdKind;
  /** How to read a Snowflake (default: the default generator's layout, else 'twitter'). */
  preset?: Preset;
  layout?: LayoutOptions;
}

/**
 * Next ID of the process-wide default Snowflake generator (shared by every
 * worker thread). Where the generator must wait it blocks the thread: at most
 * one tick when a tick's sequence is used up, and at most `maxBackwardsMs`
 * (default 1,000 ms) under `onBackwards: 'wait'` when the clock reads behind
 * the last ID (a 'system' clock stepped back, a lease's bound from a clock that
 * went back). `nextIdAsync()` waits on a timer instead.
 */
export function nextId(): bigint;
/** The same, as a decimal string. */
export function nextIdString(): string;
/** `count` increasing IDs of the default generator. */
export function nextIds(count: number): BigUint64Array;
/**
 * nextId() without blocking the event loop: where the generator must wait (a
 * used-up tick, a clock behind the last ID within `maxBackwardsMs`), it waits
 * on a timer for as long as the core says, then mints. On a TestClock it waits
 * for the test to move the clock on. Rejects with the errors nextId() throws.
 */
export function nextIdAsync(): Promise<bigint>;
/** Configures the default generator (all worker threads share it). */
export function configure(options?: SnowflakeOptions): void;

/** A Snowflake generator of its own. */
export class Snowflake {
  constructor(options?: SnowflakeOptions);
  readonly workerId: number;
  readonly layout: LayoutInfo;
  /** The next ID; blocks the thread where the generator must wait (see nextId()). */
  next(): bigint;
  /** The next ID, waiting on a timer instead of the thread (see nextIdAsync()). */
  nextAsync(): Promise<bigint>;
  nextString(): string;
  nextBatch(count: number): BigUint64Array;
  decode(id: bigint | string): SnowflakeRecord;
  /**
   * The ID of this generator's worker ID at `time` (Unix ms or a Date) with
   * `sequence` (default 0): for backfills. Not part of the generator's
   * monotonic stream: it may equal an ID the generator mints in that tick.
   */
  at(time: number | Date, options?: { sequence?: number }): bigint;
}

/** `{ time }`: an ID for that time (Unix ms or a Date) instead of now. */
export interface TimeOptions {
  /**
   * The ID's time. Its random part is fresh from the CSPRNG, and it is not
   * part of the monotonic stream of IDs minted without a time.
   */
  time?: number | Date;
}

/** Monotonic ULID (26 characters); `{ time }` for a given time. */
export function ulid(options?: TimeOptions): string;
/** Monotonic UUIDv7 (RFC 9562 method 1); `{ time }` for a given time. */
export function uuidv7(options?: TimeOptions): string;
export function uuidv4(): string;
export function uuidv1(options?: TimeOptions): string;
export function uuidv6(options?: TimeOptions): string;
/** `{ time }`: the second it falls in. */
export function ksuid(options?: TimeOptions): string;
/** `{ time }`: the second it falls in. */
export function objectId(options?: TimeOptions): string;
/** The text of a TypeID of `prefix`: `prefix_` and 26 characters (no `_` for an empty prefix). */
export type TypeIdOf<P extends string> = P extends '' ? string : `${P}_${string}`;
/** A TypeID with a UUIDv7 suffix, e.g. `user_01h455vb4pex5vsknk084sn02q`; `{ time }` for a given time. */
export function typeid<P extends string>(prefix: P, options?: TimeOptions): TypeIdOf<P>;

/** The kinds with range bounds: those whose IDs sort by time (not uuidv1, not uuidv4). */
export type BoundKind = 'ulid' | 'uuidv7' | 'uuidv6' | 'ksuid' | 'objectid' | 'typeid';
/** How to read the Snowflakes of minId/maxId (default: Twitter's layout). */
export interface SnowflakeBoundOptions {
  preset?: Preset;
  layout?: LayoutOptions;
  epoch?: number | Date;
}
/**
 * The smallest ID of `kind` whose time is `time` (Unix ms or a Date; KSUIDs
 * and ObjectIds: its second; Snowflakes: its tick), so that
 * `WHERE id >= minId(kind, from) AND id <= maxId(kind, to)` selects exactly
 * the IDs of [from, to] (texts compared byte-wise: `COLLATE "C"`).
 */
export function minId(kind: 'snowflake', time: number | Date, options?: SnowflakeBoundOptions): bigint;
export function minId<P extends string>(kind: 'typeid', time: number | Date, options?: { prefix?: P }): TypeIdOf<P>;
export function minId(kind: BoundKind, time: number | Date): string;
/** The largest ID of `kind` whose time is `time`; see minId. */
export function maxId(kind: 'snowflake', time: number | Date, options?: SnowflakeBoundOptions): bigint;
export function maxId<P extends string>(kind: 'typeid', time: number | Date, options?: { prefix?: P }): TypeIdOf<P>;
export function maxId(kind: BoundKind, time: number | Date): string;
/**
 * -1, 0 or 1: how `a` sorts against `b`, two IDs of one kind, by value
 * (decimal Snowflakes of any length, bigints, UUIDs in any spelling); for
 * `Array.prototype.sort`. IDs of different kinds throw ArgumentError.
 */
export function compare(a: bigint | string, b: bigint | string): -1 | 0 | 1;
/** The nil UUID. */
export const NIL: '00000000-0000-0000-0000-000000000000';
/** The max UUID (RFC 9562). */
export const MAX: 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export function decode(id: bigint, options?: DecodeOptions): SnowflakeRecord;
export function decode(id: bigint | string, options?: DecodeOptions): DecodedId;

export function ulidToUuid(ulid: string): string;
export function uuidToUlid(uuid: string): string;
export function isUuid(text: unknown): boolean;
/** The version nibble of a UUID. */
export function uuidVersion(uuid: string): number;
/** The human-friendly form: lowercase Crockford base32 in dash groups of four from the right. */
export function toHuman(id: bigint | string, options?: { groups?: number }): string;
/** Reads the human form back: a Snowflake as bigint, a 128-bit ID as ULID text. */
export function fromHuman(text: string): bigint | string;

export interface IsValidOptions {
  /** The kind the value must be (default: the kind its text shows; a bigint is a Snowflake). */
  kind?: IdKind;
  /** A Snowflake must be an ID of this preset's layout. */
  preset?: Preset;
  /**
   * Accept every spelling `decode` reads (braces, `urn:uuid:`, either case,
   * Crockford's aliases I/L/O, leading zeros), not only the canonical one. Default false.
   */
  lenient?: boolean;
  /** A UUID must have this version (0 to 15) and the RFC 9562 variant. */
  version?: number;
}
/**
 * Whether `value` is a valid ID; `false` for anything else (never throws
 * for the value). Strict by default: the canonical spelling only. A UUID
 * must have version 1 to 8 and the RFC 9562 variant, or be NIL or MAX, as
 * the `uuid` package's `validate` asks.
 */
export function isValid(value: unknown, options?: IsValidOptions): boolean;

export interface ToBytesOptions {
  /** Read the text as this kind instead of detecting it. */
  kind?: IdKind;
  /** Microsoft's GUID byte order (first three fields little-endian): UUIDs, ULIDs and TypeIDs only. */
  guid?: boolean;
}
/** An ID's bytes: 8 for a Snowflake (big-endian), 16 for a ULID, UUID or TypeID (its UUID's), 20 for a KSUID, 12 for an ObjectId. */
export function toBytes(id: bigint | string, options?: ToBytesOptions): Uint8Array;
export interface FromBytesOptions {
  /** The bytes are in Microsoft's GUID order (128-bit kinds only). */
  guid?: boolean;
  /** A TypeID's prefix (default: none). */
  prefix?: string;
}
/** The ID of `kind` with these bytes, in its canonical text; a Snowflake as a bigint. */
export function fromBytes(bytes: Uint8Array, kind: 'snowflake', options?: FromBytesOptions): bigint;
export function fromBytes<P extends string>(bytes: Uint8Array, kind: 'typeid', options: FromBytesOptions & { prefix: P }): `${P}_${string}`;
export function fromBytes(bytes: Uint8Array, kind: Exclude<IdKind, 'snowflake' | 'human'>, options?: FromBytesOptions): string;

/** The namespaces RFC 9562 predefines for v3 and v5 UUIDs. */
export const NAMESPACES: Readonly<{ DNS: string; URL: string; OID: string; X500: string }>;
/** The name-based v3 (MD5) UUID of `name` (a string is read as UTF-8) in `namespace` (a UUID or its 16 bytes). */
export function uuidv3(name: string | Uint8Array, namespace: string | Uint8Array): string;
/** The name-based v5 (SHA-1) UUID of `name` in `namespace`; RFC 9562 prefers it to v3. */
export function uuidv5(name: string | Uint8Array, namespace: string | Uint8Array): string;
/** A v8 UUID of 16 bytes of your own layout: version and variant bits are set, the other 122 kept. */
export function uuidv8(bytes: Uint8Array): string;
/** The v6 UUID with the time, clock sequence and node of a v1 UUID. */
export function uuidv1ToV6(uuid: string): string;
/** The v1 UUID with the time, clock sequence and node of a v6 UUID. */
export function uuidv6ToV1(uuid: string): string;

/** The preset names, default first. */
export const presets: readonly Preset[];
/** The names and defaults the core defines (one source for every binding, the CLI and the inspector). */
export interface Constants {
  readonly presets: readonly Preset[];
  readonly orders: readonly ('worker-sequence' | 'sequence-worker')[];
  readonly clocks: readonly ('monotonic' | 'system' | 'test')[];
  readonly onBackwards: readonly ('wait' | 'keep' | 'fail')[];
  readonly onExhausted: readonly ('wait' | 'borrow')[];
  /** What `decode`'s `kind` option takes. */
  readonly kinds: readonly IdKind[];
  /** The namespaces of name-based UUIDs (NAMESPACES). */
  readonly namespaces: Readonly<{ DNS: string; URL: string; OID: string; X500: string }>;
  /** The kinds that take `{ time }` (and, but for uuidv1, have minId/maxId). */
  readonly timedKinds: readonly ('ulid' | 'uuidv7' | 'uuidv1' | 'uuidv6' | 'ksuid' | 'objectid' | 'typeid')[];
  /** The named worker parts of the presets that split the worker field (options of SnowflakeOptions). */
  readonly workerParts: readonly string[];
  readonly uuidNil: string;
  readonly uuidMax: string;
  /** The text kinds minted in batches, with their widths in characters. */
  readonly textKinds: Readonly<Record<'ulid' | 'uuidv7' | 'uuidv4' | 'uuidv1' | 'uuidv6' | 'ksuid' | 'objectid', number>>;
  /** Default of `maxBackwardsMs`. */
  readonly maxBackwardsMs: number;
  /** The default clock compares itself with the wall clock every this many ms of monotonic time... */
  readonly clockCheckMs: number;
  /** ...and steps forward to it by at most this many ms per comparison (it never steps back). */
  readonly clockMaxJumpMs: number;
  /** Default of `maxBorrowTicks`. */
  readonly maxBorrowTicks: number;
  /** Run sizes of the per-thread buffering: smallest, largest Snowflake run, largest text batch. */
  readonly minRun: number;
  readonly maxIdRun: number;
  readonly maxTextRun: number;
}
export const constants: Constants;
/** 'native' or 'wasm'. */
export const backendName: string;

/** Every error snowmint throws; `code` is stable. */
export class SnowmintError extends Error {
  constructor(code: string, message: string, options?: { cause?: unknown });
  readonly code: string;
}
/** ERR_PARSE */
export class InvalidIdError extends SnowmintError {}
/** ERR_WORKER_ID_RANGE, ERR_INVALID_LAYOUT, ERR_EPOCH_IN_FUTURE, ERR_INVALID_OPTION, ERR_NO_WORKER_ID, ERR_WORKER_ID_IN_USE */
export class ConfigError extends SnowmintError {}
/**
 * ERR_CLOCK_BACKWARDS, ERR_CLOCK_WOULD_WAIT (a TestClock would have to move on), ERR_TIME_OVERFLOW, ERR_TIME_BEFORE_EPOCH,
 * ERR_CLOCK_SKEW (a lease's clock too far from its reference: `skewMs` and `against` say by how much and from what)
 */
export class ClockError extends SnowmintError {
  /** ERR_CLOCK_SKEW: this clock minus the reference's (ms), positive when ahead. */
  readonly skewMs?: number;
  /** ERR_CLOCK_SKEW: what it was compared with (a local lease: 'host' or 'peers'). */
  readonly against?: string;
}
/** ERR_INVALID_ARG_TYPE, ERR_INVALID_ARG_VALUE (also: a conversion given the wrong UUID version or kind), ERR_INVALID_COUNT */
export class ArgumentError extends SnowmintError {}
/** ERR_LEASE_LOST, ERR_LEASE_UNAVAILABLE */
export class LeaseError extends SnowmintError {}
/**
 * Block sequences (snowmint/sequence): ERR_SEQUENCE_OPTION (a size, target,
 * timeout or start out of range), ERR_SEQUENCE_NAME (a name that is not an
 * identifier), ERR_SEQUENCE_STORE (not a store, a client the store does not
 * know, or a store's answer that is not a block), ERR_SEQUENCE_EMPTY
 * (nextSync() with no block buffered), ERR_SEQUENCE_UNAVAILABLE (the store
 * failed or did not answer in time and nothing is buffered; `cause` is the
 * driver's error), ERR_SEQUENCE_OVERFLOW (the next block would pass 2^63-1),
 * ERR_SEQUENCE_BACKWARDS (the store's counter went back), ERR_SEQUENCE_CLOSED
 * (used after close()).
 */
export class SequenceError extends SnowmintError {}
