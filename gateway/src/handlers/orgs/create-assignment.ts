// orgs.createAssignment: assigns a shared deck to the organization (or a team) with a due date and a target.
import { type CreateAssignmentInput, createAssignmentInput } from '@engram/contracts/shared-decks';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type AssignmentJson, assignmentJson } from './json.js';

export { createAssignmentInput };

export async function createAssignment({ ctx, input }: HandlerArgs<CreateAssignmentInput>): Promise<AssignmentJson> {
  const request = { ...input, teamId: input.teamId ?? '', dueAt: new Date(input.dueAt) };
  return assignmentJson(await asUser(ctx).organizations.createAssignment(request));
}
