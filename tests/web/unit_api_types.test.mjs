// The TypeScript declarations (web/types/sqrtdk-lab.d.ts) against the code: tsc accepts a lesson page's
// use of the element and rejects the misuses marked @ts-expect-error; the declared settings, attributes and
// events are exactly the lab's.  The settings and attribute types are generated (web/settings-docs.mjs, checked
// by unit_settings_docs.test.mjs); these tests read them back through the compiler, so a wrong type mapping in
// the generator fails here.
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './helpers/browser.mjs';
import { declaredInterface, tscPath } from './helpers/declarations.mjs';
import { PROPERTIES } from '../../web/src/state/properties.js';
import { EVENT_NAMES } from '../../web/src/api/lab-events.js';
import { ELEMENT_ATTRIBUTES } from '../../web/src/element/element-attributes.js';

test('tsc --noEmit accepts the example and rejects each marked misuse', () => {
  try {
    execFileSync(process.execPath, [tscPath(), '-p', join(REPO, 'tests/web/api-types/tsconfig.json')], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    assert.fail(`tsc failed:\n${error.stdout}${error.stderr}`);
  }
});

/** The declared type a property of the table must have. */
function expectedType(p) {
  const literals = (values) => ({ literals: [...values].sort() });
  switch (p.type) {
    case 'int':
    case 'number': return p.choices ? literals(p.choices) : 'number';
    case 'bool': return 'boolean';
    case 'choice': return literals(p.choices);
    case 'list': return { arrayOf: literals(p.choices) };
    default: throw new Error(`unknown type ${p.type}`);
  }
}

test('SqrtdkSettings declares every setting of the property table, with its type and choices', () => {
  const declared = declaredInterface('SqrtdkSettings');
  assert.deepEqual([...declared.keys()].sort(), PROPERTIES.map((p) => p.key).sort());
  for (const p of PROPERTIES) {
    assert.equal(declared.get(p.key).optional, false, p.key);
    assert.deepEqual(declared.get(p.key).type, expectedType(p), p.key);
  }
});

test('SqrtdkLabAttributes declares every attribute (optional strings) and the element\'s own ones', () => {
  const declared = declaredInterface('SqrtdkLabAttributes');
  const own = Object.values(ELEMENT_ATTRIBUTES);
  assert.deepEqual([...declared.keys()].sort(), [...PROPERTIES.map((p) => p.attribute), ...own.map((a) => a.name)].sort());
  // A flag is '' | boolean, which the helper reads as 'other' (a literal beside booleans); the rest strings.
  for (const a of own) assert.deepEqual(declared.get(a.name), { optional: true, type: a.flag ? 'other' : 'string' }, a.name);
  for (const p of PROPERTIES) assert.deepEqual(declared.get(p.attribute), { optional: true, type: 'string' }, p.attribute);
});

test('the declared event map is exactly the events the element dispatches', () => {
  assert.deepEqual([...declaredInterface('SqrtdkLabEventMap').keys()].sort(), [...EVENT_NAMES].sort());
});

test('the answer detail declares every number of the core\'s curve definitions', async () => {
  const { readFileSync } = await import('node:fs');
  const { DECLARATIONS } = await import('./helpers/declarations.mjs');
  const { curveDefinitions } = await import('../../web/src/core-tables.js');
  const text = readFileSync(DECLARATIONS, 'utf8');
  const start = text.indexOf('  definitions: {');
  const block = text.slice(start, text.indexOf('text: {', start));
  assert.deepEqual([...block.matchAll(/(\w+): number/g)].map((m) => m[1]).sort(), Object.keys(curveDefinitions).sort());
});
