// The card forms' problem function (the new-card form, the editor, onboarding's first cards, the generator's
// proposals): a card's side lengths and, for a cloze, its deletions, each failing side's message in the
// current language. The cloze rule is @engram/contracts/cloze's, as the cards service applies it.
import { backIsOptional, CARD_SIDE_MAX_LENGTH, frontMaxLength } from '@engram/contracts/cards';
import {
  type CardContentProblem,
  cardContentProblem,
  clozeDeletion,
  MAX_CLOZE_DELETIONS,
} from '@engram/contracts/cloze';
import type { CardType } from '@engram/contracts/learning';
import { type NoteProblem, type NoteTypeShape, noteProblem } from '@engram/contracts/note-types';
import { MAX_OCCLUSION_CARDS, MAX_OCCLUSION_SHAPES } from '@engram/contracts/occlusion';
import type { FieldErrors } from './form';
import { m } from './i18n';

export { CARD_SIDE_MAX_LENGTH };

const SIDE_MESSAGES = {
  front: { required: m.validation_front_required, tooLong: m.validation_front_too_long },
  back: { required: m.validation_back_required, tooLong: m.validation_back_too_long },
};

function sideProblem(side: 'front' | 'back', value: string, max = CARD_SIDE_MAX_LENGTH): string | undefined {
  if (value.trim() === '') return SIDE_MESSAGES[side].required();
  if (value.trim().length > max) {
    return max === CARD_SIDE_MAX_LENGTH
      ? SIDE_MESSAGES[side].tooLong({ max })
      : m.cards_occlusion_front_too_long({ max });
  }
  return undefined;
}

const example = (ordinal: number) => clozeDeletion(ordinal, m.cards_cloze_answer());
/** The contracts' CARD_CONTENT_PROBLEMS in the current language (in English, the very words the cards service
 * answers). */
const CONTENT_MESSAGES: Record<CardContentProblem, () => string> = {
  noDeletion: () => m.cards_cloze_needed({ example: example(1) }),
  numberZero: () => m.cards_cloze_number_zero({ example: example(1), zero: example(0) }),
  emptyDeletion: () => m.cards_cloze_empty({ example: example(1), empty: clozeDeletion(1, '') }),
  tooManyDeletions: () => m.cards_cloze_too_many({ max: MAX_CLOZE_DELETIONS }),
  noOcclusion: () => m.cards_occlusion_missing(),
  noPicture: () => m.cards_occlusion_no_picture(),
  noShape: () => m.cards_occlusion_no_shape(),
  tooManyCards: () => m.cards_occlusion_too_many_cards({ max: MAX_OCCLUSION_CARDS }),
  tooManyShapes: () => m.cards_occlusion_too_many_shapes({ max: MAX_OCCLUSION_SHAPES }),
};

/** Why a cloze or an occlusion card's front cannot be saved, in the current language. */
export const contentProblemText = (problem: CardContentProblem) => CONTENT_MESSAGES[problem]();

/** A card being written: its type and its two sides as typed; a note, its note type and fields. */
export type CardSides = {
  type: CardType;
  front: string;
  back: string;
  note?: { type: NoteTypeShape; fields: string[] } | undefined;
};

/** The contracts' NOTE_PROBLEMS in the current language. */
const NOTE_MESSAGES: Record<NoteProblem, () => string> = {
  noCard: m.cards_note_no_card,
  tooManyFields: m.cards_note_no_card,
  firstFieldEmpty: m.cards_note_first_field_empty,
};

/** Why each side cannot be saved: a side empty or too long, a cloze without a valid deletion, an occlusion without
 * its picture or shapes. A cloze's or an occlusion's back (its extra) may be empty, but not too long. */
export function cardProblems({ type, front, back, note }: CardSides): FieldErrors<'front' | 'back'> {
  if (type === 'note') {
    // A note's first field shows the problem of the note as a whole (the cards service's words).
    if (!note) return { front: m.cards_note_choose_type() };
    const problem = noteProblem(
      note.type,
      note.fields.map((field) => field.trim()),
    );
    if (problem) return { front: NOTE_MESSAGES[problem]() };
    const tooLong = note.fields.some((field) => field.trim().length > CARD_SIDE_MAX_LENGTH);
    return tooLong ? { back: m.cards_note_field_too_long({ max: CARD_SIDE_MAX_LENGTH }) } : {};
  }
  const problem = cardContentProblem(type, front);
  const errors: FieldErrors<'front' | 'back'> = {};
  const frontError = sideProblem('front', front, frontMaxLength(type)) ?? (problem && CONTENT_MESSAGES[problem]());
  const backError =
    backIsOptional(type) && back.trim().length <= CARD_SIDE_MAX_LENGTH ? undefined : sideProblem('back', back);
  if (frontError) errors.front = frontError;
  if (backError) errors.back = backError;
  return errors;
}
