// esbuild inject for the CommonJS build: what `import.meta.url` means in ESM.
export const importMetaUrl = require('node:url').pathToFileURL(__filename).href;
