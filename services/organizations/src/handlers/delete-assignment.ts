// DeleteAssignment: removes an assignment; one in an organization the caller is not in is not found.
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import type { DeleteAssignmentRequest, DeleteAssignmentResponse } from '@engram/proto/organizations/v1/organizations';
import { membership, requirePermission } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { assignmentNotFound } from '../domain/assignments.js';
import { isId } from '../ids.js';

export function deleteAssignment(deps: OrganizationsDeps) {
  return async (request: DeleteAssignmentRequest, ctx: CallContext): Promise<DeleteAssignmentResponse> => {
    const assignment = isId(request.assignmentId)
      ? await deps.db.assignment.findUnique({ where: { id: request.assignmentId } })
      : null;
    if (!assignment) throw assignmentNotFound();
    try {
      await membership(deps.identity, ctx, assignment.organizationId);
    } catch (error) {
      if (error instanceof NotFound) throw assignmentNotFound();
      throw error;
    }
    await requirePermission(
      deps.identity,
      ctx,
      assignment.organizationId,
      { assignment: ['delete'] },
      'You are not allowed to remove assignments in this organization.',
    );
    await deps.db.assignment.deleteMany({ where: { id: assignment.id } });
    return {};
  };
}
