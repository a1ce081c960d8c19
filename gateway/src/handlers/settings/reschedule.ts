// settings.reschedule: gives a preset's cards the due dates its options give them now (previewed first with
// settings.previewReschedule).
import { rescheduleInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { FORECAST_CALL } from './forecast-call.js';

export { rescheduleInput };

export async function reschedule({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof rescheduleInput>>): Promise<{ changed: number }> {
  return asUser(ctx).settings.reschedule({ presetId: input.presetId ?? '' }, FORECAST_CALL);
}
