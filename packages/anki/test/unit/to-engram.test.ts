// Mapping notes to Engram cards: HTML sanitising, template rendering, stock type recognition, and every
// generated note of every layout mapped with each field checked.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateCollection, generatedNote, generatedNoteId } from '../../src/generate-collection.ts';
import { convertHtml, htmlToMarkdown, templateToMarkdown } from '../../src/html-to-markdown.ts';
import { markdownToHtml } from '../../src/markdown-to-html.ts';
import { openPackage } from '../../src/open-package.ts';
import { renderTemplate } from '../../src/templates.ts';
import { engramNoteType, engramNoteTypes, mappingContext, shapeOf, toEngram } from '../../src/to-engram.ts';
import type { AnkiLayout, AnkiNoteType } from '../../src/types.ts';
import { scratchDir } from '../helpers.ts';

const { dir, cleanup } = scratchDir();
afterAll(cleanup);

/** A seeded generator of numbers in [0, 1) (mulberry32), so a failure is the same on every run. */
function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Words, numbers, punctuation and cloze markers as Anki fields hold them, without HTML. */
const PIECES = [
  'www',
  'http',
  'example',
  'com',
  '---',
  '==',
  'word',
  'Paris',
  'ação',
  'Straße',
  '日本',
  '42',
  '3',
  ' ',
  '  ',
  ',',
  '.',
  '?',
  '!',
  "'",
  '"',
  '(',
  ')',
  '%',
  ';',
  ':',
  '+',
  '=',
  '/',
  '-',
  '1.',
  '2)',
  '{{c1::',
  '{{c2::',
  '::',
  '}}',
  '\t',
  '\n',
  '#',
  '*',
  '_',
  '&',
  '<b>',
];

