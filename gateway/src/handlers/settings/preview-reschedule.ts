// settings.previewReschedule: what settings.reschedule would do to a preset's cards, before it is asked: how many
// change, and how many fall due on each of the next days, before and after.
import { rescheduleInput } from '@engram/contracts/scheduling';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { FORECAST_CALL } from './forecast-call.js';

export { rescheduleInput };

export interface ReschedulePreviewJson {
  /** The preset's reviewed cards, and those whose due date would change. */
  cards: number;
  changed: number;
  /** The learner's next 30 days (the first also holding overdue cards), then one for every later day. */
  days: { date: string; before: number; after: number }[];
}

export async function previewReschedule({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof rescheduleInput>>): Promise<ReschedulePreviewJson> {
  const { cards, changed, days } = await asUser(ctx).settings.previewReschedule(
    { presetId: input.presetId ?? '' },
    FORECAST_CALL,
  );
  return { cards, changed, days: days.map(({ date, before, after }) => ({ date, before, after })) };
}
