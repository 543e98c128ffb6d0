// The control API of one connected <sqrtdk-lab> (the element forwards its methods here): start, pause,
// reset, settings, result, exportData.  A call that cannot be honoured throws an Error with a one-line
// message and changes nothing.

import { strictSettings, settingsCopy } from './settings.js';
import { exportText } from '../export/curves-export.js';
import { STRINGS } from '../ui/strings.js';

export class LabApi {
  /**
   * @param {{store: import('../state/store.js').Store, events: import('./lab-events.js').LabEvents,
   *          trainPanel: () => (import('../exercise/train-panel.js').TrainPanel|null), runLimit?: () => number}} deps
   *   runLimit: the most one run may use on the page (the settings a run can never fit in are refused)
   */
  constructor({ store, events, trainPanel, runLimit = () => Infinity }) {
    this.runLimit = runLimit;
    this.store = store;
    this.events = events;
    this.trainPanelOf = trainPanel;
  }

  // The same actions as the panel's buttons (Start also applies settings changed while paused).
  start() { this._panel('start()').start(); }

  pause() { return this._panel('pause()').pause(); }

  reset() { this._panel('reset()').reset(); }

  get settings() { return settingsCopy(this.store.state); }

  set settings(input) {
    this.store.replace(strictSettings(input, this.store.state, this.runLimit()), 'api');
  }

  get result() { return this.events.result; }

  /** The exercise's curves as text, exactly as the panel's Export buttons save them. */
  exportData(format) {
    if (format !== 'csv' && format !== 'json') throw new Error(STRINGS.badExportFormat(JSON.stringify(format) ?? String(format)));
    return exportText(format, this._panel('exportData()').exportInput());
  }

  /** The training panel, when it is shown. */
  _panel(member) {
    const panel = this.store.state.panels.includes('train') ? this.trainPanelOf() : null;
    if (!panel) throw new Error(STRINGS.noExercise(member));
    return panel;
  }
}
