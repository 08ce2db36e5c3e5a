// The backend interface: what a binding (napi-rs in node/, the wasm modules'
// raw exports in wasm/, read by wasm-backend.js) gives api.js. Conversion
// only: every value here comes from the core.
// api.js validates argument types and option names before calling in, so a
// backend may assume well-typed arguments; it throws Errors whose `code` is the
// core's Error::code() (or ERR_INVALID_OPTION for an unknown preset/clock
// name) and whose message is the core's Display text. Absent optional values
// are `undefined`, never `null` (napi-rs reads null as a value). Anything else it throws
// (a caught panic) becomes a SnowmintError with code ERR_INTERNAL.

/** A validated Snowflake layout, as the core describes it (the public type). */
import type { LayoutInfo } from '../index.js';
export type { LayoutInfo };

/** Options of a Snowflake generator, already checked for types by api.js. */
export interface SnowflakeSpec {
  workerId: number;
  /** The worker ID as a preset's named parts `[high, low]` (Twitter's datacenter and worker); replaces workerId. */
  workerParts?: [number, number];
  /** A preset name (`backend.presets`); ignored when `layout` is given. */
  preset: string;
  layout?: {
    timeBits: number;
    workerBits: number;
    sequenceBits: number;
    unitMs: number;
    order: 'worker-sequence' | 'sequence-worker';
  };
  /** Unix ms; absent keeps the preset's epoch (a custom layout then starts at 0). */
  epoch?: number;
  clock: 'monotonic' | 'system' | 'test';
  onBackwards: 'wait' | 'keep' | 'fail';
  maxBackwardsMs: number;
  onExhausted: 'wait' | 'borrow';
  maxBorrowTicks: number;
  /**
   * Unix ms recorded by a worker-ID lease (snowmint/lease) for this worker ID:
   * the first ID falls in a later tick (core `resume_after`). Absent without a lease.
   */
  resumeAfterMs?: number;
}

/**
 * A Snowflake generator. `fill` is the hot path: ONE call per run claims
 * consecutive IDs in one tick (core `claim_into`), writes them into `out`
 * and reports in `timing` everything api.js needs before handing them out,
 * so a refill crosses the boundary once. The slots are the core's
 * (`snowmint::binding::Report`, written into api/sources.js as constants):
 * - timing[freshMs]: how many ms after the call began the clock still read the
 *   claimed tick or an earlier one (0 is always a correct answer); api.js
 *   hands the run out only until `start + timing[freshMs] + unitMs`, so no ID is
 *   more than one tick old;
 * - timing[highWaterMs]: the generator's high-water mark (Unix ms of the last tick
 *   minted in), which a worker-ID lease must cover;
 * - timing[generation]: the generation of the generator: how many times the
 *   process-wide default generator was installed or replaced (any thread's
 *   configure()), 0 for a generator of its own. When it is not the
 *   generation api.js read `layout()` and `clockKind()` under (between two
 *   equal `generation()` reads), the run is dropped and the layout read again;
 * - timing[waitMs]: 0 after a run; after a `fill` that must not wait and claimed
 *   nothing, how many ms of the clock must pass before it can mint;
 * - timing[expiryWordSet] (when `timing` has 5 entries; native on Linux only): 1 if the
 *   run's expiry word (`slot` of `Backend.expiryWords()`) is set, and the
 *   kernel will clear it when the run expires; 0 if not (no word: read the
 *   clock as above).
 */
export interface SnowflakeHandle {
  /**
   * Writes 1 to `max` (<= out.length) IDs of one tick into out[0..count] and
   * returns count (fewer when the tick has fewer left). Where the generator
   * must wait (a used-up tick, a clock behind the last ID) it waits if `wait`
   * is true (on a test clock it throws ERR_CLOCK_WOULD_WAIT instead); if false it
   * returns 0, and timing[waitMs] says how many ms of the clock must pass first
   * (core `claim_into`, `Run::wait_ms`; 0 after a run).
   *
   * `slot` (optional; 0 or absent: none): this thread's expiry word for the
   * run (see `Backend.expiryWords`), cleared before the claim and set after
   * it, with its deadline at the clock reading taken before the claim plus
   * timing[freshMs] + unitMs, less a safety margin. The wasm backend ignores it.
   */
  fill(out: BigUint64Array, max: number, timing: Float64Array, wait: boolean, slot?: number): number;
  /** Fills all of `out` with increasing IDs, over as many ticks as needed; timing[highWaterMs] and timing[generation] as in `fill` (timing[freshMs] and timing[waitMs] are 0). */
  fillAll(out: BigUint64Array, timing: Float64Array): void;
  layout(): LayoutInfo;
  /** The generation as `fill` reports it, read now. */
  generation(): number;
  workerId(): number;
  /** Which clock it reads; api.js buffers IDs only for 'monotonic'. */
  clockKind(): 'monotonic' | 'system' | 'test';
  /** Start (Unix ms) of the last tick minted in; before the first ID null (undefined in the wasm backend). A lease reads it at release. */
  highWaterMs(): number | null | undefined;
}

