// An attention map (softmax weights, query rows x key columns) as a heatmap: white (or the background) for 0,
// the variant's colour for 1, with a colour scale.  Own canvas code (no chart library draws matrices this small
// and simple).  Where BOS and SEP sit and where a copying query looks come with the map, from the core's copy
// layout (copy_layout.hpp): the cells just above the dotted guide are the ones a model that copies fills.

import { label } from './axes.js';
import { CanvasFigure } from './canvas-figure.js';
import { rgbOf, variantColour } from '../ui/palette.js';
import { STRINGS } from '../ui/strings.js';

const MARGIN = { left: 44, right: 40, top: 8, bottom: 32 };  // right: the colour scale
const SCALE_WIDTH = 8;
const TICK_FONT_PX = 12;
const SIZE = 220;

export class HeatmapChart {
  /** @param {{title: string, name: string, theme: () => object, variant: string}} options  variant picks the colour */
  constructor({ title, name, theme, variant }) {
    this.variant = variant;
    this.map = null;
    this.cells = document.createElement('canvas');
    this.figure = new CanvasFigure({ title, name, height: SIZE + MARGIN.top + MARGIN.bottom, theme,
      draw: (...args) => this._draw(...args), description: STRINGS.charts.heatmapDescription(title) });
    this.element = this.figure.element;
  }

  /**
   * @param {{data: Float32Array, rows: number, cols: number, step: number,
   *          layout: {bos: number, sep: number, guide: {query: number, key: number}[]}}|null} map
   *   data: (rows, cols) row-major; guide: the first and last cell a copying model fills
   */
  setData(map, caption) {
    this.map = map;
    this.figure.caption.textContent = caption;
    this.figure.redraw();
  }

  refreshTheme() { this.figure.redraw(); }

  addTool(element) { this.figure.addTool(element); }

  toPng() { return this.figure.toPng([]); }

  destroy() { this.figure.destroy(); }

  _draw(ctx, width, height, theme) {
    const side = Math.min(width - MARGIN.left - MARGIN.right, SIZE);
    const x0 = MARGIN.left + Math.max(0, (width - MARGIN.left - MARGIN.right - side) / 2);
    const y0 = MARGIN.top;
    const font = `${TICK_FONT_PX}px ${theme.font}`;
    if (!this.map) {
      label(ctx, STRINGS.charts.heatmapEmpty, x0 + side / 2, y0 + side / 2, { colour: theme.muted, font });
      return;
    }
    const { rows, cols, layout } = this.map;
    const box = { x0, y0, cell: side / Math.max(rows, cols), rows, cols };
    const from = rgbOf(normalizeHex(theme.surface));
    const to = rgbOf(variantColour(this.variant, theme.dark));
    this._drawCells(ctx, box, from, to);
    ctx.strokeStyle = theme.grid;
    ctx.strokeRect(x0 + 0.5, y0 + 0.5, cols * box.cell, rows * box.cell);
    drawScale(ctx, { x: x0 + cols * box.cell + 8, y: y0, height: rows * box.cell, from, to, theme, font });
    this.element.dataset.colourScale = `${STRINGS.charts.heatmapScaleBottom}..${STRINGS.charts.heatmapScaleTop}`;
    drawGuide(ctx, box, layout.guide, theme);
    this.element.dataset.guide = `${normalizeHex(theme.surface)},${normalizeHex(theme.text)}`;
    drawAxisLabels(ctx, box, layout, { side, height, theme, font });
    const c = STRINGS.charts;
    this.element.dataset.axisLabels = `${c.heatmapKeys}|${c.heatmapQueries}|${TICK_FONT_PX}px`;
  }

