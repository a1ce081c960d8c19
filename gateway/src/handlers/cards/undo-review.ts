// cards.undoReview: takes back a review, so the item is as it was before it.
import { undoReviewInput } from '@engram/contracts/learning';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ItemState, itemStateJson } from './card-json.js';

export { undoReviewInput };

export async function undoReview({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof undoReviewInput>>): Promise<ItemState & { id: string }> {
  const answer = await asUser(ctx).reviews.undoReview(input);
  return { id: answer.id, ...itemStateJson(answer.item) };
}
