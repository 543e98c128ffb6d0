// Whether an element is on screen: within (or near) the viewport, by an IntersectionObserver, and in a tab that
// is shown (document.visibilityState).  A view that is not drawn while off screen redraws when it comes back.

// How near the viewport counts as on screen: a view about to be scrolled in is drawn already.
const NEAR = '200px';

/**
 * @param {Element} element  @param {() => void} onShown  called each time the element comes on screen
 * @returns {{shown: () => boolean, disconnect: () => void}}
 */
export function watchOnScreen(element, onShown) {
  let intersecting = false;  // until the observer's first report, which comes in the next frame
  const shown = () => intersecting && document.visibilityState !== 'hidden';
  const changed = () => { if (shown()) onShown(); };
  const observer = new IntersectionObserver((entries) => {
    intersecting = entries[entries.length - 1].isIntersecting;
    changed();
  }, { rootMargin: NEAR });
  observer.observe(element);
  document.addEventListener('visibilitychange', changed);
  return {
    shown,
    disconnect() {
      observer.disconnect();
      document.removeEventListener('visibilitychange', changed);
    },
  };
}
