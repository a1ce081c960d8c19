// A learner's search in Anki's syntax as SQL on their review items and cards (`ri`, `c`): parsed, and given the
// learner's study day when it asks for one (is:due, added:, rated:, prop:due). Browse and AnkiConnect both search
// this way; each words a malformed search its own way (`refuse`).
import { CardSearchError, parseCardSearch } from '@engram/contracts/card-search';
import type { Stores } from '../db.js';
import { learnerDay } from '../learner/learner-day.js';
import { type SearchSql, searchSql } from './card-search-sql.js';

/** The condition `query` puts on `ri` and `c` (parameters from $2 on), or null for an empty search (every card). */
export async function learnerSearch(
  stores: Stores,
  ownerId: string,
  query: string,
  refuse: (error: CardSearchError) => Error,
): Promise<SearchSql | null> {
  let search: ReturnType<typeof parseCardSearch>;
  try {
    search = parseCardSearch(query);
  } catch (error) {
    if (error instanceof CardSearchError) throw refuse(error);
    throw error;
  }
  if (!search) return null;
  return searchSql(search, await learnerDay(stores, ownerId));
}
