// The answer's texts in other languages: lab.compare({messages: true}) gives every text as a message, the page
// renders it (web/src/analysis/render-message.js) with a phrasebook (English: the core's, in core-tables.js).
// On answers of every kind the page's English equals the core's exactly, every template is used, a pseudo
// translation reaches every text, and numbers follow the language.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { before, describe, test } from 'node:test';

import { PHRASEBOOK } from '../../web/src/core-tables.js';
import { AnswerClient } from '../../web/src/analysis/answer-client.js';
import { localizeAnswer, variantLabel } from '../../web/src/analysis/localize-answer.js';
import { comparisonDetail } from '../../web/src/api/answer-detail.js';
import { RunRecord } from '../../web/src/training/run-record.js';
import { formatCount, formatValue, renderArg, renderMessage } from '../../web/src/analysis/render-message.js';
import { STRINGS } from '../../web/src/ui/strings.js';
import { formatSignificant } from '../../web/src/ui/format.js';
import { errorOf, freshLab, nativeCli } from './helpers.mjs';

let lab;
let corpus;

// Falls from 2 to 0.2 over k - 1 steps, then 0.01: the smoothed loss (window 20) is below 0.1 from step k + 11
// (k around 80).  k = 0: never (0.15 and 0.3 in turns of 20 steps).
function reaching(k, steps = 400) {
  const fall = k > 0 ? k - 1 : 75;
  return Float32Array.from({ length: steps }, (_, t) => (t < fall ? 2 * 0.1 ** (t / fall) : k > 0 ? 0.01 : Math.floor(t / 20) % 2 ? 0.3 : 0.15));
}
// 3 x level for 40 steps, flat at level until step `until`, then 0.01: a stall.
const stuck = (level, until, steps = 400) => Float32Array.from({ length: steps }, (_, t) => (t < 40 ? 3 * level : t < until ? level : 0.01));
// reaching(k), then `level` from step k + 40 on: touched 0.1 and fell back above it.
const fellBack = (k, level, steps = 600) => reaching(k, steps).map((x, t) => (t >= k + 39 ? level : x));
const runs = (curves, extra = {}) => curves.map((loss, seed) => ({ seed, loss, sequenceAccuracy: 1, ...extra }));
const ks = (list) => runs(list.map((k) => reaching(k)));

function ask(variants, { steps = 400, threshold = 0.1, optimizer, init } = {}) {
  return lab.compare({ threshold, steps, messages: true,
    ...(optimizer ? { mechanism: { config: { optimizer, lr: 0.1, ...(init ? { init } : {}) } } } : {}),
    variants: variants.map(([scale, r, alpha]) => ({ scale, alpha, runs: r })) });
}

