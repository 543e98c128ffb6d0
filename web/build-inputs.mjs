// What web/build.mjs reads that a clone does not have until it is built: the wasm modules (with the CMake
// target that builds each) and esbuild (npm ci).  build.mjs and prepack.mjs both read this list.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '..');

// The page's module: glue and .wasm apart (wasm_build/wasm.cmake, target sqrtdk_web_module).
export const GLUE = join(REPO, 'wasm_build/build/sqrtdk_web.js');
export const WASM = join(REPO, 'wasm_build/build/sqrtdk_web.wasm');
// The single-file module Node loads (the page's runs in workers only): the source of core-tables.js.
export const NODE_MODULE = join(REPO, 'wasm_build/build/sqrtdk.js');

/** The built files and the CMake target that writes each. */
export const WASM_INPUTS = [[GLUE, 'sqrtdk_web_module'], [WASM, 'sqrtdk_web_module'], [NODE_MODULE, 'sqrtdk_module']];

/** The command of the README's set-up that builds all of them (and installs esbuild) from a clone. */
export const BUILD_COMMAND = 'bash scripts/lab.sh';
