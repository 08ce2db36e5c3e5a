// snowmint/sequence: block sequences over a database (Node only). See docs/sequence.md.
import { SequenceError } from '../../index.js';

/** The errors of snowmint/sequence (the same class as the root entry's). */
export { SequenceError };

/** Where the counters live: what postgresStore(), mysqlStore(), sqliteStore() and redisStore() return. */
export interface SequenceStore {
  /** The store in words, for error messages (e.g. 'PostgreSQL (pg) table snowmint_sequences'). */
  readonly describe: string;
  /**
   * Reserves a block of `size` IDs of sequence `name` in one atomic statement,
   * creating the counter at `start` if it is missing. A store may answer with
   * another size (a native sequence's increment).
   */
  reserve(name: string, size: number, start: bigint): Promise<{ start: bigint; size: number }>;
}

export interface SequenceOptions {
  /** The sequence's name: 1 to 63 ASCII letters, digits and '_', not starting with a digit. */
  name: string;
  /** The first block's size; alone (without min, max or target), the size of every block. Default 100. */
  blockSize?: number;
  /** Adaptive blocks: the smallest (default 10). */
  minBlockSize?: number;
  /** Adaptive blocks: the largest (default 1000000). */
  maxBlockSize?: number;
  /** Adaptive blocks: how long a block should last at the measured rate, in ms (default 15000). */
  targetBlockMs?: number;
  /** The first ID when the store creates the sequence (default 1n; at most 2^63-1). */
  start?: bigint | number;
  /** How long a store may take to answer a request for a block, in ms (default 5000): a later answer is a failure and its block a gap. */
  timeoutMs?: number;
}

export interface SequenceStats {
  /** The size of the last block asked for. */
  blockSize: number;
  /** IDs buffered in this process. */
  buffered: number;
  /** Requests made to the store, and how many of them failed. */
  roundTrips: number;
  failures: number;
  /** How many next() calls found no ID buffered and waited for the store (the first one always does). */
  waits: number;
}

export interface Sequence {
  readonly name: string;
  /** The next ID; waits for the store only when no block is buffered. Rejects with ERR_SEQUENCE_UNAVAILABLE when the store fails and nothing is buffered. */
  next(): Promise<bigint>;
  /** The next ID from the buffered blocks, or throws SequenceError ERR_SEQUENCE_EMPTY. */
  nextSync(): bigint;
  /** `count` increasing IDs. */
  nextBatch(count: number): Promise<BigUint64Array>;
  /** Stops asking for blocks; the unused rest of the buffered blocks is a gap. */
  close(): Promise<void>;
  stats(): SequenceStats;
}

/** A sequence of short, dense IDs reserved from `store` a block at a time. */
export function sequence(store: SequenceStore, options: SequenceOptions): Sequence;

/** Structural types of the drivers (optional peer dependencies), so that no driver's types are needed. */
export type PgClient = { query(text: string, params?: unknown[]): Promise<{ rows: any[] }> };
export type PostgresJsSql = ((...args: any[]) => any) & { unsafe(text: string, params?: any[]): Promise<any> };

/**
 * PostgreSQL through `pg` (Pool or Client) or postgres.js. Mode 'table'
 * (default): one row per sequence in `table` (default snowmint_sequences).
 * Mode 'sequence': a native sequence named after the sequence, INCREMENT BY
 * the block size (an existing sequence's increment is used as it is).
 */
export function postgresStore(client: PgClient | PostgresJsSql, options?: { table?: string; mode?: 'table' | 'sequence' }): SequenceStore;
/** MySQL or MariaDB through mysql2 (a Pool or Connection, promise or callback API). */
export function mysqlStore(pool: { query(...args: any[]): any }, options?: { table?: string }): SequenceStore;
/** SQLite through better-sqlite3. */
export function sqliteStore(db: { prepare(sql: string): any; exec(sql: string): any; name?: string }, options?: { table?: string }): SequenceStore;
/** Redis through ioredis or node-redis (v4+). */
export function redisStore(client: { call(...args: any[]): Promise<unknown> } | { sendCommand(args: string[]): Promise<unknown> }, options?: { prefix?: string }): SequenceStore;
