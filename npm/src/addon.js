// The napi-rs addon (node/) for this platform: the backend of the Node entry
// and the OS file locks of snowmint/lease. Looked for, in order, in native/
// of this package (a build from source: scripts/build.sh) and in the platform
// package that npm installs as an optional dependency of snowmint
// (snowmint-<platform>, npm/platforms/; its `os`, `cpu` and `libc` fields make
// npm skip every other platform's). Only this platform's binary is tried: on
// Linux the C library of the running Node picks -gnu or -musl, so a musl Node
// never loads a glibc binary or the reverse. Any failure to load one (absent,
// a loader error, a runtime that refuses native code such as Deno without
// --allow-ffi) is kept in `nativeError`, with what was tried and why, and the
// Node entry runs on the wasm build instead.
import { createRequire } from 'node:module';
import { makeError } from './errors.js';

/** package.json `engines`: the oldest Node whose support has not ended, with a global `crypto`. */
const MIN_NODE_MAJOR = 20;

const nodeVersion = process.versions.node;
if (Number(nodeVersion.split('.')[0]) < MIN_NODE_MAJOR) {
  throw makeError(
    'ERR_UNSUPPORTED_NODE',
    `snowmint needs Node.js ${MIN_NODE_MAJOR} or later ("engines" in its package.json), and this is Node.js ${nodeVersion}: its support has ended, and it lacks what snowmint relies on (a global crypto for the random bits of the wasm build). Upgrade Node.js.`,
  );
}

const require = createRequire(import.meta.url);

/**
 * The C library the running Node is built on, 'gnu' or 'musl': its own, not
 * the machine's (a musl Node runs on a glibc machine and the reverse). Node's
 * diagnostic report names the glibc version only in a glibc build. The report
 * is taken without its network section (slow on some hosts), and that setting
 * is put back as it was. Throws where the report cannot be read (Deno without
 * --allow-sys): no binary is tried then, rather than a guess.
 */
function linuxLibc() {
  const report = process.report;
  if (typeof report?.getReport !== 'function') throw new Error('this runtime has no process.report.getReport()');
  const excluded = report.excludeNetwork;
  report.excludeNetwork = true;
  try {
    return report.getReport().header?.glibcVersionRuntime ? 'gnu' : 'musl';
  } finally {
    report.excludeNetwork = excluded;
  }
}

let libcError = null;

/** This platform's name in binaries and package names: `linux-x64-gnu`, `darwin-arm64`, `win32-x64` (`linux-x64` when the C library is unknown). */
export const platform = (() => {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return base;
  try {
    return `${base}-${linuxLibc()}`;
  } catch (e) {
    libcError = e;
    return base;
  }
})();

const firstLine = (e) => String(e?.message ?? e).split('\n')[0];

/** The path of the binary that loaded, or null. */
export let addonPath = null;

/** Why no addon loaded (the Node entry then runs on the wasm build), or null. */
export let nativeError = null;

function loadAddon() {
  const file = `snowmint.${platform}.node`;
  const tried = libcError ? [`to tell glibc from musl: ${firstLine(libcError)}`] : [];
  let cause = libcError ?? undefined;
  for (const where of libcError ? [] : [`../native/${file}`, `snowmint-${platform}/${file}`]) {
    let path;
    try {
      path = require.resolve(where);
    } catch {
      tried.push(`${where}: not installed`);
      continue;
    }
    try {
      const addon = require(path);
      addonPath = path;
      return addon;
    } catch (e) {
      cause ??= e;
      tried.push(`${path}: ${firstLine(e)}`);
    }
  }
  nativeError = makeError(
    'ERR_NO_NATIVE_BINARY',
    `snowmint loaded no native binary for ${platform}, so it runs on its wasm build (tried ${tried.join('; ')}). ` +
      `There, worker-ID leases and a zero-config nextId() are not available: set SNOWMINT_WORKER_ID or call configure({ workerId }). ` +
      `For the native binary install the optional dependency snowmint-${platform} (npm leaves it out under --omit=optional) or build from source (scripts/build.sh).`,
    cause === undefined ? undefined : { cause },
  );
  return null;
}

/** The addon; without one, an object whose every use throws `nativeError` (file-lock leases need the addon). */
export const addon =
  loadAddon() ??
  new Proxy(
    {},
    {
      get: () => {
        throw nativeError;
      },
    },
  );
