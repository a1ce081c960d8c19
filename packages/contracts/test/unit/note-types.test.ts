// Note types: a note makes one review item per template whose question shows a filled field (Anki's rule), each
// side rendered from its template in Markdown, and a note type whose templates cannot work is refused in words.
import { describe, expect, it } from 'vitest';
import { reviewItem, reviewOrdinals } from '../../src/cloze.ts';
import { CARD_TYPES } from '../../src/learning.ts';
import {
  type NoteTypeShape,
  noteItem,
  noteOrdinals,
  noteTypeProblem,
  noteTypeShape,
  renameFieldInTemplate,
  rendersNonEmpty,
  STOCK_NOTE_TYPES,
  safeCss,
  scopedCss,
  stockNoteType,
  stockNoteTypeOf,
} from '../../src/note-types.ts';

// A vocabulary note type as shared decks build them: word → meaning and meaning → word, a picture and a sound,
// context only when there is some (the "Vocabulary" type of anki-apkg-parser's collection_nomedia_new.colpkg,
// written by Anki 23, with its HTML and scripts turned into Markdown as an import does).
const vocabulary: NoteTypeShape = {
  name: 'Vocabulary',
  kind: 'standard',
  fields: ['Term', 'Definition', 'Context', 'Image', 'Audio'],
  templates: [
    {
      name: 'Forward',
      front: '{{edit:Image}}\n\n{{Term}}\n{{Audio}}',
      back: '{{#Context}}\n# CONTEXT\n\n{{edit:Context}}\n{{/Context}}\n\n# MEANING\n\n{{edit:Definition}}',
    },
    {
      name: 'Backward',
      front: '{{edit:Image}}\n\n# MEANING\n\n{{edit:Definition}}\n\n# TERM\n\n{{type:Term}}',
      back: '{{edit:Image}}\n\n# MEANING\n\n{{edit:Definition}}\n\n# TERM\n\n{{type:Term}}{{Audio}}\n\n{{#Context}}\n# CONTEXT\n\n{{edit:Context}}\n{{/Context}}',
    },
  ],
};

describe('the review items a note makes', () => {
  it('makes one per template whose question shows a filled field', () => {
    expect(noteOrdinals(vocabulary, ['gato', 'cat', '', '', ''])).toEqual([0, 1]);
    // A note with only a picture still asks both ways (each question shows the picture).
    expect(noteOrdinals(vocabulary, ['', '', '', '![cat](/media/1/cat.png)', ''])).toEqual([0, 1]);
    expect(noteOrdinals(vocabulary, ['', '', 'context only', '', ''])).toEqual([]);
  });

  it('makes Basic (optional reversed card) ask backwards only when "Add Reverse" is filled', () => {
    const optional = stockNoteType('optional-reversed');
    expect(noteOrdinals(optional, ['chat', 'cat', ''])).toEqual([0]);
    expect(noteOrdinals(optional, ['chat', 'cat', 'y'])).toEqual([0, 1]);
    expect(noteOrdinals(optional, ['chat', '', 'y'])).toEqual([0]);
    expect(noteItem(optional, 1, ['chat', 'cat', 'y'])).toEqual({ prompt: 'cat', answer: 'chat' });
  });

  it('counts neither text, special fields, nor a section whose field is empty as a question', () => {
    expect(rendersNonEmpty('Translate: {{Tags}} {{Deck}}', {})).toBe(false);
    expect(rendersNonEmpty('{{#A}}{{B}}{{/A}}', { A: '', B: 'b' })).toBe(false);
    expect(rendersNonEmpty('{{^A}}{{B}}{{/A}}', { A: '', B: 'b' })).toBe(true);
    expect(rendersNonEmpty('{{#A}}{{B}}{{/A}}', { A: ' \n', B: 'b' })).toBe(false);
  });

  it('makes one per deletion number of the fields a cloze type asks', () => {
    const twoTexts: NoteTypeShape = {
      name: 'Cloze with a source',
      kind: 'cloze',
      fields: ['Text', 'Source', 'More'],
      templates: [{ name: 'Cloze', front: '{{cloze:Text}}\n\n{{cloze:More}}', back: '{{cloze:Text}}\n\n{{Source}}' }],
    };
    expect(noteOrdinals(twoTexts, ['{{c1::Paris}} is in {{c3::France}}', 'atlas', '{{c2::Seine}}'])).toEqual([1, 2, 3]);
    expect(noteItem(twoTexts, 3, ['{{c1::Paris}} is in {{c3::France}}', 'atlas', ''])).toEqual({
      prompt: 'Paris is in […]',
      answer: 'Paris is in **France**\n\natlas',
    });
  });
});

