// A card being written in the new-card form or the editor, and what the API takes of it. Its problem
// function is lib/validation.ts's cardProblems (the cloze rule is @engram/contracts/cloze's, as the cards
// service applies it).
import type { CardType } from '@engram/contracts/learning';
import type { Tag } from '../../entities/cards/queries';
import type { FieldErrors } from '../../lib/form';

export type CardDraft = { type: CardType; front: string; back: string; tags: Tag[] };
export type CardDraftErrors = FieldErrors<'front' | 'back'>;

export const emptyDraft = (): CardDraft => ({ type: 'basic', front: '', back: '', tags: [] });

/** What cards.create and cards.update take of a draft: trimmed sides and the ids of its tags. */
export function draftInput(draft: CardDraft) {
  return {
    type: draft.type,
    front: draft.front.trim(),
    back: draft.back.trim(),
    tagIds: draft.tags.map((tag) => tag.id),
  };
}