/** The core's ManualClock. */
export interface TestClockHandle {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
  stepBack(ms: number): void;
}

export type TextKind = 'ulid' | 'uuidv7' | 'uuidv4' | 'uuidv1' | 'uuidv6' | 'ksuid' | 'objectid';

export type IdKind = 'snowflake' | 'ulid' | 'uuid' | 'ksuid' | 'objectid' | 'typeid';

/** A parsed ID: the fields its kind has (others are undefined or null). */
export interface RawDecoded {
  kind: IdKind;
  /** snowflake: the value. */
  value?: bigint | null;
  /** Unix ms (v1/v6 may be negative); absent for IDs without time. */
  timestamp?: number | null;
  /** ulid: 80-bit random part (20 hex digits); ksuid: payload (32); objectid: the 5 random bytes (10). */
  hex?: string | null;
  /** ulid, typeid: the same 128 bits as a hyphenated UUID. uuid: canonical text. */
  uuid?: string | null;
  /** uuid: version nibble and variant name. */
  version?: number | null;
  variant?: 'rfc9562' | 'ncs' | 'microsoft' | 'future' | null;
  /** uuid v1/v6: clock sequence and node (12 hex). */
  clockSeq?: number | null;
  node?: string | null;
  /** objectid: the 24-bit counter. */
  counter?: number | null;
  /** typeid: the prefix. */
  prefix?: string | null;
}

export interface Backend {
  /** Which binding this is ('native' or 'wasm'). */
  readonly name: string;
  /** The names and defaults the core defines, as JSON (see `Constants` in index.d.ts). */
  constants(): string;
  /** The index of `name` in the core's name list `list` (a key of the constants: 'presets', 'kinds', ...), or the core's refusal in its words: the one check of a name. */
  nameIndex(list: string, name: string): number;
  /** Validates and describes a layout (a preset name or a spec's layout). */
  layoutOf(spec: SnowflakeSpec): LayoutInfo;
  snowflakeNew(spec: SnowflakeSpec, clock: TestClockHandle | undefined): SnowflakeHandle;

  /**
   * The process-wide default generator (one per process, shared by every
   * worker thread). `defaultInit` installs it if none is installed yet and
   * returns whether this call did; `defaultConfigure` replaces it, resuming
   * after the previous one's last tick. `defaultHandle` is null until one of
   * them ran (undefined in the wasm backend); it stays valid across later configure() calls.
   */
  defaultInit(spec: SnowflakeSpec, clock: TestClockHandle | undefined): boolean;
  defaultConfigure(spec: SnowflakeSpec, clock: TestClockHandle | undefined): void;
  defaultHandle(): SnowflakeHandle | null | undefined;

  testClockNew(ms: number): TestClockHandle;

  /**
   * Expiry words (native on Linux only; absent in the wasm backend): this
   * thread's Int32Array, whose memory the addon owns, or null where this
   * thread has none (then every claim reports timing[expiryWordSet] 0). A word is set by
   * a claim given its slot and cleared by a kernel timer's signal on this
   * thread when that run's deadline passes, so a run may be handed out while
   * its word is not 0, without reading the clock. Slot 0 is never set.
   */
  expiryWords?(): Int32Array | null;
  /** A free slot of this thread's words for one source, or 0 where none is left. */
  expirySlot?(): number;
  /** Gives a slot back (its word cleared). */
  expiryFree?(slot: number): void;
  /** Test-only: [the real-time signal in use (0: none), ns until the timer fires (-1: not armed)]. */
  expiryDebug?(): number[];

  /**
   * Mints `count` IDs of a kind and returns their canonical texts
   * concatenated (every kind has a fixed width). timing[freshMs] as in `fill`,
   * for the first ID's millisecond (0 for uuidv4); `slot` and timing[expiryWordSet] as
   * in `fill`, with a run fresh for timing[freshMs] + 1 ms.
   */
  mintText(kind: TextKind, count: number, timing: Float64Array, slot?: number): string;
  /** One TypeID with a v7 suffix; throws ERR_PARSE for a bad prefix. */
  typeid(prefix: string): string;

