// ListDecks: a page of the organization's decks the caller may see, newest first.
import type { CallContext } from '@engram/kit/grpc/server';
import type { ListDecksRequest, ListDecksResponse } from '@engram/proto/organizations/v1/organizations';
import { allowed, membership } from '../access.js';
import type { OrganizationsDeps } from '../deps.js';
import { deckMessages } from '../domain/decks.js';
import { decodeTimedCursor, pageOf, pageSizeOf, timedCursor } from '../domain/pages.js';

export function listDecks(deps: OrganizationsDeps) {
  return async (request: ListDecksRequest, ctx: CallContext): Promise<ListDecksResponse> => {
    const size = pageSizeOf(request.pageSize);
    const after = request.cursor ? decodeTimedCursor('decks', request.cursor) : undefined;
    const access = await membership(deps.identity, ctx, request.organizationId);
    const managesDecks = await allowed(deps.identity, ctx, access.organizationId, { deck: ['update'] });
    // Who sees which deck is part of the query, so every page is full and the index's order is the page's.
    const rows = await deps.db.deck.findMany({
      where: {
        organizationId: access.organizationId,
        AND: [
          ...(managesDecks ? [] : [{ OR: [{ teamId: null }, { teamId: { in: access.teamIds } }] }]),
          ...(after ? [{ OR: [{ createdAt: { lt: after.at } }, { createdAt: after.at, id: { lt: after.id } }] }] : []),
        ],
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: size + 1,
    });
    const page = pageOf(rows, size, (deck) => timedCursor('decks', { at: deck.createdAt, id: deck.id }));
    return { decks: await deckMessages(deps.db, page.items, ctx.caller.userId), nextCursor: page.nextCursor };
  };
}
