// Clock skew for the leases with a coordinator (Redis, etcd, ZooKeeper): their
// skew options, and the arithmetic that turns the clocks a store reports
// (`Readings` in lease.js) into skews with error bounds. The Lease judges them
// against maxSkewMs at each renewal.

import { ConfigError } from '../errors.js';

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
 * The holder's clock against the others, from the readings of one extend
 * sent at `sentMs` and answered at `doneMs` (on the holder's clock): a list
 * of { against: 'server' | 'peers', what (for messages), peers (how many),
 * skewMs (ours minus theirs), errMs (how far off that may be) }.
 * Against the coordinator: it read its clock somewhere between send and
 * answer. Against the peers, the mean of their skews: a peer's report with
 * the coordinator's time gives its offset from the coordinator (ours minus
 * theirs is then the skew); one without was written up to `ageMaxMs` ago.
 */
export function measureSkew(readings, sentMs, doneMs) {
  const mid = (sentMs + doneMs) / 2;
  const half = (doneMs - sentMs) / 2;
  const out = [];
  const { server, peers = [] } = readings;
  if (server) out.push({ against: 'server', what: `the ${server.name}`, peers: 0, skewMs: mid - server.ms, errMs: half });
  if (peers.length > 0) {
    let sum = 0;
    let err = 0;
    for (const p of peers) {
      if (p.serverMs !== undefined && server) {
        sum += mid - server.ms - (p.clockMs - p.serverMs);
        err += half;
      } else {
        // Its clock now lies between clockMs and clockMs + ageMaxMs + our round trip.
        const age = (p.ageMaxMs ?? 0) + (doneMs - sentMs);
        sum += doneMs - p.clockMs - age / 2;
        err += age / 2;
      }
    }
    const n = peers.length;
    out.push({ against: 'peers', what: `the mean of ${n} live peer${n === 1 ? "'s" : "s'"} last reported clocks`, peers: n, skewMs: sum / n, errMs: err / n });
  }
  return out;
}
