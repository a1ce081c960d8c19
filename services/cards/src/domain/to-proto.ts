// Maps stored cards and tags to their gRPC messages.
import type { Card, Tag } from '@engram/proto/cards/v1/cards';
import type { Card as CardRow, Tag as TagRow } from '../generated/prisma/client.js';

/** How to load a card with its tags, for toProtoCard. */
export const WITH_TAGS = { tags: { include: { tag: true }, orderBy: { tag: { nameKey: 'asc' } } } } as const;

export type CardWithTags = CardRow & { tags: { tag: TagRow }[] };

export function toProtoTag(row: Pick<TagRow, 'id' | 'name'>): Tag {
  return { id: row.id, name: row.name };
}

export function toProtoCard(row: CardWithTags): Card {
  return {
    id: row.id,
    ownerId: row.ownerId,
    front: row.front,
    back: row.back,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    type: row.type,
    tags: row.tags.map(({ tag }) => toProtoTag(tag)),
    deckId: row.deckId ?? '',
    noteTypeId: row.noteTypeId ?? '',
    fieldValues: row.noteTypeId ? row.fields : [],
  };
}

/** A new card as a request gives it: a note's note type and fields when it names one (protobuf has no "unset"). */
export function newCardOf<T extends { type: string; noteTypeId: string; fieldValues: string[] }>(request: T) {
  const { noteTypeId, fieldValues, ...rest } = request;
  return {
    ...rest,
    type: request.type || undefined,
    ...(noteTypeId && { noteTypeId, fields: fieldValues }),
  };
}
