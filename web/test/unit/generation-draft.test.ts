// Generated proposals are a draft kept until saved or discarded: the screen's state is stored and read back
// (what cannot be read back is nothing, never a crash), and the number of cards asked for is checked
// against the contract's limits before anything is sent.
import { GENERATE_COUNT_MAX } from '@engram/contracts/ai';
import { describe, expect, it } from 'vitest';
import {
  countOf,
  type Draft,
  fromStored,
  IDLE,
  type NotesDraft,
  notesFromStored,
  toStored,
  toStoredNotes,
} from '../../src/features/generate/drafts.ts';

const draft = (front: string, change: Partial<Draft> = {}): Draft => ({
  key: `g1-${front}`,
  selected: true,
  type: 'basic',
  front,
  back: 'an answer',
  tags: 'chemistry',
  sourceQuote: 'from the notes',
  ...change,
});

const started = { type: 'started', generationId: 'g1', generator: 'offline', requested: 3 } as const;
const finished = {
  type: 'finished',
  delivered: 2,
  dropped: 0,
  outcome: 'complete',
  message: '',
  usage: null,
} as const;

describe('keeping generated proposals', () => {
  it('stores the proposals with their edits and choices, and brings them back as they were', () => {
    const state = {
      running: false,
      started,
      finished,
      drafts: [draft('What is an atom?', { selected: false, back: 'edited' }), draft('What is an ion?')],
    };
    const stored = JSON.parse(JSON.stringify(toStored(state)));
    expect(fromStored(stored)).toEqual(state);
  });

  it('brings back a generation left while it ran as stopped, with the proposals it had made', () => {
    const stored = JSON.parse(
      JSON.stringify(toStored({ running: true, started, finished: undefined, drafts: [draft('a')] })),
    );
    expect(fromStored(stored)).toEqual({ running: false, started, finished: undefined, drafts: [draft('a')] });
  });

  it('stores nothing when there are no proposals', () => {
    expect(toStored(IDLE)).toBeNull();
    expect(toStored({ ...IDLE, running: true, started })).toBeNull();
  });

  it('starts empty from nothing stored, another version or a damaged value', () => {
    for (const stored of [
      null,
      undefined,
      'text',
      { version: 2, drafts: [draft('a')] },
      { version: 1, drafts: 'not a list' },
      { version: 1, drafts: [] },
      { version: 1, drafts: [{ ...draft('a'), type: 'essay' }] },
      { version: 1, drafts: [{ ...draft('a'), front: 3 }] },
    ]) {
      expect(fromStored(stored)).toEqual(IDLE);
    }
  });
});

describe('the number of cards asked for', () => {
  it('is a whole number from 1 to the most a generation may propose', () => {
    expect(countOf('1')).toBe(1);
    expect(countOf(' 10 ')).toBe(10);
    expect(countOf(String(GENERATE_COUNT_MAX))).toBe(GENERATE_COUNT_MAX);
  });

  it('is refused when empty, zero, negative, fractional, too many or not a number', () => {
    for (const text of ['', '  ', '0', '-3', '2.5', String(GENERATE_COUNT_MAX + 1), '80', 'abc', '1e9']) {
      expect(countOf(text)).toBeUndefined();
    }
  });
});

describe('the pasted notes', () => {
  const form: NotesDraft = {
    notes: 'An atom is the smallest unit.',
    count: '5',
    types: ['basic', 'cloze'],
    language: 'en',
    focus: '',
  };

  it('are kept with the choices beside them, and nothing is kept for an empty field', () => {
    const stored = JSON.parse(JSON.stringify(toStoredNotes(form)));
    expect(notesFromStored(stored)).toEqual(form);
    expect(toStoredNotes({ ...form, types: ['basic'], notes: '  ' })).toBeNull();
  });

  it('come back as far as they can be read, and what cannot be read leaves the form as it is', () => {
    expect(notesFromStored(null)).toEqual({});
    expect(notesFromStored('notes')).toEqual({});
    expect(notesFromStored({ notes: 42 })).toEqual({});
    expect(notesFromStored({ notes: 'Kept', count: 7, types: ['essay', 'cloze'], language: null })).toEqual({
      notes: 'Kept',
      types: ['cloze'],
    });
    expect(notesFromStored({ notes: 'Kept', types: ['essay'] })).toEqual({ notes: 'Kept' });
  });
});
