// The workerd entry's first import (host-workerd.js): makes the wasm backend
// of the modules that workerd compiled from the shipped .wasm files when it
// loaded the worker (the full module, and the minting modules of the texts,
// of TypeIDs, of Snowflakes and of name-based UUIDs).
// Imported before host-browser.js, which would otherwise compile the inlined
// bytes at run time: workerd refuses that ("Wasm code generation disallowed
// by embedder") for compatibility dates before 2025-06-01 and in a module
// imported lazily with `await import()`.
import ksuid from '../wasm/mint-ksuid.wasm';
import names from '../wasm/mint-names.wasm';
import objectid from '../wasm/mint-objectid.wasm';
import snowflake from '../wasm/mint-snowflake.wasm';
import typeid from '../wasm/mint-typeid.wasm';
import ulid from '../wasm/mint-ulid.wasm';
import uuidv1 from '../wasm/mint-uuidv1.wasm';
import uuidv4 from '../wasm/mint-uuidv4.wasm';
import uuidv6 from '../wasm/mint-uuidv6.wasm';
import uuidv7 from '../wasm/mint-uuidv7.wasm';
import module from '../wasm/snowmint_bg.wasm';
import { useCompiled } from './web/mint.js';
import { MINTERS, typeidMinter } from './web/minters.js';
import { uuidv3 as nameV3, uuidv5 as nameV5 } from './web/names.js';
import { snowflakeBackend } from './web/snowflake.js';
import { wasmBackend } from './wasm-backend.js';

useCompiled({ ulid, uuidv7, uuidv4, uuidv1, uuidv6, ksuid, objectid, typeid, snowflake, names });
wasmBackend(module, { minters: MINTERS, typeid: typeidMinter, snowflakes: snowflakeBackend(), names: { uuidv3: nameV3, uuidv5: nameV5 } });
