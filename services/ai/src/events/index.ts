// The events ai takes part in: when billing announces a change of plan, the plan ai kept for the user
// is forgotten (the next request asks billing again); when an account is deleted, everything ai kept of
// the user goes.
import { SubscriptionChanged, UserDeleted } from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import { recordErasure } from '@engram/kit/events/erased-users';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Db, Prisma } from '../db.js';

/** ai has no outbox; its erasure is recorded (as a hash of the id) so that nothing is kept for them again. */
export async function eraseAiUser(tx: Prisma.TransactionClient, userId: string): Promise<void> {
  await recordErasure(tx, userId);
  await tx.uploadedFile.deleteMany({ where: { userId } });
  await tx.generation.deleteMany({ where: { userId } });
  await tx.usagePeriod.deleteMany({ where: { userId } });
  await tx.entitlement.deleteMany({ where: { userId } });
}

export function aiEvents(db: Db): EventsDeclaration<Prisma.TransactionClient> {
  return {
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'plan-changes',
        subscriptions: [
          on(SubscriptionChanged, async (payload, { tx }) => {
            await tx.entitlement.deleteMany({ where: { userId: payload.userId } });
          }),
        ],
      },
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseAiUser(tx, payload.userId))],
      },
    ],
  };
}
