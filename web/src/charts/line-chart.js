// A live line chart over uPlot (small and fast enough to redraw every few hundred milliseconds), with the
// lab's own legend (keyboard-usable toggle buttons, one per series group) and a readout of the values under
// the cursor (or of the latest step when the cursor is away).  A group is a line, optionally with a band
// (min..max over seeds) drawn around it.

import uPlot from 'uplot';
import { h, replaceChildren } from '../ui/dom.js';
import { formatValue } from '../ui/format.js';
import { STRINGS } from '../ui/strings.js';
import { formatNumber } from '../ui/locale.js';
import { withAlpha } from '../ui/palette.js';
import { composePng } from './png.js';
import { drawGuides } from './guides.js';
import { lineAxes, lineScales } from './line-axes.js';
import { watchSize } from '../ui/size-watch.js';

const PLAIN_X = Object.freeze({ maximumFractionDigits: 6, useGrouping: false });
const onePoint = (u) => u.data[0].length === 1;

/**
 * @typedef {Object} SeriesGroup
 * @property {string} id  @property {string} label  @property {string} colour  @property {number[]} [dash]
 * @property {boolean} [band] draw lo..hi around the line
 * @property {number} [seeds] also draw this many thin lines, one per seed (columns[id].seeds), as they arrive
 */

export class LineChart {
  /**
   * @param {{title: string, xLabel: string, yLabel: string, logX?: boolean, logY?: boolean, height?: number,
   *          yRange?: [number, number], theme: () => object, xFormat?: (x) => string, name: string,
   *          integerX?: boolean, emptyY?: [number, number], lang?: string}} options
   *   integerX: x is a step count (integer ticks, axis from 0); emptyY: the y range shown before any data;
   *   lang: how numbers are written (the element's, strings.js langOf)
   */
  constructor(options) {
    const lang = options.lang ?? 'en';
    this.options = { height: 220, logX: false, logY: false, lang,
      xFormat: (x) => formatNumber(x, lang, PLAIN_X), ...options };
    this.groups = [];
    this.hidden = new Set();
    this.data = null;
    this.marker = null;
    this.guides = null;
    this.plot = null;
    this.legend = h('div', { class: 'chart-legend', attrs: { role: 'group', 'aria-label': STRINGS.charts.series(options.title) } });
    this.plotBox = h('div', { class: 'chart-plot', attrs: { role: 'img', 'aria-label': options.title } });
    this.readout = h('div', { class: 'chart-readout' });
    this.offPlot = h('p', { class: 'chart-off-plot hint', attrs: { 'data-note': 'off-plot' } });  // labels with no room in the plot
    this.title = h('span', { class: 'chart-title', text: options.title });
    this.tools = h('span', { class: 'chart-tools' });
    this.element = h('figure', { class: 'chart', attrs: { 'data-chart': options.name } }, [
      h('figcaption', {}, [this.title, this.tools]), this.legend, this.plotBox, this.offPlot, this.readout]);
    this.resizeObserver = watchSize(this.plotBox, () => this._resize());
  }

  /** A new title (its header, its accessible names and its PNG). */
  setTitle(text) {
    if (text === this.options.title) return;
    this.options.title = text;
    this.title.textContent = text;
    this.plotBox.setAttribute('aria-label', text);
    this.legend.setAttribute('aria-label', STRINGS.charts.series(text));
  }

  /** Add a control (button, toggle) to the chart's header. */
  addTool(element) { this.tools.append(element); }

  /** Define the lines; recreates the plot when they change. @param {SeriesGroup[]} groups */
  setGroups(groups) {
    const key = (list) => JSON.stringify(list.map((g) => [g.id, g.label, g.colour, g.dash, g.band, g.seeds]));
    if (key(groups) === key(this.groups)) return;
    this.groups = groups;
    this._renderLegend();
    this._rebuild();
  }

  setLogY(logY) {
    if (this.options.logY === logY) return;
    this.options.logY = logY;
    this._rebuild();
  }

  /** Vertical marker at x (e.g. the current d_k), or null. */
  setMarker(x) {
    this.marker = x;
    if (this.plot) this.plot.redraw(false, false);
    this._showReadout(null);
  }

  /**
   * Lines and dots that show what the answer reads (see Guides), or null.  Recorded as data-guides (for tests).
   * @param {import('./guides.js').Guides|null} guides
   */
  setGuides(guides) {
    const key = JSON.stringify(guides);
    if (key === this.guidesKey) return;
    this.guidesKey = key;
    this.guides = guides;
    this.element.dataset.guides = guides ? key : '';
    if (this.plot) this.plot.redraw(false, false);
  }

