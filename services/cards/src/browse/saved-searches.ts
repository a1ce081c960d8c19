// A learner's saved searches of the Browse screen: a name (unique regardless of case; saving it again replaces its
// search) and a search in Anki's syntax, at most SAVED_SEARCHES_MAX of them.
import { deleteSavedSearchInput, SAVED_SEARCHES_MAX, saveSearchInput } from '@engram/contracts/browse';
import { FailedPrecondition, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type * as Proto from '@engram/proto/cards/v1/browse';
import type { Stores } from '../db.js';
import { tagKey } from '../domain/tag-name.js';

const toProto = (search: { id: string; name: string; query: string }): Proto.SavedSearch => ({
  id: search.id,
  name: search.name,
  query: search.query,
});

export function listSavedSearches({ db }: Stores) {
  return async (
    _request: Proto.ListSavedSearchesRequest,
    ctx: CallContext,
  ): Promise<Proto.ListSavedSearchesResponse> => {
    const searches = await db.savedSearch.findMany({
      where: { ownerId: ctx.caller.userId },
      orderBy: { nameKey: 'asc' },
    });
    return { items: searches.map(toProto) };
  };
}

export function saveSearch({ db }: Stores) {
  return async (request: Proto.SaveSearchRequest, ctx: CallContext): Promise<Proto.SaveSearchResponse> => {
    const ownerId = ctx.caller.userId;
    const { name, query } = parseInput(saveSearchInput, request);
    const nameKey = tagKey(name);
    const saved = await db.$transaction(async (tx) => {
      const existing = await tx.savedSearch.findUnique({ where: { ownerId_nameKey: { ownerId, nameKey } } });
      if (!existing && (await tx.savedSearch.count({ where: { ownerId } })) >= SAVED_SEARCHES_MAX) {
        throw new FailedPrecondition(
          `You can keep at most ${SAVED_SEARCHES_MAX} saved searches: delete one first.`,
          'SAVED_SEARCHES_FULL',
        );
      }
      return tx.savedSearch.upsert({
        where: { ownerId_nameKey: { ownerId, nameKey } },
        create: { ownerId, name, nameKey, query },
        update: { name, query },
      });
    });
    return { search: toProto(saved) };
  };
}

export function deleteSavedSearch({ db }: Stores) {
  return async (
    request: Proto.DeleteSavedSearchRequest,
    ctx: CallContext,
  ): Promise<Proto.DeleteSavedSearchResponse> => {
    const { id } = parseInput(deleteSavedSearchInput, request);
    const { count } = await db.savedSearch.deleteMany({ where: { id, ownerId: ctx.caller.userId } });
    if (count === 0) throw new NotFound('Saved search not found.', 'SAVED_SEARCH_NOT_FOUND');
    return {};
  };
}
