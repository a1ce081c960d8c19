// Anki's Image Occlusion notes: shapes read from the Occlusion field as Anki 23.10 and later write it, and each
// card's picture drawn as Anki draws it.
import { describe, expect, it } from 'vitest';
import { isImageOcclusion, occlusionOverlay, occlusionShapes } from '../../src/image-occlusion.ts';

// An Occlusion field in Anki's own format: a rectangle, an ellipse and a polygon to guess (hide all, guess one:
// oi=1), and a text label that no card asks (c0).
const FIELD = [
  '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}',
  '{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}',
  '{{c3::image-occlusion:polygon:left=.6:top=.1:points=.6,.1 .9,.1 .75,.4:oi=1}}',
  '{{c0::image-occlusion:text:left=.05:top=.9:fill=#000000:text=Heart & lungs:scale=1.:fs=.05:oi=1}}',
].join('<br>');

describe('Image Occlusion notes', () => {
  it('reads every shape of the Occlusion field with its card number and mode', () => {
    expect(occlusionShapes(FIELD)).toEqual([
      { kind: 'rect', ordinal: 1, hideAll: true, left: 0.1, top: 0.2, width: 0.3, height: 0.1 },
      { kind: 'ellipse', ordinal: 2, hideAll: true, left: 0.5, top: 0.5, rx: 0.1, ry: 0.05 },
      {
        kind: 'polygon',
        ordinal: 3,
        hideAll: true,
        points: [
          [0.6, 0.1],
          [0.9, 0.1],
          [0.75, 0.4],
        ],
      },
      { kind: 'text', ordinal: 0, hideAll: true, left: 0.05, top: 0.9, text: 'Heart & lungs', fontSize: 0.05 },
    ]);
  });

  it('is recognised by its stock kind or by its template', () => {
    expect(isImageOcclusion({ originalStockKind: 'imageOcclusion', templates: [] })).toBe(true);
    expect(
      isImageOcclusion({ originalStockKind: undefined, templates: [{ qfmt: '<div id="image-occlusion-container">' }] }),
    ).toBe(true);
    expect(isImageOcclusion({ originalStockKind: 'cloze', templates: [{ qfmt: '{{cloze:Text}}' }] })).toBe(false);
  });

  it('masks the asked shape on the question, the others too when the note hides all, and outlines it on the answer', () => {
    const shapes = occlusionShapes(FIELD);
    const size = { width: 400, height: 200 };
    const question = occlusionOverlay(shapes, 1, 'question', size);
    expect(question).toContain('<rect x="40.0" y="40.0" width="120.0" height="20.0" fill="#ff8e8e"');
    expect(question).toContain('<ellipse cx="240.0" cy="110.0" rx="40.0" ry="10.0" fill="#ffeba2"');
    expect(question).toContain('<polygon points="240.0,20.0 360.0,20.0 300.0,80.0" fill="#ffeba2"');
    expect(question).toContain('>Heart &amp; lungs</text>');
    const answer = occlusionOverlay(shapes, 1, 'answer', size);
    expect(answer).toContain('<rect x="40.0" y="40.0" width="120.0" height="20.0" fill="none" stroke="#ff0000"');
    expect(answer).toContain('fill="#ffeba2"');
    // Hide one, guess one: only the asked shape is masked.
    const one = occlusionShapes(FIELD.replaceAll(':oi=1', ''));
    expect(occlusionOverlay(one, 2, 'question', size)).not.toContain('#ffeba2');
  });
});
