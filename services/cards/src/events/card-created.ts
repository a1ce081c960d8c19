// CardCreated: written to the outbox in the transaction that creates the card.
import { CardCreated } from '@engram/contracts/events';
import { enqueueEvent, type SqlExecutor } from '@engram/kit/events/outbox';
import { Actor_Kind } from '@engram/proto/events/v1/envelope';

export function recordCardCreated(
  tx: SqlExecutor,
  card: { id: string; ownerId: string; createdAt: Date },
): Promise<string> {
  return enqueueEvent(
    tx,
    CardCreated,
    { cardId: card.id, ownerId: card.ownerId, createdAt: card.createdAt },
    { actor: { kind: Actor_Kind.KIND_USER, id: card.ownerId } },
  );
}
