// A figure around a canvas that is redrawn at the device pixel ratio whenever its box resizes.
// The lab's own canvas charts (heatmap, histogram) build on it; line charts use uPlot.

import { h } from '../ui/dom.js';
import { composePng } from './png.js';
import { watchSize } from '../ui/size-watch.js';

export class CanvasFigure {
  /**
   * @param {{title: string, name: string, height: number, theme: () => object, draw: (ctx, width, height, theme) => void,
   *          description: string}} options  width and height in CSS pixels
   */
  constructor({ title, name, height, theme, draw, description }) {
    this.options = { title, height, theme, draw };
    this.canvas = h('canvas', { attrs: { role: 'img', 'aria-label': description ?? title } });
    this.title = h('span', { class: 'chart-title', text: title });
    this.tools = h('span', { class: 'chart-tools' });
    this.caption = h('div', { class: 'chart-readout' });
    this.element = h('figure', { class: 'chart', attrs: { 'data-chart': name } }, [
      h('figcaption', {}, [this.title, this.tools]), h('div', { class: 'chart-canvas' }, [this.canvas]), this.caption]);
    this.resizeObserver = watchSize(this.element, () => this.redraw());
  }

  addTool(element) { this.tools.append(element); }

  setTitle(text) {
    this.options.title = text;
    this.title.textContent = text;
  }

  redraw() {
    const width = this.canvas.parentElement?.clientWidth ?? 0;
    if (width < 10) return;
    const ratio = devicePixelRatio || 1;
    const height = this.options.height;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    const theme = this.options.theme();
    ctx.fillStyle = theme.surface;
    ctx.fillRect(0, 0, width, height);
    this.options.draw(ctx, width, height, theme);
  }

  /** @param {{label, colour, dash?}[]} legend */
  toPng(legend = []) {
    return composePng({ title: this.options.title, canvas: this.canvas, legend, theme: this.options.theme() });
  }

  destroy() { this.resizeObserver.disconnect(); }
}
