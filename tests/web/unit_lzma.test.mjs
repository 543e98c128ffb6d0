// The LZMA decoder the page unpacks its WebAssembly core with (web/src/worker/lzma-decode.js), against xz.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

import { lzmaDecode } from '../../web/src/worker/lzma-decode.js';

/** What web/build.mjs ships: xz's .lzma with the size written into the header. */
function pack(bytes, preset = '-9e') {
  const packed = execFileSync('xz', ['--format=lzma', preset, '--stdout'], { input: bytes });
  packed.writeUInt32LE(bytes.length, 5);
  packed.writeUInt32LE(0, 9);
  return packed;
}

const text = Buffer.from('abracadabra '.repeat(500) + 'the quick brown fox '.repeat(50));
// literals, short and long matches, repeated distances, and distances beyond the position model (> 128)
const mixed = Buffer.concat([randomBytes(3000), text, randomBytes(70000).map((b) => b & 0x0f), text.subarray(100, 4000)]);

test('decodes what xz packs: empty, one byte, text, random and mixed data, at several presets', () => {
  for (const input of [Buffer.alloc(0), Buffer.from([7]), text, randomBytes(20000), mixed]) {
    for (const preset of ['-0', '-6', '-9e']) {
      assert.deepEqual(Buffer.from(lzmaDecode(pack(input, preset))), input, `${input.length} bytes at ${preset}`);
    }
  }
});

test('decodes the wasm core the page ships', { skip: !existsSync('wasm_build/build/sqrtdk_web.wasm') && 'no wasm build' }, () => {
  const wasm = readFileSync('wasm_build/build/sqrtdk_web.wasm');
  const out = lzmaDecode(pack(wasm));
  assert.deepEqual(Buffer.from(out), wasm);
  assert.ok(WebAssembly.validate(out));
});

test('bad input throws a one-line error and never hangs', () => {
  const good = pack(mixed);
  assert.throws(() => lzmaDecode(good.subarray(0, 10)), /lzma: truncated header/);
  assert.throws(() => lzmaDecode(good.subarray(0, good.length >> 1)), /lzma: truncated stream/);
  const badProps = Buffer.from(good);
  badProps[0] = 250;
  assert.throws(() => lzmaDecode(badProps), /lzma: bad properties/);
  const unknownSize = Buffer.from(good);
  unknownSize.fill(0xff, 5, 13);
  assert.throws(() => lzmaDecode(unknownSize), /lzma: the header must give the size/);
  // Flipped bits anywhere in the stream: an error or wrong bytes, but always an end.
  for (let i = 0; i < 40; i += 1) {
    const corrupt = Buffer.from(good);
    corrupt[13 + 1 + Math.floor(Math.random() * (corrupt.length - 14))] ^= 1 << (i % 8);
    try {
      lzmaDecode(corrupt);
    } catch (error) {
      assert.match(error.message, /^lzma: /);
    }
  }
});
