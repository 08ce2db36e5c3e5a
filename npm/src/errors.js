// Public error classes. Every error the package throws is a SnowmintError
// (an Error) with a stable `code`; the class groups codes by what went wrong.

export class SnowmintError extends Error {
  /** @param {string} code @param {string} message @param {ErrorOptions} [options] */
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
  }
  get name() {
    return this.constructor.name;
  }
}

/** A text or value that is not a valid ID (ERR_PARSE). */
export class InvalidIdError extends SnowmintError {}
/** Generator options the core refuses (worker ID, layout, epoch, option names). */
export class ConfigError extends SnowmintError {}
/** The clock makes minting impossible (stepped back too far, out of range). */
export class ClockError extends SnowmintError {}
/** An argument of the wrong type or value. */
export class ArgumentError extends SnowmintError {}
/** Worker-ID leases (snowmint/lease). */
export class LeaseError extends SnowmintError {}
/** Block sequences (snowmint/sequence). */
export class SequenceError extends SnowmintError {}

const CLASS_OF_CODE = {
  ERR_PARSE: InvalidIdError,
  ERR_WORKER_ID_RANGE: ConfigError,
  ERR_INVALID_LAYOUT: ConfigError,
  ERR_EPOCH_IN_FUTURE: ConfigError,
  ERR_INVALID_OPTION: ConfigError,
  ERR_NO_WORKER_ID: ConfigError,
  ERR_WORKER_ID_IN_USE: ConfigError,
  ERR_CLOCK_BACKWARDS: ClockError,
  ERR_CLOCK_WOULD_WAIT: ClockError,
  ERR_CLOCK_SKEW: ClockError,
  ERR_TIME_OVERFLOW: ClockError,
  ERR_TIME_BEFORE_EPOCH: ClockError,
  ERR_INVALID_ARG_TYPE: ArgumentError,
  ERR_INVALID_ARG_VALUE: ArgumentError,
  ERR_INVALID_COUNT: ArgumentError,
  ERR_LEASE_LOST: LeaseError,
  ERR_LEASE_UNAVAILABLE: LeaseError,
  ERR_LEASE_EXPIRED: LeaseError,
  ERR_LEASE_RELEASED: LeaseError,
  ERR_LEASE_IN_USE: LeaseError,
  ERR_LEASE_TIMEOUT: LeaseError,
  ERR_LEASE_IO: LeaseError,
  ERR_SEQUENCE_OPTION: SequenceError,
  ERR_SEQUENCE_NAME: SequenceError,
  ERR_SEQUENCE_STORE: SequenceError,
  ERR_SEQUENCE_OVERFLOW: SequenceError,
  ERR_SEQUENCE_BACKWARDS: SequenceError,
  ERR_SEQUENCE_EMPTY: SequenceError,
  ERR_SEQUENCE_UNAVAILABLE: SequenceError,
  ERR_SEQUENCE_CLOSED: SequenceError,
};

/** The public error for a code (SnowmintError for codes without a class). */
export function makeError(code, message, options) {
  const Class = Object.hasOwn(CLASS_OF_CODE, code) ? CLASS_OF_CODE[code] : SnowmintError;
  return new Class(code, message, options);
}

/**
 * Turns whatever a backend threw into the public error: known codes keep their
 * code and message, anything else (a caught Rust panic) is ERR_INTERNAL.
 */
export function fromBackend(err) {
  if (err instanceof SnowmintError) return err;
  const code = err && typeof err.code === 'string' ? err.code : '';
  if (Object.hasOwn(CLASS_OF_CODE, code)) return makeError(code, err.message);
  return new SnowmintError('ERR_INTERNAL', `internal error in snowmint: ${err?.message}`, { cause: err });
}
