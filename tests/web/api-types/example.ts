// What a lesson page written in TypeScript does with the lab; `tsc --noEmit` must accept every line, and
// reject each line marked @ts-expect-error (so the declarations are neither missing nor too loose).
import type { SqrtdkAnswerDetail, SqrtdkFrameCommand, SqrtdkFrameMessage, SqrtdkLabElement, SqrtdkSettings } from 'sqrtdk-lab';

const lab = document.querySelector('sqrtdk-lab');
if (lab) {
  lab.addEventListener('sqrtdk-answer', (event) => {
    const answer: SqrtdkAnswerDetail = event.detail;
    const ratio: number | null = answer.ratio;
    const firstSeed: number | null = answer.variants[0].runs[0].stepsToThreshold;
    console.log(answer.sentence, ratio, firstSeed, answer.settings.steps);
  });
  lab.addEventListener('sqrtdk-error', (event) => console.log(event.detail.kind, event.detail.message));
  lab.settings = { dk: 256, variants: ['scaled', 'unscaled'], hide: ['seed', 'share'] };
  lab.settings = 'dk=256&seeds=1';
  const settings: SqrtdkSettings = lab.settings;
  const dk: number = settings.dk;
  lab.start();
  lab.pause();
  lab.reset();
  const csv: string = lab.exportData('csv');
  const result: SqrtdkAnswerDetail | null = lab.result;
  console.log(dk, csv, result);
  // @ts-expect-error: not an export format
  lab.exportData('xml');
  // @ts-expect-error: d_model is one of 16, 32, 64, 128, 256
  lab.settings = { dModel: 100 };
  // @ts-expect-error: not a variant
  lab.settings = { variants: ['fast'] };
  // @ts-expect-error: not a setting
  lab.settings = { speed: 2 };
  // @ts-expect-error: result is read-only
  lab.result = null;
  // @ts-expect-error: no such event detail member
  lab.addEventListener('sqrtdk-progress', (event) => event.detail.percent);
}

document.addEventListener('sqrtdk-progress', (event) => console.log(event.detail.stepsDone / event.detail.stepsPlanned));
const created: SqrtdkLabElement = document.createElement('sqrtdk-lab');
created.setAttribute('panels', 'train');

window.addEventListener('message', (event: MessageEvent<SqrtdkFrameMessage>) => {
  if (event.data.type === 'sqrtdk-height') console.log(event.data.height);
  if (event.data.type === 'sqrtdk-answer') console.log(event.data.detail.sentence);
});
const command: SqrtdkFrameCommand = { type: 'settings', settings: { steps: 200 } };
console.log(command);
