// An attention map (softmax weights, query rows x key columns) as a heatmap: white (or the background) for 0,
// the variant's colour for 1.  Own canvas code (no chart library draws matrices this small and simple).
// The copy task's layout (copy_task.hpp): positions 0 = BOS, 1..L = x1..xL, L+1 = SEP, L+2..2L = the copy so
// far.  A model that copies puts the weight of query p (>= L+1) on key p - L: the cells just above the dotted guide.

import { label } from './axes.js';
import { CanvasFigure } from './canvas-figure.js';
import { rgbOf, variantColour } from '../ui/palette.js';
import { STRINGS } from '../ui/strings.js';

const MARGIN = { left: 44, right: 8, top: 8, bottom: 32 };
const TICK_FONT_PX = 12;
const SIZE = 220;

export class HeatmapChart {
  /** @param {{title: string, name: string, theme: () => object, variant: string}} options  variant picks the colour */
  constructor({ title, name, theme, variant }) {
    this.variant = variant;
    this.map = null;
    this.cells = document.createElement('canvas');
    this.copyLength = 0;
    this.figure = new CanvasFigure({ title, name, height: SIZE + MARGIN.top + MARGIN.bottom, theme,
      draw: (...args) => this._draw(...args), description: STRINGS.charts.heatmapDescription(title) });
    this.element = this.figure.element;
  }

  /** @param {{data: Float32Array, rows: number, cols: number, step: number}|null} map  @param {number} copyLength */
  setData(map, copyLength, caption) {
    this.map = map;
    this.copyLength = copyLength;
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
    const { data, rows, cols } = this.map;
    const cell = side / Math.max(rows, cols);
    const [r1, g1, b1] = rgbOf(variantColour(this.variant, theme.dark));
    const [r0, g0, b0] = rgbOf(normalizeHex(theme.surface));
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
    ctx.strokeStyle = theme.grid;
    ctx.strokeRect(x0 + 0.5, y0 + 0.5, cols * cell, rows * cell);
    const L = this.copyLength;
    // The guide crosses both empty cells (surface colour) and full ones (variant colour): a solid halo in
    // the surface colour under a dotted line in the text colour stays visible on both, light or dark.
    const guide = () => {
      ctx.beginPath();
      ctx.moveTo(x0 + cell, y0 + (L + 2) * cell);
      ctx.lineTo(x0 + L * cell, y0 + (2 * L + 1) * cell);
      ctx.stroke();
    };
    ctx.save();
    ctx.strokeStyle = theme.surface;
    ctx.lineWidth = 3.5;
    guide();
    ctx.strokeStyle = theme.text;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([3, 3]);
    guide();
    ctx.restore();
    this.element.dataset.guide = `${normalizeHex(theme.surface)},${normalizeHex(theme.text)}`;
    const tick = (pos, text, axis) => (axis === 'x'
      ? label(ctx, text, x0 + (pos + 0.5) * cell, y0 + rows * cell + 8, { colour: theme.muted, font })
      : label(ctx, text, x0 - 5, y0 + (pos + 0.5) * cell, { align: 'right', colour: theme.muted, font }));
    const c = STRINGS.charts;
    for (const axis of ['x', 'y']) {
      tick(0, c.bos, axis);
      tick(L + 1, c.sep, axis);
    }
    label(ctx, c.heatmapKeys, x0 + side / 2, height - 6, { colour: theme.text, font });
    ctx.save();
    ctx.translate(12, y0 + side / 2);
    ctx.rotate(-Math.PI / 2);
    label(ctx, c.heatmapQueries, 0, 0, { colour: theme.text, font });
    ctx.restore();
    this.element.dataset.axisLabels = `${c.heatmapKeys}|${c.heatmapQueries}|${TICK_FONT_PX}px`;
  }
}

/** Accept '#abc', '#aabbcc' or 'rgb(r, g, b)' from CSS; return '#rrggbb'. */
function normalizeHex(colour) {
  const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(colour);
  if (rgb) return `#${[rgb[1], rgb[2], rgb[3]].map((c) => Number(c).toString(16).padStart(2, '0')).join('')}`;
  if (/^#[0-9a-f]{3}$/i.test(colour)) return `#${[...colour.slice(1)].map((c) => c + c).join('')}`;
  return /^#[0-9a-f]{6}$/i.test(colour) ? colour : '#ffffff';
}
