// Kubernetes without a lease server: a StatefulSet gives each pod a stable,
// unique ordinal (hostname `name-N`), which is a worker ID as long as the
// StatefulSet never runs two pods with one ordinal (its default guarantee)
// and has fewer replicas than worker IDs. Explicit options, never guessed.

import { hostname } from 'node:os';
import { ConfigError } from '../errors.js';

function workerId(value, what, max) {
  if (!/^\d{1,15}$/.test(value) || Number(value) > max) {
    throw new ConfigError('ERR_WORKER_ID_RANGE', `${what} does not give a worker ID from 0 to ${max}`);
  }
  return Number(value);
}

/**
 * The ordinal of a StatefulSet pod from its hostname (`web-3` -> 3), plus
 * `offset` (to give several StatefulSets disjoint ranges).
 * @param {{ hostname?: string, offset?: number, max?: number }} [options]
 */
export function workerIdFromHostname({ hostname: name = process.env.HOSTNAME || hostname(), offset = 0, max = 1023 } = {}) {
  const m = /-(\d+)$/.exec(name);
  if (!m) throw new ConfigError('ERR_WORKER_ID_RANGE', `hostname '${name}' is not a StatefulSet pod name (name-N): no ordinal to use as worker ID`);
  return workerId(String(Number(m[1]) + offset), `hostname '${name}' (ordinal ${m[1]} + offset ${offset})`, max);
}

/**
 * A worker ID from an environment variable (for example one set from the
 * pod's `apps.kubernetes.io/pod-index` label through the downward API).
 * @param {string} name
 * @param {{ max?: number }} [options]
 */
export function workerIdFromEnv(name, { max = 1023 } = {}) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') throw new ConfigError('ERR_WORKER_ID_RANGE', `environment variable ${name} is not set: no worker ID`);
  return workerId(raw.trim(), `${name}='${raw}'`, max);
}