// Geometric from a to b over n steps.
const geometric = (a, b, n) => Float32Array.from({ length: n }, (_, t) => a * (b / a) ** (t / (n - 1)));
// A run with mechanism curves: its loss, its q/k gradient from g0 to g1, a top weight `top` (saturated from 0.9 on).
function withMechanism(loss, g0, g1, top) {
  const n = loss.length;
  const flat = (v) => new Float32Array(n).fill(v);
  return { loss, sequenceAccuracy: 1, mechanism: { qkGradNorm: geometric(g0, g1, n), qkUpdateNorm: flat(0.01),
    logitSpread: flat(1 + 10 * top), topWeightByLayer: [flat(top), flat(0.5)], jacobianNormByLayer: [flat(0.3 * (1 - top)), flat(0.2)] } };
}
/** A run whose logits grow during training: spread 2 -> 2000, layer 1's top weight 0.5 -> 0.999. */
function logitsGrow(run) {
  const n = run.loss.length;
  const f = (t) => t / (n - 1);
  const m = run.mechanism;
  m.logitSpread = Float32Array.from({ length: n }, (_, t) => 2 * 1000 ** f(t));
  m.topWeightByLayer[0] = Float32Array.from({ length: n }, (_, t) => 0.5 + 0.499 * f(t));
  m.jacobianNormByLayer[0] = m.topWeightByLayer[0].map((top) => 0.3 * (1 - top));
  return run;
}
const mechanismRuns = (make) => [0, 1, 2].map((seed) => ({ seed, ...make() }));
/** Answers with mechanism readings: each optimizer x learns / slow / fails, q/k gradient larger and smaller. */
function mechanismKinds() {
  const scaled = ['scaled', mechanismRuns(() => withMechanism(geometric(2.3, 0.001, 200), 0.2, 0.001, 0.4))];
  const unscaled = (end, g0, g1, flat = false, top = 0.95) => ['unscaled', mechanismRuns(() => withMechanism(
    flat ? new Float32Array(200).fill(end) : geometric(2.3, end, 200), g0, g1, top))];
  return ['sgd', 'adam'].flatMap((optimizer) => [
    ask([scaled, unscaled(0.01, 0.8, 0.01)], { steps: 200, optimizer }),      // learns; gradient larger at first
    ask([scaled, unscaled(0.5, 0.1, 0.08)], { steps: 200, optimizer }),       // slow; smaller at first, still alive
    ask([scaled, unscaled(0.5, 0.15, 0.08)], { steps: 200, optimizer }),      // a little smaller ("… % smaller")
    ask([scaled, unscaled(0.5, 0.05, 0.01)], { steps: 200, optimizer }),      // far smaller ("…× smaller")
    ask([scaled, unscaled(2.2, 0.8, 0.001, true)], { steps: 200, optimizer }), // stuck: its gradient died
    ask([scaled, unscaled(0.01, 0.8, 0.01, false, 0.2)], { steps: 200, optimizer }), // larger, softmax no sharper
    ask([scaled, unscaled(0.01, 0.8, 0.01, false, 0.2)], { steps: 200, optimizer, init: 'gpt' }), // GPT init's box
    ask([scaled, ['unscaled', [0, 1, 2].map((seed) => ({ seed, ...(seed < 2 // seeds that differ: two learn, one dies
      ? withMechanism(geometric(2.3, 0.01, 200), 0.8, 0.01, 0.95) : withMechanism(new Float32Array(200).fill(2.2), 0.8, 0.001, 0.95)) }))]],
    { steps: 200, optimizer }),
    ask([scaled, ['unscaled', [[0.8, 0.01], [0.8, 0.0001], [0.001, 0.8]].map(([g0, g1], seed) => ({ seed, // a group's ranges
      ...withMechanism(geometric(2.3, 0.01, 200), g0, g1, 0.95) }))]], { steps: 200, optimizer }),
    ask([scaled, ['unscaled', [0.0002, 0.0001, 0.00001].map((g1, seed) => ({ seed, // drops all beyond 1000x, apart
      ...withMechanism(geometric(2.3, 0.01, 200), 0.8, g1, 0.95) }))]], { steps: 200, optimizer }),
    ask([scaled, ['unscaled', mechanismRuns(() => logitsGrow(withMechanism(new Float32Array(200).fill(2.2), 0.8, 0.001, 0.95)))]],
      { steps: 200, optimizer }),  // stuck while its logits grow and layer 1 saturates: SGD's chain
    ask([scaled, unscaled(0.01, 0.8, 0.01), ['qknorm', mechanismRuns(() => withMechanism(geometric(2.3, 0.001, 200), 0.2, 0.001, 0.5))]],
      { steps: 200, optimizer }),  // QK-norm's box
  ]);
}