describe('what each side shows', () => {
  it('renders fields, sections and filters Engram has no meaning for as the field itself', () => {
    const values = ['gato', 'cat', 'El gato duerme.', '![a cat](/media/1/cat.png)', ''];
    expect(noteItem(vocabulary, 0, values)).toEqual({
      prompt: '![a cat](/media/1/cat.png)\n\ngato',
      answer: '# CONTEXT\n\nEl gato duerme.\n\n# MEANING\n\ncat',
    });
    expect(noteItem(vocabulary, 0, ['gato', 'cat', '', '', '']).answer).toBe('# MEANING\n\ncat');
  });

  it('asks a typed answer where the template has {{type:Field}}: the question hides the field, the answer shows it', () => {
    const item = noteItem(vocabulary, 1, ['el gato', 'cat', '', '', '']);
    expect(item.prompt).toBe('# MEANING\n\ncat\n\n# TERM');
    expect(item.typed).toEqual({ expected: 'el gato', ignoreAccents: false });
    expect(item.answer).toBe('# MEANING\n\ncat\n\n# TERM\n\nel gato');
    const typed = stockNoteType('typed');
    expect(noteItem(typed, 0, ['Capital of France?', '**Paris**']).typed).toEqual({
      expected: 'Paris',
      ignoreAccents: false,
    });
    const lenient: NoteTypeShape = {
      ...typed,
      templates: [{ name: 'Card 1', front: '{{Front}} {{type:nc:Back}}', back: '' }],
    };
    expect(noteItem(lenient, 0, ['Café?', 'café']).typed).toEqual({ expected: 'café', ignoreAccents: true });
    const clozeTyped: NoteTypeShape = {
      name: 'Cloze typed',
      kind: 'cloze',
      fields: ['Text'],
      templates: [{ name: 'Cloze', front: '{{cloze:Text}}\n{{type:cloze:Text}}', back: '{{cloze:Text}}' }],
    };
    expect(noteItem(clozeTyped, 2, ['{{c1::Lisbon}} is on the {{c2::Tagus}}']).typed?.expected).toBe('Tagus');
  });

  it("marks the box as Anki's reviewer reads it, for AnkiConnect's clients, on both sides", () => {
    const marked = (type: NoteTypeShape, ordinal: number, values: string[]) =>
      noteItem(type, ordinal, values, {}, { ankiTypeMarks: true });
    expect(marked(vocabulary, 1, ['el gato', 'cat', '', '', ''])).toMatchObject({
      prompt: '# MEANING\n\ncat\n\n# TERM\n\n[[type:Term]]',
      answer: '# MEANING\n\ncat\n\n# TERM\n\n[[type:Term]]',
      typed: { expected: 'el gato', ignoreAccents: false },
    });
    const lenient: NoteTypeShape = {
      ...stockNoteType('typed'),
      templates: [{ name: 'Card 1', front: '{{Front}} {{type:nc:Back}}', back: '{{type:nc:Back}}' }],
    };
    expect(marked(lenient, 0, ['Café?', 'café'])).toMatchObject({
      prompt: 'Café? [[type:nc:Back]]',
      answer: '[[type:nc:Back]]',
    });
    const clozeTyped: NoteTypeShape = {
      name: 'Cloze typed',
      kind: 'cloze',
      fields: ['Text'],
      templates: [{ name: 'Cloze', front: '{{type:cloze:Text}}', back: '{{type:cloze:Text}}' }],
    };
    expect(marked(clozeTyped, 1, ['{{c1::Lisbon}}']).prompt).toBe('[[type:cloze:Text]]');
  });

  it('shows the question again where an answer names {{FrontSide}}, and the note and card by name', () => {
    const type: NoteTypeShape = {
      name: 'Capitals',
      kind: 'standard',
      fields: ['Country', 'Capital'],
      templates: [
        {
          name: 'Ask capital',
          front: '{{Country}}?',
          back: '{{FrontSide}}\n\n---\n\n{{Capital}} ({{Type}}, {{Card}}, {{Subdeck}}: {{Tags}})',
        },
      ],
    };
    expect(noteItem(type, 0, ['Peru', 'Lima'], { tags: ['geo', 'andes'], deck: 'World::Americas' })).toEqual({
      prompt: 'Peru?',
      answer: 'Peru?\n\n---\n\nLima (Capitals, Ask capital, Americas: geo andes)',
    });
  });

  it('gives a hint as a block the renderer folds away, and text: without its markup', () => {
    const type: NoteTypeShape = {
      name: 'Hinted',
      kind: 'standard',
      fields: ['Word', 'Mnemonic'],
      templates: [{ name: 'Card 1', front: '{{Word}}\n{{hint:Mnemonic}}', back: '{{text:Mnemonic}}' }],
    };
    const item = noteItem(type, 0, ['perro', 'Sounds like **pero** ([more](https://example.com))']);
    expect(item.prompt).toBe('perro\n\n```hint Mnemonic\nSounds like **pero** ([more](https://example.com))\n```');
    expect(item.answer).toBe('Sounds like pero (more)');
    expect(noteItem(type, 0, ['perro', '']).prompt).toBe('perro');
  });
});

