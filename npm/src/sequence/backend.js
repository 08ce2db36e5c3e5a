// The backend whose core state machine sequences run on: the native addon,
// or the wasm build where no native binary loads (as the Node entry does).
import { addon, nativeError } from '../addon.js';
import { wasmBackend } from '../wasm-backend.js';

let chosen = null;

export function backend() {
  chosen ??= nativeError ? wasmBackend() : addon;
  return chosen;
}
