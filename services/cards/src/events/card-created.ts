// engram.cards.card.created: written to the outbox in the transaction that creates the card.
import { enqueueEvent } from '@engram/kit/events/outbox';
import { CardCreated } from '@engram/proto/events/v1/cards';
import { Actor_Kind } from '@engram/proto/events/v1/envelope';
import type { Prisma } from '../generated/prisma/client.js';

export const CARD_CREATED = 'engram.cards.card.created';

export function recordCardCreated(
  tx: Prisma.TransactionClient,
  card: { id: string; ownerId: string; createdAt: Date },
): Promise<string> {
  const payload = CardCreated.encode({ cardId: card.id, ownerId: card.ownerId, createdAt: card.createdAt }).finish();
  return enqueueEvent(tx, { type: CARD_CREATED, payload, actor: { kind: Actor_Kind.KIND_USER, id: card.ownerId } });
}
