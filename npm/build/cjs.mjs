// The CommonJS bundles of npm/dist/ (esbuild, for `require`): the ES sources
// bundled for Node 18+, `import.meta.url` given its CommonJS meaning, the
// native addon left to `require` at run time. The wasm modules, inlined as
// text for pages (npm/wasm/*.js), are read from the package's .wasm files
// instead: `require` runs in Node only, and the text would ship a second
// copy of each in the bundle (100 KB).
// Usage: node npm/build/cjs.mjs entry.js out.cjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const [entry, outfile] = process.argv.slice(2);

/** npm/wasm/NAME.js (a module's text and key) -> the bytes of npm/wasm/NAME.wasm, read beside the bundle. */
const wasmFiles = {
  name: 'wasm-files',
  setup(b) {
    b.onResolve({ filter: /\/wasm\/(snowmint_bg|mint-[a-z0-9]+)\.js$/ }, (args) => ({
      path: `${path.basename(args.path, '.js')}.wasm`,
      namespace: 'wasm-file',
    }));
    b.onLoad({ filter: /.*/, namespace: 'wasm-file' }, (args) => ({
      // Key 0: each char is a byte as read (latin1).
      contents: `export const key = 0;\nexport default require('node:fs').readFileSync(require('node:path').join(__dirname, '../wasm/${args.path}'), 'latin1');\n`,
      loader: 'js',
    }));
  },
};

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node18',
  logLevel: 'warning',
  external: ['*.node'],
  inject: [fileURLToPath(new URL('import-meta-url.js', import.meta.url))],
  define: { 'import.meta.url': 'importMetaUrl' },
  plugins: [wasmFiles],
});
