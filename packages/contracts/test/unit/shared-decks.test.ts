// The input rules of shared decks and assignments, written once: PublishDeck and CreateAssignment refuse
// what checkDeck and checkAssignment find, and the share and assign forms show the same problems.
import { describe, expect, it } from 'vitest';
import { checkAssignment, checkDeck, publishDeckInput } from '../../src/shared-decks.ts';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const TOMORROW = '2026-05-02T12:00:00.000Z';
const deck = { name: 'Cell biology', description: '', tagId: 'tag-1' };
const assignment = { dueAt: TOMORROW, targetKind: 'cards_learned', targetValue: 2 };
const context = { cardCount: 3, now: NOW };
/** What is wrong, what of the assignment it changes, and the problems found. */
type Case = [string, Partial<typeof assignment>, string[][]];

/** [field, reason, message] of each problem. */
const said = (problems: { field: string; reason: string; message: string }[] | undefined) =>
  problems?.map(({ field, reason, message }) => [field, reason, message]);

describe('a deck to share', () => {
  it('is kept with its name and description trimmed', () => {
    expect(checkDeck({ ...deck, name: '  Cell biology ', description: ' The parts of a cell ' })).toEqual({
      value: { name: 'Cell biology', description: 'The parts of a cell', tagId: 'tag-1' },
    });
    expect(checkDeck({ name: 'Cells', tagId: 'tag-1' }).value?.description).toBe('');
  });

  it.each([
    ['a blank name', { name: '   ' }, [['name', 'DECK_NAME_REQUIRED', 'Deck name is required.']]],
    [
      'a name of 65 characters',
      { name: 'x'.repeat(65) },
      [['name', 'DECK_NAME_TOO_LONG', 'Deck name must be at most 64 characters.']],
    ],
    [
      'a description of 501 characters',
      { description: 'x'.repeat(501) },
      [['description', 'DECK_DESCRIPTION_TOO_LONG', 'Deck description must be at most 500 characters.']],
    ],
    ['no tag', { tagId: ' ' }, [['tagId', 'TAG_REQUIRED', 'Choose the tag whose cards the deck shares.']]],
  ])('is refused with %s', (_what, change, problems) => {
    expect(said(checkDeck({ ...deck, ...change }).problems)).toEqual(problems);
  });

  it('has one problem a field, in the order of the fields', () => {
    const { problems } = checkDeck({ name: '', description: 'x'.repeat(501), tagId: '' });
    expect(problems?.map((problem) => problem.rule)).toEqual(['nameRequired', 'descriptionTooLong', 'tagRequired']);
  });

  it('is refused by orgs.publishDeck for the same rules, in the same words', () => {
    const input = { organizationId: 'org-1', ...deck, name: ' ' };
    const issues = publishDeckInput.safeParse(input).error?.issues.map((issue) => issue.message);
    expect(issues).toEqual(checkDeck(input).problems?.map((problem) => problem.message));
  });
});

describe('an assignment', () => {
  it('is kept with its due date, target kind and value', () => {
    expect(checkAssignment(assignment, context)).toEqual({
      value: { dueAt: new Date(TOMORROW), targetKind: 'cards_learned', targetValue: 2 },
    });
    expect(checkAssignment({ ...assignment, targetKind: 'retention', targetValue: 0.5 }, context).value).toBeDefined();
    expect(checkAssignment({ ...assignment, targetValue: 3 }, context).value).toBeDefined();
  });

  it.each<Case>([
    ['no due date', { dueAt: '' }, [['dueAt', 'DUE_DATE_REQUIRED', 'Choose a due date.']]],
    ['a due date that is not one', { dueAt: 'next week' }, [['dueAt', 'DUE_DATE_REQUIRED', 'Choose a due date.']]],
    [
      'a due date now',
      { dueAt: new Date(NOW).toISOString() },
      [['dueAt', 'DUE_DATE_PAST', 'The due date must be in the future.']],
    ],
    [
      'another kind of target',
      { targetKind: 'reviews' },
      [['targetKind', 'TARGET_KIND_INVALID', 'The target must be cards learned or retention.']],
    ],
    ...[0, 4, 1.5, Number.NaN].map(
      (targetValue): Case => [
        `${targetValue} cards of 3`,
        { targetValue },
        [['targetValue', 'TARGET_VALUE_INVALID', 'The target must be between 1 and 3 cards.']],
      ],
    ),
    ...[0.49, 1, 90].map(
      (targetValue): Case => [
        `a retention of ${targetValue}`,
        { targetKind: 'retention', targetValue },
        [['targetValue', 'TARGET_VALUE_INVALID', 'The retention target must be between 50% and 99%.']],
      ],
    ),
  ])('is refused with %s', (_what, change, problems) => {
    expect(said(checkAssignment({ ...assignment, ...change }, context).problems)).toEqual(problems);
  });

  it('names the deck’s own number of cards, and refuses any target for a deck without cards', () => {
    const { problems } = checkAssignment({ ...assignment, targetValue: 1 }, { ...context, cardCount: 0 });
    expect(problems).toMatchObject([{ rule: 'targetCards', max: 0 }]);
  });

  it('has one problem a field, the due date first', () => {
    const { problems } = checkAssignment(
      { dueAt: '2020-01-01T00:00:00Z', targetKind: 'cards_learned', targetValue: 9 },
      context,
    );
    expect(problems?.map((problem) => problem.rule)).toEqual(['dueDatePast', 'targetCards']);
  });
});
