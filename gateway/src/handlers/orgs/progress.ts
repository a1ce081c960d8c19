// orgs.progress: one page of members' progress in an organization, overall or on one assignment.
import { progressInput } from '@engram/contracts/shared-decks';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type Page, type ProgressJson, pageRequest, progressJson } from './json.js';

export { progressInput };

export async function progress({
  ctx,
  input,
}: HandlerArgs<z.infer<typeof progressInput>>): Promise<Page<ProgressJson> & { allMembers: boolean }> {
  const request = {
    organizationId: input.organizationId,
    assignmentId: input.assignmentId ?? '',
    ...pageRequest(input),
  };
  const answer = await asUser(ctx).organizations.getProgress(request);
  return {
    items: answer.members.map(progressJson),
    nextCursor: answer.nextCursor || null,
    allMembers: answer.allMembers,
  };
}