/** Answers of every kind: every outcome, one seed and several, every kind of stall, diverged and pending runs. */
function everyKind() {
  const diverged = (n) => runs(Array.from({ length: n }, () => Float32Array.from([...reaching(0, 120), Infinity])), { divergedStep: 121 });
  const s = ['scaled', ks([60, 61, 62])];
  // ten seeds each: 99 of 100 pairs ordered (clear, but not every pair), and 94 of 100 with close medians (small)
  const ten = [59, 61, 62, 64, 65, 66, 68, 69, 70, 75];
  const tenSlow = [71, 98, 104, 110, 115, 118, 125, 140, 0, 0];
  const closeA = [80, 81, 82, 83, 84, 85, 86, 87, 88, 95];
  const closeB = [89, 90, 91, 92, 93, 94, 96, 97, 98, 99];
  return [
    ask([['scaled', ks([50, 60, 70])], ['unscaled', ks([100, 120, 140])]]),
    ask([['scaled', ks([50, 60, 70])], ['unscaled', ks([100, 120, 140, 160])]]),
    ask([['unscaled', ks([100, 120, 140])], ['scaled', ks([50, 60, 70])]]),
    ask([['scaled', ks([50, 80, 110])], ['unscaled', ks([70, 100, 130])]]),
    ask([['scaled', ks([88, 90, 92])], ['unscaled', ks([85, 87, 86])]]),
    ask([['scaled', ks([85, 86, 87])], ['unscaled', ks([88, 90, 92])]]),
    ask([['scaled', ks([81])], ['unscaled', ks([259])]]),
    ask([['scaled', ks([81])], ['unscaled', ks([81])]]),
    ask([['scaled', ks([81])], ['unscaled', ks([82])]]),
    ask([['scaled', ks([82])], ['unscaled', ks([81])]]),
    ask([['scaled', ks([40, 51, 60])], ['unscaled', ks([0, 0, 0])]], { steps: 600 }),
    ask([['scaled', ks([40, 51, 0])], ['unscaled', ks([350, 0, 0])]]),
    ask([['scaled', ks([40, 51, 60])], ['unscaled', ks([350, 360, 0, 0])]]),
    ask([['scaled', ks([81])], ['unscaled', ks([0])]]),
    ask([['scaled', ks([0, 0, 0])], ['alpha', ks([40, 50, 60]), 0.25]]),
    ask([['scaled', ks([0, 0, 0])], ['unscaled', ks([0, 0, 0])]]),
    ask([['scaled', ks([0])], ['qknorm', ks([0])]]),
    ask([['scaled', ks([50, 60, 70])]]),
    ask([['qknorm', ks([50])]], { threshold: 1.125 }),
    ask([['alpha', ks([0]), 0.35]], { threshold: 1e-5 }),
    ask([s, ['unscaled', runs([stuck(0.25, 200), reaching(60), reaching(70)])]]),
    ask([s, ['unscaled', runs([stuck(0.25, 200), stuck(1.1, 1000), stuck(2, 1000)])]]),
    ask([s, ['unscaled', runs([stuck(1.1, 1000), stuck(2, 1000)])]]),
    ask([s, ['unscaled', runs([stuck(0.25, 200), stuck(0.5, 200)])]]),
    ask([['scaled', ks([60])], ['unscaled', runs([stuck(1.1, 1000)])]]),
    ask([['scaled', ks([50])], ['unscaled', runs([stuck(1.1, 1000, 300), reaching(0, 100)], { stopped: false })]]),
    ask([['scaled', ks([50, 60])], ['unscaled', diverged(2)]]),
    ask([['scaled', ks([50, 60])], ['unscaled', diverged(1)]]),
    ask([['scaled', ks([40, 45, 50])], ['unscaled', runs([fellBack(62, 2.27), reaching(0, 600), reaching(0, 600)])]], { steps: 600 }),
    ask([['scaled', ks([40, 45, 50])], ['unscaled', runs([fellBack(62, 2.27), fellBack(131, 2.1), reaching(0, 600)])]], { steps: 600 }),
    ask([['scaled', ks(ten)], ['unscaled', ks(tenSlow)]]),
    ask([['unscaled', ks(tenSlow)], ['scaled', ks(ten)]]),
    ask([['scaled', ks(closeA)], ['unscaled', ks(closeB)]]),
    ask([['scaled', ks(closeB)], ['unscaled', ks(closeA)]]),
    ...mechanismKinds(),
  ];
}

/** Every message in an answer's messages, nested ones included, and the English key each renders with. */
function englishKeys(value, out = new Set()) {
  if (Array.isArray(value)) value.forEach((v) => englishKeys(v, out));
  else if (value && typeof value === 'object') {
    if (typeof value.key === 'string') {
      const n = value.plural ? value.args[value.plural].count : null;
      out.add(value.plural ? `${value.key}.${n === 1 ? 'one' : 'other'}` : value.key);
    }
    if (typeof value.join === 'string') out.add(value.join);
    Object.values(value).forEach((v) => englishKeys(v, out));
  }
  return out;
}

/** Every text of a (localized) answer. */
const textsOf = (a) => [...a.sentences, ...Object.values(a.definitions.text),
  ...a.variants.flatMap((v) => [v.label, ...Object.values(v.cells), ...v.runs.flatMap((r) => Object.values(r.cells))]),
  ...(a.mechanism ? ['qk', 'jacobian', 'spread', 'why'].flatMap((k) => a.mechanism[k]).concat(a.mechanism.whyTitle ?? []) : [])];

before(async () => {
  lab = await freshLab();
  corpus = everyKind();
});

