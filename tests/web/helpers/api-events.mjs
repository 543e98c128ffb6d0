// Records every sqrtdk-* event that reaches the document (they bubble and are composed), from before the
// page's scripts run, for the API tests.
import { declaredInterface } from './declarations.mjs';

export const EVENT_NAMES = ['sqrtdk-ready', 'sqrtdk-progress', 'sqrtdk-answer', 'sqrtdk-diverged', 'sqrtdk-error'];

/** Install the recorder: window.sqrtdkEvents = [{name, detail, t, bubbles, composed, target}]. */
export async function recordEvents(page) {
  await page.addInitScript((names) => {
    window.sqrtdkEvents = [];
    for (const name of names) {
      document.addEventListener(name, (event) => {
        window.sqrtdkEvents.push({ name, detail: event.detail, t: performance.now(), bubbles: event.bubbles,
          composed: event.composed, target: event.target.id || event.target.tagName.toLowerCase() });
      });
    }
  }, EVENT_NAMES);
}

/** The events recorded so far, optionally of one name. */
export async function eventsOf(page, name) {
  const all = await page.evaluate(() => window.sqrtdkEvents);
  return name ? all.filter((e) => e.name === name) : all;
}

/** Wait until `count` events named `name` (matching `where`, a function source over the detail) arrived. */
export async function waitForEvents(page, name, count = 1, timeout = 60000) {
  await page.waitForFunction(([n, c]) => window.sqrtdkEvents.filter((e) => e.name === n).length >= c, [name, count], { timeout });
  return eventsOf(page, name);
}

/** Member names of a declared interface (web/types/sqrtdk-lab.d.ts): {required, all}. */
export function declaredKeys(name) {
  const members = declaredInterface(name);
  return {
    required: [...members].filter(([, m]) => !m.optional).map(([k]) => k).sort(),
    all: [...members.keys()].sort(),
  };
}

/** Does a runtime detail have every required declared member and nothing undeclared? */
export function matchesDeclaration(detail, name) {
  const { required, all } = declaredKeys(name);
  const keys = Object.keys(detail).sort();
  return required.every((k) => keys.includes(k)) && keys.every((k) => all.includes(k));
}
