/**
 * snowmint/json — lossless 64-bit JSON: `parse` keeps integers beyond
 * ±(2^53 - 1) exact as `bigint` (or strings), `stringify` writes `bigint`,
 * `reviver` turns named decimal-string fields into `bigint`.
 */

/** Options of {@link parse}. */
export interface ParseOptions {
  /**
   * What an integer literal outside ±(2^53 - 1) becomes: a `bigint` (default),
   * or its literal as a string (`"-12345678901234567890"`).
   */
  bigint?: 'bigint' | 'string';
}

/** Options of {@link stringify}. */
export interface StringifyOptions {
  /**
   * How a `bigint` (or `BigInt` object) is written: as a JSON string of its
   * decimal digits (default, safe for every JavaScript reader), or as a raw
   * integer literal (`'number'`, for servers that read int64).
   */
  bigint?: 'string' | 'number';
}

/** A `JSON.parse` reviver (engines with JSON.parse source text access also pass `context`). */
export type Reviver = (this: any, key: string, value: any, context?: { source?: string }) => any;

/** A `JSON.stringify` replacer function. */
export type Replacer = (this: any, key: string, value: any) => any;

/**
 * Parses JSON like `JSON.parse`, except that integers outside ±(2^53 - 1)
 * become `bigint` (or strings, with `{ bigint: 'string' }`). Everything else,
 * reviver semantics and the `SyntaxError` for malformed text are `JSON.parse`'s.
 * The options may also be passed in place of the reviver.
 */
export function parse(text: string, reviver?: Reviver | null, options?: ParseOptions): any;
export function parse(text: string, options: ParseOptions): any;

/**
 * Serializes like `JSON.stringify`, except that `bigint` values are written as
 * decimal strings (or raw integer literals with `{ bigint: 'number' }`).
 * The options may also be passed in place of the replacer.
 */
export function stringify(value: undefined | (() => unknown) | symbol, replacer?: Replacer | (string | number)[] | null, space?: string | number, options?: StringifyOptions): undefined;
export function stringify(value: any, replacer?: Replacer | (string | number)[] | null, space?: string | number, options?: StringifyOptions): string;
export function stringify(value: any, options: StringifyOptions): string;

/**
 * Builds a reviver that turns the named fields, when they hold a decimal
 * integer string, into `bigint` (each element, for a named field holding an
 * array). For `JSON.parse` or {@link parse}:
 * `JSON.parse(body, reviver(['id', 'guild_id']))`.
 */
export function reviver(fields: string | Iterable<string>): (this: any, key: string, value: any) => any;

/**
 * The offset of the first JSON syntax error in `text`, or -1 if it is valid
 * JSON (RFC 8259). `parse` uses it to say where malformed text breaks.
 */
export function syntaxErrorOffset(text: string): number;
