#!/usr/bin/env bash
# The npm package as a user gets it: `npm pack`, install the tarball and this
# platform's native package offline into a fresh folder, then import and
# require it, type-check a consumer with `tsc --noEmit --strict`, and run
# tests/node/ against the installed copy.
source "$(dirname "$0")/../lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$ROOT/npm"
tgz=$(npm pack --silent --pack-destination "$tmp" | tail -n 1)
say "packed $tgz ($(du -k "$tmp/$tgz" | cut -f1) KB)"
# The package's manifest against what bundlers and TypeScript read (exports
# conditions with their types, sideEffects, files): publint, on the tarball.
"$ROOT/node_modules/.bin/publint" --strict "$tmp/$tgz"
# Both licences the package names (MIT OR Apache-2.0) ship inside it.
listing=$(tar -tzf "$tmp/$tgz")
for f in LICENSE-MIT LICENSE-APACHE; do
  grep -qx "package/$f" <<<"$listing" || { echo "the package lacks $f" >&2; exit 1; }
done
# With this machine's platform package (npm/platforms/, built by scripts/build.d/25-cross.sh),
# as npm would pick it from the optional dependencies.
platform=$(node --input-type=module -e "import('$ROOT/npm/src/addon.js').then((m) => console.log(m.platform))")
native_tgz=$(cd "$ROOT/npm/platforms/$platform" && npm pack --silent --pack-destination "$tmp" | tail -n 1)
mkdir "$tmp/app"
cd "$tmp/app"
printf '{ "name": "consumer", "private": true, "type": "module" }\n' > package.json
npm install --offline --no-audit --no-fund --loglevel=error "$tmp/$tgz" "$tmp/$native_tgz"

say "import and require"
node --input-type=module -e "
  import { nextId, ulid, decode } from 'snowmint';
  const id = nextId();
  if (typeof id !== 'bigint' || decode(id).kind !== 'snowflake' || ulid().length !== 26) process.exit(1);
  console.log('  import  ok', id);"
node --input-type=commonjs -e "
  const { nextId, uuidv7, SnowmintError, decode } = require('snowmint');
  let code; try { decode('x'); } catch (e) { code = e instanceof SnowmintError && e.code; }
  if (typeof nextId() !== 'bigint' || uuidv7().length !== 36 || code !== 'ERR_PARSE') process.exit(1);
  console.log('  require ok', nextId());"
node --input-type=commonjs -e "
  const root = require('snowmint');
  const { localLease, LeaseError } = require('snowmint/lease');
  const { stringify } = require('snowmint/json');
  const dir = require('node:fs').mkdtempSync(require('node:path').join(require('node:os').tmpdir(), 'snowmint-pack-'));
  const lease = localLease({ dir, workerIds: { min: 2, max: 2 } });
  let err; try { localLease({ dir, workerIds: { min: 2, max: 2 } }); } catch (e) { err = e; }
  const g = new root.Snowflake({ lease });
  if (LeaseError !== root.LeaseError || !(err instanceof root.LeaseError) || !(err instanceof root.SnowmintError) || g.decode(g.next()).workerId !== 2) process.exit(1);
  if (stringify({ id: 1n }) !== '{\"id\":\"1\"}') process.exit(1);
  lease.release();
  console.log('  require snowmint/lease and snowmint/json ok:', err.code, 'is a LeaseError of the root entry');"
node --input-type=commonjs -e "
  const root = require('snowmint');
  const { sequence, postgresStore, mysqlStore, sqliteStore, redisStore, SequenceError } = require('snowmint/sequence');
  let err; try { sequence({}, { name: 'orders' }); } catch (e) { err = e; }
  if (![postgresStore, mysqlStore, sqliteStore, redisStore].every((f) => typeof f === 'function')) process.exit(1);
  if (!(err instanceof SequenceError) || !(err instanceof root.SnowmintError) || err.code !== 'ERR_SEQUENCE_STORE') process.exit(1);
  console.log('  require snowmint/sequence ok:', err.code, 'is a SequenceError and a SnowmintError of the root entry');"
./node_modules/.bin/snowmint decode 175928847299117063 --preset discord | sed 's/^/  bin: /' | head -3

say "tsc --noEmit --strict on a consumer"
cat > consumer.ts <<'TS'
import { nextId, nextIds, nextIdString, configure, Snowflake, TestClock, decode, ulid, uuidv7, uuidv4,
  typeid, toHuman, fromHuman, isUuid, SnowmintError, InvalidIdError, type DecodedId } from 'snowmint';
