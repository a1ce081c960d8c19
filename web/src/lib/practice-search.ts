// The practice routes' search params (spec §5), validated with the contracts' schemas: /practice/session's
// tags (dropped when empty, so the URL never carries an empty list) and /practice/done's counts.
import { practiceDoneSearch, practiceSessionSearch } from '@engram/contracts/search';

export type PracticeSessionSearch = { tags?: string[] };

export function validateSessionSearch(search: Record<string, unknown>): PracticeSessionSearch {
  const { tags } = practiceSessionSearch.parse(search);
  return tags && tags.length > 0 ? { tags } : {};
}

/** Throws on a missing or malformed cardCount; the route shows its own message for that. */
export function validateDoneSearch(search: Record<string, unknown>) {
  return practiceDoneSearch.parse(search);
}
