// Places a chart's text labels so that no two overlap: each label has a preferred spot and a direction to move
// in, one line at a time, until its box is clear of every label placed before it and inside the plot; a label
// with no clear spot is left out (what it says is also in the answer and the legend).  Canvas pixels throughout.

const PAD = 2;  // px (times dpr) kept between two labels' boxes

export class LabelPlacer {
  /**
   * @param {CanvasRenderingContext2D} ctx  with the labels' font set
   * @param {{left: number, top: number, width: number, height: number}} bounds the plot area
   * @param {number} dpr device pixels per CSS pixel
   */
  constructor(ctx, bounds, dpr) {
    this.ctx = ctx;
    this.bounds = bounds;
    this.dpr = dpr;
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
      || box.y + box.h + pad <= b.y || b.y + b.h + pad <= box.y);
  }

  /**
   * Find a clear spot for `text`, starting at (x, y) and moving `direction` (-1 up, +1 down) a line at a time; the
   * label's box is then taken.  An `extra` box (a label's background, a tick) can be reserved with it.
   * @param {string} text  @param {number} x  @param {number} y baseline  @param {'left'|'right'} align
   * @param {-1|1} direction
   * @returns {number|null} the baseline to draw at, or null when no spot in the plot is clear
   */
  place(text, x, y, align, direction) {
    const steps = Math.ceil(this.bounds.height / this.lineHeight);
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
