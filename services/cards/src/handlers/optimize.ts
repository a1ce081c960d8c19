// Optimize: queues fitting one of the caller's presets (the default one when none is named) to their reviews, as
// a job any replica may run (optimizer/run-optimization.ts). While one of the preset's optimizations is queued or
// running, asking again answers that one (a fit is seconds of a replica's CPU). Another user's preset is not found.
import { optimizeInput } from '@engram/contracts/scheduling';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { OptimizeRequest, OptimizeResponse } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { defaultPresetId } from '../learner/default-preset.js';
import { PRESET_NOT_FOUND } from '../presets/presets.js';

export function optimize(stores: Stores, enqueueOptimization: (id: string) => Promise<void>) {
  return async (request: OptimizeRequest, ctx: CallContext): Promise<OptimizeResponse> => {
    const ownerId = ctx.caller.userId;
    // The contract's rules (settings.optimize); an empty preset id is the default preset.
    const input = parseInput(optimizeInput, { ...request, presetId: request.presetId || undefined });
    let presetId = input.presetId;
    if (presetId === undefined) presetId = await defaultPresetId(stores.pool, ownerId);
    else if ((await stores.db.preset.count({ where: { id: presetId, ownerId } })) === 0) throw PRESET_NOT_FOUND();
    const pending = await stores.db.optimization.findFirst({
      where: { presetId, status: { in: ['queued', 'running'] } },
      select: { id: true },
    });
    if (pending) return { jobId: pending.id };
    // Counting toward the next automatic one starts again (events/auto-optimize.ts).
    const [created] = await stores.db.$transaction([
      stores.db.optimization.create({
        data: { ownerId, presetId, excludeDeleted: input.excludeDeletedCards ?? false },
      }),
      stores.db.preset.update({ where: { id: presetId }, data: { reviewsSinceOptimized: 0 } }),
    ]);
    await enqueueOptimization(created.id);
    ctx.logger.info({ optimizationId: created.id, presetId }, 'optimization queued');
    return { jobId: created.id };
  };
}
