// cards.listDue: the items due for practice now, optionally by tags.
import { listDueInput } from '@engram/contracts/learning';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type DueItem, dueItemJson } from './card-json.js';

export { listDueInput };

export async function listDue({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof listDueInput>>): Promise<{ items: DueItem[] }> {
  const { items } = await asUser(ctx).reviews.listDue({ tagIds: input.tagIds ?? [], limit: 0 });
  return { items: items.map(dueItemJson) };
}
