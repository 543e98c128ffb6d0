// What scripts/bench.mjs prints about the page: its targets, judged on the results of page-timing.mjs, and its
// text lines.  Pure functions of the results.

const KB = 1000;
const KiB = 1024;

// The page's targets, one definition each.  `value` reads the figure from the page's results (undefined: not
// measured); a --quick run shortens the exercises and the many-elements window, so those are not judged then.
export const PAGE_TARGETS = [
  { key: 'bundle', label: 'sqrtdk-lab.js', max: 400 * KiB, unit: 'KiB', value: (p) => p.bundle?.bytes },
  { key: 'bundleGzip', label: 'sqrtdk-lab.js gzipped', max: 160 * KB, unit: 'KB', value: (p) => p.bundle?.gzipBytes },
  { key: 'firstNumbers', label: 'first numbers over http (median)', max: 350, unit: 'ms',
    value: (p) => p.firstNumbers?.http?.medianMs },
  // A fraction of a millisecond: shown with two decimals.
  { key: 'createRemove', label: 'create/remove, 100 in one task: per cycle', max: 5, unit: 'ms', digits: 2,
    value: (p) => p.createRemove?.perCycleMs },
  { key: 'defaultAnswer', label: 'default exercise (3 seeds): answer', max: 6, unit: 's', full: true,
    value: (p) => p.exercises?.default?.median.answerS },
  { key: 'defaultShare', label: 'default exercise: steps/s, % of bare workers', min: 90, unit: '%', full: true,
    value: (p, ref) => shareOfWorkers(p.exercises?.default?.median, ref) },
  { key: 'seeds20Final', label: '20 seeds: final answer', max: 60, unit: 's', full: true,
    value: (p) => p.exercises?.seeds20?.median.finalS },
  { key: 'manyBusy', label: '12 elements: main thread busy', max: 20, unit: '%', full: true,
    value: (p) => p.many?.labs.busyPercent },
  { key: 'manyLongest', label: '12 elements: longest task', max: 50, unit: 'ms', full: true,
    value: (p) => p.many?.labs.longestTaskMs },
];

/**
 * Total steps/s of an exercise as a % of what bare workers do: one worker's canonical steps/s in chromium (the
 * bench's step server) times min(cores, runs), the most workers the page runs at once.
 * @param {{runs: number, totalStepsPerS: number} | undefined} exercise
 * @param {{workerStepsPerS: number, cores: number}} ref
 */
export function shareOfWorkers(exercise, ref) {
  if (!exercise || !ref || !Number.isFinite(ref.workerStepsPerS)) return undefined;
  return (100 * exercise.totalStepsPerS) / (ref.workerStepsPerS * Math.min(ref.cores, exercise.runs));
}

/** Each target with its value and verdict: met true / false, or undefined (not measured, or --quick). */
export function pageVerdicts(page, ref) {
  const measured = page?.status === 'ok';
  return PAGE_TARGETS.map(({ value, ...t }) => {
    const v = measured ? value(page, ref) : undefined;
    const judged = v !== undefined && Number.isFinite(v) && !(t.full && page.quick);
    const met = judged ? (t.max !== undefined ? v <= t.max : v >= t.min) : undefined;
    return { ...t, value: v, met };
  });
}

const fixed = (x, digits = 1) => (x === undefined || !Number.isFinite(x) ? '-' : x.toFixed(digits));
const loadText = (load) => `load ${fixed(Math.min(...load), 1)}-${fixed(Math.max(...load), 1)}`;
const inUnit = (x, unit) => (unit === 'KiB' ? x / KiB : unit === 'KB' ? x / KB : x);

