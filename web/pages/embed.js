// The host side of embed.html (a lesson author's code, shown in the page): mark the exercise done when the
// lab's answer arrives, and size the iframe from the height messages of lab.html.

// 2. The exercise: done when sqrtdk-answer arrives.
const lab = document.getElementById('exercise');
const status = document.getElementById('exercise-status');

lab?.addEventListener('sqrtdk-answer', (event) => {
  const answer = event.detail; // the measured comparison
  if (!status) return;
  status.textContent = `Exercise done. ${answer.sentence}`;
  status.dataset.done = 'true';
  // e.g. fetch('/progress', {method: 'POST', body: JSON.stringify(answer)})
}, { once: true });

// 3. The iframe: it names this page's origin, and this page takes its height messages from the lab's origin
// only.  A file:// page has no origin to name, so there the iframe keeps its CSS height.
const frame = document.querySelector('#frame');
const labUrl = new URL('lab.html', location.href);
const settings = { panels: 'softmax', dk: '64', hide: 'share' };
if (location.protocol === 'http:' || location.protocol === 'https:') settings.parentOrigin = location.origin;
labUrl.hash = new URLSearchParams(settings).toString();
frame.src = labUrl.href;
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || event.origin !== labUrl.origin) return;
  if (event.data?.type === 'sqrtdk-height') frame.style.height = `${event.data.height + frame.offsetHeight - frame.clientHeight}px`; // + borders
});
