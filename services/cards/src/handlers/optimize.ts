// Optimize: queues fitting one of the caller's presets (the default one when none is named) to their reviews, as
// a job any replica may run (optimizer/run-optimization.ts). While one of the preset's optimizations is queued or
// running, asking again answers that one (a fit is seconds of a replica's CPU). Another user's preset is not found.
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { OptimizeRequest, OptimizeResponse } from '@engram/proto/cards/v1/settings';
import { z } from 'zod';
import type { Stores } from '../db.js';
import { defaultPresetId } from '../presets/presets.js';

const optimizeInput = z.object({
  presetId: z.union([z.literal(''), z.uuid('The preset is not valid.')]),
  excludeDeletedCards: z.boolean(),
});

export function optimize(stores: Stores, enqueueOptimization: (id: string) => Promise<void>) {
  return async (request: OptimizeRequest, ctx: CallContext): Promise<OptimizeResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(optimizeInput, request);
    let presetId = input.presetId;
    if (presetId === '') presetId = await defaultPresetId(stores.pool, ownerId);
    else if ((await stores.db.preset.count({ where: { id: presetId, ownerId } })) === 0)
      throw new NotFound('Preset not found.', 'PRESET_NOT_FOUND');
    const pending = await stores.db.optimization.findFirst({
      where: { presetId, status: { in: ['queued', 'running'] } },
      select: { id: true },
    });
    if (pending) return { jobId: pending.id };
    // Counting toward the next automatic one starts again (events/auto-optimize.ts).
    const [created] = await stores.db.$transaction([
      stores.db.optimization.create({ data: { ownerId, presetId, excludeDeleted: input.excludeDeletedCards } }),
      stores.db.preset.update({ where: { id: presetId }, data: { reviewsSinceOptimized: 0 } }),
    ]);
    await enqueueOptimization(created.id);
    ctx.logger.info({ optimizationId: created.id, presetId }, 'optimization queued');
    return { jobId: created.id };
  };
}
