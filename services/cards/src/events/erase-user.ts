// UserDeleted: the account is gone, so everything the cards service kept of the user goes too — cards
// (with their review items and tags on them, copies of shared decks included), their note types, tags, review logs and
// their daily counts, settings and presets, the idempotency keys of its creates, their deck subscriptions, and their
// images, sounds, uploads, imports and exports (the objects queued for the sweeper to remove from the store) — in the
// consumer's transaction, so a redelivered event finds nothing left to do. The erasure is recorded as a
// hash of the id, so late events about the user are refused.
//
// Unlike the other services, cards leaves its published outbox rows about the user to the pruner (7
// days): they carry ids only (CardCreated, ReviewRecorded, ReviewRestated, ReviewUndone), and its outbox holds a
// week of every review, which no erasure can search within its transaction (about 5 s per million rows here).
import { recordErasure } from '@engram/kit/events/erased-users';
import type { Prisma } from '../generated/prisma/client.js';
import { queueObjectDeletions } from '../media/sweeper.js';

export async function eraseUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await recordErasure(tx, userId);
  await tx.reviewLog.deleteMany({ where: { ownerId: userId } });
  await tx.reviewDay.deleteMany({ where: { ownerId: userId } });
  await tx.card.deleteMany({ where: { ownerId: userId } });
  await tx.noteType.deleteMany({ where: { ownerId: userId } });
  await tx.tag.deleteMany({ where: { ownerId: userId } });
  await tx.learnerSettings.deleteMany({ where: { ownerId: userId } });
  await tx.preset.deleteMany({ where: { ownerId: userId } });
  await tx.createRequest.deleteMany({ where: { ownerId: userId } });
  await tx.bulkEdit.deleteMany({ where: { ownerId: userId } });
  await tx.savedSearch.deleteMany({ where: { ownerId: userId } });
  await tx.ankiMediaName.deleteMany({ where: { ownerId: userId } });
  await tx.deckSubscriber.deleteMany({ where: { userId } });
  await queueObjectDeletions(tx, {
    media: await tx.mediaFile.findMany({ where: { ownerId: userId }, select: { objectKey: true } }),
    uploads: await tx.upload.findMany({ where: { ownerId: userId }, select: { objectKey: true } }),
    exports: (
      await tx.export.findMany({ where: { ownerId: userId, objectKey: { not: null } }, select: { objectKey: true } })
    ).flatMap(({ objectKey }) => (objectKey ? [{ objectKey }] : [])),
  });
  await tx.mediaFile.deleteMany({ where: { ownerId: userId } });
  await tx.upload.deleteMany({ where: { ownerId: userId } });
  await tx.import.deleteMany({ where: { ownerId: userId } });
  await tx.export.deleteMany({ where: { ownerId: userId } });
}
