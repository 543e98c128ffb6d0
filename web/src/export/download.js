// Saving a Blob as a file: an <a download> clicked programmatically (no network, works from file://).

const REVOKE_AFTER_MS = 30000;

/** @param {Blob} blob  @param {string} filename */
export function downloadBlob(blob, filename) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** @param {string} text  @param {string} filename  @param {string} type */
export function downloadText(text, filename, type) {
  downloadBlob(new Blob([text], { type }), filename);
}