  /**
   * @param {number[]} xs
   * @param {Object<string, {median: (number|null)[], lo?: (number|null)[], hi?: (number|null)[]}>} columns by group id
   */
  setData(xs, columns) {
    this.data = { xs, columns };
    this.element.dataset.points = String(xs.length);
    if (!this.plot) this._rebuild();
    else this.plot.setData(this._uplotData(), true);
    this._showReadout(null);
  }

  /** Redraw with the current theme (after a light/dark switch). */
  refreshTheme() { this._rebuild(); }

  /** @returns {Promise<Blob>} */
  toPng() {
    const legend = this.groups.filter((g) => !this.hidden.has(g.id)).map((g) => ({ label: g.label, colour: g.colour, dash: g.dash }));
    return composePng({ title: this.options.title, canvas: this.plot.ctx.canvas, legend, theme: this.options.theme() });
  }

  /** Number of x values currently plotted. */
  get length() { return this.data ? this.data.xs.length : 0; }

  destroy() {
    this.resizeObserver.disconnect();
    if (this.plot) this.plot.destroy();
    this.plot = null;
  }

  _uplotData() {
    const { xs, columns } = this.data ?? { xs: [], columns: {} };
    const empty = () => new Array(xs.length).fill(null);
    // A log axis cannot show 0 or a negative value: those points are left out (not drawn, readout "–").
    const y = this.options.logY ? (list) => Array.from(list, (v) => (v > 0 ? v : null)) : (list) => list;
    const data = [xs];
    for (const g of this.groups) {
      const c = columns[g.id] ?? { median: empty() };
      data.push(y(c.median));
      if (g.band) data.push(y(c.hi ?? empty()), y(c.lo ?? empty()));
      for (let k = 0; k < (g.seeds ?? 0); k += 1) data.push(y(c.seeds?.[k] ?? empty()));
    }
    return data;
  }

  /** uPlot series of a group: its line, its band's two edges, its seeds' lines. */
  static seriesCount(g) { return 1 + (g.band ? 2 : 0) + (g.seeds ?? 0); }

  _seriesIndices(groupId) {
    let index = 1;
    for (const g of this.groups) {
      const count = LineChart.seriesCount(g);
      if (g.id === groupId) return Array.from({ length: count }, (_, i) => index + i);
      index += count;
    }
    return [];
  }

  /** The guides' labels that found no room in the plot, written under it: "scaled 1/√d_k: final level 0.000209". */
  _showOffPlot(labels) {
    const key = JSON.stringify(labels);
    if (key === this.offPlotKey) return;
    this.offPlotKey = key;
    replaceChildren(this.offPlot, labels.flatMap((l, i) => {
      const span = h('span', { text: l.name ? `${l.name}: ${l.text}` : l.text });
      span.style.color = l.colour;
      return [i ? ' · ' : '', span];
    }));
  }

  /** The uPlot index of each group's own line (its median), the first of the group's series. */
  _medianLines() { return this.groups.map((g) => this._seriesIndices(g.id)[0]); }

  _renderLegend() {
    replaceChildren(this.legend, this.groups.map((g) => {
      const swatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
      swatch.style.borderTopColor = g.colour;
      swatch.style.borderTopStyle = g.dash && g.dash.length ? 'dashed' : 'solid';
      const button = h('button', {
        class: 'legend-item',
        attrs: { type: 'button', 'aria-pressed': String(!this.hidden.has(g.id)), title: STRINGS.charts.showOrHide(g.label) },
        on: { click: () => this._toggle(g.id, button) },
      }, [swatch, h('span', { text: g.label })]);
      return button;
    }));
  }

  _toggle(groupId, button) {
    const show = this.hidden.has(groupId);
    if (show) this.hidden.delete(groupId);
    else this.hidden.add(groupId);
    button.setAttribute('aria-pressed', String(show));
    if (this.plot) for (const i of this._seriesIndices(groupId)) this.plot.setSeries(i, { show });
    this._showReadout(null);
  }

  _rebuild() {
    if (this.plot) this.plot.destroy();
    this.plot = null;
    const width = this.plotBox.clientWidth;
    if (width < 10) return;
    const { series, bands } = this._series();
    // The labels an axis drew last, kept as data-x-ticks / data-y-ticks (what a reader sees, for tests).
    const record = (name, text) => { if (this.element.dataset[name] !== text) this.element.dataset[name] = text; };
    this.plot = new uPlot({
      width,
      height: this.options.height,
      series,
      bands,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: lineScales(this.options),
      axes: lineAxes(this.options, record),
      hooks: {
        setCursor: [(u) => this._showReadout(u.cursor.idx)],
        draw: [(u) => this._drawMarker(u), (u) => this._showOffPlot(drawGuides(u, this.guides, this.options.theme(), this._medianLines()))],
      },
    }, this._uplotData(), this.plotBox);
  }

