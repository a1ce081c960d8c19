// orgs.deleteAssignment: removes an assignment.
import { assignmentInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { assignmentInput };

export async function deleteAssignment({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof assignmentInput>>): Promise<{ deleted: true }> {
  await asUser(ctx).organizations.deleteAssignment(input);
  return { deleted: true };
}
