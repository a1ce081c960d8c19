// Maps a stored card to its gRPC message.
import type { Card } from '@engram/proto/cards/v1/cards';
import type { Card as CardRow } from '../generated/prisma/client.js';

export function toProtoCard(row: CardRow): Card {
  return {
    id: row.id,
    ownerId: row.ownerId,
    front: row.front,
    back: row.back,
    archived: row.archived,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