import { localLease, workerIdFromEnv, type Lease } from 'snowmint/lease';
import { parse, stringify } from 'snowmint/json';
import { sequence, redisStore, SequenceError, type Sequence, type SequenceStore } from 'snowmint/sequence';
configure({ workerId: 3, preset: 'discord', onBackwards: 'fail' });
const id: bigint = nextId();
const ids: BigUint64Array = nextIds(10);
const text: string = nextIdString() + ulid() + uuidv7() + uuidv4() + typeid('user');
const g = new Snowflake({ clock: new TestClock(Date.now()), layout: { timeBits: 41, workerBits: 10, sequenceBits: 12, epoch: new Date(0) } });
const ms: number = g.decode(g.next()).timestamp;
const rec: DecodedId = decode(text.slice(0, 26));
if (rec.kind === 'ulid') console.log(rec.random.length);
const back: bigint | string = fromHuman(toHuman(id, { groups: 2 }));
try { decode('x'); } catch (e) { if (e instanceof InvalidIdError) { const c: string = e.code; console.log(c); } }
console.log(ids.length, ms, back, isUuid(text), SnowmintError.name);
const lease: Lease = localLease({ workerIds: { min: 0, max: 3 } });
lease.on('lost', (e) => console.log(e.code));
new Snowflake({ lease });
const big: unknown = parse(stringify({ id }), null, { bigint: 'string' });
console.log(big, typeof workerIdFromEnv);
const store: SequenceStore = { describe: 'a test store', reserve: async (_name: string, size: number, start: bigint) => ({ start, size }) };
const seq: Sequence = sequence(store, { name: 'orders', blockSize: 100, start: 1n });
const next: Promise<bigint> = seq.next();
const batch: Promise<BigUint64Array> = seq.nextBatch(3);
console.log(next, batch, seq.stats().waits, typeof redisStore, SequenceError.name);
TS
printf '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "nodenext", "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": false }, "files": ["consumer.ts"] }\n' > tsconfig.json
tsc -p tsconfig.json
echo "  consumer.ts type-checks"

say "tsc --noEmit --strict --module node16 on a CommonJS consumer (import x = require(...))"
cat > consumer-cjs.cts <<'TS'
import snowmint = require('snowmint');
import json = require('snowmint/json');
import lease = require('snowmint/lease');
import seqm = require('snowmint/sequence');
snowmint.configure({ workerId: 3 });
const id: bigint = snowmint.nextId();
const rec: snowmint.DecodedId = snowmint.decode(snowmint.ulid());
const text: string = json.stringify({ id }, { bigint: 'number' });
const back: unknown = json.parse(text);
const l: lease.Lease = lease.localLease({ workerIds: { min: 0, max: 3 } });
const g: snowmint.Snowflake = new snowmint.Snowflake({ lease: l });
try { snowmint.decode('x'); } catch (e) { if (e instanceof snowmint.InvalidIdError || e instanceof lease.LeaseError) { const c: string = e.code; console.log(c); } }
console.log(rec.kind, back, g.workerId);
const seq: seqm.Sequence = seqm.sequence({ describe: 'a test store', reserve: async (_n: string, size: number, start: bigint) => ({ start, size }) }, { name: 'orders' });
try { seq.nextSync(); } catch (e) { if (e instanceof seqm.SequenceError && e instanceof snowmint.SnowmintError) console.log(e.code); }
TS
printf '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "node16", "moduleResolution": "node16", "target": "es2022", "skipLibCheck": false }, "files": ["consumer-cjs.cts"] }\n' > tsconfig.cjs.json
tsc -p tsconfig.cjs.json
echo "  consumer-cjs.cts type-checks"

say "tests/node against the installed package"
mkdir -p tests
cp -r "$ROOT/tests/node" "$ROOT/tests/vectors" tests/
cp -r "$ROOT/README.md" "$ROOT/docs" . # docs-examples.test.js runs their examples against the installed package
# All but protocol.test.js, which checks the repository's sources (every layer's error codes, the
# generated regions), not the package: 20-node.sh runs it.
SNOWMINT_PACKAGE=snowmint SNOWMINT_CLI="$tmp/app/node_modules/snowmint/bin/snowmint.js" node --test $(ls tests/node/*.test.js | grep -v '/protocol\.test\.js$')