describe('htmlToMarkdown', () => {
  it('gives a field of words, numbers and cloze markers the same Markdown as the full conversion, quicker', () => {
    const random = seeded(27);
    for (let n = 0; n < 3000; n++) {
      const length = Math.floor(random() * 12);
      const field = Array.from({ length }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
      expect(htmlToMarkdown(field), JSON.stringify(field)).toEqual(convertHtml(field));
    }
    for (const field of [
      'What is 42 + 1?',
      'The {{c1::capital}} of France is {{c2::Paris::a city}}.',
      '1. first',
      '2) second',
      '- a',
      ':-)',
      'see www.example.com',
      'at 2:30 pm',
    ])
      expect(htmlToMarkdown(field), field).toEqual(convertHtml(field));
  });

  it('leaves no script, style, event handler or javascript: URL', () => {
    const { markdown } = htmlToMarkdown(
      '<p onclick="steal()">Hi <b>there</b></p><script>alert(1)</script><style>body{}</style>' +
        '<img src="x.png" onerror="alert(2)"><a href="javascript:alert(3)">click</a><a href="https://a.example/">ok</a>' +
        '<iframe src="https://evil.example"></iframe>&lt;script&gt;',
    );
    expect(markdown).not.toMatch(/alert|steal|body\{|javascript|iframe|onerror|onclick/i);
    expect(markdown).toContain('Hi **there**');
    expect(markdown).toContain('![](media:x.png)');
    expect(markdown).toContain('[ok](https://a.example/)');
    // The escaped text `<script>` stays text: `\<script>`.
    expect(markdown).not.toMatch(/(^|[^\\])<script/);
  });

  it('turns images and sounds into media references', () => {
    expect(htmlToMarkdown('<img src="my%20cat.jpg"> hear [sound:bark 1.mp3]')).toEqual({
      markdown: '![](media:my%20cat.jpg) hear [sound](media:bark%201.mp3)',
      media: ['my cat.jpg', 'bark 1.mp3'],
    });
    expect(htmlToMarkdown('<img src="https://a.example/x.png">').media).toEqual([]);
  });

  it('keeps cloze deletions intact, with HTML inside converted', () => {
    expect(htmlToMarkdown('The {{c1::<b>capital</b>::a city}} of <i>France</i> is {{c2::Paris}}.').markdown).toBe(
      'The {{c1::**capital**::a city}} of *France* is {{c2::Paris}}.',
    );
    expect(htmlToMarkdown('{{c1::a <script>x()</script>b}}').markdown).toBe('{{c1::a b}}');
  });

  it('turns Anki’s MathJax into KaTeX’s delimiters with the TeX as written, and keeps a dollar a dollar', () => {
    expect(htmlToMarkdown('Area \\(\\pi r_1^2\\) of a <b>circle</b>').markdown).toBe(
      'Area $\\pi r_1^2$ of a **circle**',
    );
    expect(htmlToMarkdown('\\[x_1 &lt; y*z\\]').markdown).toBe('$$x_1 < y*z$$');
    expect(htmlToMarkdown('{{c1::\\(x^2\\)}} is a square').markdown).toBe('{{c1::$x^2$}} is a square');
    expect(htmlToMarkdown('costs $5 and $10').markdown).toBe('costs \\$5 and \\$10');
  });

  it('exports maths as Anki’s MathJax and reads it back unchanged', () => {
    const cases = ['Euler $e^{i\\pi} + 1 < 2$ ok', '$$\\int_0^1 x\\,dx$$', 'costs \\$5', '{{c1::$x^2$}} is'];
    const html = cases.map((text) => markdownToHtml(text, () => ''));
    expect(html).toEqual([
      'Euler \\(e^{i\\pi} + 1 &lt; 2\\) ok',
      '<div>\\[\\int_0^1 x\\,dx\\]</div>',
      'costs $5',
      '{{c1::\\(x^2\\)}} is',
    ]);
    expect(html.map((field) => htmlToMarkdown(field).markdown)).toEqual(cases);
  });

  it('exports a ```math block as display maths, as Engram shows it, not as code', () => {
    expect(markdownToHtml('```math\n\\int_0^1 x\\,dx\n```', () => '')).toBe('<div>\\[\\int_0^1 x\\,dx\\]</div>');
    expect(markdownToHtml('```js\nconst x = 1;\n```', () => '')).toBe(
      '<pre><code class="language-js">const x = 1;\n</code></pre>',
    );
  });

  it('escapes what Markdown would read specially', () => {
    expect(htmlToMarkdown('2*3*4 &amp; # not a heading').markdown).toBe('2\\*3\\*4 & # not a heading');
    expect(htmlToMarkdown('<div>one</div><div>two<br>three</div>').markdown).toBe('one\n\ntwo\\\nthree');
  });
});

describe('renderTemplate', () => {
  const fields = { Word: '<b>casa</b>', Meaning: 'house', Example: '', Text: 'a {{c1::b::hint}} {{c2::c}}' };
  it('replaces fields, sections and filters', () => {
    expect(renderTemplate('{{Word}} / {{text:Word}}', { fields })).toBe('<b>casa</b> / casa');
    expect(renderTemplate('{{#Example}}ex: {{Example}}{{/Example}}{{^Example}}none{{/Example}}', { fields })).toBe(
      'none',
    );
    expect(renderTemplate('{{#Meaning}}[{{Meaning}}]{{/Meaning}}', { fields })).toBe('[house]');
    expect(renderTemplate('{{tts en_US:Meaning}} {{furigana:Meaning}} {{type:Meaning}}', { fields })).toBe(
      'house house ',
    );
    expect(renderTemplate('{{hint:Meaning}}', { fields })).toBe('<details><summary>Meaning</summary>house</details>');
    expect(renderTemplate('{{Missing}}x', { fields })).toBe('x');
  });
  it('shows a typed answer’s field on the answer side only', () => {
    const fields = { Front: 'Capital?', Back: 'Paris' };
    expect(renderTemplate('{{Front}} {{type:Back}}', { fields, side: 'question' })).toBe('Capital? ');
    expect(renderTemplate('{{type:Back}}', { fields, side: 'answer' })).toBe('Paris');
  });

  it('renders {{FrontSide}}, cloze and the special fields', () => {
    expect(renderTemplate('{{FrontSide}}<hr>{{Meaning}}', { fields, frontSide: 'Q' })).toBe('Q<hr>house');
    expect(renderTemplate('{{cloze:Text}}', { fields, clozeOrdinal: 1, side: 'question' })).toBe('a [hint] c');
    expect(renderTemplate('{{cloze:Text}}', { fields, clozeOrdinal: 2, side: 'answer' })).toBe('a b <b>c</b>');
    expect(renderTemplate('{{Deck}}|{{Subdeck}}|{{Tags}}', { fields, deck: 'A::B', tags: ['x', 'y'] })).toBe(
      'A::B|B|x y',
    );
  });
});

describe('templateToMarkdown', () => {
  // The "Vocabulary" note type's card templates, as Anki 23 wrote them in anki-apkg-parser's
  // test/decks/collection_nomedia_new.colpkg (ISC): HTML with scripts and inline styles around Anki's tags.
  const forwardQuestion =
    '<script>qFade=0; if (typeof anki !== \'undefined\') anki.qFade=qFade;</script>\n\n<div class="image"> {{edit:Image}}</div>\n\n<br>\n\n<div id="term">{{Term}}<br>{{Audio}}</div>';
  const forwardAnswer =
    '{{#Context}}\n<h1 class="one"><span>CONTEXT</span></h1>\n<div class="context" id="context">{{edit:Context}}</div>\n{{/Context}}\n\n\n<h1 class="one"><span>MEANING</span></h1>\n<div id="definition"> {{edit:Definition}} </div>';

  it('keeps every tag as written, its HTML turned into Markdown and its scripts gone', () => {
    expect(templateToMarkdown(forwardQuestion).markdown).toBe('{{edit:Image}}\n\n\n\n{{Term}}\\\n{{Audio}}');
    expect(templateToMarkdown(forwardAnswer).markdown).toBe(
      '{{#Context}}\n\n# CONTEXT\n\n{{edit:Context}}\n\n{{/Context}}\n\n# MEANING\n\n{{edit:Definition}}',
    );
  });

  it('keeps tags whose field names Markdown would read (brackets, underscores, stars) and tags inside links', () => {
    expect(templateToMarkdown('<b>{{[1]}}</b> {{my_field}} {{*star*}}').markdown).toBe(
      '**{{[1]}}** {{my_field}} {{*star*}}',
    );
    expect(templateToMarkdown('<a href="https://example.com/?q={{Word}}">look up</a>').markdown).toBe(
      '[look up](https://example.com/?q={{Word}})',
    );
  });

  it('leaves out what the template hides with its own inline style', () => {
    expect(
      templateToMarkdown("<div>{{Sentence}}</div><div id='get' style='display:none;'>{{Language}}</div>").markdown,
    ).toBe('{{Sentence}}');
  });
});

describe('stock note types are recognised by kind and structure, not by name', () => {
  const base: AnkiNoteType = {
    id: 1,
    name: 'Einfach',
    kind: 'standard',
    originalStockKind: undefined,
    fields: ['Vorne', 'Hinten'],
    templates: [],
  };
  const t = (qfmt: string, afmt: string, ord = 0) => ({ ord, name: `t${ord}`, qfmt, afmt });
  it('basic, reversed, optional reversed, cloze, custom', () => {
    expect(shapeOf({ ...base, templates: [t('{{Vorne}}', '{{FrontSide}}<hr id=answer>{{Hinten}}')] })).toBe('basic');
    expect(
      shapeOf({
        ...base,
        templates: [t('{{Vorne}}', '{{Hinten}}'), t('{{#Hinten}}{{Hinten}}{{/Hinten}}', '{{Vorne}}', 1)],
      }),
    ).toBe('reversed');
    expect(shapeOf({ ...base, kind: 'cloze', templates: [t('{{cloze:Vorne}}', '{{cloze:Vorne}}')] })).toBe('cloze');
    expect(shapeOf({ ...base, templates: [t('{{Vorne}} und {{Hinten}}', '{{Hinten}}')] })).toBe('custom');
    expect(shapeOf({ ...base, originalStockKind: 'basicAndReversed', templates: [t('a', 'b'), t('c', 'd', 1)] })).toBe(
      'reversed',
    );
  });

  it('typed: one card asking the first field with a box to type the second, as Basic (type in the answer)', () => {
    const typing = t('{{Vorne}}\n\n{{type:Hinten}}', '{{Vorne}}\n\n<hr id=answer>\n\n{{type:Hinten}}');
    expect(shapeOf({ ...base, templates: [typing] })).toBe('typed');
    expect(shapeOf({ ...base, originalStockKind: 'basicTyping', templates: [typing] })).toBe('typed');
    // A learner's copy of Basic with a box added is typed too.
    expect(shapeOf({ ...base, originalStockKind: 'basic', templates: [typing] })).toBe('typed');
    // One whose box leaves accents aside (`nc:`) is a note type of its own, keeping that.
    const accentless = {
      ...base,
      templates: [t('{{Vorne}} {{type:nc:Hinten}}', '{{Vorne}}<hr id=answer>{{type:nc:Hinten}}')],
    };
    expect(shapeOf(accentless)).toBe('custom');
    expect(shapeOf({ ...accentless, originalStockKind: 'basicTyping' })).toBe('custom');
    expect(engramNoteType(accentless)?.templates[0]?.front).toContain('{{type:nc:Hinten}}');
  });

  it('a type-in-the-answer type whose box was taken out asks as basic; a box only on the answer is no typing', () => {
    const plain = t('{{Vorne}}', '{{Vorne}}<hr id=answer>{{type:Hinten}}');
    expect(shapeOf({ ...base, originalStockKind: 'basicTyping', templates: [plain] })).toBe('basic');
    expect(shapeOf({ ...base, templates: [plain] })).toBe('basic');
  });

  it('a reversed type with a box to type the answer stays reversed', () => {
    const templates = [
      t('{{Vorne}} {{type:Hinten}}', '{{FrontSide}}<hr id=answer>{{type:Hinten}}'),
      t('{{Hinten}} {{type:Vorne}}', '{{FrontSide}}<hr id=answer>{{type:Vorne}}', 1),
    ];
    expect(shapeOf({ ...base, templates })).toBe('reversed');
    expect(shapeOf({ ...base, originalStockKind: 'basicAndReversed', templates })).toBe('reversed');
  });
});

describe('every generated note of every layout maps', () => {
  for (const layout of ['anki2', 'anki21', 'anki21b'] as AnkiLayout[]) {
    it(layout, async () => {
      const file = join(dir, `map.${layout}.apkg`);
      await generateCollection(file, { layout, notes: 40, reviewsPerCard: 2, media: 4, suspendEvery: 5 });
      const reader = await openPackage(file);
      try {
        const context = mappingContext(reader);
        const mapped = [...reader.bundles(16)].flat().map((bundle) => ({ bundle, ...toEngram(bundle, context) }));
        expect(mapped).toHaveLength(40);
        for (const [i, { bundle, cards, skipped, droppedTags }] of mapped.entries()) {
          expect(bundle.note.id).toBe(generatedNoteId(i));
          const note = generatedNote(i, 4);
          expect(skipped).toEqual([]);
          expect(droppedTags).toEqual([]);
          const deckTag = { 0: [], 1: ['Languages'], 2: ['Languages::Spanish'], 3: ['Science'] }[
            (i % 4) as 0 | 1 | 2 | 3
          ];
          const archived = i % 5 === 4;
          const kind = i % 4;
          const tags = [...note.tags, ...deckTag];
          // Note i shows media file i when i < 4: an image for even i (basic, cloze), a sound for odd (the others).
          const image = i < 4 ? `![](media:image-${i}.png)` : '';
          const sound = i < 4 ? `[sound](media:sound%20${i}.mp3)` : '';
          const files = i < 4 ? [i % 2 === 0 ? `image-${i}.png` : `sound ${i}.mp3`] : [];
          if (kind === 0) {
            expect(cards).toEqual([
              expect.objectContaining({
                guid: note.guid,
                type: 'basic',
                front: `What is ${i} + 1?${image}`,
                back: `**${i + 1}**`,
                tags,
                archived,
              }),
            ]);
            expect(cards[0]!.items.map((item) => item.ordinal)).toEqual([0]);
          } else if (kind === 1) {
            expect(cards).toEqual([
              expect.objectContaining({
                guid: note.guid,
                type: 'reversed',
                front: `word ${i}`,
                back: `palabra ${i} & more${sound}`,
                tags,
                archived,
                media: files,
              }),
            ]);
            expect(cards[0]!.items.map((item) => item.ordinal)).toEqual([0, 1]);
          } else if (kind === 2) {
            expect(cards).toEqual([
              expect.objectContaining({
                guid: note.guid,
                type: 'cloze',
                front: `The {{c1::capital}} of country ${i} is {{c2::city ${i}::a city}}.${image}`,
                back: `Extra ${i}`,
                tags,
                archived,
              }),
            ]);
            expect(cards[0]!.items.map((item) => item.ordinal)).toEqual([1, 2]);
            expect(cards[0]!.media).toEqual(files);
          } else {
            // A note type of its own: one note of it, its fields in Markdown, each card the item of its template.
            const example = i % 8 === 3 ? `example ${i}` : '';
            expect(cards).toEqual([
              expect.objectContaining({
                guid: note.guid,
                type: 'note',
                front: `vocab ${i}${sound}`,
                back: [`meaning ${i}`, example].filter(Boolean).join('\n\n'),
                note: { noteTypeId: 1_700_000_000_004, fields: [`vocab ${i}${sound}`, `meaning ${i}`, example] },
                tags,
                archived,
                media: files,
              }),
            ]);
            expect(cards[0]!.items.map((item) => item.ordinal)).toEqual([0, 1]);
          }
          for (const card of cards) for (const item of card.items) expect(item.revlog).toHaveLength(2);
        }
      } finally {
        reader.close();
      }
    });
  }

  it('reports a note that cannot fit instead of truncating it', () => {
    const type: AnkiNoteType = {
      id: 1,
      name: 'Basic',
      kind: 'standard',
      originalStockKind: 'basic',
      fields: ['Front', 'Back'],
      templates: [{ ord: 0, name: 'c', qfmt: '{{Front}}', afmt: '{{Back}}' }],
    };
    const context = {
      noteTypes: new Map([[1, type]]),
      engramNoteTypes: new Map(),
      deckNames: new Map<number, string>(),
      maxNoteBytes: 4 * 1024 ** 2,
    };
    const note = {
      id: 5,
      guid: 'long',
      noteTypeId: 1,
      fields: ['x'.repeat(2001), 'y'],
      tags: ['a'.repeat(41), 'ok'],
      modified: 0,
    };
    const result = toEngram({ note, cards: [] }, context);
    expect(result.cards).toEqual([]);
    expect(result.skipped).toEqual([
      {
        guid: 'long',
        noteId: 5,
        problem: {
          reason: 'frontTooLong',
          values: { max: '2000' },
          message: 'The front is longer than 2,000 characters.',
        },
      },
    ]);
    expect(result.droppedTags).toEqual(['a'.repeat(41)]);
    const cloze = toEngram(
      { note: { ...note, fields: ['no deletion', ''] }, cards: [] },
      {
        ...context,
        noteTypes: new Map([
          [
            1,
            {
              ...type,
              kind: 'cloze' as const,
              templates: [{ ord: 0, name: 'c', qfmt: '{{cloze:Front}}', afmt: '{{cloze:Front}}' }],
            },
          ],
        ]),
      },
    );
    // A cloze note without a deletion is kept, as Anki keeps it: a basic card asking its text, with a notice.
    expect(cloze.skipped).toEqual([]);
    expect(cloze.cards).toMatchObject([{ type: 'basic', front: 'no deletion', back: 'no deletion' }]);
    expect(cloze.notices[0]!.problem).toMatchObject({
      reason: 'clozeAsBasic',
      message: 'It is a cloze note without a deletion, so it came in as a basic card.',
    });
    // A note the reader left unread for its size is skipped, naming the limit.
    const large = toEngram({ note: { ...note, fields: [], tooLarge: true }, cards: [] }, context);
    expect(large.cards).toEqual([]);
    expect(large.skipped.map((skipped) => skipped.problem)).toEqual([
      {
        reason: 'noteTooLarge',
        values: { limit: '4 MB' },
        message: 'The note is larger than 4 MB with its cards and reviews, so it was left out.',
      },
    ]);
  });
});

describe('stock note types as Anki itself writes them (without the stock kind, as legacy exports do)', () => {
  const ANSWER = '\n\n<hr id=answer>\n\n';
  const t = (ord: number, qfmt: string, afmt: string) => ({ ord, name: `Card ${ord + 1}`, qfmt, afmt });
  const typeOf = (id: number, fields: string[], templates: ReturnType<typeof t>[], kind: 'standard' | 'cloze') => ({
    id,
    name: `type ${id}`,
    kind,
    originalStockKind: undefined,
    fields,
    templates,
  });
  const OPTIONAL_REVERSED = typeOf(
    1,
    ['Front', 'Back', 'Add Reverse'],
    [
      t(0, '{{Front}}', `{{FrontSide}}${ANSWER}{{Back}}`),
      t(1, '{{#Add Reverse}}{{Back}}{{/Add Reverse}}', `{{FrontSide}}${ANSWER}{{Front}}`),
    ],
    'standard',
  );
  const TYPING = typeOf(
    2,
    ['Front', 'Back'],
    [t(0, '{{Front}}\n\n{{type:Back}}', `{{Front}}${ANSWER}{{type:Back}}`)],
    'standard',
  );
  const CLOZE = typeOf(
    3,
    ['Text', 'Back Extra'],
    [t(0, '{{cloze:Text}}', '{{cloze:Text}}<br>\n{{Back Extra}}')],
    'cloze',
  );
  const VOCABULARY = typeOf(
    4,
    ['Word', 'Meaning', 'Example'],
    [
      t(0, '{{Word}}', `{{FrontSide}}${ANSWER}{{Meaning}}<br>{{Example}}`),
      t(1, '{{Meaning}}', `{{FrontSide}}${ANSWER}{{Example}}`),
    ],
    'standard',
  );
  // A type whose second template names a field it does not have: no Engram note type, each card rendered as Anki
  // renders it.
  const BROKEN = typeOf(
    5,
    ['Word', 'Meaning', 'Example'],
    [t(0, '{{Word}}', `{{FrontSide}}${ANSWER}{{Meaning}}<br>{{Example}}`), t(1, '{{Meaning}}', '{{Gone}}')],
    'standard',
  );
  const types = [OPTIONAL_REVERSED, TYPING, CLOZE, VOCABULARY, BROKEN];
  const context = {
    noteTypes: new Map(types.map((type) => [type.id, type])),
    engramNoteTypes: engramNoteTypes(types),
    deckNames: new Map([[9, 'Languages::German']]),
    maxNoteBytes: 4 * 1024 ** 2,
  };
  const cardOf = (noteId: number, ordinal: number) => ({
    card: {
      id: noteId * 10 + ordinal,
      noteId,
      ordinal,
      deckId: 9,
      queue: 2,
      type: 2,
      due: 1,
      interval: 3,
      easeFactor: 2500,
      reps: 1,
      lapses: 0,
      fsrs: undefined,
    },
    revlog: [],
  });
  const map = (noteTypeId: number, fields: string[], ordinals: number[]) =>
    toEngram(
      {
        note: { id: noteTypeId, guid: `n${noteTypeId}`, noteTypeId, fields, tags: [], modified: 0 },
        cards: ordinals.map((ord) => cardOf(noteTypeId, ord)),
      },
      context,
    );

  it('an optional reversed note with its reverse card is one reversed card with both cards’ histories', () => {
    const both = map(1, ['Haus', 'house', 'y'], [0, 1]);
    expect(both.cards).toMatchObject([{ type: 'reversed', front: 'Haus', back: 'house', tags: ['Languages::German'] }]);
    expect(both.cards[0]!.items.map((item) => [item.ordinal, item.card.id])).toEqual([
      [0, 10],
      [1, 11],
    ]);
    expect(map(1, ['Haus', 'house', ''], [0]).cards).toMatchObject([{ type: 'basic', front: 'Haus', back: 'house' }]);
  });

  it('a Basic (type in the answer) note is a typed card: its front asked, its back typed, its history kept', () => {
    const typed = map(2, ['Capital of <b>France</b>?', 'Paris'], [0]);
    expect(typed.skipped).toEqual([]);
    expect(typed.cards).toMatchObject([
      { guid: 'n2', type: 'typed', front: 'Capital of **France**?', back: 'Paris', tags: ['Languages::German'] },
    ]);
    expect(typed.cards[0]!.items.map((item) => [item.ordinal, item.card.id])).toEqual([[0, 20]]);
  });

  it('a cloze note without a deletion comes in as a basic card with its extra, and says so', () => {
    const plain = map(3, ['Photosynthesis', 'in the chloroplasts'], [0]);
    expect(plain.cards).toMatchObject([{ type: 'basic', front: 'Photosynthesis', back: 'in the chloroplasts' }]);
    expect(plain.cards[0]!.items.map((item) => item.ordinal)).toEqual([0]);
    expect(plain.notices.map((notice) => notice.problem.reason)).toEqual(['clozeAsBasic']);
  });

  it("a note of a type of its own is one note of an Engram note type made from it, each card its template's item", () => {
    const vocabulary = map(4, ['Baum', 'tree', '<i>ein Baum</i>'], [0, 1]);
    expect(vocabulary.skipped).toEqual([]);
    expect(vocabulary.cards).toMatchObject([
      { guid: 'n4', type: 'note', front: 'Baum', back: 'tree\n\n*ein Baum*', note: { noteTypeId: 4 } },
    ]);
    expect(vocabulary.cards[0]!.note?.fields).toEqual(['Baum', 'tree', '*ein Baum*']);
    expect(vocabulary.cards[0]!.items.map((item) => [item.ordinal, item.card.id])).toEqual([
      [0, 40],
      [1, 41],
    ]);
    expect(engramNoteType(VOCABULARY)).toMatchObject({
      name: 'type 4',
      fields: ['Word', 'Meaning', 'Example'],
      // The answers without the question they repeat, as Engram shows the question above the answer anyway.
      templates: [
        { name: 'Card 1', front: '{{Word}}', back: '{{Meaning}}\\\n{{Example}}' },
        { name: 'Card 2', front: '{{Meaning}}', back: '{{Example}}' },
      ],
    });
  });

  it('a card of a type Engram cannot keep whose extra field is empty keeps its answer as Anki shows it', () => {
    expect(engramNoteType(BROKEN)).toBeUndefined();
    const broken = map(5, ['Baum', 'tree', ''], [0, 1]);
    expect(broken.skipped).toEqual([]);
    expect(broken.cards.map((card) => [card.guid, card.front, card.back])).toEqual([
      ['n5/0', 'Baum', 'tree'],
      // Its answer adds nothing to the question: the whole answer, the question itself, as Anki shows it.
      ['n5/1', 'tree', 'tree'],
    ]);
  });
});
