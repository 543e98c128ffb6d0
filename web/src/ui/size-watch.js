// A ResizeObserver that never reports a "ResizeObserver loop completed with undelivered notifications" error to
// the host page: the work a resize causes (which changes layout, and would be observed again in the same frame)
// runs in a coming animation frame (the page's one frame loop, frame-scheduler.js), at most once a frame, and
// only when the observed size really changed.

import { pageFrames } from './frame-scheduler.js';

/**
 * @param {Element} element  @param {(width: number, height: number) => void} onResize (CSS pixels, rounded)
 * @returns {{disconnect: () => void}}
 */
export function watchSize(element, onResize) {
  let last = null;
  let size = null;
  const job = () => {
    if (last && last[0] === size[0] && last[1] === size[1]) return;
    last = size;
    onResize(size[0], size[1]);
  };
  const observer = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    size = [Math.round(box.width), Math.round(box.height)];
    pageFrames.request(job);
  });
  observer.observe(element);
  return {
    disconnect() {
      observer.disconnect();
      pageFrames.cancel(job);
    },
  };
}
