#!/usr/bin/env bash
# The main job: set-up, build every layer, then mint and decode IDs from Rust,
# from Node (native addon), from the wasm build, and from the CLI.
source "$(dirname "$0")/lib.sh"
bash "$ROOT/scripts/setup.sh"
bash "$ROOT/scripts/build.sh"
cd "$ROOT"

say "Rust (core crate): cargo run -p snowmint --example mint"
cargo run -q --release -p snowmint --example mint

say "Node (native addon): import 'snowmint'"
node --input-type=module -e "
import { nextId, nextIds, ulid, uuidv7, typeid, decode } from './npm/entries/node.js';
import { stringify, parse, reviver } from './npm/src/json.js';
const id = nextId();
console.log('nextId()      ', id);
console.log('nextIds(3)    ', [...nextIds(3)].join(' '));
console.log('ulid()        ', ulid());
console.log('uuidv7()      ', uuidv7());
console.log('typeid(user)  ', typeid('user'));
console.log('decode(id)    ', JSON.stringify(decode(id)));
const asText = stringify({ id });
console.log('JSON (string) ', asText, '->', parse(asText, reviver(['id'])).id === id ? 'same bigint back' : 'MISMATCH');
const asNumber = stringify({ id }, null, 0, { bigint: 'number' });
console.log('JSON (int64)  ', asNumber, '->', parse(asNumber).id === id ? 'same bigint back' : 'MISMATCH',
  '(JSON.parse would give', JSON.parse(asNumber).id + ')');
"

say "wasm build (what browsers run), in Node: import 'snowmint/wasm'"
node --input-type=module -e "
const m = await import('./npm/entries/browser.js');
console.log('ulid()        ', m.ulid());
console.log('uuidv7()      ', m.uuidv7());
console.log('decode        ', JSON.stringify(m.decode('01ARZ3NDEKTSV4RRFFQ69G5FAV')));
"

say "CLI: snowmint"
node npm/bin/snowmint.js ulid -n 3
node npm/bin/snowmint.js decode 175928847299117063 --preset discord
