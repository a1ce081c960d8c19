// ReviewRecorded, cards' own event: counts a learner's new reviews toward their next automatic optimization.
// Each review counts toward the preset that schedules its card; every OPTIMIZE_EVERY_REVIEWS of them, an
// optimization of that preset is queued as a row, which the job recovery hands to the work queue within half a
// minute (docs/architecture.md#jobs), unless one is queued or running already. Off the review's path: the review
// transaction writes nothing more for it. An erased learner's late events count nothing.
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { wasErased } from '@engram/kit/events/erased-users';
import type { Prisma } from '../generated/prisma/client.js';
import { cardPresetId } from '../learner/card-preset.js';
import { insertDefaultPreset } from '../learner/default-preset.js';

const MAKE_DEFAULT = insertDefaultPreset({ owner: '$1', retention: '$2' }, 'DO NOTHING');

// The review counts toward the preset that schedules its card (learner/card-preset.ts).
const COUNT_REVIEW = `
UPDATE presets SET reviews_since_optimized = reviews_since_optimized + 1
WHERE id = ${cardPresetId('$2::uuid', '$1')}
RETURNING id::text, reviews_since_optimized AS reviews`;

/** Counts one review of `cardId`; the optimization queued when it made the count, if any. */
export async function countReviewForOptimizer(
  tx: Prisma.TransactionClient,
  review: { ownerId: string; cardId: string },
  everyReviews: number,
): Promise<string | undefined> {
  const { ownerId, cardId } = review;
  if (await wasErased(tx, ownerId)) return undefined;
  await tx.$executeRawUnsafe(MAKE_DEFAULT, ownerId, DEFAULT_SETTINGS.desiredRetention);
  const [preset] = await tx.$queryRawUnsafe<{ id: string; reviews: number }[]>(COUNT_REVIEW, ownerId, cardId);
  if (!preset || preset.reviews < everyReviews) return undefined;
  await tx.preset.update({ where: { id: preset.id }, data: { reviewsSinceOptimized: 0 } });
  const pending = await tx.optimization.findFirst({
    where: { presetId: preset.id, status: { in: ['queued', 'running'] } },
    select: { id: true },
  });
  if (pending) return undefined;
  const queued = await tx.optimization.create({ data: { ownerId, presetId: preset.id }, select: { id: true } });
  return queued.id;
}
