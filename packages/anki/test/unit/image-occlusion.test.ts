// Anki's Image Occlusion notes: recognised by their stock kind or their template, their picture read from the
// Image field. (The shapes' own format is @engram/contracts/occlusion's, tested there.)
import { describe, expect, it } from 'vitest';
import { isImageOcclusion, pictureOf } from '../../src/image-occlusion.ts';

describe('Image Occlusion notes', () => {
  it('are recognised by their stock kind or by their template', () => {
    expect(isImageOcclusion({ originalStockKind: 'imageOcclusion', templates: [] })).toBe(true);
    expect(
      isImageOcclusion({ originalStockKind: undefined, templates: [{ qfmt: '<div id="image-occlusion-container">' }] }),
    ).toBe(true);
    expect(isImageOcclusion({ originalStockKind: 'cloze', templates: [{ qfmt: '{{cloze:Text}}' }] })).toBe(false);
  });

  it('show the picture of their Image field, by its name in the package', () => {
    expect(pictureOf('<img src="paste-ab21b25dd3e4ba4af2a1d8bdfa4c47455e53abac.jpg">')).toBe(
      'paste-ab21b25dd3e4ba4af2a1d8bdfa4c47455e53abac.jpg',
    );
    expect(pictureOf('<img alt="x" src=\'heart%20&amp;%20lungs.png\'>')).toBe('heart & lungs.png');
    expect(pictureOf('no picture')).toBeUndefined();
  });
});
