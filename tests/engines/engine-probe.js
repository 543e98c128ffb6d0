// Put first into every page the engine suite opens (tests/engines/site.mjs): records what the suite checks in
// every engine alike, WebDriver having no console or error events of its own.  Window errors, unhandled
// rejections, console errors and Content-Security-Policy violations are errors; the lab's events are recorded.
window.engineProbe = { errors: [], events: [] };
(() => {
  const { errors, events } = window.engineProbe;
  // In a frame (lab.html in the host page's iframe) an error is also posted to the parent, whose window the
  // suite reads: the host page records what its lab frame posts (tests/web/pages/api-frame-host.html).
  const record = (text) => {
    errors.push(text);
    if (window.parent !== window) window.parent.postMessage({ type: 'engine-probe-error', error: text }, '*');
  };
  addEventListener('error', (e) => record(`error: ${e.message}`));
  addEventListener('unhandledrejection', (e) => record(`unhandled rejection: ${e.reason}`));
  document.addEventListener('securitypolicyviolation', (e) => record(`csp: ${e.violatedDirective} ${e.blockedURI}`));
  const consoleError = console.error;
  console.error = (...args) => {
    record(`console: ${args.join(' ')}`);
    consoleError.apply(console, args);
  };
  for (const type of ['sqrtdk-ready', 'sqrtdk-progress', 'sqrtdk-answer', 'sqrtdk-diverged', 'sqrtdk-error']) {
    document.addEventListener(type, (e) => events.push({ type, detail: e.detail }));
  }
})();
