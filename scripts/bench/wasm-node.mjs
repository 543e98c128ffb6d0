// The lab's wasm module under Node as a step server (protocol.mjs); started by scripts/bench.mjs.
//
//   node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]
import path from 'node:path';

import { loadFactory } from '../../tests/node/helpers.mjs';
import { loadLab } from '../../web/src/wasm-api.js';
import { CONFIGS, STEP_PROTOCOL } from './protocol.mjs';
import { serveLines } from './serve.mjs';
import { labStepServer } from './wasm-steps.mjs';

const [modulePath, protocolJson] = process.argv.slice(2);
if (!modulePath) {
  console.error('usage: node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]');
  process.exit(2);
}
const lab = await loadLab(loadFactory(path.resolve(modulePath)));
const protocol = { ...STEP_PROTOCOL, ...(protocolJson ? JSON.parse(protocolJson) : {}) };
await serveLines({ gemm_backend: lab.gemmBackend() }, labStepServer(lab, CONFIGS, protocol));
