// Tags named in a request must be the caller's own; anyone else's (or none at all) is NOT_FOUND.
import { NotFound } from '@engram/kit/errors';
import type { Prisma } from '../generated/prisma/client.js';

export async function assertOwnTags(tx: Prisma.TransactionClient, ownerId: string, tagIds: string[]): Promise<void> {
  const distinct = [...new Set(tagIds)];
  if (distinct.length === 0) return;
  const found = await tx.tag.count({ where: { ownerId, id: { in: distinct } } });
  if (found !== distinct.length) throw new NotFound('Tag not found.', 'TAG_NOT_FOUND');
}
