// Under each side's field the editor shows the side's pictures and sounds as thumbnails, read from its Markdown,
// each with a button that takes it out of the text.
import { describe, expect, it } from 'vitest';
import { filesOf, withoutFile } from '../../src/features/cards/side-files.ts';

const picture = '/media/0b5d6c1e-8f47-4a36-9d7c-6a8f0e2b1c3d/heart%20diagram.png';
const sound = '/media/6a8f0e2b-1c3d-4a36-9d7c-0b5d6c1e8f47/bonjour.mp3';

describe("a side's files", () => {
  it('are each picture and sound the side shows, once, named as the learner named them', () => {
    const text = `Label the ventricles\n![heart diagram](${picture})\nListen: ![Sound: bonjour](${sound}) and again ![Sound: bonjour](${sound})`;
    expect(filesOf(text)).toEqual([
      { address: picture, name: 'heart diagram.png', sound: false },
      { address: sound, name: 'bonjour.mp3', sound: true },
    ]);
  });

  it('are none for a side without files, or with another site’s pictures', () => {
    expect(filesOf('What is the capital of France?')).toEqual([]);
    expect(filesOf('![logo](https://example.com/media/logo.png)')).toEqual([]);
  });

  it('can be taken out: the line that held only the file goes with it, other text stays', () => {
    const text = `Label the ventricles\n![heart diagram](${picture})\nListen: ![Sound: bonjour](${sound}) now`;
    expect(withoutFile(text, picture)).toBe(`Label the ventricles\nListen: ![Sound: bonjour](${sound}) now`);
    expect(withoutFile(text, sound)).toBe(`Label the ventricles\n![heart diagram](${picture})\nListen: now`);
  });

  it('leaves a side that does not show the file as it was', () => {
    const text = `Line one\n\nLine three  with two spaces`;
    expect(withoutFile(text, picture)).toBe(text);
  });
});
