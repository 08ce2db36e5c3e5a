// Entry of the CommonJS bundle dist/shared.cjs: the root entry, snowmint/lease, snowmint/sequence and snowmint/wasm
// in one bundle, so that require('snowmint') and require('snowmint/lease') share
// one copy of every module (dist/index.cjs and dist/lease.cjs pick their part).
export * as root from '../entries/node.js';
export * as lease from '../src/lease/index.js';
export * as sequence from '../src/sequence/index.js';
// snowmint/wasm for require(): the browser entry, sharing the error classes.
export * as wasm from '../entries/browser.js';
