// GetProgress: per member, over the organization's decks or one assignment's deck. Those with
// progress:read (owners and admins, or a custom role given it) see every member of the organization (or
// of the assignment's team) by the membership read model, a page at a time in user id order; everyone
// else sees only themselves.
import type { CallContext } from '@engram/kit/grpc/server';
import type { GetProgressRequest, GetProgressResponse } from '@engram/proto/organizations/v1/organizations';
import { allowed, membership } from '../access.js';
import type { Db } from '../db.js';
import type { OrganizationsDeps } from '../deps.js';
import { assignmentNotFound } from '../domain/assignments.js';
import { decodeMemberCursor, memberCursor, pageOf, pageSizeOf } from '../domain/pages.js';
import { progressOf } from '../domain/progress.js';
import { isId } from '../ids.js';

export function getProgress(deps: OrganizationsDeps) {
  return async (request: GetProgressRequest, ctx: CallContext): Promise<GetProgressResponse> => {
    const size = pageSizeOf(request.pageSize);
    const after = request.cursor ? decodeMemberCursor(request.cursor) : undefined;
    const access = await membership(deps.identity, ctx, request.organizationId);
    const allMembers = await allowed(deps.identity, ctx, access.organizationId, { progress: ['read'] });
    const { db } = deps;
    let deckIds: string[];
    let teamId: string | null = null;
    let target: { kind: string; value: number } | undefined;
    if (request.assignmentId) {
      const assignment = isId(request.assignmentId)
        ? await db.assignment.findFirst({ where: { id: request.assignmentId, organizationId: access.organizationId } })
        : null;
      if (!assignment) throw assignmentNotFound();
      if (!allMembers && assignment.teamId && !access.teamIds.includes(assignment.teamId)) throw assignmentNotFound();
      deckIds = [assignment.deckId];
      teamId = assignment.teamId;
      target = { kind: assignment.targetKind, value: assignment.targetValue };
    } else {
      const decks = await db.deck.findMany({ where: { organizationId: access.organizationId }, select: { id: true } });
      deckIds = decks.map((deck) => deck.id);
    }
    let page = { items: after ? [] : [ctx.caller.userId], nextCursor: '' };
    if (allMembers) {
      const rows = await roster(db, access.organizationId, teamId, after, size + 1);
      page = pageOf(rows, size, memberCursor);
    }
    if (!page.items.length) return { members: [], allMembers, nextCursor: '' };
    return { members: await progressOf(db, deckIds, page.items, target), allMembers, nextCursor: page.nextCursor };
  };
}

/** Up to `limit` members of the organization (or of one of its teams) after `after`, in the order of the
 * members' primary key, so a page reads only its own rows of the index. */
async function roster(db: Db, organizationId: string, teamId: string | null, after: string | undefined, limit: number) {
  const rows = await db.$queryRaw<{ user_id: string }[]>`
    SELECT m.user_id FROM members m
     WHERE m.organization_id = ${organizationId}
       AND (${teamId}::text IS NULL
            OR EXISTS (SELECT 1 FROM team_members t WHERE t.team_id = ${teamId} AND t.user_id = m.user_id))
       AND (${after ?? null}::text IS NULL OR m.user_id > ${after ?? null})
     ORDER BY m.user_id
     LIMIT ${limit}`;
  return rows.map((row) => row.user_id);
}
