// A card being written in the new-card form or the editor, and what the API takes of it. Its problem
// function is lib/validation.ts's cardProblems (the cloze rule is @engram/contracts/cloze's, as the cards
// service applies it).
import type { CardType } from '@engram/contracts/learning';
import type { NoteTypeShape } from '@engram/contracts/note-types';
import type { Tag } from '../../entities/cards/queries';
import type { FieldErrors } from '../../lib/form';

/** A note (type `note`) is written in the fields of its note type (`note.id`), in that type's order. */
export type CardDraft = {
  type: CardType;
  front: string;
  back: string;
  tags: Tag[];
  note?: { id: string; type: NoteTypeShape; fields: string[] } | undefined;
};
export type CardDraftErrors = FieldErrors<'front' | 'back'>;

export const emptyDraft = (): CardDraft => ({ type: 'basic', front: '', back: '', tags: [] });

/** What cards.create and cards.update take of a draft: trimmed sides (or a note's fields) and its tags' ids. */
export function draftInput(draft: CardDraft) {
  const tagIds = draft.tags.map((tag) => tag.id);
  if (draft.type === 'note' && draft.note) {
    return { noteTypeId: draft.note.id, fields: draft.note.fields.map((field) => field.trim()), tagIds };
  }
  return { type: draft.type, front: draft.front.trim(), back: draft.back.trim(), tagIds };
}
