// The control API of one connected <sqrtdk-lab> (the element forwards its methods here): start, pause,
// reset, settings, result, exportData.  A call that cannot be honoured throws an Error with a one-line
// message and changes nothing.

import { strictSettings, settingsCopy } from './settings.js';
import { currentAnswer } from './answer-detail.js';
import { curvesToCsv, curvesToJson } from '../export/curves-export.js';
import { STRINGS } from '../ui/strings.js';

export const EXPORT_GENERATOR = 'sqrtdk lab (web)';

export class LabApi {
  /**
   * @param {{store: import('../state/store.js').Store, events: import('./lab-events.js').LabEvents,
   *          exercise: () => (import('../training/exercise.js').Exercise|null)}} deps
   */
  constructor({ store, events, exercise }) {
    this.store = store;
    this.events = events;
    this.exerciseOf = exercise;
  }

  start() { this._exercise('start()').start(); }

  pause() { this._exercise('pause()').pause(); }

  reset() { this._exercise('reset()').reset(); }

  get settings() { return settingsCopy(this.store.state); }

  set settings(input) {
    this.store.replace(strictSettings(input, this.store.state), 'api');
  }

  get result() { return this.events.result; }

  /** The exercise's curves as text, exactly as the panel's Export buttons save them. */
  exportData(format) {
    if (format !== 'csv' && format !== 'json') throw new Error(STRINGS.badExportFormat(JSON.stringify(format) ?? String(format)));
    const exercise = this._exercise('exportData()');
    if (format === 'csv') return curvesToCsv(exercise.runs);
    const state = this.store.state;
    const json = curvesToJson({ settings: { ...state }, runs: exercise.runs, answer: currentAnswer(exercise, state), generator: EXPORT_GENERATOR });
    return `${JSON.stringify(json, null, 1)}\n`;
  }

  /** The training panel's exercise, when the train panel is shown. */
  _exercise(member) {
    const exercise = this.store.state.panels.includes('train') ? this.exerciseOf() : null;
    if (!exercise) throw new Error(STRINGS.noExercise(member));
    return exercise;
  }
}
