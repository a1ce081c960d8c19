// The search params of the practice routes (spec §5) and the dashboard, validated with the contracts'
// checks: /practice/session's tags (corrected: dropped when empty or not tag ids, so the URL never carries
// an empty list), /practice/done's counts, and the dashboard's card search text q (corrected too).
import { dashboardSearch, practiceDoneSearch, practiceSessionSearch } from '@engram/contracts/search';

export type PracticeSessionSearch = { tags?: string[] | undefined };

export function validateSessionSearch(search: Record<string, unknown>): PracticeSessionSearch {
  return practiceSessionSearch.parse(search);
}

/** Throws on a missing or malformed cardCount; the route shows its own message for that. */
export function validateDoneSearch(search: Record<string, unknown>) {
  return practiceDoneSearch.parse(search);
}

export function validateDashboardSearch(search: Record<string, unknown>): { q?: string | undefined } {
  return dashboardSearch.parse(search);
}
