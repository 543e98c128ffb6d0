// The page's targets (scripts/bench/page-report.mjs): each judged against its own bound, the exercises' steps/s
// against bare workers, and nothing judged that a --quick run shortens.
import test from 'node:test';
import assert from 'node:assert/strict';
import { PAGE_TARGETS, pageVerdicts, renderPage, shareOfWorkers } from '../../scripts/bench/page-report.mjs';

const row = (runs, answerS, finalS, totalStepsPerS) => ({
  samples: [{}], load: [0.5, 0.7],
  median: { runs, steps: runs * 400, answerS, finalS, doneS: finalS, totalStepsPerS },
});
const probe = (busyPercent, longestTaskMs) => ({ busyPercent, longTasks: longestTaskMs > 50 ? 1 : 0, longestTaskMs,
  timerTicks: 100, timerP95Ms: 2, timerMaxMs: 5 });
function page({ gzipKB = 150, httpMs = 300, cycleMs = 4.5, answerS = 5, finalS = 55, busy = 15, longest = 0, quick = false } = {}) {
  return {
    status: 'ok', quick,
    bundle: { bytes: 390 * 1024, gzipBytes: gzipKB * 1000 },
    firstNumbers: { http: { medianMs: httpMs, samples: [1, 2, 3] }, file: { medianMs: 200, samples: [1, 2, 3] }, load: [0.5] },
    createRemove: { cycles: 100, tasks: 3, perCycleMs: cycleMs, syncPerCycleMs: cycleMs / 2, load: [0.5, 0.6],
      samples: [cycleMs, cycleMs, cycleMs].map((ms) => ({ ms, syncMs: ms / 2 })) },
    exercises: { default: row(6, answerS, answerS + 2, 55), seeds20: row(40, 30, finalS, 58) },
    many: { elements: 12, settings: { seeds: '1' }, seconds: 20, stepsPerS: 60, load: [0.5, 0.6],
      labs: probe(busy, longest), control: probe(1, 0) },
  };
}
const ref = { workerStepsPerS: 30, cores: 2 };
const verdicts = (p) => Object.fromEntries(pageVerdicts(p, ref).map((t) => [t.key, t]));

test('every page target is met just inside its bound', () => {
  const v = verdicts(page());
  for (const t of PAGE_TARGETS) assert.equal(v[t.key].met, true, `${t.key}: ${v[t.key].value}`);
});

test('a figure exactly at its bound meets it', () => {
  const v = verdicts(page({ gzipKB: 160, httpMs: 350, cycleMs: 5, answerS: 6, finalS: 60, busy: 20, longest: 50 }));
  for (const key of ['bundleGzip', 'firstNumbers', 'createRemove', 'defaultAnswer', 'seeds20Final', 'manyBusy', 'manyLongest']) {
    assert.equal(v[key].met, true, key);
  }
});

test('each page target fails just outside its bound', () => {
  const v = verdicts(page({ gzipKB: 161, httpMs: 351, cycleMs: 5.01, answerS: 6.1, finalS: 60.5, busy: 21, longest: 51 }));
  for (const key of ['bundleGzip', 'firstNumbers', 'createRemove', 'defaultAnswer', 'seeds20Final', 'manyBusy', 'manyLongest']) {
    assert.equal(v[key].met, false, key);
  }
  assert.equal(v.bundle.met, true, 'the raw size is a bound of its own');
});

test('steps/s are a share of min(cores, runs) bare workers', () => {
  assert.ok(Math.abs(shareOfWorkers({ runs: 40, totalStepsPerS: 54 }, ref) - 90) < 1e-9, '54 of 2 x 30');
  assert.ok(Math.abs(shareOfWorkers({ runs: 1, totalStepsPerS: 27 }, ref) - 90) < 1e-9, 'one run, one worker');
  assert.equal(shareOfWorkers({ runs: 6, totalStepsPerS: 54 }, { workerStepsPerS: NaN, cores: 2 }), undefined);
  assert.equal(verdicts({ ...page(), exercises: { default: row(6, 5, 7, 53), seeds20: row(40, 30, 55, 58) } }).defaultShare.met, false);
});

test('--quick judges the bundle, first numbers and create/remove, not the shortened rows; a skipped page judges nothing', () => {
  const v = verdicts(page({ quick: true, answerS: 60, busy: 90 }));
  assert.equal(v.bundleGzip.met, true);
  assert.equal(v.createRemove.met, true, 'fewer tasks of as many cycles: the same figure');
  assert.equal(verdicts(page({ quick: true, cycleMs: 6 })).createRemove.met, false);
  assert.equal(v.defaultAnswer.met, undefined);
  assert.equal(v.manyBusy.met, undefined);
  assert.ok(pageVerdicts({ status: 'skipped' }, ref).every((t) => t.met === undefined));
});

test('create/remove cycles that failed are not measured, and say why', () => {
  const p = { ...page(), createRemove: { status: 'failed', reason: 'page crashed' } };
  const v = verdicts(p);
  assert.equal(v.createRemove.value, undefined);
  assert.equal(v.createRemove.met, undefined);
  const text = renderPage(p, ref).join('\n');
  assert.match(text, /create\/remove cycles: failed \(page crashed\)/);
  assert.match(text, /create\/remove, 100 in one task: per cycle +- +<= 5 ms: not measured/);
});

test('the text gives each row with its load, and each target with its verdict', () => {
  const text = renderPage(page({ busy: 25 }), ref).join('\n');
  assert.match(text, /20 seeds of the default exercise \(40 runs.*load 0\.5-0\.7\): .*final answer 55\.0 s/);
  assert.match(text, /97 % of 2 bare workers/);
  assert.match(text, /12 elements: main thread busy +25 % +<= 20 %: NOT met/);
  assert.match(text, /sqrtdk-lab.js gzipped +150 KB +<= 160 KB: met/);
  assert.match(text, /20 seeds: final answer +55\.0 s +<= 60 s: met/);
  assert.match(text, /<sqrtdk-lab> created, appended and removed, 100 times in one task \(median of 3 tasks; load 0\.5-0\.6\): 4\.50 ms per cycle with the microtasks it queues \(2\.25 ms without\), the task 450 ms/);
  assert.match(text, /create\/remove, 100 in one task: per cycle +4\.50 ms +<= 5 ms: met/);
});

// README's bench section states the page's targets in words; each bound there is PAGE_TARGETS's, so a changed
// target cannot leave the README behind.
test('README states every page target with its own bound', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const start = readme.indexOf("The page's targets");
  const sentence = readme.slice(start, readme.indexOf('The header gives', start));
  assert.ok(start >= 0 && sentence.length > 100, 'the README\'s page targets');
  const scale = { KiB: 1024, KB: 1000 };
  for (const t of PAGE_TARGETS) {
    const bound = (t.max ?? t.min) / (scale[t.unit] ?? 1);
    const said = t.max !== undefined ? `(≤|over) ${bound} ${t.unit}` : `≥ ${bound} ${t.unit}`;
    assert.match(sentence, new RegExp(said), `${t.key}: ${t.max !== undefined ? '≤' : '≥'} ${bound} ${t.unit}`);
  }
});
