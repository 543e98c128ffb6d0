// The label placer's geometry, without a browser: a polyline crosses a box when any of its segments passes through
// it (a steep segment between two points outside the box included), and place() moves a label off a curve.
import test from 'node:test';
import assert from 'node:assert/strict';
import { LabelPlacer, crosses } from '../../web/src/charts/label-placer.js';

const box = { x: 10, y: 10, w: 20, h: 10 };

test('a polyline crosses a box through a point inside or a segment passing it, and not beside it', () => {
  assert.equal(crosses([{ x: 0, y: 15 }, { x: 40, y: 15 }], box), true);     // through, no point inside
  assert.equal(crosses([{ x: 20, y: 0 }, { x: 21, y: 40 }], box), true);     // steep: both ends outside
  assert.equal(crosses([{ x: 0, y: 0 }, { x: 40, y: 5 }], box), false);      // above
  assert.equal(crosses([{ x: 31, y: 0 }, { x: 40, y: 40 }], box), false);    // right of it
  assert.equal(crosses([{ x: 15, y: 12 }], box), true);                      // a single point inside
  assert.equal(crosses([], box), false);
});

test('place() moves a label off a curve, up to its reach, or leaves it out', () => {
  // A fixed-width font: every character 6 px wide, 9 px up and 3 px down.
  const ctx = { measureText: (t) => ({ width: 6 * t.length, actualBoundingBoxAscent: 9, actualBoundingBoxDescent: 3 }) };
  const curve = [{ x: 0, y: 50 }, { x: 200, y: 50 }];  // a flat line at y = 50
  const placer = new LabelPlacer(ctx, { left: 0, top: 0, width: 200, height: 100 }, 1, [curve]);
  const y = placer.place('level', 190, 54, 'right', 1);
  assert.ok(y - 9 > 52 || y + 3 < 48, `baseline ${y} clear of the line`);
  const blocked = new LabelPlacer(ctx, { left: 0, top: 0, width: 200, height: 100 }, 1,
    [0, 13, 26, 39, 52, 65, 78].map((h) => [{ x: 0, y: h + 6 }, { x: 200, y: h + 6 }]));
  assert.equal(blocked.place('level', 190, 54, 'right', 1, 2), null);
});
