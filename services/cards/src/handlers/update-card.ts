// UpdateCard: changes the named fields of one of the caller's cards. Review items follow the card's type, its
// cloze deletions, or a note's fields and templates; those that remain keep their progress. A note is changed by
// its fields (and may change note type with them); any card may become a note by its note type and fields.
import { backIsOptional, updateCardInput } from '@engram/contracts/cards';
import { stockNoteTypeOf } from '@engram/contracts/note-types';
import { Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { UpdateCardRequest, UpdateCardResponse } from '@engram/proto/cards/v1/cards';
import type { Stores } from '../db.js';
import { assertContent, type CardContent, changeContent, noteContent } from '../domain/card-writes.js';
import { assertOwnTags } from '../domain/owned-tags.js';
import { toProtoCard, WITH_TAGS } from '../domain/to-proto.js';

const FIELDS = {
  front: 'front',
  back: 'back',
  type: 'type',
  tag_ids: 'tagIds',
  note_type_id: 'noteTypeId',
  field_values: 'fields',
} as const;

const REQUEST_KEYS = {
  front: 'front',
  back: 'back',
  type: 'type',
  tagIds: 'tagIds',
  noteTypeId: 'noteTypeId',
  fields: 'fieldValues',
} as const;

export function updateCard({ db }: Stores) {
  return async (request: UpdateCardRequest, ctx: CallContext): Promise<UpdateCardResponse> => {
    const ownerId = ctx.caller.userId;
    const named = Object.fromEntries(
      request.fields.flatMap((field) => {
        const key = FIELDS[field as keyof typeof FIELDS];
        return key ? [[key, request[REQUEST_KEYS[key]]]] : [];
      }),
    );
    const input = parseInput(updateCardInput, { id: request.id, ...named });
    const card = await db.$transaction(async (tx) => {
      const current = await tx.card.findFirst({ where: { id: input.id, ownerId } });
      if (!current) throw new NotFound('Card not found.', 'CARD_NOT_FOUND');
      let next: CardContent | undefined;
      if (input.fields !== undefined) {
        const noteTypeId = input.noteTypeId ?? current.noteTypeId ?? stockNoteTypeOf(current.type).id;
        next = await noteContent(tx, ownerId, noteTypeId, input.fields);
      } else if (current.type === 'note' && (input.type ?? 'note') === 'note') {
        if (input.front !== undefined || input.back !== undefined) {
          throw new Invalid('A note is changed by its fields.', 'INVALID_NOTE');
        }
      } else {
        const type = input.type ?? current.type;
        if (type === 'note') throw new Invalid('A note needs its note type.', 'INVALID_NOTE');
        const front = input.front ?? current.front;
        const back = input.back ?? current.back;
        // The content is checked when the edit changes it: a card saved before a stricter rule keeps its tags
        // and its back editable until its front or type is edited.
        if (type !== current.type || front !== current.front) assertContent(type, front);
        if (!backIsOptional(type) && back === '') throw new Invalid('Back is required.', 'INVALID_CARD');
        next = { type, front, back };
      }
      if (input.tagIds) await assertOwnTags(tx, ownerId, input.tagIds);
      if (next) await changeContent(tx, current, next, new Date());
      if (input.tagIds) {
        const tagIds = [...new Set(input.tagIds)];
        await tx.card.update({
          where: { id: current.id },
          data: { tags: { deleteMany: {}, create: tagIds.map((tagId) => ({ tagId })) } },
        });
      }
      return tx.card.findUniqueOrThrow({ where: { id: current.id }, include: WITH_TAGS });
    });
    return { card: toProtoCard(card) };
  };
}
