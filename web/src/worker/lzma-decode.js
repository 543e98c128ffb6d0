// An LZMA decoder for the ".lzma" format (`xz --format=lzma`), after the reference decoder in the LZMA SDK
// (LzmaSpec.cpp, public domain).  The page ships its WebAssembly this way: LZMA packs the .wasm ~20 % smaller
// than gzip (the bundle's largest part), and this decoder costs ~2 KB; the browser has no LZMA of its own.
//
// Input: 13-byte header (properties lc/lp/pb, dictionary size, uncompressed size), then the range-coded stream.
// The size must be known (web/build.mjs writes it: xz leaves it "unknown, ended by a marker"); decoding stops
// there.  Throws an Error on corrupt or truncated input.

const TOP = 2 ** 24;
const PROB_INIT = 1024;  // probabilities are 11-bit: 1024 = one half
const STATES = 12;
const POS_STATES_MAX = 16;
const END_POS_MODEL_INDEX = 14;
const FULL_DISTANCES = 128;
const ALIGN_BITS = 4;
const MATCH_MIN_LEN = 2;

const probs = (n) => new Uint16Array(n).fill(PROB_INIT);

class RangeDecoder {
  constructor(bytes, pos) {
    this.bytes = bytes;
    this.pos = pos + 5;
    if (bytes[pos] !== 0) throw new Error('lzma: corrupt stream');
    this.range = 0xffffffff;
    this.code = ((bytes[pos + 1] << 24) | (bytes[pos + 2] << 16) | (bytes[pos + 3] << 8) | bytes[pos + 4]) >>> 0;
  }

  next() {
    if (this.pos >= this.bytes.length) throw new Error('lzma: truncated stream');
    return this.bytes[this.pos++];
  }

  normalize() {
    if (this.range < TOP) {
      this.range = (this.range << 8) >>> 0;
      this.code = ((this.code << 8) | this.next()) >>> 0;
    }
  }

  bit(p, i) {
    const v = p[i];
    const bound = (this.range >>> 11) * v;
    let bit;
    if (this.code < bound) {
      p[i] = v + ((2048 - v) >>> 5);
      this.range = bound;
      bit = 0;
    } else {
      p[i] = v - (v >>> 5);
      this.code -= bound;
      this.range -= bound;
      bit = 1;
    }
    this.normalize();
    return bit;
  }

  direct(count) {
    let result = 0;
    for (let i = 0; i < count; i += 1) {
      this.range >>>= 1;
      let bit = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        bit = 1;
      }
      result = result * 2 + bit;
      this.normalize();
    }
    return result;
  }

  /** A `bits`-bit symbol from the bit tree at p[base + 1 ...]. */
  tree(p, base, bits) {
    let m = 1;
    for (let i = 0; i < bits; i += 1) m = (m << 1) + this.bit(p, base + m);
    return m - (1 << bits);
  }

  /** The same, least significant bit first. */
  reverseTree(p, base, bits) {
    let m = 1;
    let symbol = 0;
    for (let i = 0; i < bits; i += 1) {
      const bit = this.bit(p, base + m);
      m = (m << 1) + bit;
      symbol |= bit << i;
    }
    return symbol;
  }
}

class LengthDecoder {
  constructor() {
    this.choice = probs(2);
    this.low = probs(POS_STATES_MAX << 3);
    this.mid = probs(POS_STATES_MAX << 3);
    this.high = probs(256);
  }

  decode(rc, posState) {
    if (rc.bit(this.choice, 0) === 0) return rc.tree(this.low, posState << 3, 3);
    if (rc.bit(this.choice, 1) === 0) return 8 + rc.tree(this.mid, posState << 3, 3);
    return 16 + rc.tree(this.high, 0, 8);
  }
}

/**
 * @param {Uint8Array} input a .lzma file
 * @returns {Uint8Array} the decompressed bytes
 */
