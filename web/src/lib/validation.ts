// Client-side checks for the card forms, in the current language. Each returns an error or undefined.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { type ClozeProblem, cardContentProblem, clozeDeletion, MAX_CLOZE_DELETIONS } from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { m } from './i18n';

export { CARD_SIDE_MAX_LENGTH };

const SIDE_MESSAGES = {
  front: { required: m.validation_front_required, tooLong: m.validation_front_too_long },
  back: { required: m.validation_back_required, tooLong: m.validation_back_too_long },
};

export function validateCardSide(side: 'front' | 'back', value: string): string | undefined {
  if (value.trim() === '') return SIDE_MESSAGES[side].required();
  if (value.trim().length > CARD_SIDE_MAX_LENGTH) return SIDE_MESSAGES[side].tooLong({ max: CARD_SIDE_MAX_LENGTH });
  return undefined;
}

const example = (ordinal: number) => clozeDeletion(ordinal, m.cards_cloze_answer());
/** The contracts' CLOZE_PROBLEMS in the current language (in English, the very words the cards service answers). */
const CLOZE_MESSAGES: Record<ClozeProblem, () => string> = {
  noDeletion: () => m.cards_cloze_needed({ example: example(1) }),
  numberZero: () => m.cards_cloze_number_zero({ example: example(1), zero: example(0) }),
  emptyDeletion: () => m.cards_cloze_empty({ example: example(1), empty: clozeDeletion(1, '') }),
  tooManyDeletions: () => m.cards_cloze_too_many({ max: MAX_CLOZE_DELETIONS }),
};

/** Why a card's front cannot be saved as a card of `type` (a cloze without a valid deletion), or undefined. */
export function validateCardContent(type: CardType, front: string): string | undefined {
  const problem = cardContentProblem(type, front);
  return problem && CLOZE_MESSAGES[problem]();
}