  /** The weights as cells, blended linearly from `from` (weight 0) to `to` (weight 1). */
  _drawCells(ctx, { x0, y0, cell, rows, cols }, [r0, g0, b0], [r1, g1, b1]) {
    const { data } = this.map;
    // One pixel per cell, scaled up without smoothing: much cheaper than a fillRect per cell.
    const pixels = new ImageData(cols, rows);
    for (let i = 0; i < rows * cols; i += 1) {
      const w = Math.min(1, Math.max(0, data[i]));
      pixels.data[4 * i] = r0 + (r1 - r0) * w;
      pixels.data[4 * i + 1] = g0 + (g1 - g0) * w;
      pixels.data[4 * i + 2] = b0 + (b1 - b0) * w;
      pixels.data[4 * i + 3] = 255;
    }
    this.cells.width = cols;
    this.cells.height = rows;
    this.cells.getContext('2d').putImageData(pixels, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.cells, x0, y0, cols * cell, rows * cell);
  }
}

/**
 * The copying guide, along the lower left corners of the copying cells (first..last).  It crosses both empty
 * cells (surface colour) and full ones (variant colour): a solid halo in the surface colour under a dotted
 * line in the text colour stays visible on both, light or dark.
 */
function drawGuide(ctx, { x0, y0, cell }, [first, last], theme) {
  const line = () => {
    ctx.beginPath();
    ctx.moveTo(x0 + first.key * cell, y0 + (first.query + 1) * cell);
    ctx.lineTo(x0 + last.key * cell, y0 + (last.query + 1) * cell);
    ctx.stroke();
  };
  ctx.save();
  ctx.strokeStyle = theme.surface;
  ctx.lineWidth = 3.5;
  line();
  ctx.strokeStyle = theme.text;
  ctx.lineWidth = 1.5;
  ctx.setLineDash([3, 3]);
  line();
  ctx.restore();
}

/** BOS and SEP ticks on both axes, and the axes' names (keys below, queries at the left). */
function drawAxisLabels(ctx, { x0, y0, cell, rows }, { bos, sep }, { side, height, theme, font }) {
  const tick = (pos, text, axis) => (axis === 'x'
    ? label(ctx, text, x0 + (pos + 0.5) * cell, y0 + rows * cell + 8, { colour: theme.muted, font })
    : label(ctx, text, x0 - 5, y0 + (pos + 0.5) * cell, { align: 'right', colour: theme.muted, font }));
  const c = STRINGS.charts;
  for (const axis of ['x', 'y']) {
    tick(bos, c.bos, axis);
    tick(sep, c.sep, axis);
  }
  label(ctx, c.heatmapKeys, x0 + side / 2, height - 6, { colour: theme.text, font });
  ctx.save();
  ctx.translate(12, y0 + side / 2);
  ctx.rotate(-Math.PI / 2);
  label(ctx, c.heatmapQueries, 0, 0, { colour: theme.text, font });
  ctx.restore();
}

/**
 * The colour scale: a bar from weight 0 (bottom, the background) to 1 (top, the variant's colour), coloured
 * as the cells are (a linear blend).
 */
function drawScale(ctx, { x, y, height, from, to, theme, font }) {
  const gradient = ctx.createLinearGradient(0, y + height, 0, y);
  gradient.addColorStop(0, `rgb(${from.join(',')})`);
  gradient.addColorStop(1, `rgb(${to.join(',')})`);
  ctx.fillStyle = gradient;
  ctx.fillRect(x, y, SCALE_WIDTH, height);
  ctx.strokeStyle = theme.grid;
  ctx.strokeRect(x + 0.5, y + 0.5, SCALE_WIDTH, height);
  const c = STRINGS.charts;
  label(ctx, c.heatmapScaleTop, x + SCALE_WIDTH + 3, y + 6, { align: 'left', colour: theme.muted, font });
  label(ctx, c.heatmapScaleBottom, x + SCALE_WIDTH + 3, y + height - 6, { align: 'left', colour: theme.muted, font });
}

/** Accept '#abc', '#aabbcc' or 'rgb(r, g, b)' from CSS; return '#rrggbb'. */
function normalizeHex(colour) {
  const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (rgb) return `#${[rgb[1], rgb[2], rgb[3]].map((c) => Number(c).toString(16).padStart(2, '0')).join('')}`;
  if (/^#[0-9a-f]{3}$/i.test(colour)) return `#${[...colour.slice(1)].map((c) => c + c).join('')}`;
  return /^#[0-9a-f]{6}$/i.test(colour) ? colour : '#ffffff';
}
