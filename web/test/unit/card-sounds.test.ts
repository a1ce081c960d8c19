// A card's sound is written as an image whose file is a sound; the renderer draws the browser's own player
// for it, and only for Engram's own files (/media/<id>/<name>), never for another site's.
import { describe, expect, it } from 'vitest';
import { markdownOf } from '../../src/entities/media/card-markdown.ts';
import { renderMarkdown } from '../../src/lib/markdown.ts';

const id = '0b5d6c1e-8f47-4a36-9d7c-6a8f0e2b1c3d';

describe('sounds and images in a card', () => {
  it('draws a player for a card file that is a sound, labelled by its text', () => {
    const html = renderMarkdown(`Listen: ![Sound: bonjour](/media/${id}/bonjour.mp3)`);
    expect(html).toContain(`<audio class="card-sound" controls preload="metadata" src="/media/${id}/bonjour.mp3"`);
    expect(html).toContain('aria-label="Sound: bonjour"');
    expect(html).not.toContain('<img');
  });

  it.each(['voice.flac', 'voice.webm', 'voice.opus', 'VOICE.WAV'])(
    'draws a player for every kind of sound cards keeps, %s among them',
    (name) => {
      const html = renderMarkdown(`![Sound: voice](/media/${id}/${name})`);
      expect(html).toContain(`<audio class="card-sound" controls preload="metadata" src="/media/${id}/${name}"`);
      expect(html).not.toContain('<img');
    },
  );

  it('shows a card file that is an image as an image', () => {
    const html = renderMarkdown(`![cell](/media/${id}/cell.png)`);
    expect(html).toContain(`<img src="/media/${id}/cell.png" alt="cell">`);
  });

  it("never plays another site's sound: it stays a link", () => {
    const html = renderMarkdown('![Sound: x](https://tracker.example/x.mp3)');
    expect(html).not.toContain('<audio');
    expect(html).toContain('href="https://tracker.example/x.mp3"');
  });

  it('writes a kept file into Markdown the renderer reads back', () => {
    expect(markdownOf({ name: 'bonjour.mp3', path: `/media/${id}/bonjour.mp3`, kind: 'audio' })).toBe(
      `![Sound: bonjour](/media/${id}/bonjour.mp3)`,
    );
    expect(markdownOf({ name: 'a [b].png', path: `/media/${id}/a%20%5Bb%5D.png`, kind: 'image' })).toBe(
      `![a b](/media/${id}/a%20%5Bb%5D.png)`,
    );
  });
});
