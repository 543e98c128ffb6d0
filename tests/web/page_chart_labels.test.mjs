// Charts that read on a phone: at 390 px, after the default exercise's answer, no two labels drawn on any chart's
// canvas overlap (on the loss chart: the threshold, each median, each variant's level; on every chart: the axes'
// tick labels and the attention maps' position labels), and no label of the loss chart covers a variant's median
// line; a level label with no room near its tick is written under the plot instead.  The boxes and lines are
// measured from the canvas calls themselves: every fillText since the canvas was last cleared, with its measured
// extent, and every 2-px-wide path uPlot strokes (the median lines; band edges and seeds are 1 px), recorded by a
// script the test puts in the page before the lab loads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

// Wraps the canvas calls: a full clearRect or a new width (which clears the canvas) starts a new frame; each
// fillText adds its box (canvas pixels).
function recordLabels() {
  const width = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'width');
  Object.defineProperty(HTMLCanvasElement.prototype, 'width', { ...width, set(value) { this.drawnLabels = []; this.drawnLines = []; width.set.call(this, value); } });
  const proto = CanvasRenderingContext2D.prototype;
  const { fillText, clearRect } = proto;
  proto.clearRect = function clear(x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) { this.canvas.drawnLabels = []; this.canvas.drawnLines = []; }
    return clearRect.call(this, x, y, w, h);
  };
  // uPlot draws a series as a Path2D: keep each path's points, and on stroke the points of the wide ones.
  const { moveTo, lineTo } = Path2D.prototype;
  Path2D.prototype.moveTo = function move(x, y) { (this.points ??= []).push([]); this.points.at(-1).push({ x, y }); return moveTo.call(this, x, y); };
  Path2D.prototype.lineTo = function line(x, y) { ((this.points ??= [[]]).at(-1)).push({ x, y }); return lineTo.call(this, x, y); };
  const { stroke } = proto;
  proto.stroke = function strokePath(...args) {
    const path = args[0];
    if (path instanceof Path2D && path.points && this.lineWidth >= 2 * devicePixelRatio) {
      const t = this.getTransform();
      for (const run of path.points) (this.canvas.drawnLines ??= []).push(run.map((p) => ({ x: t.a * p.x + t.e, y: t.d * p.y + t.f })));
    }
    return stroke.apply(this, args);
  };
  proto.fillText = function fill(text, x, y, ...rest) {
    const m = this.measureText(text);
    const t = this.getTransform();
    const box = { text: String(text), left: t.a * (x - m.actualBoundingBoxLeft) + t.e, right: t.a * (x + m.actualBoundingBoxRight) + t.e,
      top: t.d * (y - m.actualBoundingBoxAscent) + t.f, bottom: t.d * (y + m.actualBoundingBoxDescent) + t.f };
    (this.canvas.drawnLabels ??= []).push(box);
    return fillText.call(this, text, x, y, ...rest);
  };
}

const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

// Whether a polyline passes through a box: its segments walked in steps of at most half a pixel.
function covers(line, box) {
  const inside = (p) => p.x > box.left && p.x < box.right && p.y > box.top && p.y < box.bottom;
  return line.some((p, i) => {
    if (i === 0) return inside(p);
    const q = line[i - 1];
    const n = Math.ceil(2 * Math.max(Math.abs(p.x - q.x), Math.abs(p.y - q.y))) || 1;
    return Array.from({ length: n + 1 }, (_, k) => ({ x: q.x + (p.x - q.x) * k / n, y: q.y + (p.y - q.y) * k / n })).some(inside);
  });
}

test('at 390 px no chart\'s labels overlap once the answer is drawn', async () => {
  const env = await openLab();
  try {
    const { page, context, errors } = await newPage(env.browser, { width: 390, height: 844 });
    await page.addInitScript(recordLabels);
    await page.goto(env.url('http', 'index.html', '#panels=train&steps=150'));
    const l = lab(page);
    await l.locator('button', { hasText: 'Start' }).click();
    await l.locator('.answer[data-final="true"]').waitFor({ timeout: 180000 });
    await waitForRest(page);
    const { labels, lines } = await page.evaluate(() => {
      const canvas = document.querySelector('sqrtdk-lab').shadowRoot.querySelector('[data-chart="loss"] canvas');
      return { labels: canvas.drawnLabels, lines: canvas.drawnLines };
    });
    const guides = JSON.parse(await l.locator('[data-chart="loss"]').getAttribute('data-guides'));
    const offPlot = await l.locator('[data-chart="loss"] [data-note="off-plot"]').textContent();
    // Every median line and level is drawn with its label, or (a level) written under the plot with its variant.
    for (const g of guides.lines) assert.ok(labels.some((b) => b.text === g.label), `${g.label} drawn: ${labels.map((b) => b.text).join(' | ')}`);
    for (const g of guides.levels) {
      assert.ok(labels.some((b) => b.text === g.label) || offPlot.includes(`${g.name}: ${g.label}`),
        `${g.label}: drawn (${labels.map((b) => b.text).join(' | ')}) or under the plot (${offPlot})`);
    }
    // No label of the guides covers a median line (the lines the test saw drawn 2 px wide, one per variant).
    assert.ok(lines.length >= 2, `median lines recorded: ${lines.length}`);
    const guideLabels = labels.filter((b) => [guides.level, ...guides.lines, ...guides.levels].some((g) => g.label === b.text));
    assert.ok(guideLabels.length >= 3, guideLabels.map((b) => b.text).join(' | '));
    for (const b of guideLabels) assert.ok(!lines.some((line) => covers(line, b)), `"${b.text}" covers a median line`);
    // Every chart on the page: its canvas's labels, pairwise.
    const charts = await page.evaluate(() => [...document.querySelector('sqrtdk-lab').shadowRoot.querySelectorAll('[data-chart]')]
      .filter((c) => !c.closest('[hidden]')).map((c) => ({ name: c.dataset.chart, labels: [...c.querySelectorAll('canvas')].flatMap((v) => v.drawnLabels ?? []) })));
    assert.ok(charts.length >= 8, `charts measured: ${charts.map((c) => c.name)}`);
    const clashes = [];
    for (const chart of charts) {
      assert.ok(chart.labels.length > 0, `${chart.name} draws labels`);
      chart.labels.forEach((a, i) => chart.labels.slice(i + 1).forEach((b) => {
        if (overlap(a, b)) clashes.push(`${chart.name}: "${a.text}" and "${b.text}"`);
      }));
    }
    assert.deepEqual(clashes, []);
    assert.deepEqual(errors, []);
    await context.close();
  } finally {
    await env.close();
  }
});
