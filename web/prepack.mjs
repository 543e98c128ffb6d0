// npm pack's prepack: builds web/dist (web/build.mjs) so that the tarball holds the element as built.  In a clone
// that has not been built (no wasm module, no esbuild) it stops with one line naming the command that builds it,
// rather than with a stack trace or a tarball without web/dist.
import { existsSync } from 'node:fs';
import { relative } from 'node:path';

import { BUILD_COMMAND, WASM_INPUTS } from './build-inputs.mjs';

const missing = WASM_INPUTS.map(([file]) => file).filter((file) => !existsSync(file)).map((file) => relative(process.cwd(), file));
try {
  import.meta.resolve('esbuild');
} catch {
  missing.push('esbuild');
}
if (missing.length > 0) {
  console.error(`sqrtdk-lab: npm pack needs the built lab (${missing.join(', ')} missing): run \`${BUILD_COMMAND}\` first, then npm pack.`);
  process.exit(1);
}
await import('./build.mjs');