describe('the stock note types', () => {
  it('ask and answer as the Engram card types they are', () => {
    const samples: Record<string, [string, string]> = {
      basic: ['Front text', 'Back text'],
      reversed: ['chat', 'cat'],
      typed: ['Capital of Peru?', 'Lima'],
      cloze: ['{{c1::Lima}} is the capital of {{c2::Peru}}', 'Andes'],
    };
    for (const [cardType, [front, back]] of Object.entries(samples)) {
      const stock = stockNoteTypeOf(cardType as 'basic');
      const ordinals = reviewOrdinals(cardType as 'basic', front);
      expect(noteOrdinals(stock, [front, back])).toEqual(ordinals);
      for (const ordinal of ordinals) {
        const expected = reviewItem(cardType as 'basic', ordinal, front, back);
        expect(noteItem(stock, ordinal, [front, back])).toMatchObject(expected);
      }
    }
  });

  it('are one for each Engram card type, and their templates are valid', () => {
    for (const cardType of CARD_TYPES) expect(stockNoteTypeOf(cardType).cardType).toBe(cardType);
    for (const stock of STOCK_NOTE_TYPES) expect(noteTypeProblem(stock)).toBeUndefined();
  });
});

describe('a note type that cannot work is refused in words', () => {
  const base = { name: 'Words', kind: 'standard' as const, fields: ['Word', 'Meaning'], css: '' };
  const refusal = (templates: { name: string; front: string; back: string }[], extra = {}) => {
    const parsed = noteTypeShape.safeParse({ ...base, templates, ...extra });
    return parsed.success ? undefined : parsed.error.issues.map((issue) => issue.message);
  };

  it('says what is wrong with its templates', () => {
    expect(refusal([{ name: 'C', front: '{{Word}', back: '' }])).toEqual([
      'A template has a "{{" that is never closed by "}}".',
    ]);
    expect(refusal([{ name: 'C', front: '{{#Word}}{{Meaning}}', back: '' }])).toEqual([
      'A template opens a section ({{#Field}} or {{^Field}}) that it never closes with {{/Field}}.',
    ]);
    expect(refusal([{ name: 'C', front: '{{Word}}{{/Word}}', back: '' }])).toEqual([
      'A template closes a section ({{/Field}}) that it never opened.',
    ]);
    expect(refusal([{ name: 'C', front: '{{Word}}', back: '{{Meanings}}' }])).toEqual([
      'A template names a field this note type does not have.',
    ]);
    expect(refusal([{ name: 'C', front: 'Just text {{Tags}}', back: '{{Word}}' }])).toEqual([
      "A template's front shows no field: it would never make a card.",
    ]);
    expect(refusal([{ name: 'C', front: '{{Word}}', back: '' }], { kind: 'cloze' })).toEqual([
      "A cloze note type's template needs a cloze field on its front, such as {{cloze:Text}}.",
    ]);
  });

  it('says what is wrong with its fields', () => {
    const one = [{ name: 'C', front: '{{Word}}', back: '' }];
    expect(refusal(one, { fields: ['Word', 'word'] })).toEqual(['Two fields have the same name.']);
    expect(refusal(one, { fields: ['Word', 'Mean:ing'] })).toEqual([
      'A field\'s name cannot hold : { } or " nor start with # ^ / or !.',
    ]);
    expect(refusal(one, { fields: ['Word', 'FrontSide'] })).toEqual([
      'That field name is kept for the template language.',
    ]);
    expect(refusal(one, { fields: [] })?.[0]).toBe('A note type needs at least one field.');
    expect(refusal([])?.[0]).toBe('A note type needs at least one card template.');
  });
});

describe('changing a note type', () => {
  it('renames a field in every tag of a template that names it, and in no other', () => {
    expect(
      renameFieldInTemplate('{{Word}} {{#Word}}({{text:Word}}){{/Word}} {{Wordy}} {{type:nc:Word}}', 'Word', 'Term'),
    ).toBe('{{Term}} {{#Term}}({{text:Term}}){{/Term}} {{Wordy}} {{type:nc:Term}}');
  });

  it("keeps of a type's styling only plain rules setting how its text looks", () => {
    const css = `/* Anki */ .card { font-family: arial; font-size: 20px; position: fixed; background: url(x.png); color: black }
      @import url("https://fonts.example/f.css");
      @media (max-width: 600px) { .card { font-size: 16px } }
      body, html { color: red }
      .night_mode .card { color: white; background-color: #222 }
      #answer { border-top: 1px solid gray; behavior: url(x.htc) }`;
    expect(safeCss(css)).toBe(
      [
        '.card { font-family: arial; font-size: 20px; color: black; }',
        '.night_mode .card { color: white; background-color: #222; }',
        '#answer { border-top: 1px solid gray; }',
      ].join('\n'),
    );
  });

  it("scopes a type's styling to its cards, night mode to the dark theme, the card's own colours left to the theme", () => {
    const css =
      '.card { font-family: Georgia; color: black; background-color: white } .word, .card b { color: navy } .nightMode .card .word { color: skyblue }';
    expect(scopedCss(css, '[data-note-type="t1"]')).toBe(
      [
        '[data-note-type="t1"] { font-family: Georgia; }',
        '[data-note-type="t1"] .word, [data-note-type="t1"] b { color: navy; }',
        ':root[data-theme="dark"] [data-note-type="t1"] .word { color: skyblue; }',
      ].join('\n'),
    );
  });
});
