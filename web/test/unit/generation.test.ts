// The Generate screen's bookkeeping: each streamed proposal becomes a selected, editable draft with its
// tags as text, the stream's start and end are kept, and tag text becomes clean, distinct tag names.
import { describe, expect, it } from 'vitest';
import { applyEvent, type Draft, IDLE, tagNamesOf } from '../../src/features/generate/drafts.ts';

const proposal = (front: string) => ({
  type: 'basic',
  front,
  back: 'an answer',
  tags: ['chemistry', 'atoms'],
  sourceQuote: `${front} — from the notes`,
});

describe('following a generation', () => {
  it('turns each proposal into a selected draft, in order, and keeps how the generation began and ended', () => {
    let state = applyEvent(
      { ...IDLE, running: true },
      { type: 'started', generationId: 'g1', generator: 'offline', requested: 2 },
    );
    state = applyEvent(state, { type: 'proposal', proposal: proposal('What is an atom?') });
    state = applyEvent(state, { type: 'proposal', proposal: proposal('What is an ion?') });
    state = applyEvent(state, {
      type: 'finished',
      delivered: 2,
      dropped: 1,
      outcome: 'complete',
      message: '',
      usage: null,
    });
    expect(state.started?.generator).toBe('offline');
    expect(state.finished).toMatchObject({ delivered: 2, dropped: 1 });
    expect(state.drafts).toEqual([
      {
        key: 'g1-0',
        selected: true,
        type: 'basic',
        front: 'What is an atom?',
        back: 'an answer',
        tags: 'chemistry, atoms',
        sourceQuote: 'What is an atom? — from the notes',
      },
      expect.objectContaining({ key: 'g1-1', front: 'What is an ion?' }),
    ]);
  });
});

describe('tag names of a draft', () => {
  const draft = (tags: string): Draft => ({
    key: 'k',
    selected: true,
    type: 'basic',
    front: 'f',
    back: 'b',
    tags,
    sourceQuote: '',
  });

  it('are the comma-separated names, trimmed, without empties or repeats, cut to the longest tag name', () => {
    expect(tagNamesOf(draft(' chemistry , ,atoms,chemistry '))).toEqual(['chemistry', 'atoms']);
    expect(tagNamesOf(draft(''))).toEqual([]);
    expect(tagNamesOf(draft('x'.repeat(60)))[0]).toHaveLength(40);
  });
});
