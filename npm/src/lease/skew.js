// Clock skew for the leases with a coordinator (Redis, etcd, ZooKeeper): their
// skew options, and the clocks a store reports (`Readings` in lease.js) in
// the form the lease crate's arithmetic takes them (lease/src/machine/skew.rs:
// skews with error bounds, judged against maxSkewMs at each renewal).

import { ConfigError } from '../errors.js';
import { addon } from '../addon.js';

/**
 * Checked, defaulted skew options of a lease with a coordinator (Redis, etcd,
 * ZooKeeper): `maxSkewMs` (a whole number of ms, default 1000) and `onSkew`
 * ('warn' by default, or 'refuse'). The local lease's are `localSkewOptions`
 * (local.js), which refuse by default.
 */
export function coordinatorSkewOptions(o) {
  const maxSkewMs = o.maxSkewMs ?? 1000;
  const onSkew = o.onSkew ?? 'warn';
  if (!Number.isInteger(maxSkewMs) || maxSkewMs < 0) throw new ConfigError('ERR_INVALID_OPTION', `maxSkewMs must be a non-negative integer, got ${maxSkewMs}`);
  if (onSkew !== 'warn' && onSkew !== 'refuse') throw new ConfigError('ERR_INVALID_OPTION', `onSkew must be 'warn' or 'refuse', got ${JSON.stringify(onSkew)}`);
  return { maxSkewMs, onSkew };
}

/**
 * A store's `Readings` as the addon takes them: the server clock's name,
 * and [server ms or NaN, then per peer: worker ID, clock ms, server ms or
 * NaN, age bound or NaN].
 */
export function flatReadings({ server, peers = [] }) {
  const flat = new Float64Array(1 + 4 * peers.length);
  flat[0] = server ? server.ms : Number.NaN;
  for (const [i, p] of peers.entries()) flat.set([p.workerId, p.clockMs, p.serverMs ?? Number.NaN, p.ageMaxMs ?? Number.NaN], 1 + 4 * i);
  return [server?.name, flat];
}

/**
 * The holder's clock against the others, from the readings of one extend
 * sent at `sentMs` and answered at `doneMs` (on the holder's clock): a list
 * of { against: 'server' | 'peers', what (for messages), peers (how many),
 * skewMs (ours minus theirs), errMs (how far off that may be) }. The
 * arithmetic and its error bound are the lease crate's
 * (lease/src/machine/skew.rs, `measure_skew`), which every renewal uses.
 */
export function measureSkew(readings, sentMs, doneMs) {
  const [name, flat] = flatReadings(readings);
  return addon.leaseMeasureSkew(name, flat, sentMs, doneMs);
}
