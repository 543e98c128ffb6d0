// The lab's wasm module under Node as a step server (protocol.mjs); started by scripts/bench.mjs.
//
//   node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]
import { createRequire } from 'node:module';
import path from 'node:path';

import { loadLab } from '../../web/src/wasm-api.js';
import { CONFIGS, STEP_PROTOCOL } from './protocol.mjs';
import { serveLines } from './serve.mjs';
import { labStepServer } from './wasm-steps.mjs';

const [modulePath, protocolJson] = process.argv.slice(2);
if (!modulePath) {
  console.error('usage: node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]');
  process.exit(2);
}
// The glue is CommonJS (wasm.cmake marks wasm_build/build/ so with a package.json).  Loaded by its own path, so
// that sqrtdk.js and sqrtdk_exceptions.js are really the two modules compared.
const createModule = createRequire(import.meta.url)(path.resolve(modulePath));
if (typeof createModule !== 'function') throw new Error(`${modulePath} exports no module factory`);
const lab = await loadLab(createModule);
const protocol = { ...STEP_PROTOCOL, ...(protocolJson ? JSON.parse(protocolJson) : {}) };
await serveLines({ module: path.basename(modulePath), gemm_backend: lab.gemmBackend() },
  labStepServer(lab, CONFIGS, protocol));