export function lzmaDecode(input) {
  if (input.length < 18) throw new Error('lzma: truncated header');
  let d = input[0];
  if (d >= 9 * 5 * 5) throw new Error('lzma: bad properties');
  const lc = d % 9;
  d = Math.floor(d / 9);
  const lp = d % 5;
  const pb = Math.floor(d / 5);
  const dictSize = Math.max(4096, (input[1] | (input[2] << 8) | (input[3] << 16) | (input[4] << 24)) >>> 0);
  let size = 0;
  for (let i = 12; i >= 5; i -= 1) size = size * 256 + input[i];
  if (size > 2 ** 31) throw new Error('lzma: the header must give the size (at most 2 GiB)');

  const rc = new RangeDecoder(input, 13);
  const out = new Uint8Array(size);
  const literal = probs(0x300 << (lc + lp));
  const isMatch = probs(STATES << 4);
  const isRep = probs(STATES);
  const isRepG0 = probs(STATES);
  const isRepG1 = probs(STATES);
  const isRepG2 = probs(STATES);
  const isRep0Long = probs(STATES << 4);
  const posSlot = probs(4 << 6);
  const posDecoders = probs(1 + FULL_DISTANCES - END_POS_MODEL_INDEX);
  const align = probs(1 << ALIGN_BITS);
  const lengths = new LengthDecoder();
  const repLengths = new LengthDecoder();
  const pbMask = (1 << pb) - 1;
  const lpMask = (1 << lp) - 1;
  let rep0 = 0;
  let rep1 = 0;
  let rep2 = 0;
  let rep3 = 0;
  let state = 0;
  let n = 0;

  while (n < size) {
    const posState = n & pbMask;
    if (rc.bit(isMatch, (state << 4) + posState) === 0) {
      const prev = n > 0 ? out[n - 1] : 0;
      const base = 0x300 * (((n & lpMask) << lc) + (prev >>> (8 - lc)));
      let symbol = 1;
      if (state >= 7) {
        let match = out[n - rep0 - 1];
        do {
          const matchBit = (match >>> 7) & 1;
          match <<= 1;
          const bit = rc.bit(literal, base + ((1 + matchBit) << 8) + symbol);
          symbol = (symbol << 1) | bit;
          if (matchBit !== bit) break;
        } while (symbol < 0x100);
      }
      while (symbol < 0x100) symbol = (symbol << 1) | rc.bit(literal, base + symbol);
      out[n++] = symbol - 0x100;
      state = state < 4 ? 0 : state < 10 ? state - 3 : state - 6;
      continue;
    }
    let len;
    if (rc.bit(isRep, state) !== 0) {
      if (n === 0) throw new Error('lzma: corrupt stream');
      if (rc.bit(isRepG0, state) === 0) {
        if (rc.bit(isRep0Long, (state << 4) + posState) === 0) {
          state = state < 7 ? 9 : 11;
          out[n] = out[n - rep0 - 1];
          n += 1;
          continue;
        }
      } else {
        let dist;
        if (rc.bit(isRepG1, state) === 0) {
          dist = rep1;
        } else {
          if (rc.bit(isRepG2, state) === 0) {
            dist = rep2;
          } else {
            dist = rep3;
            rep3 = rep2;
          }
          rep2 = rep1;
        }
        rep1 = rep0;
        rep0 = dist;
      }
      len = repLengths.decode(rc, posState);
      state = state < 7 ? 8 : 11;
    } else {
      rep3 = rep2;
      rep2 = rep1;
      rep1 = rep0;
      len = lengths.decode(rc, posState);
      state = state < 7 ? 7 : 10;
      rep0 = decodeDistance(rc, posSlot, posDecoders, align, len);
      if (rep0 === 0xffffffff) break;  // the end marker
      if (rep0 >= n || rep0 >= dictSize) throw new Error('lzma: corrupt stream');
    }
    const end = n + len + MATCH_MIN_LEN;
    if (end > size) throw new Error('lzma: longer than its header says');
    for (; n < end; n += 1) out[n] = out[n - rep0 - 1];
  }
  if (n < size) throw new Error('lzma: shorter than its header says');
  return out;
}

function decodeDistance(rc, posSlot, posDecoders, align, len) {
  const slot = rc.tree(posSlot, Math.min(len, 3) << 6, 6);
  if (slot < 4) return slot;
  const directBits = (slot >>> 1) - 1;
  const dist = (2 | (slot & 1)) * 2 ** directBits;
  if (slot < END_POS_MODEL_INDEX) return dist + rc.reverseTree(posDecoders, dist - slot, directBits);
  return dist + rc.direct(directBits - ALIGN_BITS) * 2 ** ALIGN_BITS + rc.reverseTree(align, 0, ALIGN_BITS);
}
