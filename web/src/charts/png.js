// A chart as a PNG: its title, its legend and its canvas on the theme's background.

/**
 * @param {{title: string, canvas: HTMLCanvasElement, legend: {label: string, colour: string, dash?: number[]}[],
 *          theme: object}} parts
 * @returns {Promise<Blob>}
 */
export function composePng({ title, canvas, legend, theme }) {
  const ratio = canvas.width / Math.max(1, canvas.clientWidth || canvas.width);
  const pad = Math.round(12 * ratio);
  const line = Math.round(20 * ratio);
  const out = document.createElement('canvas');
  out.width = canvas.width + 2 * pad;
  out.height = canvas.height + 2 * pad + line * (legend.length ? 2 : 1);
  const ctx = out.getContext('2d');
  ctx.fillStyle = theme.surface;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.fillStyle = theme.text;
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${Math.round(14 * ratio)}px ${theme.font}`;
  ctx.fillText(title, pad, pad + line / 2);
  ctx.font = `${Math.round(12 * ratio)}px ${theme.font}`;
  let x = pad;
  const y = pad + line * 1.5;
  for (const item of legend) {
    ctx.strokeStyle = item.colour;
    ctx.lineWidth = 2 * ratio;
    ctx.setLineDash((item.dash ?? []).map((d) => d * ratio));
    ctx.beginPath();
    ctx.moveTo(x, y);
    ctx.lineTo(x + 18 * ratio, y);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = theme.text;
    ctx.fillText(item.label, x + 24 * ratio, y);
    x += 24 * ratio + ctx.measureText(item.label).width + 16 * ratio;
  }
  ctx.drawImage(canvas, pad, pad + line * (legend.length ? 2 : 1));
  return new Promise((resolve, reject) => out.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'));
}
