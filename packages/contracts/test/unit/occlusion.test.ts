// Image occlusion cards: a picture and its shapes kept in Anki's own Image Occlusion format, one review item per
// card number, each side marked for the renderer, and the fronts that cannot be one refused in words.
import { describe, expect, it } from 'vitest';
import { cardContentProblem, reviewItem, reviewOrdinals } from '../../src/cloze.ts';
import {
  MAX_OCCLUSION_CARDS,
  occlusionAsked,
  occlusionFront,
  occlusionShapes,
  occlusionShapeText,
  occlusionSide,
  parseOcclusion,
} from '../../src/occlusion.ts';

// The Occlusion field of the Image Occlusion note Anki 25 wrote in srs-converter's mixed-legacy-2.apkg
// (packages/anki/test/anki-written/SOURCES.md): a rectangle, an ellipse and a polygon, each its own card, hide
// all (oi=1), and a text label no card asks (c0).
const ANKI_WROTE = [
  '{{c1::image-occlusion:rect:left=.1167:top=.1115:width=.1619:height=.1967:oi=1}}',
  '{{c2::image-occlusion:ellipse:left=.4542:top=.2832:rx=.1093:ry=.1442:oi=1}}',
  '{{c3::image-occlusion:polygon:left=.5586:top=.5119:points=.7916,.5132 .5595,.7791 .9554,.8539 .9379,.5492:oi=1}}',
  '{{c0::image-occlusion:text:left=.0286:top=.8483:fill=#000000:text=Some text on image:scale=1.:fs=.1013:oi=1}}',
];
const PICTURE = { alt: 'The heart', src: '/media/0b6b3a58-2f8e-4a53-9e1f-3b1e43d2c0aa/heart.png' };

describe('an occlusion card', () => {
  it('reads every shape Anki writes, and writes each back exactly as Anki wrote it', () => {
    const shapes = occlusionShapes(ANKI_WROTE.join('<br>'));
    expect(shapes.map((shape) => [shape.kind, shape.ordinal, shape.hideAll])).toEqual([
      ['rect', 1, true],
      ['ellipse', 2, true],
      ['polygon', 3, true],
      ['text', 0, true],
    ]);
    expect(shapes[0]).toMatchObject({ left: 0.1167, top: 0.1115, width: 0.1619, height: 0.1967 });
    expect(shapes[2]).toMatchObject({
      points: [
        [0.7916, 0.5132],
        [0.5595, 0.7791],
        [0.9554, 0.8539],
        [0.9379, 0.5492],
      ],
    });
    expect(shapes[3]).toMatchObject({ text: 'Some text on image', fontSize: 0.1013 });
    expect(shapes.map(occlusionShapeText)).toEqual(ANKI_WROTE);
  });

  it('keeps a label with a colon as Anki escapes one, and leaves out what would end the shape', () => {
    const [shape] = occlusionShapes('{{c4::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:label=Ratio 1\\:2}}');
    expect(shape).toMatchObject({ ordinal: 4, label: 'Ratio 1:2', hideAll: false });
    const written = occlusionShapeText({ ...shape!, label: 'a}}b: c' });
    expect(written).toBe('{{c4::image-occlusion:rect:left=.1:top=.1:width=.2:height=.2:label=a  b\\: c}}');
    expect(occlusionShapes(written)[0]?.label).toBe('a  b: c');
  });

  it('holds its header, picture and shapes in its front, and reads them back', () => {
    const front = occlusionFront({
      header: 'Chambers of the heart',
      picture: PICTURE,
      shapes: occlusionShapes(ANKI_WROTE.join('')),
    });
    expect(front).toBe(
      ['Chambers of the heart', '', '```occlusion', `![The heart](${PICTURE.src})`, ...ANKI_WROTE, '```'].join('\n'),
    );
    const read = parseOcclusion(front);
    expect(read).toMatchObject({ picture: PICTURE, before: 'Chambers of the heart', after: '' });
    expect(read?.shapes).toHaveLength(4);
  });

  it('asks each card number once (shapes of one number together), never the labels', () => {
    const grouped = [...ANKI_WROTE, '{{c1::image-occlusion:rect:left=.7:top=.1:width=.1:height=.1:oi=1}}'];
    const front = occlusionFront({ picture: PICTURE, shapes: occlusionShapes(grouped.join('')) });
    expect(reviewOrdinals('occlusion', front)).toEqual([1, 2, 3]);
  });

  it("shows each review item its number's question and answer, the back below the answer", () => {
    const front = occlusionFront({ header: 'Heart', picture: PICTURE, shapes: occlusionShapes(ANKI_WROTE.join('')) });
    const { prompt, answer } = reviewItem('occlusion', 2, front, 'Four chambers');
    expect(prompt).toBe(front.replace('```occlusion\n', '```occlusion 2 question\n'));
    expect(answer).toBe(`${front.replace('```occlusion\n', '```occlusion 2 answer\n')}\n\n---\n\nFour chambers`);
    expect(occlusionAsked('occlusion 2 question')).toEqual({ ordinal: 2, side: 'question' });
    expect(occlusionAsked('occlusion')).toBeUndefined();
    expect(occlusionSide('no block here', 1, 'question')).toBe('no block here');
  });

  it('is refused without its block, its picture or a shape to ask, or with too many', () => {
    expect(cardContentProblem('occlusion', 'Just text')).toBe('noOcclusion');
    expect(
      cardContentProblem(
        'occlusion',
        '```occlusion\n{{c1::image-occlusion:rect:left=.1:top=.1:width=.1:height=.1}}\n```',
      ),
    ).toBe('noPicture');
    expect(cardContentProblem('occlusion', `\`\`\`occlusion\n![](${PICTURE.src})\n${ANKI_WROTE[3]}\n\`\`\``)).toBe(
      'noShape',
    );
    const many = Array.from({ length: MAX_OCCLUSION_CARDS + 1 }, (_, n) => ({
      kind: 'rect' as const,
      ordinal: n + 1,
      hideAll: false,
      left: 0,
      top: 0,
      width: 0.1,
      height: 0.1,
    }));
    expect(cardContentProblem('occlusion', occlusionFront({ picture: PICTURE, shapes: many }))).toBe('tooManyCards');
    expect(
      cardContentProblem('occlusion', occlusionFront({ picture: PICTURE, shapes: many.slice(1) })),
    ).toBeUndefined();
  });
});