describe('the English phrasebook, rendered by the page', () => {
  test('core-tables.js holds the module\'s phrasebook, and strings.js hands it to the answer', () => {
    assert.deepEqual({ ...PHRASEBOOK }, lab.phrasebook());
    assert.equal(STRINGS.answer, PHRASEBOOK);
  });

  test('on answers of every kind, every text the page renders in English is the core\'s, exactly', () => {
    for (const answer of corpus) {
      const { messages, ...english } = answer;
      assert.ok(messages, 'messages asked for');
      if (english.mechanism) delete (english.mechanism = { ...english.mechanism }).messages;
      assert.deepEqual(localizeAnswer(answer, 'en', PHRASEBOOK), english, english.sentences.join('\n'));
    }
  });

  test('those answers use every template of the phrasebook', () => {
    // ... with the presets' captions (lab.scenarios()) and the glossary (lab.glossary()).
    const used = englishKeys([...corpus.map((a) => [a.messages, a.mechanism?.messages]), lab.scenarios().map((s) => s.messages),
      lab.glossary()]);
    assert.deepEqual([...used].filter((k) => !Object.hasOwn(PHRASEBOOK, k)), [], 'used but missing');
    // Two templates no committed measurement reaches: a preset measured with other settings than its own (a
    // stale table, refused by the Catch2 scenario tests) and a claim held by fewer seeds than fail it (none today).
    // And two the answer box renders itself beside a preset's claim (exercise/answer-view.js; checked in page_presets).
    const unused = new Set(['claims.which.these', 'claims.not_measured', 'runs_headline.claim', 'runs_headline.medians']);
    assert.deepEqual(Object.keys(PHRASEBOOK).filter((k) => !used.has(k) && !unused.has(k)), [], 'never used');
  });

  test('the glossary renders in English as the CLI prints it, and refuses a bad request in one line', () => {
    const glossary = lab.glossary({ threshold: 0.05, steps: 300 });
    const texts = glossary.entries.map((e) => `${renderMessage(e.term, PHRASEBOOK, 'en')}: ${renderMessage(e.text, PHRASEBOOK, 'en')}`);
    const cli = execFileSync(nativeCli(), ['glossary'], { encoding: 'utf8' });
    for (const text of texts.filter((t) => !/0\.05|300 steps/.test(t))) assert.ok(cli.includes(`\n${text}\n`), text);
    assert.match(texts.find((t) => t.startsWith('Stall:')), /stays above 0\.05/);
    assert.equal(glossary.quote.link, 'https://arxiv.org/abs/1706.03762');
    assert.ok(cli.startsWith(`${renderMessage(glossary.quote.claim, PHRASEBOOK, 'en')}\n`));
    assert.throws(() => lab.glossary({ threshold: -1 }), /^Error: request\.threshold must be a finite number in \[1e-09, 100\], got -1$/);
    assert.throws(() => lab.glossary({ steps: 'x' }), /^Error: request\.steps must be/);
    assert.throws(() => lab.glossary({ bogus: 1 }), /^Error: request has an unknown field 'bogus' \(known: threshold, steps\)$/);
  });

  test('display names before any answer: the page renders the core\'s, for every variant and alpha', () => {
    for (const scale of ['scaled', 'unscaled', 'alpha', 'qknorm']) {
      for (const alpha of [0, 0.25, 0.35000000000000003, 0.5, 1, 1.125, 2]) {
        const { variants: [v] } = lab.compare({ threshold: 0.1, steps: 10, variants: [{ scale, alpha, runs: [{ seed: 0, loss: [1] }] }] });
        assert.equal(variantLabel(scale, alpha, 'en', PHRASEBOOK), v.label, `${scale} ${alpha}`);
      }
    }
    assert.equal(variantLabel('alpha', 0.25, 'de'), '1/d_k^α, α=0,25');
    assert.equal(variantLabel('other', 1), 'other');
  });

  test('without messages: true the answer is as before, and a bad value is refused', () => {
    const plain = lab.compare({ threshold: 0.1, steps: 400, variants: [{ scale: 'scaled', runs: ks([50]) }] });
    assert.equal(Object.hasOwn(plain, 'messages'), false);
    assert.equal(localizeAnswer(plain, 'de'), plain);
    assert.equal(errorOf(() => lab.compare({ steps: 10, messages: 'yes', variants: [] })), 'request.messages must be a boolean');
  });
});

