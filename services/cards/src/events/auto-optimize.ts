// ReviewRecorded, cards' own event: counts a learner's new reviews toward their next automatic optimization.
// Every OPTIMIZE_EVERY_REVIEWS of them, an optimization of their default preset is queued as a row, which the
// job recovery hands to the work queue within half a minute (docs/architecture.md#jobs), unless one is queued or
// running already. Off the review's path: the review transaction writes nothing more for it. An erased learner's
// late events count nothing.
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { wasErased } from '@engram/kit/events/erased-users';
import type { Prisma } from '../generated/prisma/client.js';
import { insertDefaultPreset } from '../presets/presets.js';

// Made with this review counted, if the learner has no default preset yet.
const COUNT_REVIEW = `${insertDefaultPreset(
  { owner: '$1', retention: '$2', counted: '1' },
  'DO UPDATE SET reviews_since_optimized = presets.reviews_since_optimized + 1',
)}
RETURNING id::text, reviews_since_optimized AS reviews`;

/** Counts one review; the optimization queued when it made the count, if any. */
export async function countReviewForOptimizer(
  tx: Prisma.TransactionClient,
  ownerId: string,
  everyReviews: number,
): Promise<string | undefined> {
  if (await wasErased(tx, ownerId)) return undefined;
  const [preset] = await tx.$queryRawUnsafe<{ id: string; reviews: number }[]>(
    COUNT_REVIEW,
    ownerId,
    DEFAULT_SETTINGS.desiredRetention,
  );
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
