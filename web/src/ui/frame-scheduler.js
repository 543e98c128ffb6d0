// The page's one animation-frame loop for drawing: every element's charts (and the size watchers) hand their
// drawing to it, so the page draws in one animation-frame callback per frame however many elements it holds.
// A frame runs the queued jobs in order while the next one, if it takes as long as the longest so far, still ends
// within FRAME_BUDGET_MS, and leaves the rest to the next frame, so that a frame's task stays short (a job is never
// split: one chart's drawing).  Page-wide by design: frames are the page's, not an element's.  A hidden tab
// gets no frames (the browser's rule), so nothing queued here runs until the tab is shown again.

// Work per frame before the rest waits for the next one: well below the 50 ms of a long task, and within a
// 60 Hz frame.
const FRAME_BUDGET_MS = 8;

class FrameScheduler {
  constructor() {
    this.queue = new Set();
    this.frame = 0;
  }

  /** Run `job` in a coming frame; a job already queued runs once. */
  request(job) {
    this.queue.add(job);
    if (!this.frame) this.frame = requestAnimationFrame(() => this._run());
  }

  /** Forget `job` if it has not run yet. */
  cancel(job) { this.queue.delete(job); }

  async _run() {
    // this.frame stays set while the jobs run: a job queued meanwhile runs in this frame or in the next one's
    // single callback, requested below.
    const start = performance.now();
    let ran = 0;
    let longest = 0;
    for (const job of this.queue) {
      const began = performance.now();
      if (ran > 0 && began - start + longest > FRAME_BUDGET_MS) break;
      this.queue.delete(job);
      ran += 1;
      try {
        job();
      } catch (error) {
        // One failing job must not stop the page's drawing: it is reported as an uncaught error.
        queueMicrotask(() => { throw error; });
      }
      // uPlot draws in a microtask queued by the job: let it draw before the job's time is read.  Still this
      // frame's task (microtasks run before any other task), so the frame's drawing stays one callback.
      await null;
      longest = Math.max(longest, performance.now() - began);
    }
    this.frame = this.queue.size > 0 ? requestAnimationFrame(() => this._run()) : 0;
  }
}

/** The page's scheduler (one per page). */
export const pageFrames = new FrameScheduler();