describe('numbers: one rule in the core and the page', () => {
  // The cases where %.3g and "3 significant digits" part ways (tests/cpp/test_phrasebook.cpp has the same list).
  const values = [[0.248, '0.248'], [1e-5, '10⁻⁵'], [2.0345e-5, '2.03×10⁻⁵'], [0.0001, '0.0001'], [0.00012345, '0.000123'],
    [999.4, '999'], [999.5, '10³'], [123456, '1.23×10⁵'], [-4.77e4, '-4.77×10⁴'], [1.08e-23, '1.08×10⁻²³'], [1.125, '1.12'], [1.375, '1.38'], [0.1235, '0.123'],
    [100.5, '100'], [-0.5, '-0.5'], [2, '2'], [1e-9, '10⁻⁹'], [NaN, '–'], [null, '–'], [Infinity, '∞'], [-Infinity, '-∞']];
  for (const [x, text] of values) test(`value ${x} -> ${text}`, () => assert.equal(formatValue(x, 'en'), text));
  // A value beside another keeps its trailing zeros (tests/cpp/test_phrasebook.cpp has the same list).
  const beside = [[0.19996, '0.200'], [0.0739, '0.0739'], [1, '1.00'], [100.5, '100'], [999.5, '1.00×10³'], [1e-5, '1.00×10⁻⁵'],
    [2.0345e-5, '2.03×10⁻⁵'], [1.125, '1.12'], [0, '0'], [NaN, '–']];
  for (const [x, text] of beside) test(`value beside another ${x} -> ${text}`, () => assert.equal(formatSignificant(x, 'en'), text));

  test('counts: whole numbers or halves, no grouping', () => {
    assert.deepEqual([61, 119.5, 1000000].map((n) => formatCount(n, 'en')), ['61', '119.5', '1000000']);
  });

  test('thresholds and levels the core formats: the page writes them the same way', () => {
    const thresholds = [1e-9, 3e-7, 0.000123456, 0.001, 0.0125, 0.1, 0.1235, 0.125, 0.375, 1.125, 2.5, 9.995, 99.95, 100];
    for (let i = 0; i < 40; i += 1) thresholds.push(Number((10 ** (-9 + 11 * ((i * 0.6180339887) % 1))).toPrecision(4)));
    for (const threshold of thresholds) {
      const answer = ask([['scaled', runs([stuck(0.6 * threshold, 1000)])]], { threshold });
      assert.deepEqual(localizeAnswer(answer, 'en', PHRASEBOOK).definitions.text, answer.definitions.text, String(threshold));
      assert.deepEqual(localizeAnswer(answer, 'en', PHRASEBOOK).sentences, answer.sentences, String(threshold));
    }
  });
});

describe('other languages', () => {
  test('a pseudo translation (every template in ⟦ ⟧) reaches every text of every answer', () => {
    const pseudo = Object.fromEntries(Object.entries(PHRASEBOOK).map(([k, v]) => [k, k.startsWith('join.') ? v : `⟦${v}⟧`]));
    // Words outside every ⟦ ⟧ would be English a translation cannot reach; numbers and list separators may be.
    const untranslated = (text) => {
      let rest = text;
      while (/⟦[^⟦⟧]*⟧/.test(rest)) rest = rest.replace(/⟦[^⟦⟧]*⟧/g, '');
      return rest.replace(/[\d\s.,·…–+×⁻⁰¹²³⁴⁵⁶⁷⁸⁹-]/g, '');
    };
    for (const answer of corpus) {
      const shown = localizeAnswer(answer, 'en', pseudo);
      for (const text of [...shown.sentences, ...Object.values(shown.definitions.text)]) assert.match(text, /^⟦.*⟧$/s);
      for (const text of textsOf(shown)) assert.equal(untranslated(text), '', text);
    }
  });

  test('German numbers: 1,93 and 119,5; the sentences keep their numbers, in German form', () => {
    assert.equal(formatValue(1.93, 'de'), '1,93');
    assert.equal(formatValue(2.0345e-5, 'de'), '2,03×10⁻⁵');
    assert.equal(formatCount(119.5, 'de'), '119,5');
    const clear = localizeAnswer(corpus[0], 'de', PHRASEBOOK);
    assert.match(clear.sentences[0], /^scaled 1\/√d_k reached smoothed loss 0,1 at a median of 72 steps, 59 steps earlier than unscaled, which reached it at a median of 131 steps; unscaled took 1,82× as many steps as scaled 1\/√d_k\./);
    assert.equal(clear.variants[1].cells.relation, '59 steps later (1,82×), in 9 of 9 pairs of seeds');
  });

  test('plural forms: the language\'s rules pick the form, .other when a translation has no other', () => {
    const seeds = (n) => ({ key: 'seeds', plural: 'n', args: { n: { count: n } } });
    const ru = { 'seeds.one': '{n} сид', 'seeds.few': '{n} сида', 'seeds.many': '{n} сидов', 'seeds.other': '{n} сида' };
    assert.deepEqual([1, 3, 5, 21].map((n) => renderMessage(seeds(n), ru, 'ru')), ['1 сид', '3 сида', '5 сидов', '21 сид']);
    assert.equal(renderMessage(seeds(1), { 'seeds.other': '{n} Seeds' }, 'de'), '1 Seeds');
    assert.equal(renderMessage(seeds(1), {}, 'de'), '1 seed');  // a key the translation lacks: English
    assert.equal(renderArg({ key: 'no.such.key' }), '{no.such.key}');
    assert.equal(renderArg({ list: [{ count: 1 }, { text: 'x' }], join: 'join.dot' }), '1 · x');
  });
});

