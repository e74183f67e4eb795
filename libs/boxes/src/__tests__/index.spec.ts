import * as fs from 'node:fs';
import * as path from 'node:path';
import * as boxes from '../index';

describe('public entry', () => {
  it('exports the whole API', () => {
    const expected = [
      'boxToRect',
      'rectToBox',
      'roundHalfAwayFromZero',
      'roundBox',
      'clampRect',
      'clampBox',
      'boxInsideImage',
      'iou',
      'rectIou',
      'median',
      'boxInFrame',
      'sameSize',
      'imageToScreen',
      'screenToImage',
      'imageRectToScreen',
      'screenRectToImage',
      'zoomAt',
      'fitToScreen',
      'consensus',
      'peerAgreement',
    ];
    for (const name of expected) expect(typeof (boxes as Record<string, unknown>)[name]).toBe('function');
    expect(boxes.DEFAULT_IOU_THRESHOLD).toBe(0.5);
    expect(boxes.EDGE_ROUNDING_SLACK).toBe(0.5);
  });

  it('imports nothing outside the library, so it runs in the browser', () => {
    // Test files may use Node (this one does); the shipped sources may not.
    const dir = path.join(__dirname, '..');
    const sources = fs.readdirSync(dir).filter((f) => f.endsWith('.ts'));
    expect(sources.length).toBeGreaterThan(5);
    let relativeImports = 0;
    for (const file of sources) {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const specifiers = [...text.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map((m) => m[1]);
      for (const spec of specifiers) expect(`${file}: ${spec}`).toMatch(/: \.\/[a-z.-]+$/);
      relativeImports += specifiers.length;
      expect(text).not.toMatch(/\brequire\(|\bimport\(|\bprocess\.|\bBuffer\b/);
    }
    expect(relativeImports).toBeGreaterThan(10); // the scan really saw the imports
  });
});
