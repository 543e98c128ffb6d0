// Places a chart's text labels so that no two overlap and none covers a curve: each label has a preferred spot and
// a direction to move in, one line at a time, until its box is inside the plot, clear of every label placed before
// it and crossed by none of the curves it was given (the variants' median lines); a label with no clear spot is left
// out of the plot (the chart lists it under the plot).  Canvas pixels throughout.

const PAD = 2;  // px (times dpr) kept between two labels' boxes

export class LabelPlacer {
  /**
   * @param {CanvasRenderingContext2D} ctx  with the labels' font set
   * @param {{left: number, top: number, width: number, height: number}} bounds the plot area
   * @param {number} dpr device pixels per CSS pixel
   * @param {{x: number, y: number}[][]} [curves] polylines no label may cross, each with x increasing
   */
  constructor(ctx, bounds, dpr, curves = []) {
    this.ctx = ctx;
    this.bounds = bounds;
    this.dpr = dpr;
    this.curves = curves;
    this.lineHeight = 13 * dpr;
    this.boxes = [];
  }

  /**
   * The box `text` would cover drawn at (x, y) (alphabetic baseline) with `align`.
   * @returns {{x: number, y: number, w: number, h: number}}
   */
  boxOf(text, x, y, align) {
    const m = this.ctx.measureText(text);
    const ascent = m.actualBoundingBoxAscent ?? 9 * this.dpr;
    const descent = m.actualBoundingBoxDescent ?? 3 * this.dpr;
    const left = align === 'right' ? x - m.width : x;
    return { x: left, y: y - ascent, w: m.width, h: ascent + descent };
  }

  _clear(box) {
    const { left, top, width, height } = this.bounds;
    if (box.x < left || box.x + box.w > left + width || box.y < top || box.y + box.h > top + height) return false;
    const pad = PAD * this.dpr;
    return this.boxes.every((b) => box.x + box.w + pad <= b.x || b.x + b.w + pad <= box.x
      || box.y + box.h + pad <= b.y || b.y + b.h + pad <= box.y)
      && !this.curves.some((curve) => crosses(curve, { x: box.x - pad, y: box.y - pad, w: box.w + 2 * pad, h: box.h + 2 * pad }));
  }

  /**
   * Find a clear spot for `text`, starting at (x, y) and moving `direction` (-1 up, +1 down) a line at a time; the
   * label's box is then taken.  An `extra` box (a label's background, a tick) can be reserved with it.
   * @param {string} text  @param {number} x  @param {number} y baseline  @param {'left'|'right'} align
   * @param {-1|1} direction  @param {number} [reach] the most lines it may move (a label far from what it names
   *   would name the wrong thing)
   * @returns {number|null} the baseline to draw at, or null when no spot in reach is clear
   */
  place(text, x, y, align, direction, reach = Infinity) {
    const steps = Math.min(reach, Math.ceil(this.bounds.height / this.lineHeight));
    for (let k = 0; k <= steps; k += 1) {
      for (const sign of k === 0 ? [direction] : [direction, -direction]) {
        const baseline = y + sign * k * this.lineHeight;
        const box = this.boxOf(text, x, baseline, align);
        if (this._clear(box)) {
          this.boxes.push(box);
          return baseline;
        }
      }
    }
    return null;
  }
}

/** Whether the polyline `curve` (x increasing) passes through the box. */
export function crosses(curve, box) {
  const right = box.x + box.w;
  let lo = 0;
  let hi = curve.length;
  while (lo < hi) {  // the first point at or right of the box's left edge
    const mid = (lo + hi) >> 1;
    if (curve[mid].x < box.x) lo = mid + 1;
    else hi = mid;
  }
  for (let i = Math.max(1, lo); i < curve.length && curve[i - 1].x <= right; i += 1) {
    if (segmentInBox(curve[i - 1], curve[i], box)) return true;
  }
  return curve.length === 1 && inBox(curve[0], box);
}

const inBox = (p, box) => p.x >= box.x && p.x <= box.x + box.w && p.y >= box.y && p.y <= box.y + box.h;

// Liang-Barsky: the segment a-b clipped to the box leaves something.
function segmentInBox(a, b, box) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  let t0 = 0;
  let t1 = 1;
  for (const [p, q] of [[-dx, a.x - box.x], [dx, box.x + box.w - a.x], [-dy, a.y - box.y], [dy, box.y + box.h - a.y]]) {
    if (p === 0) {
      if (q < 0) return false;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
      if (t0 > t1) return false;
    }
  }
  return true;
}
