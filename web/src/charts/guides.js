// What the answer reads, drawn over a line chart's curves (a uPlot draw hook): the threshold as a dashed
// line, each seed's steps to threshold as a dot on it, each variant's median as a vertical line, and each
// variant's level (the answer's "level now" / "final level" cell) as a tick at the right edge.

/**
 * @typedef {Object} Guides
 * @property {{value: number, label: string}} [level]  a horizontal dashed line (the threshold)
 * @property {{x: number, colour: string, label: string}[]} [lines]  vertical dashed lines up to the level (medians)
 * @property {{x: number, colour: string}[]} [dots]  dots on the level line (each seed's step)
 * @property {{colour: string, label: string}[]} [never]  labels under the level line, right (a median that never got there)
 * @property {{value: number, colour: string, label: string}[]} [levels]  ticks at the right edge (each variant's level)
 */

/**
 * @param {uPlot} u  the chart, in its draw hook (canvas pixels)
 * @param {Guides|null} g
 * @param {{text: string, surface: string, font: string}} theme
 */
export function drawGuides(u, g, theme) {
  if (!g?.level || u.data[0].length === 0) return;
  const ctx = u.ctx;
  const dpr = devicePixelRatio || 1;
  const { left, top, width, height } = u.bbox;
  const y = Math.round(u.valToPos(g.level.value, 'y', true));
  ctx.save();
  ctx.font = `${11 * dpr}px ${theme.font}`;
  drawLevelTicks(u, g.levels ?? [], dpr, theme.surface);
  if (y >= top && y <= top + height) {
    drawThreshold(ctx, g.level, { left, width, y, dpr, colour: theme.text });
    drawMedians(u, g, { y, dpr });
    drawDots(u, g.dots ?? [], { y, dpr, outline: theme.surface });
  }
  ctx.restore();
}

function drawThreshold(ctx, level, { left, width, y, dpr, colour }) {
  ctx.lineWidth = Math.max(1, dpr);
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.strokeStyle = colour;
  ctx.beginPath();
  ctx.moveTo(left, y);
  ctx.lineTo(left + width, y);
  ctx.stroke();
  ctx.setLineDash([]);
  ctx.fillStyle = colour;
  ctx.textAlign = 'right';
  ctx.fillText(level.label, left + width - 4 * dpr, y - 4 * dpr);
}

// Vertical lines from the x axis up to the threshold at each median; a note under the threshold for a median
// that never got there.
function drawMedians(u, g, { y, dpr }) {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  ctx.lineWidth = 2 * dpr;
  ctx.setLineDash([6 * dpr, 4 * dpr]);
  ctx.textAlign = 'left';
  for (const line of g.lines ?? []) {
    const x = Math.round(u.valToPos(line.x, 'x', true));
    if (x < left || x > left + width) continue;
    ctx.strokeStyle = line.colour;
    ctx.beginPath();
    ctx.moveTo(x, top + height);
    ctx.lineTo(x, y);
    ctx.stroke();
    ctx.fillStyle = line.colour;
    ctx.fillText(line.label, x + 3 * dpr, top + height - 6 * dpr);
  }
  ctx.setLineDash([]);
  ctx.textAlign = 'right';
  (g.never ?? []).forEach((note, k) => {
    ctx.fillStyle = note.colour;
    ctx.fillText(note.label, left + width - 4 * dpr, y + (14 + 14 * k) * dpr);
  });
}

function drawDots(u, dots, { y, dpr, outline }) {
  const ctx = u.ctx;
  const { left, width } = u.bbox;
  ctx.lineWidth = Math.max(1, dpr);
  for (const dot of dots) {
    const x = Math.round(u.valToPos(dot.x, 'x', true));
    if (x < left || x > left + width) continue;
    ctx.fillStyle = dot.colour;
    ctx.strokeStyle = outline;
    ctx.beginPath();
    ctx.arc(x, y, 3.5 * dpr, 0, 2 * Math.PI);
    ctx.fill();
    ctx.stroke();
  }
}

// A short solid tick inside the right edge at each variant's level, its label to the tick's left.  Labels
// closer than a line apart are pushed down, and each sits on the chart's background, so that each stays readable.
function drawLevelTicks(u, levels, dpr, background) {
  const ctx = u.ctx;
  const { left, top, width, height } = u.bbox;
  const right = left + width;
  const lineHeight = 13 * dpr;
  const placed = levels.map((l) => ({ ...l, y: Math.round(u.valToPos(l.value, 'y', true)) }))
    .filter((l) => Number.isFinite(l.y) && l.y >= top && l.y <= top + height).sort((a, b) => a.y - b.y);
  let lastLabelY = -Infinity;
  ctx.lineWidth = 3 * dpr;
  ctx.textAlign = 'right';
  for (const l of placed) {
    ctx.strokeStyle = l.colour;
    ctx.beginPath();
    ctx.moveTo(right - 10 * dpr, l.y);
    ctx.lineTo(right, l.y);
    ctx.stroke();
    const labelY = Math.max(l.y + 4 * dpr, lastLabelY + lineHeight);
    lastLabelY = labelY;
    const textWidth = ctx.measureText(l.label).width;
    ctx.globalAlpha = 0.85;
    ctx.fillStyle = background;
    ctx.fillRect(right - 16 * dpr - textWidth, labelY - 10 * dpr, textWidth + 4 * dpr, 13 * dpr);
    ctx.globalAlpha = 1;
    ctx.fillStyle = l.colour;
    ctx.fillText(l.label, right - 14 * dpr, labelY);
  }
}
