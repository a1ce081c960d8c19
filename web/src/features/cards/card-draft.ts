// A card being written in the new-card form or the editor, its checks in the current language (the cloze
// rule is @engram/contracts/cloze's, as the cards service applies it), and what the API takes of it.
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import type { CardType } from '@engram/contracts/learning';
import type { Tag } from '../../entities/cards/queries';
import { validateCardContent, validateCardSide } from '../../lib/validation';

export type CardDraft = { type: CardType; front: string; back: string; tags: Tag[] };
export type CardDraftErrors = { front?: string | undefined; back?: string | undefined };

export const emptyDraft = (): CardDraft => ({ type: 'basic', front: '', back: '', tags: [] });

export function validateDraft(draft: CardDraft): CardDraftErrors {
  const front = validateCardSide('front', draft.front);
  if (draft.type === 'cloze') {
    const back = draft.back.trim().length > CARD_SIDE_MAX_LENGTH ? validateCardSide('back', draft.back) : undefined;
    return { front: front ?? validateCardContent(draft.type, draft.front), back };
  }
  return { front, back: validateCardSide('back', draft.back) };
}

export const draftInvalid = (errors: CardDraftErrors) => Boolean(errors.front || errors.back);

/** What cards.create and cards.update take of a draft: trimmed sides and the ids of its tags. */
export function draftInput(draft: CardDraft) {
  return {
    type: draft.type,
    front: draft.front.trim(),
    back: draft.back.trim(),
    tagIds: draft.tags.map((tag) => tag.id),
  };
}