describe('the page asks for messages and shows the answer in the element\'s language', () => {
  // Two finished runs per variant, as the exercise holds them; the helper worker's compare, done here.
  function exercise() {
    const slots = [];
    for (const [variant, list] of [['scaled', [50, 60]], ['unscaled', [100, 120]]]) {
      list.forEach((k, seed) => {
        const record = new RunRecord({ id: `${variant}-${seed}`, variant, seed, config: {} });
        const loss = reaching(k);
        const zeros = new Float32Array(loss.length);
        record.append({ loss, gradNorm: zeros, entropy: zeros, maxLogit: zeros, topWeight: zeros, evals: [], stepsDone: loss.length,
          diverged: false, divergedStep: 0, elapsedMs: 1 });
        slots.push({ record, status: 'done' });
      });
    }
    const requests = [];
    const helper = { latest: async (kind, { request }) => (requests.push(request), { result: lab.compare(request) }) };
    return { slots, helper, requests, state: { variants: ['scaled', 'unscaled'], trainAlpha: 0.5, threshold: 0.1, steps: 400 } };
  }

  test('the answer box and Runs list: the answer in the element\'s language, again when it changes', async () => {
    const { slots, helper, requests, state } = exercise();
    const shown = [];
    const client = new AnswerClient(helper, { onAnswer: (a) => shown.push(a), onError: (e) => { throw e; } });
    client.update(slots, state, 'de');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(requests[0].messages, true);
    assert.equal(Object.hasOwn(shown[0], 'messages'), false);
    assert.match(shown[0].sentences[0], /; unscaled took 1,81× as many steps as scaled 1\/√d_k\./);
    assert.match(shown[0].variants[1].cells.relation, /^54 steps later \(1,81×\), in \d+ of \d+ pairs of seeds$/);
    assert.equal(client.answer, client.answer);  // rendered once per answer and language
    client.update(slots, state, 'en');
    assert.match(client.answer.sentences[0], /; unscaled took 1\.81× as many steps as scaled 1\/√d_k\./);
    assert.equal(requests.length, 1);  // the same runs: no new request, the same answer in another language
  });

  test('the sqrtdk-answer detail: the answer box\'s answer, its sentence and texts in the element\'s language', async () => {
    const { slots, helper, requests, state } = exercise();
    const published = [];
    const client = new AnswerClient(helper, { onAnswer: () => {}, onError: (e) => { throw e; } });
    client.onEachAnswer((answer) => published.push(comparisonDetail(answer, state)));
    client.update(slots, state, 'de');
    await new Promise((resolve) => setImmediate(resolve));
    const [detail] = published;
    assert.match(detail.sentence, /; unscaled took 1,81× as many steps as scaled 1\/√d_k\./);
    assert.equal(detail.sentence, detail.sentences.join(' '));
    assert.equal(Object.hasOwn(detail, 'messages'), false);
    assert.equal(requests.length, 1);  // the box and the event: one request
    client.update(slots, state, 'en');
    assert.match(comparisonDetail(client.answer, state).sentence, /; unscaled took 1\.81× as many steps as scaled 1\/√d_k\./);
  });
});
