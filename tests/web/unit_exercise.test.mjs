// The exercise's scheduler (web/src/training/exercise.js) with fake workers: concurrency, pause, reset,
// divergence and worker replacement, without a browser.
import test from 'node:test';
import assert from 'node:assert/strict';
import { Exercise } from '../../web/src/training/exercise.js';
import { WorkerFailure } from '../../web/src/worker/worker-failure.js';
import { runPlan } from '../../web/src/training/run-plan.js';
import { defaultState } from '../../web/src/state/properties.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
async function settle(rounds = 30) { for (let i = 0; i < rounds; i += 1) await tick(); }

/** A fake worker: answers init and step like the real one; losses fall by 0.01 a step from 2. */
function fakeWorkers({ divergeAt = {}, failOnStep = {} } = {}) {
  const log = [];
  const clients = [];
  const create = (onFailure, name) => {
    const client = {
      alive: true, name, stepsDone: 0, inFlight: 0, maxInFlight: 0,
      request(message) {
        log.push({ name, ...message });
        if (!client.alive) return Promise.reject(new WorkerFailure('dead'));
        client.inFlight += 1;
        client.maxInFlight = Math.max(client.maxInFlight, client.inFlight);
        return tick().then(() => {
          client.inFlight -= 1;
          if (message.type === 'init') {
            client.stepsDone = message.fastForward;
            return { type: 'ready', config: {}, stepsDone: client.stepsDone, measuredLogitStd: 1 };
          }
          const failures = failOnStep[name];
          if (failures && failures.at === client.stepsDone && failures.times > 0) {
            failures.times -= 1;
            client.alive = false;
            onFailure('boom');
            throw new WorkerFailure('boom');
          }
          const k = message.steps;
          const loss = new Float32Array(k);
          let diverged = 0;
          for (let i = 0; i < k; i += 1) {
            const step = client.stepsDone + i + 1;
            loss[i] = divergeAt[name] && step >= divergeAt[name] ? NaN : 2 - 0.01 * step;
            if (divergeAt[name] === step) { diverged = step; loss.fill(NaN, i); break; }
          }
          const done = diverged ? diverged : client.stepsDone + k;
          const n = diverged ? diverged - client.stepsDone : k;
          client.stepsDone = done;
          return { type: 'chunk', loss: loss.slice(0, n), gradNorm: new Float32Array(n), entropy: new Float32Array(n * 2),
            maxLogit: new Float32Array(n * 2), topWeight: new Float32Array(n * 2), evals: [], stepsDone: done,
            diverged: diverged > 0, divergedStep: diverged, elapsedMs: n, attention: null };
        });
      },
      terminate() { client.alive = false; },
    };
    clients.push(client);
    return client;
  };
  return { create, log, clients };
}

const plan = (over = {}) => runPlan({ ...defaultState(), seeds: 2, ...over });

test('start trains every run to the step budget, at most `concurrency` chunks at once', async () => {
  const workers = fakeWorkers();
  let changes = 0;
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onChange: () => { changes += 1; }, onNotice: () => {} });
  ex.setPlan(plan(), 30);
  ex.start();
  let peak = 0;
  for (let i = 0; i < 400 && ex.running; i += 1) {
    peak = Math.max(peak, ex.slots.filter((s) => s.status === 'training' && workers.clients.some((c) => c.inFlight)).length ? workers.clients.reduce((n, c) => n + c.inFlight, 0) : 0);
    await tick();
  }
  await settle();
  assert.equal(ex.running, false);
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), [30, 30, 30, 30]);
  assert.ok(ex.slots.every((s) => s.status === 'done'));
  assert.ok(peak <= 2, `peak ${peak}`);
  assert.equal(workers.clients.length, 4);
  assert.ok(changes > 0);
});

test('pause stops asking for steps; start continues from where it stopped', async () => {
  const workers = fakeWorkers();
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan(), 5000);
  ex.start();
  await settle(3);
  ex.pause();
  await settle();
  const frozen = ex.runs.map((r) => r.stepsDone);
  const requests = workers.log.length;
  await settle();
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), frozen);
  assert.equal(workers.log.length, requests);
  ex.stepOnce();
  await settle();
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), frozen.map((s) => s + 1));
});

test('reset clears the curves, ignores replies already on their way and re-initialises the workers', async () => {
  const workers = fakeWorkers();
  const ex = new Exercise({ createClient: workers.create, concurrency: 4, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan(), 100);
  ex.start();
  await settle(5);
  ex.reset();
  await settle();
  assert.ok(ex.runs.every((r) => r.stepsDone === 0 && r.loss.length === 0));
  ex.start();
  await settle(200);
  assert.ok(ex.runs.every((r) => r.stepsDone === 100));
  assert.equal(workers.clients.length, 4, 'workers are kept');
  const inits = workers.log.filter((m) => m.type === 'init');
  assert.equal(inits.length, 8);
});

test('a diverged run stops with its curve while the others go on', async () => {
  const workers = fakeWorkers({ divergeAt: { 'sqrtdk-run unscaled seed 1': 7 } });
  const notices = [];
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onChange: () => {}, onNotice: (t) => notices.push(t) });
  ex.setPlan(plan(), 40);
  ex.start();
  await settle(300);
  const byId = Object.fromEntries(ex.slots.map((s) => [s.record.id, s]));
  assert.equal(byId['unscaled-1'].status, 'diverged');
  assert.equal(byId['unscaled-1'].record.divergedStep, 7);
  assert.equal(byId['unscaled-1'].record.loss.length, 7);
  assert.equal(byId['scaled-0'].record.stepsDone, 40);
  assert.match(notices.join(' '), /unscaled seed 1 diverged at step 7/);
});

