// The probe scripts/test.d/85-release.sh runs in each app that installed
// snowmint by name from the local registry (copied into the app, so that
// `snowmint` resolves as the app's own dependency):
//   node probe.mjs BACKEND PLATFORM VERSION
// BACKEND is `native` or `wasm`; PLATFORM the platform package that must have
// loaded (native) or that the fallback must name (wasm); VERSION the version
// of snowmint, and of the platform package, that must be installed. Checks the
// ES and CommonJS entries (and the CommonJS entry's named exports as an ES
// module sees them), mints every kind and decodes it. Prints one line; exits
// non-zero with the reason on any difference.
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';

const [backend, platform, version] = process.argv.slice(2);
const fail = (why) => {
  console.error(`probe: ${why}`);
  process.exit(1);
};
const require = createRequire(import.meta.url);
const esm = await import('snowmint');
const cjs = require('snowmint');
const pkgDir = dirname(require.resolve('snowmint/package.json'));
const pkg = require('snowmint/package.json');
if (pkg.version !== version) fail(`snowmint@${pkg.version} installed, want ${version}`);
const addon = await import(pathToFileURL(join(pkgDir, 'src/addon.js')).href);
if (addon.platform !== platform) fail(`the loader sees platform ${addon.platform}, want ${platform}`);
for (const [name, m] of [
  ['import', esm],
  ['require', cjs],
]) {
  if (m.backendName !== backend) fail(`${name}('snowmint') runs on ${m.backendName}, want ${backend} (${addon.nativeError?.message})`);
}
// The CommonJS entry imported as an ES module: Node's lexer must find the names.
const cjsAsEsm = await import(pathToFileURL(require.resolve('snowmint')).href);
for (const name of ['nextId', 'decode', 'ulid', 'Snowflake', 'SnowmintError']) {
  if (cjsAsEsm[name] !== cjs[name]) fail(`import { ${name} } from the CommonJS entry (${relative(pkgDir, require.resolve('snowmint'))}) is ${cjsAsEsm[name]}`);
}

let where;
if (backend === 'native') {
  const native = createRequire(join(pkgDir, 'package.json'))(`snowmint-${platform}/package.json`);
  if (native.version !== version) fail(`snowmint-${platform}@${native.version} installed, want ${version}`);
  where = relative(process.cwd(), addon.addonPath).split(sep).join('/');
  if (!where.includes(`snowmint-${platform}`)) fail(`the addon loaded from ${where}, not from snowmint-${platform}`);
  // Zero configuration: a worker ID leased among this machine's processes.
  const id = esm.nextId();
  const rec = esm.decode(id);
  if (rec.kind !== 'snowflake' || Math.abs(rec.timestamp - Date.now()) > 60_000) fail(`nextId() ${id} decodes to ${JSON.stringify(rec, (_, v) => String(v))}`);
  if (BigInt(cjs.nextIdString()) <= id) fail('require(snowmint).nextIdString() is not after the first ID');
} else {
  // The documented fallback: no binary, and the reason, with every path tried.
  const want = `snowmint loaded no native binary for ${platform}, so it runs on its wasm build`;
  if (!addon.nativeError?.message.startsWith(want)) fail(`the fallback says "${addon.nativeError?.message}", want "${want} (tried ...)"`);
  let err;
  try {
    esm.nextId();
  } catch (e) {
    err = e;
  }
  if (err?.code !== 'ERR_NO_WORKER_ID' || err.cause?.code !== 'ERR_NO_NATIVE_BINARY') fail(`zero-config nextId() on wasm: ${err?.code ?? 'no error'}, cause ${err?.cause?.code}`);
  where = addon.nativeError.message;
}
const g = new esm.Snowflake({ workerId: 7, lease: 'none' });
const decoded = g.decode(g.next());
if (decoded.workerId !== 7) fail(`new Snowflake({ workerId: 7 }) minted worker ${decoded.workerId}`);
const texts = { ulid: esm.ulid(), uuid: esm.uuidv7(), ksuid: esm.ksuid(), objectid: esm.objectId() };
for (const [kind, text] of Object.entries(texts)) {
  const rec = esm.decode(text);
  if (rec.kind !== kind || Math.abs(rec.timestamp - Date.now()) > 60_000) fail(`${text} decodes to kind ${rec.kind}, time ${rec.timestamp}`);
}
if (esm.ulidToUuid(cjs.uuidToUlid(texts.uuid)) !== texts.uuid) fail('ULID <-> UUID round trip');
console.log(`  ${backend} ${platform} snowmint@${pkg.version} (${process.versions.bun ? `Bun ${process.versions.bun}` : `Node ${process.versions.node}`}): ${where}; ${texts.ulid} ${texts.uuid}`);
