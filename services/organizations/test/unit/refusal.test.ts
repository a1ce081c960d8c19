// PublishDeck and CreateAssignment refuse bad input with the first problem the contract's check finds: its
// words for API callers and its reason for the web app, as INVALID_ARGUMENT.
import { checkAssignment, checkDeck } from '@engram/contracts/shared-decks';
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../src/domain/refusal.js';

describe('a refusal of shared-decks input', () => {
  it('answers the first problem of a deck, in its words and with its reason', () => {
    const { problems = [] } = checkDeck({ name: ' ', description: 'x'.repeat(501), tagId: '' });
    expect(refusal(problems)).toMatchObject({
      code: status.INVALID_ARGUMENT,
      reason: 'DECK_NAME_REQUIRED',
      message: 'Deck name is required.',
    });
  });

  it('answers the first problem of an assignment, its due date before its target', () => {
    const { problems = [] } = checkAssignment(
      { dueAt: '2020-01-01T00:00:00Z', targetKind: 'cards_learned', targetValue: 9 },
      { cardCount: 3, now: Date.now() },
    );
    expect(refusal(problems)).toMatchObject({
      code: status.INVALID_ARGUMENT,
      reason: 'DUE_DATE_PAST',
      message: 'The due date must be in the future.',
    });
  });
});
