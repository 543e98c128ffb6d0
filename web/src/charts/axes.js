// Small helpers shared by the canvas charts: nice tick values and axis drawing.

/** About `count` round tick values covering [lo, hi]; at least three when the range allows. */
export function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const steps = [0.5, 1, 2, 2.5, 5, 10].map((m) => m * magnitude);
  const build = (step) => {
    const ticks = [];
    for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Number(t.toPrecision(12)));
    return ticks;
  };
  let k = steps.findIndex((s) => s >= raw);
  if (k < 0) k = steps.length - 1;
  let ticks = build(steps[k]);
  // A wide step can leave a single tick (e.g. only 0 on -45..45): take the next finer one.
  while (ticks.length < 3 && k > 0) {
    k -= 1;
    ticks = build(steps[k]);
  }
  return ticks;
}

/** Draw text centred at (x, y). */
export function label(ctx, text, x, y, { align = 'center', baseline = 'middle', colour, font } = {}) {
  ctx.save();
  if (font) ctx.font = font;
  ctx.fillStyle = colour;
  ctx.textAlign = align;
  ctx.textBaseline = baseline;
  ctx.fillText(text, x, y);
  ctx.restore();
}
