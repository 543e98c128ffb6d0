// The distribution of q.k over many draws as a histogram (density), with the normal density the theory
// predicts drawn over it.  Own canvas code: uPlot's bars would not add the overlay and density scaling.

import { label, niceTicks } from './axes.js';
import { CanvasFigure } from './canvas-figure.js';
import { variantColour, withAlpha } from '../ui/palette.js';
import { count, formatValue } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';

const MARGIN = { left: 44, right: 12, top: 10, bottom: 34 };

export class HistogramChart {
  /** @param {{title: string, name: string, theme: () => object, xLabel: string, lang?: string}} options */
  constructor({ title, name, theme, xLabel, lang = 'en' }) {
    this.xLabel = xLabel;
    this.lang = lang;
    this.view = null;
    this.figure = new CanvasFigure({ title, name, height: 200, theme, draw: (...args) => this._draw(...args),
      description: STRINGS.charts.histogramDescription(title) });
    this.element = this.figure.element;
  }

  /**
   * @param {{edges: ArrayLike<number>, counts: ArrayLike<number>, total: number, outside: number,
   *          variance: number, variant: string, curveLabel: string, note?: string}} view  variant picks the colour
   */
  setData(view) {
    this.view = view;
    const outside = view.total > 0 ? (100 * view.outside) / view.total : 0;
    const c = STRINGS.charts;
    this.figure.caption.textContent = c.histogramCaption(view.curveLabel, count(view.total, this.lang))
      + (outside > 0 ? c.histogramOutside(formatValue(outside, this.lang)) : '') + (view.note ? c.histogramNote(view.note) : '');
    this.figure.redraw();
  }

  addTool(element) { this.figure.addTool(element); }

  refreshTheme() { this.figure.redraw(); }

  toPng() {
    const theme = this.figure.options.theme();
    return this.figure.toPng(this.view ? [{ label: this.xLabel, colour: variantColour(this.view.variant, theme.dark) },
      { label: this.view.curveLabel, colour: theme.text, dash: [4, 3] }] : []);
  }

  destroy() { this.figure.destroy(); }

  _draw(ctx, width, height, theme) {
    const v = this.view;
    if (!v) return;
    const n = v.counts.length;
    const lo = v.edges[0];
    const hi = v.edges[n];
    const binWidth = (hi - lo) / n;
    const density = Array.from(v.counts, (c) => c / (v.total * binWidth));
    const sd = Math.sqrt(v.variance);
    const pdf = (x) => Math.exp(-0.5 * (x / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));
    const yMax = Math.max(...density, pdf(0)) * 1.08;
    const plotW = width - MARGIN.left - MARGIN.right;
    const plotH = height - MARGIN.top - MARGIN.bottom;
    const px = (x) => MARGIN.left + ((x - lo) / (hi - lo)) * plotW;
    const py = (y) => MARGIN.top + plotH * (1 - y / yMax);
    const font = `11px ${theme.font}`;

    ctx.strokeStyle = theme.grid;
    ctx.lineWidth = 1;
    for (const t of niceTicks(0, yMax, 4)) {
      ctx.beginPath();
      ctx.moveTo(MARGIN.left, Math.round(py(t)) + 0.5);
      ctx.lineTo(MARGIN.left + plotW, Math.round(py(t)) + 0.5);
      ctx.stroke();
      label(ctx, formatValue(t, this.lang), MARGIN.left - 4, py(t), { align: 'right', colour: theme.muted, font });
    }
    ctx.fillStyle = withAlpha(variantColour(v.variant, theme.dark), 0.6);
    for (let i = 0; i < n; i += 1) {
      const x0 = px(v.edges[i]);
      const x1 = px(v.edges[i + 1]);
      const y = py(density[i]);
      ctx.fillRect(x0, y, Math.max(1, x1 - x0 - 0.5), MARGIN.top + plotH - y);
    }
    ctx.strokeStyle = theme.text;
    ctx.lineWidth = 2;
    ctx.setLineDash([5, 3]);
    ctx.beginPath();
    for (let i = 0; i <= 200; i += 1) {
      const x = lo + ((hi - lo) * i) / 200;
      if (i === 0) ctx.moveTo(px(x), py(pdf(x)));
      else ctx.lineTo(px(x), py(pdf(x)));
    }
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.strokeStyle = theme.muted;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(MARGIN.left, MARGIN.top + plotH + 0.5);
    ctx.lineTo(MARGIN.left + plotW, MARGIN.top + plotH + 0.5);
    ctx.stroke();
    const xTicks = niceTicks(lo, hi, Math.max(3, Math.floor(plotW / 70)));
    const tickText = xTicks.map((t) => formatValue(t, this.lang));
    xTicks.forEach((t, i) => label(ctx, tickText[i], px(t), MARGIN.top + plotH + 9, { colour: theme.muted, font }));
    this.element.dataset.xTicks = tickText.join(',');
    label(ctx, this.xLabel, MARGIN.left + plotW / 2, height - 8, { colour: theme.text, font });
  }
}

/** Share of the samples beyond `cut` in absolute value (bins cut linearly; samples outside the edges count). */
export function shareBeyond({ edges, counts, outside, total }, cut) {
  let beyond = outside;
  for (let i = 0; i < counts.length; i += 1) {
    const a = edges[i];
    const b = edges[i + 1];
    const inside = Math.max(0, Math.min(b, -cut) - a) + Math.max(0, b - Math.max(a, cut));
    beyond += counts[i] * Math.min(1, inside / (b - a));
  }
  return total > 0 ? beyond / total : 0;
}
