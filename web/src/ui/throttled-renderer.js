// Renders a view in parts at most every `intervalMs`, one part per task, so that no single main-thread task
// is long while training streams in.  Timers, not requestAnimationFrame: a page that is not being painted
// (hidden, or headless before its first frame) would otherwise never get its last update.

export class ThrottledRenderer {
  /**
   * @param {{parts: () => ((context) => void)[], context: () => object, intervalMs: number,
   *          alive: () => boolean}} options  alive: false skips drawing (e.g. the element left the page)
   */
  constructor({ parts, context, intervalMs, alive }) {
    this._parts = parts;
    this._context = context;
    this._interval = intervalMs;
    this._alive = alive;
    this._pending = false;
    this._again = false;
    this._last = 0;
  }

  /** Render soon (coalesced with other requests). */
  schedule() {
    if (this._pending) {
      this._again = true;
      return;
    }
    this._pending = true;
    this._again = false;
    const wait = Math.max(0, this._interval - (performance.now() - this._last));
    const parts = this._parts();
    const next = (i) => setTimeout(() => {
      try {
        if (this._alive()) parts[i](this._context());
      } finally {
        if (i + 1 < parts.length) {
          next(i + 1);
        } else {
          this._pending = false;
          // A change that arrived while the parts were rendering may have missed an earlier part.
          if (this._again) this.schedule();
        }
      }
    }, i === 0 ? wait : 0);
    this._last = performance.now() + wait;
    next(0);
  }

  /** Everything at once, now (after a settings change). */
  now() {
    this._last = performance.now();
    const context = this._context();
    for (const part of this._parts()) part(context);
  }
}
