// The problem functions of the share and assign forms: the problems the contract's checks find (the same
// checks PublishDeck and CreateAssignment refuse with), each field's in the user's language.
import {
  checkAssignment,
  checkDeck,
  type LearningField,
  type LearningProblem,
  RETENTION_TARGET_RANGE,
} from '@engram/contracts/shared-decks';
import { SHARED_DECK_ERRORS } from '../../../lib/error-catalogue';
import type { FieldErrors } from '../../../lib/form';
import { m } from '../../../lib/i18n';

/** A retention target's bounds as the form asks for them, in percent. */
export const RETENTION_PERCENT = {
  min: Math.round(RETENTION_TARGET_RANGE.min * 100),
  max: Math.round(RETENTION_TARGET_RANGE.max * 100),
};

/** A problem's text: the error catalogue's text of its reason (what the service's refusal shows), or, for a
 * target out of range, the bounds of this target. */
export function problemText(problem: LearningProblem): string {
  if (problem.rule === 'targetCards') return m.shared_decks_target_cards_invalid({ max: problem.max ?? 0 });
  if (problem.rule === 'retentionRange') return m.shared_decks_target_retention_invalid(RETENTION_PERCENT);
  return SHARED_DECK_ERRORS[problem.reason]();
}

/** Each field's problem (the checks give at most one a field) as its text. */
export function problemTexts(problems: readonly LearningProblem[] = []): FieldErrors<LearningField> {
  return Object.fromEntries(problems.map((problem) => [problem.field, problemText(problem)]));
}

/** The share form's problem function: what PublishDeck would refuse of the deck. */
export const deckProblems = (input: Parameters<typeof checkDeck>[0]): FieldErrors<LearningField> =>
  problemTexts(checkDeck(input).problems);

/** The assign form's problem function: a deck to choose, then what CreateAssignment would refuse of the
 * rest, for the chosen deck's number of cards. */
export function assignmentProblems(
  input: Parameters<typeof checkAssignment>[0] & { deckId: string },
  cardCount: number | undefined,
): FieldErrors<LearningField | 'deckId'> {
  const { problems } = checkAssignment(input, { cardCount: cardCount ?? 1, now: Date.now() });
  const errors: FieldErrors<LearningField | 'deckId'> = problemTexts(problems);
  if (!input.deckId) errors.deckId = m.shared_decks_assign_deck_required();
  return errors;
}