function exerciseLines(name, e, ref) {
  if (!e) return [];
  const m = e.median;
  const share = shareOfWorkers(m, ref);
  const bare = share === undefined ? '' : `, ${fixed(share, 0)} % of ${Math.min(ref.cores, m.runs)} bare workers `
    + `(${fixed(ref.workerStepsPerS)} steps/s each)`;
  return [
    `${name} (${m.runs} runs, ${m.steps} steps; median of ${e.samples.length}; ${loadText(e.load)}): `
      + `answer ${fixed(m.answerS)} s, final answer ${fixed(m.finalS)} s, all done ${fixed(m.doneS)} s, `
      + `${fixed(m.totalStepsPerS, 0)} steps/s in total${bare}`,
  ];
}

function createRemoveLines(c) {
  if (!c) return [];
  if (c.status === 'failed') return [`create/remove cycles: failed (${c.reason})`];
  return [
    `<sqrtdk-lab> created, appended and removed, ${c.cycles} times in one task (median of ${c.samples.length} tasks; `
      + `${loadText(c.load)}): ${fixed(c.perCycleMs, 2)} ms per cycle with the microtasks it queues `
      + `(${fixed(c.syncPerCycleMs, 2)} ms without), the task ${fixed(c.perCycleMs * c.cycles, 0)} ms`,
  ];
}

function manyLines(many) {
  if (!many) return [];
  if (many.status === 'failed') return [`many elements: failed (${many.reason})`];
  const row = (name, s) => `  ${name.padEnd(14)} busy ${fixed(s.busyPercent, 0).padStart(3)} %, `
    + `${s.longTasks} tasks over 50 ms (longest ${fixed(s.longestTaskMs, 0)} ms), `
    + `10 ms timer late by p95 ${fixed(s.timerP95Ms)} ms, max ${fixed(s.timerMaxMs)} ms (${s.timerTicks} ticks)`;
  return [
    `${many.elements} elements on one page, all started (${Object.entries(many.settings).map(([k, v]) => `${k}=${v}`).join(' ')}), `
      + `${fixed(many.seconds, 0)} s from the start; ${fixed(many.stepsPerS, 0)} steps/s in all; ${loadText(many.load)}`,
    row('the labs', many.labs),
    row('idle control', many.control),
  ];
}

/** Text lines; `ref`: {workerStepsPerS, cores} (workerStepsPerS NaN when the step server did not run). */
export function renderPage(page, ref) {
  if (!page || page.status !== 'ok') return [`page: skipped (${page?.reason ?? 'not measured'})`];
  const lines = [
    `sqrtdk-lab.js: ${fixed(page.bundle.bytes / KiB, 0)} KiB, ${fixed(page.bundle.gzipBytes / KB, 0)} KB gzipped`,
    `first numbers on screen after navigation (median of ${page.firstNumbers.http.samples.length}; `
      + `${loadText(page.firstNumbers.load)}): http ${fixed(page.firstNumbers.http.medianMs, 0)} ms, `
      + `file:// ${fixed(page.firstNumbers.file.medianMs, 0)} ms`,
    ...createRemoveLines(page.createRemove),
    ...exerciseLines('default exercise', page.exercises.default, ref),
    ...exerciseLines('20 seeds of the default exercise', page.exercises.seeds20, ref),
    ...manyLines(page.many),
    '',
    `page targets${page.quick ? ' (--quick: the shortened rows are not judged)' : ''}`,
  ];
  for (const t of pageVerdicts(page, ref)) {
    const verdict = t.met === undefined ? (t.value === undefined ? 'not measured' : 'not judged') : t.met ? 'met' : 'NOT met';
    const digits = t.digits ?? (t.unit === 's' ? 1 : 0);
    const bound = t.max !== undefined ? `<= ${inUnit(t.max, t.unit)}` : `>= ${t.min}`;
    const value = t.value === undefined ? '-' : `${fixed(inUnit(t.value, t.unit), digits)} ${t.unit}`;
    lines.push(`  ${t.label.padEnd(46)}${value.padStart(10)}   ${bound} ${t.unit}: ${verdict}`);
  }
  return lines;
}
