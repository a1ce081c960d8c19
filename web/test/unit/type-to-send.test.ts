// The type the card editor sends for a chosen file: the browser's word when a card holds that type, else the
// one its extension has in the contracts, so a sound in an .mp4 or .webm (which browsers call a video) is
// sent as a sound and cards reads whether it is one.
import { describe, expect, it } from 'vitest';
import { typeToSend } from '../../src/entities/media/type-to-send.ts';

describe('the type a chosen file is sent as', () => {
  it("is the browser's when a card holds it", () => {
    expect(typeToSend({ name: 'cell.png', type: 'image/png' })).toBe('image/png');
    expect(typeToSend({ name: 'bonjour.m4a', type: 'audio/x-m4a' })).toBe('audio/x-m4a');
  });

  it('is the extension’s for a sound a browser calls a video, or a file it has no word for', () => {
    expect(typeToSend({ name: 'lecture.mp4', type: 'video/mp4' })).toBe('audio/mp4');
    expect(typeToSend({ name: 'voice.webm', type: 'video/webm' })).toBe('audio/webm');
    expect(typeToSend({ name: 'take.flac', type: '' })).toBe('audio/flac');
  });

  it("stays the browser's for what a card does not hold (a collection to import)", () => {
    expect(typeToSend({ name: 'deck.csv', type: 'text/csv' })).toBe('text/csv');
    expect(typeToSend({ name: 'deck.apkg', type: '' })).toBe('application/octet-stream');
  });
});