  /** uPlot's series (in _uplotData's order) and the bands between each band's two edges. */
  _series() {
    const series = [{ label: this.options.xLabel }];
    const bands = [];
    for (const g of this.groups) {
      const show = !this.hidden.has(g.id);
      // A line of one point has no segment to draw: show its point (e.g. the entropy after one Step).
      series.push({ label: g.label, stroke: g.colour, width: 2, dash: g.dash, show, points: { show: onePoint }, spanGaps: false });
      if (g.band) {
        const edge = { label: STRINGS.charts.band(g.label), stroke: withAlpha(g.colour, 0.25), width: 1, show, points: { show: false } };
        series.push({ ...edge }, { ...edge });
        bands.push({ series: [series.length - 2, series.length - 1], fill: withAlpha(g.colour, 0.15) });
      }
      for (let k = 0; k < (g.seeds ?? 0); k += 1) {
        series.push({ label: STRINGS.charts.seedLine(g.label, k + 1), stroke: withAlpha(g.colour, 0.45), width: 1, dash: g.dash,
          show, points: { show: false }, spanGaps: false });
      }
    }
    return { series, bands };
  }

  _resize() {
    const width = this.plotBox.clientWidth;
    if (width < 10) return;
    if (!this.plot) this._rebuild();
    else if (Math.abs(this.plot.width - width) > 1) this.plot.setSize({ width, height: this.options.height });
  }

  _drawMarker(u) {
    if (this.marker === null || !this.data || this.data.xs.length === 0) return;
    const x = Math.round(u.valToPos(this.marker, 'x', true));
    const ctx = u.ctx;
    ctx.save();
    ctx.strokeStyle = this.options.theme().text;
    ctx.setLineDash([4, 4]);
    ctx.lineWidth = Math.max(1, devicePixelRatio);
    ctx.beginPath();
    ctx.moveTo(x, u.bbox.top);
    ctx.lineTo(x, u.bbox.top + u.bbox.height);
    ctx.stroke();
    ctx.restore();
  }

  _restingIndex(xs) {
    if (this.marker === null) return xs.length - 1;
    let best = 0;
    for (let j = 1; j < xs.length; j += 1) if (Math.abs(xs[j] - this.marker) < Math.abs(xs[best] - this.marker)) best = j;
    return best;
  }

  _showReadout(index) {
    const xs = this.data?.xs ?? [];
    if (xs.length === 0) {
      this.readout.textContent = '';
      return;
    }
    // Cursor away: the readout shows the marked x (e.g. the current d_k), else the latest.
    const i = index === null || index === undefined ? this._restingIndex(xs) : index;
    const data = this._uplotData();
    const { lang } = this.options;
    let column = 1;
    const resting = index === null || index === undefined;
    const shown = [];
    for (const g of this.groups) {
      // At rest, a line that ends before the latest x (its runs are behind the others') shows its own last point.
      let j = i;
      if (resting) while (j > 0 && (data[column][j] === null || data[column][j] === undefined)) j -= 1;
      if (!this.hidden.has(g.id)) shown.push({ g, j, value: data[column][j], band: g.band ? [data[column + 2][j], data[column + 1][j]] : null });
      column += LineChart.seriesCount(g);
    }
    // At rest the header names the last x any shown line reaches, so that no line is tagged with another x for nothing.
    const head = resting && shown.length ? Math.max(...shown.map((s) => s.j)) : i;
    const parts = [h('span', { class: 'readout-x', text: STRINGS.charts.readoutX(this.options.xLabel, this.options.xFormat(xs[head])) })];
    for (const { g, j, value, band } of shown) {
      const swatch = h('span', { class: 'swatch', attrs: { 'aria-hidden': 'true' } });
      swatch.style.borderTopColor = g.colour;
      swatch.style.borderTopStyle = g.dash && g.dash.length ? 'dashed' : 'solid';
      const c = STRINGS.charts;
      const range = band && band[0] !== null && band[0] !== band[1] ? c.readoutRange(formatValue(band[0], lang), formatValue(band[1], lang)) : '';
      const at = j !== head && value !== null && value !== undefined ? c.readoutAt(this.options.xLabel, this.options.xFormat(xs[j])) : '';
      parts.push(h('span', { class: 'readout-item' }, [swatch, c.readoutItem(g.label, formatValue(value, lang), range, at)]));
    }
    const key = parts.map((p) => p.textContent).join('|') + this.groups.map((g) => g.colour).join();
    if (key === this.readoutKey) return;
    this.readoutKey = key;
    replaceChildren(this.readout, parts);
  }
}
