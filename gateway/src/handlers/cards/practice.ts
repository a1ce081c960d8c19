// cards.listDue, cards.review, cards.undoReview: practising due items.
import { listDueInput, reviewInput, undoReviewInput } from '@engram/contracts/learning';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';
import {
  type DueItem,
  dueItemJson,
  type ItemState,
  itemStateJson,
  type NextIntervals,
  nextIntervalsJson,
} from './card-json.js';

export { listDueInput, reviewInput, undoReviewInput };

type Call<I> = { ctx: ProtectedContext; input: z.infer<I> };

export async function listDue({ ctx, input }: Call<typeof listDueInput>): Promise<{ items: DueItem[] }> {
  const { items } = await asUser(ctx).reviews.listDue({ tagIds: input.tagIds ?? [], limit: 0 });
  return { items: items.map(dueItemJson) };
}

/** The item's new state, and what each rating would give it at its next review (null if the service does not say). */
type ReviewAnswer = ItemState & { leech: boolean; nextIntervals: NextIntervals | null };

export async function review({ ctx, input }: Call<typeof reviewInput>): Promise<ReviewAnswer> {
  const answer = await asUser(ctx).reviews.review(input);
  return { ...itemStateJson(answer.item), leech: answer.leech, nextIntervals: nextIntervalsJson(answer.nextIntervals) };
}

export async function undoReview({ ctx, input }: Call<typeof undoReviewInput>): Promise<ItemState & { id: string }> {
  const answer = await asUser(ctx).reviews.undoReview(input);
  return { id: answer.id, ...itemStateJson(answer.item) };
}
