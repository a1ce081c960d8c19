// cards.review: rates a due item and schedules its next review.
import { type ReviewInput, reviewInput } from '@engram/contracts/learning';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ItemState, itemStateJson, type NextIntervals, nextIntervalsJson } from './card-json.js';

export { reviewInput };

/** The item's new state, and what each rating would give it at its next review (null if the service does not say). */
type ReviewAnswer = ItemState & { leech: boolean; nextIntervals: NextIntervals | null };

export async function review({ ctx, input }: HandlerArgs<ReviewInput>): Promise<ReviewAnswer> {
  const answer = await asUser(ctx).reviews.review(input);
  return { ...itemStateJson(answer.item), leech: answer.leech, nextIntervals: nextIntervalsJson(answer.nextIntervals) };
}
