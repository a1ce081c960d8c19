// The search params of the practice routes and the dashboard (docs/product.md#search-params), validated with the
// contracts' checks: /practice/session's tags (corrected: dropped when empty or not tag ids, so the URL never
// carries an empty list), /practice/done's counts, and the dashboard's card search text q and the invitation it
// shows first (corrected too).
import {
  type DashboardSearch,
  dashboardSearch,
  practiceDoneSearch,
  practiceSessionSearch,
} from '@engram/contracts/search';

export type PracticeSessionSearch = { tags?: string[] | undefined };

export function validateSessionSearch(search: Record<string, unknown>): PracticeSessionSearch {
  return practiceSessionSearch.parse(search);
}

/** Throws on a missing or malformed cardCount; the route shows its own message for that. */
export function validateDoneSearch(search: Record<string, unknown>) {
  return practiceDoneSearch.parse(search);
}

export function validateDashboardSearch(search: Record<string, unknown>): DashboardSearch {
  return dashboardSearch.parse(search);
}
