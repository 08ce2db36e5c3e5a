// The workerd entry's first import (host-workerd.js): makes the wasm backend
// of the module that workerd compiled from the shipped .wasm file when it
// loaded the worker. Imported before host-browser.js, which would otherwise
// compile the inlined bytes at run time: workerd refuses that ("Wasm code
// generation disallowed by embedder") for compatibility dates before
// 2025-06-01 and in a module imported lazily with `await import()`.
import module from '../wasm/snowmint_bg.wasm';
import { wasmBackend } from './wasm-backend.js';

wasmBackend(module);
