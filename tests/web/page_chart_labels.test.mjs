// Charts that read on a phone: at 390 px, after the default exercise's answer, no two labels drawn on any chart's
// canvas overlap (on the loss chart: the threshold, each median, each variant's level; on every chart: the axes'
// tick labels and the attention maps' position labels).  The boxes are
// measured from the canvas calls themselves: every fillText since the canvas was last cleared, with its measured
// extent, recorded by a script the test puts in the page before the lab loads.
import test from 'node:test';
import assert from 'node:assert/strict';
import { lab, newPage, openLab, waitForRest } from './helpers/browser.mjs';

// Wraps the canvas calls: a full clearRect or a new width (which clears the canvas) starts a new frame; each
// fillText adds its box (canvas pixels).
function recordLabels() {
  const width = Object.getOwnPropertyDescriptor(HTMLCanvasElement.prototype, 'width');
  Object.defineProperty(HTMLCanvasElement.prototype, 'width', { ...width, set(value) { this.drawnLabels = []; width.set.call(this, value); } });
  const proto = CanvasRenderingContext2D.prototype;
  const { fillText, clearRect } = proto;
  proto.clearRect = function clear(x, y, w, h) {
    if (x <= 0 && y <= 0 && w >= this.canvas.width && h >= this.canvas.height) this.canvas.drawnLabels = [];
    return clearRect.call(this, x, y, w, h);
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
    const labels = await page.evaluate(() => document.querySelector('sqrtdk-lab').shadowRoot
      .querySelector('[data-chart="loss"] canvas').drawnLabels);
    const guides = JSON.parse(await l.locator('[data-chart="loss"]').getAttribute('data-guides'));
    // Every median line and level is drawn with its label (none had to be left out at this width).
    for (const label of [...guides.lines, ...guides.levels].map((g) => g.label)) {
      assert.ok(labels.some((b) => b.text === label), `${label} drawn: ${labels.map((b) => b.text).join(' | ')}`);
    }
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
