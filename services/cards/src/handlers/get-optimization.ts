// GetOptimization: one of the caller's optimizations, where it stands and what it found; anyone else's is not
// found.
import { getOptimizationInput } from '@engram/contracts/scheduling';
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { GetOptimizationRequest, Optimization } from '@engram/proto/cards/v1/settings';
import type { Stores } from '../db.js';
import { evaluationMessage } from '../presets/presets.js';

export function getOptimization({ db }: Stores) {
  return async (request: GetOptimizationRequest, ctx: CallContext): Promise<Optimization> => {
    const { jobId } = parseInput(getOptimizationInput, request);
    const row = await db.optimization.findFirst({ where: { id: jobId, ownerId: ctx.caller.userId } });
    if (!row) throw new NotFound('Optimization not found.', 'OPTIMIZATION_NOT_FOUND');
    return {
      id: row.id,
      presetId: row.presetId,
      status: row.status,
      progressDone: row.progressDone,
      progressTotal: row.progressTotal,
      outcome: row.outcome ?? '',
      evaluation: evaluationMessage(row.evaluation),
      reviews: row.reviews,
      needed: row.needed,
      createdAt: row.createdAt,
      finishedAt: row.finishedAt ?? undefined,
    };
  };
}
