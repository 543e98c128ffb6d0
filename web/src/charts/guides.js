// What the answer reads, drawn over a line chart's curves (a uPlot draw hook): the threshold as a dashed
// line, each seed's steps to threshold as a dot on it, each variant's median as a vertical line, and each
// variant's level (the answer's "level now" / "final level" cell) as a tick at the right edge.  Their labels
// are placed so that none overlaps another or covers a median line (label-placer.js): at a phone's width they
// would otherwise collide.

/**
 * @typedef {Object} Guides
 * @property {{value: number, label: string}} [level]  a horizontal dashed line (the threshold)
 * @property {{x: number, colour: string, name?: string, label: string}[]} [lines]  vertical dashed lines up to the level (medians)
 * @property {{x: number, colour: string, hollow?: boolean}[]} [dots]  dots on the level line (each seed's step;
 *   hollow: a step a seed touched the threshold at and then ended above it)
 * @property {{colour: string, label: string}[]} [never]  labels under the level line, right (a median that never got there)
 * @property {{value: number, colour: string, name: string, label: string}[]} [levels]  ticks at the right edge (each
 *   variant's level; `name` is the variant's, for a label shown beside the plot)
 */

import { LabelPlacer } from './label-placer.js';

/**
 * @param {uPlot} u  the chart, in its draw hook (canvas pixels)
 * @param {Guides|null} g
 * @param {{text: string, surface: string, font: string}} theme
 * @param {number[]} [avoid] uPlot series indices of the lines no label may cover (each variant's median)
 * @returns {{text: string, colour: string, name?: string}[]} the labels with no clear spot in the plot, for the
 *   chart to show beside it
 */
export function drawGuides(u, g, theme, avoid = []) {
  if (!g?.level || u.data[0].length === 0) return [];
  const ctx = u.ctx;
  const dpr = devicePixelRatio || 1;
  const { left, top, width, height } = u.bbox;
  const y = Math.round(u.valToPos(g.level.value, 'y', true));
  ctx.save();
  ctx.font = `${11 * dpr}px ${theme.font}`;
  const placer = new LabelPlacer(ctx, u.bbox, dpr, avoid.filter((i) => u.series[i]?.show).map((i) => polyline(u, i)));
  const labels = [];  // {text, name?, x, y, align, colour} drawn last where the placer put them, or {..., out: true}
  const inside = y >= top && y <= top + height;
  if (inside) {
    drawThreshold(ctx, { left, width, y, dpr, colour: theme.text });
    labels.push(placed(placer, { text: g.level.label, x: left + width - 4 * dpr, y: y - 4 * dpr, align: 'right', colour: theme.text }, -1));
    labels.push(...drawMedians(u, g, { y, dpr, placer }));
    drawDots(u, g.dots ?? [], { y, dpr, outline: theme.surface });
  }
  labels.push(...drawLevelTicks(u, g.levels ?? [], dpr, placer));
  for (const label of labels) if (!label.out) drawLabel(ctx, label, dpr, theme.surface);
  ctx.restore();
  return labels.filter((label) => label.out).map(({ text, colour, name }) => ({ text, colour, name }));
}

/** Series `i` in canvas pixels, its missing and non-finite points left out. */
function polyline(u, i) {
  const xs = u.data[0];
  const ys = u.data[i];
  const points = [];
  for (let j = 0; j < xs.length; j += 1) {
    if (ys[j] == null || !Number.isFinite(ys[j]) || (u.scales.y.distr === 3 && ys[j] <= 0)) continue;
    points.push({ x: u.valToPos(xs[j], 'x', true), y: u.valToPos(ys[j], 'y', true) });
  }
  return points;
}

/** The label where the placer found room for it (moving `direction` from its spot), or marked `out`. */
function placed(placer, label, direction, reach) {
  const y = placer.place(label.text, label.x, label.y, label.align, direction, reach);
  return y === null ? { ...label, out: true } : { ...label, y };
}

function drawLabel(ctx, { text, x, y, align, colour }, dpr, background) {
  ctx.textAlign = align;
  const w = ctx.measureText(text).width;
  ctx.globalAlpha = 0.85;
  ctx.fillStyle = background;
  ctx.fillRect((align === 'right' ? x - w : x) - dpr, y - 10 * dpr, w + 2 * dpr, 13 * dpr);
  ctx.globalAlpha = 1;
  ctx.fillStyle = colour;
  ctx.fillText(text, x, y);
}

function drawThreshold(ctx, { left, width, y, dpr, colour }) {
  ctx.lineWidth = Math.max(1, dpr);
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.strokeStyle = colour;
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.setLineDash([]);
}

// Vertical lines from the x axis up to the threshold at each median, labelled at their foot (to the line's left
// when the label would run past the plot); a note under the threshold for a median that never got there.
function drawMedians(u, g, { y, dpr, placer }) {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  const labels = [];
  ctx.lineWidth = 2 * dpr;
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  for (const line of g.lines ?? []) {
    const x = Math.round(u.valToPos(line.x, 'x', true));
    if (x < left || x > left + width) continue;
    ctx.strokeStyle = line.colour;
    ctx.beginPath();
    ctx.moveTo(x, top + height);
    ctx.lineTo(x, y);
    ctx.stroke();
    const fits = x + 3 * dpr + ctx.measureText(line.label).width <= left + width;
    labels.push(placed(placer, { text: line.label, name: line.name, x: fits ? x + 3 * dpr : x - 3 * dpr, y: top + height - 6 * dpr,
      align: fits ? 'left' : 'right', colour: line.colour }, -1));
  }
  ctx.setLineDash([]);
  (g.never ?? []).forEach((note) => {
    labels.push(placed(placer, { text: note.label, x: left + width - 4 * dpr, y: y + 14 * dpr, align: 'right', colour: note.colour }, 1));
  });
  return labels;
}

function drawDots(u, dots, { y, dpr, outline }) {
  const ctx = u.ctx;
  const { left, width } = u.bbox;
  for (const dot of dots) {
    const x = Math.round(u.valToPos(dot.x, 'x', true));
    if (x < left || x > left + width) continue;
    // A hollow dot: a ring in the variant's colour on the chart's background.
    ctx.fillStyle = dot.hollow ? outline : dot.colour;
    ctx.strokeStyle = dot.hollow ? dot.colour : outline;
    ctx.lineWidth = (dot.hollow ? 2 : 1) * Math.max(1, dpr);
    ctx.beginPath();
    ctx.arc(x, y, 3.5 * dpr, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

// A short solid tick inside the right edge at each variant's level, its label to the tick's left, moved down
// (or up, at most two lines) where another label or a line took the spot; each label sits on the chart's background, so that it stays readable.
function drawLevelTicks(u, levels, dpr, placer) {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  const right = left + width;
  const shown = levels.map((l) => ({ ...l, y: Math.round(u.valToPos(l.value, 'y', true)) }))
    .filter((l) => Number.isFinite(l.y) && l.y >= top && l.y <= top + height).sort((a, b) => a.y - b.y);
  ctx.lineWidth = 3 * dpr;
  for (const l of shown) {
    ctx.strokeStyle = l.colour;
    ctx.beginPath();
    ctx.moveTo(right - 10 * dpr, l.y);
    ctx.lineTo(right, l.y);
    ctx.stroke();
  }
  // Within two lines of its tick, or not in the plot: further away it would sit beside another variant's line.
  return shown.map((l) => placed(placer, { text: l.label, name: l.name, x: right - 14 * dpr, y: l.y + 4 * dpr, align: 'right',
    colour: l.colour }, 1, 2));
}
