// A ResizeObserver that never reports a "ResizeObserver loop completed with undelivered notifications" error to
// the host page: the work a resize causes (which changes layout, and would be observed again in the same frame)
// runs in the next animation frame, at most once a frame, and only when the observed size really changed.

/**
 * @param {Element} element  @param {(width: number, height: number) => void} onResize (CSS pixels, rounded)
 * @returns {{disconnect: () => void}}
 */
export function watchSize(element, onResize) {
  let last = null;
  let frame = 0;
  let size = null;
  const observer = new ResizeObserver((entries) => {
    const box = entries[entries.length - 1].contentRect;
    size = [Math.round(box.width), Math.round(box.height)];
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      if (last && last[0] === size[0] && last[1] === size[1]) return;
      last = size;
      onResize(size[0], size[1]);
    });
  });
  observer.observe(element);
  return {
    disconnect() {
      observer.disconnect();
      cancelAnimationFrame(frame);
      frame = 0;
    },
  };
}
