// Creates that may be retried: the first call with an idempotency key claims it (inside the transaction
// that creates the cards, so the claim commits with them or not at all) and records which cards it made;
// a later call with the same key gets those cards back, or ALREADY_EXISTS when it asks for something
// else. Two concurrent calls with one key meet on the primary key: the second waits for the first to
// commit and then finds its cards.
import { createHash } from 'node:crypto';
import { Conflict, NotFound } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';
import { type CardWithTags, WITH_TAGS } from './to-proto.js';

/** A stable fingerprint of what a call asked for (`kind` tells CreateCard from CreateCards). */
export function requestDigest(kind: 'card' | 'cards', content: unknown): string {
  return createHash('sha256').update(kind).update('\0').update(JSON.stringify(content)).digest('base64url');
}

export type Claim = { fresh: true } | { fresh: false; cards: CardWithTags[] };

export async function claimCreateRequest(
  tx: Prisma.TransactionClient,
  ownerId: string,
  key: string,
  digest: string,
): Promise<Claim> {
  const claimed = await tx.$executeRaw`
    INSERT INTO create_requests (owner_id, key, digest, card_ids) VALUES (${ownerId}, ${key}, ${digest}, '{}')
    ON CONFLICT DO NOTHING`;
  if (claimed === 1) return { fresh: true };
  const earlier = await tx.createRequest.findUniqueOrThrow({ where: { ownerId_key: { ownerId, key } } });
  if (earlier.digest !== digest) {
    throw new Conflict('This idempotency key was already used for a different request.', 'IDEMPOTENCY_KEY_REUSED');
  }
  const rows = await tx.card.findMany({ where: { id: { in: earlier.cardIds }, ownerId }, include: WITH_TAGS });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const cards = earlier.cardIds.flatMap((id) => byId.get(id) ?? []);
  if (cards.length === 0) throw new NotFound('The cards this request created have been deleted.', 'CARD_NOT_FOUND');
  return { fresh: false, cards };
}

export async function recordCreatedCards(
  tx: Prisma.TransactionClient,
  ownerId: string,
  key: string,
  cardIds: string[],
): Promise<void> {
  await tx.createRequest.update({ where: { ownerId_key: { ownerId, key } }, data: { cardIds } });
}
