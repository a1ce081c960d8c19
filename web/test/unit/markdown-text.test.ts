// A card's Markdown as a line of text: as Browse shows a card (its pictures and sounds named) and as a typed answer
// asks to be typed (them left out).
import { describe, expect, it } from 'vitest';
import { markdownText } from '../../src/lib/markdown-text';

describe('a card as a line of text', () => {
  it('names its pictures and sounds where the text stands for the card, and leaves them out for typing', () => {
    const sides = '![a mouth](/api/media/1/mouth.png) la boca ![](/api/media/3/x.png) [sound](/api/media/2/boca.mp3)';
    expect(markdownText(sides, { media: 'named' })).toBe('[a mouth] la boca [•] sound');
    expect(markdownText(sides, { media: 'left out' })).toBe('la boca');
  });

  it('reveals cloze deletions, keeps links by their words, and leaves marks out but not the characters of words', () => {
    const named = (markdown: string) => markdownText(markdown, { media: 'named' });
    expect(named('The capital of {{c1::France}} is {{c2::Paris::city}}')).toBe('The capital of France is Paris');
    expect(named('# **Café**\n> $x^2$ and snake_case, [Lisbon](https://example.org/lisbon)')).toBe(
      'Café x^2 and snake_case, Lisbon',
    );
    expect(named('1. one\n2. two \\* three <b>four</b>')).toBe('one two * three four');
  });

  it('reads an occlusion card as its header, its picture and the labels of its shapes', () => {
    const front = [
      'The heart',
      '```occlusion',
      '![Heart](/media/0b6b3a58-2f8e-4a53-9e1f-3b1e43d2c0aa/heart.png)',
      '{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:label=Ratio 1\\:2:oi=1}}',
      '{{c2::image-occlusion:ellipse:left=.5:top=.5:rx=.1:ry=.05:oi=1}}',
      '```',
    ].join('\n');
    expect(markdownText(front, { media: 'named' })).toBe('The heart [Heart] Ratio 1:2');
  });
});
