// The Node side of a step server (protocol in protocol.mjs): announce readiness, then answer stdin lines one at
// a time until "finish".  A failure is reported as {"error"} and ends the process with status 1.
import readline from 'node:readline';

const send = (object) => process.stdout.write(`${JSON.stringify(object)}\n`);

/**
 * @param {Object} ready what the implementation is (merged into the {"ready": true} line)
 * @param {function(string): Promise<Object>} handle request line -> reply
 */
export async function serveLines(ready, handle) {
  send({ ready: true, ...ready });
  for await (const line of readline.createInterface({ input: process.stdin })) {
    try {
      send(await handle(line));
    } catch (error) {
      send({ error: String(error.message || error) });
      process.exit(1);
    }
    if (line.trim() === 'finish') process.exit(0);
  }
  process.exit(1);  // input ended without "finish"
}
