// PreviewReschedule and Reschedule: a preset's reviewed cards given the due dates its options give them now
// (presets/reschedule.ts), previewed first and never done without being asked. Another learner's preset is not
// found.
import { rescheduleInput } from '@engram/contracts/scheduling';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ReschedulePreview, RescheduleRequest, RescheduleResponse } from '@engram/proto/cards/v1/settings';
import type { Compute } from '../compute/compute-pool.js';
import type { Stores } from '../db.js';
import { defaultPresetId } from '../learner/default-preset.js';
import { PRESET_NOT_FOUND } from '../presets/presets.js';
import { applyReschedule, dueDays, rescheduleInput as readInput } from '../presets/reschedule.js';

async function presetOf(stores: Stores, request: RescheduleRequest, ownerId: string) {
  const input = parseInput(rescheduleInput, { presetId: request.presetId || undefined });
  const id = input.presetId ?? (await defaultPresetId(stores.pool, ownerId));
  const preset = await stores.db.preset.findFirst({ where: { id, ownerId } });
  if (!preset) throw PRESET_NOT_FOUND();
  return preset;
}

/** The plan, worked out in a child process (its replays take seconds for a large collection). */
async function planOf(stores: Stores, compute: Compute, request: RescheduleRequest, ctx: CallContext) {
  const ownerId = ctx.caller.userId;
  const preset = await presetOf(stores, request, ownerId);
  const plan = await compute.run(ownerId, 'reschedule', () => readInput(stores, ownerId, preset), ctx.signal);
  return { preset, plan };
}

export function previewReschedule(stores: Stores, compute: Compute) {
  return async (request: RescheduleRequest, ctx: CallContext): Promise<ReschedulePreview> => {
    const { plan } = await planOf(stores, compute, request, ctx);
    return { cards: plan.cards, changed: plan.moved, days: dueDays(plan) };
  };
}

export function reschedule(stores: Stores, compute: Compute) {
  return async (request: RescheduleRequest, ctx: CallContext): Promise<RescheduleResponse> => {
    const ownerId = ctx.caller.userId;
    const { preset, plan } = await planOf(stores, compute, request, ctx);
    const changed = await applyReschedule(stores.pool, ownerId, plan);
    ctx.logger.info({ presetId: preset.id, changed }, 'preset rescheduled');
    return { changed };
  };
}
