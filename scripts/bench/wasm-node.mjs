// Child process of scripts/bench.mjs: steps/s of one build of the wasm module under Node, as JSON.
//
//   node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]
import path from 'node:path';

import { loadFactory } from '../../tests/node/helpers.mjs';
import { loadLab } from '../../web/src/wasm-api.js';
import { CONFIGS, STEP_PROTOCOL } from './protocol.mjs';
import { benchLab } from './wasm-steps.mjs';

const [modulePath, protocolJson] = process.argv.slice(2);
if (!modulePath) {
  console.error('usage: node scripts/bench/wasm-node.mjs MODULE.js [PROTOCOL_JSON]');
  process.exit(2);
}
const lab = await loadLab(loadFactory(path.resolve(modulePath)));
const protocol = { ...STEP_PROTOCOL, ...(protocolJson ? JSON.parse(protocolJson) : {}) };
console.log(JSON.stringify(await benchLab(lab, CONFIGS, protocol)));
