// One optimization, as the work queue's job runs it (docs/architecture.md#jobs), like an import: the replica
// claims the row and keeps its heartbeat fresh, reads the learner's review log, fits the preset's parameters
// (optimize.ts) and records what it found, adopting the parameters in the same transaction when they predict
// better. A replica that dies leaves the row to be taken over and fitted again from the start (the fit writes
// nothing until it ends); a stop at shutdown hands it back at once.

import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import type { Logger } from '@engram/kit/logger';
import type { Stores } from '../db.js';
import { claimJob, keepHeartbeat } from '../jobs/job-row.js';
import { cardPresetId } from '../learner/card-preset.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import type { StoredEvaluation } from '../presets/presets.js';
import { type LoggedReview, trainingItems } from './history.js';
import { optimize } from './optimize.js';

export const OPTIMIZATIONS_QUEUE = 'cards.optimizations';

export interface OptimizationDeps {
  stores: Stores;
  logger: Logger;
  /** OPTIMIZE_MINIMUM_REVIEWS: below this many reviews to learn from, the parameters in use stay. */
  minimumReviews: number;
}

/** How often at most the fit's progress is written to the row the learner's screen follows. */
const PROGRESS_WRITE_MS = 500;

// The reviews of the cards the preset schedules (learner/card-preset.ts). The reviews of deleted cards are kept
// (docs/product.md), count toward the default preset, and are learned from unless the learner chose otherwise.
// Previews (imported from Anki's filtered decks that did not reschedule) are not learned from, as in Anki.
const REVIEWS = `
SELECT l.item_id::text AS "itemId", l.rating::int AS rating, l.state_before::int AS "stateBefore",
  l.reviewed_at AS "reviewedAt", l.undone_at IS NOT NULL AS undone
FROM review_logs l
WHERE l.owner_id = $1 AND NOT l.preview AND (NOT $2 OR EXISTS (SELECT 1 FROM cards c WHERE c.id = l.card_id))
  AND ${cardPresetId('l.card_id', '$1')} = $3::uuid`;

export async function runOptimization(
  deps: OptimizationDeps,
  id: string,
  { signal }: { signal: AbortSignal },
): Promise<void> {
  const { db, pool } = deps.stores;
  if (!(await claimJob(db, 'optimizations', id))) return;
  // A preset deleted meanwhile takes its optimizations with it: there is nothing left to fit.
  const job = await db.optimization.findUnique({ where: { id }, include: { preset: true } });
  if (!job) return;
  const logger = deps.logger.child({ optimizationId: id });
  const stopHeartbeat = keepHeartbeat(db, 'optimizations', id);
  try {
    const settings = settingsOf(await readSettings(pool, job.ownerId));
    const { rows } = await pool.query<LoggedReview>(REVIEWS, [job.ownerId, job.excludeDeleted, job.presetId]);
    const items = trainingItems(rows, { timeZone: settings.timezone, dayStartHour: settings.dayStartHour });
    let written = 0;
    const result = await optimize(items, {
      current: job.preset.parameters.length > 0 ? job.preset.parameters : DEFAULT_PARAMETERS,
      relearningSteps: settings.relearningSteps.length,
      minimumReviews: deps.minimumReviews,
      signal,
      onProgress: (done, total) => {
        if (Date.now() - written < PROGRESS_WRITE_MS) return;
        written = Date.now();
        void db.optimization
          .updateMany({ where: { id }, data: { progressDone: done, progressTotal: total } })
          .catch((error: unknown) => logger.warn({ err: error }, 'optimization progress not written'));
      },
    });
    const finishedAt = new Date();
    const done = { status: 'done', outcome: result.outcome, reviews: items.length, finishedAt };
    if (result.outcome === 'too-few-reviews') {
      await db.optimization.updateMany({ where: { id }, data: { ...done, needed: result.needed } });
    } else {
      const evaluation: StoredEvaluation = { ...result.evaluation, measuredAt: finishedAt.toISOString() };
      const adopted = result.outcome === 'adopted' ? { parameters: result.parameters, optimizedAt: finishedAt } : {};
      await db.$transaction([
        db.preset.updateMany({ where: { id: job.presetId }, data: { evaluation, ...adopted } }),
        db.optimization.updateMany({ where: { id }, data: { ...done, evaluation } }),
      ]);
    }
    logger.info({ outcome: result.outcome, reviews: items.length }, 'optimization done');
  } catch (error) {
    if (signal.aborted) {
      // Handed back at shutdown: queued again, so the next replica takes it at once; the claim was no attempt.
      await db.optimization.updateMany({ where: { id }, data: { status: 'queued', attempts: { decrement: 1 } } });
      throw error;
    }
    logger.warn({ err: error }, 'optimization failed');
    await db.optimization.updateMany({ where: { id }, data: { status: 'failed', finishedAt: new Date() } });
  } finally {
    stopHeartbeat();
  }
}
