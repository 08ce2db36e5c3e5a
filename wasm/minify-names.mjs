// Makes wasm-bindgen's glue follow wasm-opt's --minify-imports-and-exports-
// and-modules: the glue and the module both spell every import and export
// (`__wbg_now_463ac581d2fc7ea3`, `snowflakehandle_fillAll`, ...), which costs
// about 0.7 KB of the gzipped browser build; afterwards both say `a`, `b`...
// Checks the result against the module itself, so a glue this does not
// understand fails the build instead of failing at load time.
// Usage: node wasm/minify-names.mjs map.json module.wasm glue.js
import { readFileSync, writeFileSync } from 'node:fs';

const [mapFile, wasmFile, glueFile] = process.argv.slice(2);
const { imports, exports } = JSON.parse(readFileSync(mapFile, 'utf8'));
const module = new WebAssembly.Module(readFileSync(wasmFile));
let glue = readFileSync(glueFile, 'utf8');

/** Replaces `pattern` (which must match exactly `count` times, or at least once if null). */
const rename = (pattern, to, count) => {
  const found = glue.match(pattern)?.length ?? 0;
  if (count === null ? found === 0 : found !== count) {
    throw new Error(`${pattern}: found ${found} in ${glueFile}, expected ${count ?? 'some'}`);
  }
  glue = glue.replace(pattern, to);
};

// Imports: keys of the object the glue passes to the module, under one module name.
const modules = new Set(WebAssembly.Module.imports(module).map((i) => i.module));
if (modules.size !== 1) throw new Error(`expected one import module, found ${[...modules]}`);
const oldModules = new Set(imports.map(([m]) => m));
for (const m of oldModules) rename(new RegExp(`"${m.replace(/[./]/g, '\\$&')}"(?=\\s*:)`, 'g'), `"${[...modules][0]}"`, 1);
for (const [, from, to] of imports) rename(new RegExp(`\\b${from}(?=\\s*:)`, 'g'), to, 1);
// Exports: read as `wasm.name` throughout the glue.
for (const [from, to] of exports) {
  if (glue.includes(`wasm.${from}`)) rename(new RegExp(`\\bwasm\\.${from}\\b`, 'g'), `wasm.${to}`, null);
}
const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
const unknown = [...new Set(glue.match(/\bwasm\.\w+/g))].filter((r) => !exported.has(r.slice(5)));
if (unknown.length) throw new Error(`the glue reads exports the module lacks: ${unknown}`);
writeFileSync(glueFile, glue);