test('a failed worker is reported and replaced, and its run resumes by replaying its steps', async () => {
  const workers = fakeWorkers({ failOnStep: { 'sqrtdk-run scaled seed 0': { at: 2, times: 1 } } });
  const notices = [];
  const ex = new Exercise({ createClient: workers.create, concurrency: 1, onChange: () => {}, onNotice: (t) => notices.push(t) });
  ex.setPlan(plan({ seeds: 1, variants: ['scaled'] }), 20);
  ex.start();
  await settle(300);
  assert.equal(ex.runs[0].stepsDone, 20);
  assert.equal(workers.clients.length, 2);
  const replay = workers.log.filter((m) => m.type === 'init').at(-1);
  assert.equal(replay.fastForward, 2);
  assert.match(notices[0], /worker of scaled seed 0 failed \(boom\); it was replaced and the run resumes at step 2/);
  assert.deepEqual(Array.from(ex.runs[0].loss.view), Array.from({ length: 20 }, (_, i) => Math.fround(2 - 0.01 * (i + 1))));
});

test('a worker that keeps failing marks its run failed; the other runs finish', async () => {
  const workers = fakeWorkers({ failOnStep: { 'sqrtdk-run scaled seed 0': { at: 0, times: 99 } } });
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan({ seeds: 1 }), 10);
  ex.start();
  await settle(300);
  const [scaled, unscaled] = ex.slots;
  assert.equal(scaled.status, 'failed');
  assert.match(scaled.error, /failed 3 times/);
  assert.equal(unscaled.status, 'done');
  assert.equal(ex.running, false);
});

test('a new plan clears the runs; the same plan again keeps them', async () => {
  const workers = fakeWorkers();
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan(), 10);
  ex.start();
  await settle(100);
  ex.setPlan(plan(), 10);
  assert.ok(ex.runs.every((r) => r.stepsDone === 10));
  ex.setPlan(plan({ lr: 0.002 }), 10);
  assert.ok(ex.runs.every((r) => r.stepsDone === 0));
  assert.equal(ex.runs[0].config.lr, 0.002);
});

test('a run alone on its worker keeps two chunks queued there, and its curve arrives whole and in order', async () => {
  const workers = fakeWorkers();
  const ex = new Exercise({ createClient: workers.create, concurrency: 4, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan({ seeds: 1, variants: ['scaled'] }), 200);
  ex.start();
  await settle(300);
  assert.equal(ex.runs[0].stepsDone, 200);
  assert.equal(workers.clients[0].maxInFlight, 2, 'the next chunk waits at the worker while one computes');
  assert.deepEqual(Array.from(ex.runs[0].loss.view), Array.from({ length: 200 }, (_, i) => Math.fround(2 - 0.01 * (i + 1))));
});

test('runs whose outcome the answer already knows go after the open ones, then finish too', async () => {
  const workers = fakeWorkers();
  const settled = (record) => record.variant === 'scaled' && record.stepsDone >= 4;
  let scaledWhenUnscaledDone = null;
  const ex = new Exercise({ createClient: workers.create, concurrency: 2, onNotice: () => {}, settled,
    onChange: () => {
      const [scaled, unscaled] = ex.runs;
      if (scaledWhenUnscaledDone === null && unscaled?.stepsDone === 300) scaledWhenUnscaledDone = scaled.stepsDone;
    } });
  ex.setPlan(plan({ seeds: 1 }), 300);
  ex.start();
  await settle(600);
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), [300, 300]);
  // Once settled (step 4), the scaled run gets at most the chunks already queued before its turn comes again.
  assert.ok(scaledWhenUnscaledDone !== null && scaledWhenUnscaledDone <= 4 + 2 * 50, `scaled had ${scaledWhenUnscaledDone} steps`);
});

test('pause means paused: a chunk computing at the pause is neither counted nor lost, and lands on start', async () => {
  const workers = fakeWorkers();
  const ex = new Exercise({ createClient: workers.create, concurrency: 4, onChange: () => {}, onNotice: () => {} });
  ex.setPlan(plan(), 5000);
  ex.start();
  for (let i = 0; i < 200 && !workers.clients.some((c) => c.inFlight > 0 && c.stepsDone > 0); i += 1) await tick();
  assert.ok(workers.clients.some((c) => c.inFlight > 0), 'a chunk is computing when Pause is pressed');
  const paused = ex.pause();
  const frozen = ex.runs.map((r) => r.stepsDone);
  await paused;
  assert.equal(workers.clients.reduce((n, c) => n + c.inFlight, 0), 0, 'pause() resolves once nothing computes');
  await settle();
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), frozen, 'nothing counted after pause()');
  assert.ok(ex.slots.every((s) => s.status !== 'training'));
  // Step shows one step more, also where the next steps are held (the trainer is already past them).
  ex.stepOnce();
  await settle();
  assert.deepEqual(ex.runs.map((r) => r.stepsDone), frozen.map((s) => s + 1));
  ex.start();
  await settle(5);
  ex.pause();
  await settle();
  for (const run of ex.runs) {
    const steps = [...run.loss.view].map((loss) => Math.round((2 - loss) * 100));
    assert.deepEqual(steps, steps.map((_, i) => i + 1), 'the curve is whole and in order');
  }
  assert.ok(ex.runs.every((r, i) => r.stepsDone > frozen[i]));
});
