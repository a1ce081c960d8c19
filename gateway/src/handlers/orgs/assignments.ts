// orgs.assignments: one page of the assignments the caller may see, in one organization or all of theirs.
import { listAssignmentsInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type AssignmentJson, assignmentJson, type Page, pageRequest } from './json.js';

export { listAssignmentsInput };

export async function assignments({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof listAssignmentsInput>>): Promise<Page<AssignmentJson>> {
  const request = {
    organizationId: input?.organizationId ?? '',
    ...pageRequest(input),
  };
  const answer = await asUser(ctx).organizations.listAssignments(request);
  return { items: answer.assignments.map(assignmentJson), nextCursor: answer.nextCursor || null };
}