  /** Parses any ID (kind detected from the text unless given). */
  decodeId(text: string, kind: IdKind | 'human' | null): RawDecoded;
  ulidToUuid(text: string): string;
  uuidToUlid(text: string): string;
  /** Human form of an ID's text (a decimal Snowflake or a 128-bit ID); `groups` keeps the last groups. */
  toHuman(text: string, groups: number | null): string;
  /** Reads the human form back: a Snowflake as bigint, else a ULID text. */
  fromHuman(text: string): bigint | string;

  // Validation, bytes, UUIDs from given bits (node/src/convert.rs, wasm/src/convert.rs).
  /** Whether `text` is a valid ID (core `Validation::accepts`); throws only for an unknown kind or preset name. */
  isValid(text: string, kind: IdKind | 'human' | undefined, lenient: boolean, preset: string | undefined, version: number | undefined): boolean;
  /** An ID's bytes (kind detected unless given); `guid`: Microsoft's order, 128-bit kinds only. */
  toBytes(text: string, kind: IdKind | 'human' | undefined, guid: boolean): Uint8Array;
  /** The ID of `kind` with these bytes: a Snowflake as bigint, else its canonical text; `prefix` for a TypeID. */
  fromBytes(bytes: Uint8Array, kind: IdKind | 'human', guid: boolean, prefix: string): bigint | string;
  /** Name-based UUIDs: `namespace` is UUID text in any form the parser reads. */
  uuidv3(name: Uint8Array, namespace: string): string;
  uuidv5(name: Uint8Array, namespace: string): string;
  /** A v8 UUID of 16 bytes (version and variant bits set). */
  uuidv8(bytes: Uint8Array): string;
  uuidv1ToV6(text: string): string;
  uuidv6ToV1(text: string): string;

  /**
   * An ID of a timed kind (core `TimedKind`: 'ulid', 'uuidv7', 'uuidv1',
   * 'uuidv6', 'ksuid', 'objectid', 'typeid') at Unix ms `ms`: with `bound`
   * undefined, random bits fresh from the CSPRNG; false: the smallest ID of
   * that time; true: the largest. `prefix` is a TypeID's ('' otherwise).
   */
  textAt(kind: string, ms: number, bound: boolean | undefined, prefix: string): string;
  /** The Snowflake of `spec` at Unix ms `ms`: its worker ID and `sequence`, or (`bound` false/true) the smallest/largest ID of the tick. */
  snowflakeAt(spec: SnowflakeSpec, ms: number, bound: boolean | undefined, sequence: number): bigint;
  /** Parses a decimal Snowflake that fits a layout `bits` (63 or 64) wide; throws the core's ERR_PARSE otherwise. */
  parseSnowflake(text: string, bits: number): bigint;
  /** -1, 0 or 1: how ID text `a` sorts against `b`, two IDs of one kind. */
  compareIds(a: string, b: string): number;

  /**
   * snowmint/sequence (the napi addon only: the browser build leaves the
   * core's `sequence` feature out): the block-sequence state machine. `sizes` is
   * [blockSize, minBlockSize, maxBlockSize, targetBlockMs, timeoutMs], NaN for an absent
   * option; throws ERR_SEQUENCE_NAME or ERR_SEQUENCE_OPTION.
   */
  sequenceNew?(name: string, sizes: Float64Array, start: bigint | undefined): SequenceHandle;
  /** Throws ERR_SEQUENCE_NAME unless `name` is an identifier (also used for table names). */
  sequenceCheckName?(name: string): void;
}

/** The core's `BlockSequence` (core/src/sequence.rs says what each step does). */
export interface SequenceHandle {
  /** Writes [start, len] of a run of up to `max` buffered IDs into out; throws ERR_SEQUENCE_EMPTY. */
  take(out: BigUint64Array, max: number): void;
  /** The size of the block to ask the store for now, or 0 for none; `nowMs` is a monotonic ms clock. */
  request(nowMs: number): number;
  /** The store's answer: `len` IDs from `start`; throws ERR_SEQUENCE_OVERFLOW or ERR_SEQUENCE_BACKWARDS. */
  addBlock(start: bigint, len: number): void;
  /** The store failed: the next request waits a backoff. */
  fail(nowMs: number): void;
  buffered(): number;
  blockSize(): number;
  /** Writes [blockSize, minBlockSize, maxBlockSize, targetBlockMs, timeoutMs] into out. */
  sizes(out: Float64Array): void;
  /** The first ID of a new sequence. */
  start(): bigint;
}
