// Drives the step servers of scripts/bench.mjs (protocol in protocol.mjs) and interleaves their repeats:
// every server warms up, then round after round each one runs one repeat of each configuration, in an order
// that rotates from round to round.  A burst of load from another process then lands on all implementations
// alike, so their ratios hold even on a busy machine.
import { spawn } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

import { callsLasting, median } from './protocol.mjs';

const START_TIMEOUT_MS = 120000;
const REQUEST_TIMEOUT_MS = 120000;

/** One step server child process; request() sends a line and resolves with the JSON reply. */
export class StepServer {
  constructor({ command, args, env = {}, cwd }) {
    this.child = spawn(command, args, { cwd, env: { ...process.env, ...env } });
    this.name = path.basename(args[0] && !args[0].startsWith('-') ? args[0] : command);
    this.stderr = '';
    this.child.stderr.on('data', (chunk) => { this.stderr = (this.stderr + chunk).slice(-4000); });
    this.lines = readline.createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    this.exited = new Promise((resolve) => { this.child.on('close', resolve).on('error', resolve); });
  }

  async next(timeoutMs) {
    let timer;
    const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve('timeout'), timeoutMs); });
    const line = await Promise.race([this.lines.next(), this.exited.then(() => 'exited'), timeout]);
    clearTimeout(timer);
    if (line === 'timeout' || line === 'exited' || line.done) {
      const tail = this.stderr.trim().split('\n').slice(-2).join(' | ');
      throw new Error(`${this.name} ${line === 'timeout' ? 'timed out' : 'stopped'}${tail ? `: ${tail}` : ''}`);
    }
    const reply = JSON.parse(line.value);
    if (reply.error) throw Object.assign(new Error(reply.error), { skipped: Boolean(reply.skipped) });
    return reply;
  }

  ready() { return this.next(START_TIMEOUT_MS); }

  request(line) {
    this.child.stdin.write(`${line}\n`);
    return this.next(REQUEST_TIMEOUT_MS);
  }

  kill() {
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
  }
}

/** [a, b, c] rotated left by k. */
const rotate = (items, k) => items.map((_, i) => items[(i + k) % items.length]);

/**
 * @param {Object<string, StepServer>} servers  started and ready, by key
 * @param {string[]} configNames
 * @param {import('./protocol.mjs').Protocol} protocol
 * @param {function(string): void} log
 * @returns {Promise<Object<string, {status, reason?, configs?, finish?}>>} by key
 */
export async function interleave(servers, configNames, protocol, log) {
  const out = {};
  const live = new Set(Object.keys(servers));
  const fail = (key, error) => {
    out[key] = { status: 'failed', reason: error.message };
    live.delete(key);
    servers[key].kill();
  };
  for (const key of live) out[key] = { status: 'ok', configs: {} };
  for (const name of configNames) {
    for (const key of [...live]) {
      log(`bench: warming up ${key} (${name})`);
      try {
        const w = await servers[key].request(`warmup ${name}`);
        const steps = callsLasting(protocol.repeatSeconds, w.seconds_per_step);
        out[key].configs[name] = { stepsPerRepeat: steps, warmupSeconds: w.warmup_seconds, repeats: [] };
      } catch (error) {
        fail(key, error);
      }
    }
  }
  for (let round = 0; round < protocol.repeats; round += 1) {
    log(`bench: round ${round + 1} of ${protocol.repeats}`);
    for (const name of configNames) {
      for (const key of rotate([...live], round)) {
        const c = out[key].configs[name];
        try {
          const reply = await servers[key].request(`run ${name} ${c.stepsPerRepeat}`);
          c.repeats.push(c.stepsPerRepeat / reply.seconds);
        } catch (error) {
          fail(key, error);
        }
      }
    }
  }
  for (const key of [...live]) {
    try {
      out[key].finish = await servers[key].request('finish');
      for (const c of Object.values(out[key].configs)) c.stepsPerSecond = median(c.repeats);
    } catch (error) {
      fail(key, error);
    }
  }
  return out;
}
