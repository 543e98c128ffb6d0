// Renders a view in parts at most every `intervalMs`, one part per task, so that no single main-thread task
// is long while training streams in.  The parts run on timers, or, given `frames` (the page's frame scheduler,
// frame-scheduler.js), as jobs of the page's animation frames: the page then draws at most once a frame, and not
// at all while its tab is hidden (no frames).  While `shown()` is false (the view is off screen, or its tab
// hidden) nothing renders; resume() renders what was held back.

export class ThrottledRenderer {
  /**
   * @param {{parts: () => ((context) => void)[], context: () => object, intervalMs: number,
   *          alive: () => boolean, shown?: () => boolean, frames?: {request: (job: () => void) => void}}} options
   *   alive: false skips drawing (e.g. the element left the page); shown: false holds drawing back until resume()
   */
  constructor({ parts, context, intervalMs, alive, shown = () => true, frames = null }) {
    this._parts = parts;
    this._context = context;
    this._interval = intervalMs;
    this._alive = alive;
    this._shown = shown;
    this._frames = frames;
    this._pending = false;  // a render is on its way (waiting for its interval, or part-way through its parts)
    this._waiting = 0;      // the timer of that wait, while it waits
    this._again = null;     // a request that came while the parts ran: 'soon' (schedule) or 'now'
    this._held = false;     // a request came while not shown
    this._last = 0;
  }

  /** Render soon (coalesced with other requests, at most every interval). */
  schedule() { this._request(false); }

  /**
   * Everything now (after a settings change), without waiting for the interval: at once on timers; in frames,
   * from the next frame on, one part per frame job (so that a frame's task stays short however many parts
   * there are).  Held while not shown.
   */
  now() {
    if (this._frames) {
      this._request(true);
      return;
    }
    if (!this._shown()) {
      this._held = true;
      return;
    }
    this._last = performance.now();
    const context = this._context();
    for (const part of this._parts()) part(context);
  }

  /** Shown again: render what was held back. */
  resume() {
    if (!this._held || !this._shown()) return;
    this._held = false;
    this._request(true);
  }

  _request(urgent) {
    if (!this._shown()) {
      this._held = true;
      return;
    }
    if (this._pending) {
      if (urgent && this._waiting) {  // cut the wait short
        clearTimeout(this._waiting);
        this._waiting = 0;
        this._start();
      } else if (this._waiting === 0) {
        // The parts are running: one of them may already have drawn the old state.
        this._again = urgent || this._again === 'now' ? 'now' : 'soon';
      }
      return;
    }
    this._pending = true;
    this._again = null;
    const wait = urgent ? 0 : Math.max(0, this._interval - (performance.now() - this._last));
    this._last = performance.now() + wait;
    if (wait > 0) {
      this._waiting = setTimeout(() => {
        this._waiting = 0;
        this._start();
      }, wait);
    } else {
      this._start();
    }
  }

  /** Run the parts, one per task (or frame job). */
  _start() {
    const parts = this._parts();
    const queue = (i) => (this._frames ? this._frames.request(() => run(i)) : setTimeout(() => run(i), 0));
    const finish = () => {
      this._pending = false;
      const again = this._again;
      this._again = null;
      if (again) this._request(again === 'now');
    };
    const run = (i) => {
      // Hidden part-way: the rest waits for resume(), which renders every part again.
      if (!this._shown()) {
        this._pending = false;
        this._again = null;
        this._held = true;
        return;
      }
      try {
        if (this._alive()) parts[i](this._context());
      } finally {
        if (i + 1 < parts.length) queue(i + 1);
        else finish();
      }
    };
    if (parts.length === 0) finish();
    else queue(0);
  }
}
