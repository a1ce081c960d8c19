// The search params of the practice, dashboard, settings, billing and browse routes (docs/product.md#search-params). Checked by hand
// rather than with zod: the web app's route tree (in its entry bundle) validates them, and even zod/mini added
// 16 KB gzipped to every first visit. Each `parse` returns the clean values or throws an Error saying what is wrong.
import { isUuid } from './ids.ts';

export interface PracticeDoneSearch {
  cardCount: number;
  again?: number | undefined;
  hard?: number | undefined;
  good?: number | undefined;
  easy?: number | undefined;
}

export interface PracticeSessionSearch {
  tags?: string[] | undefined;
}

const RATING_COUNTS = ['again', 'hard', 'good', 'easy'] as const;

/** A count: a whole number from 0, given as a number or as its decimal text (as a URL carries it). */
function count(value: unknown, name: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < 0) {
    throw new Error(`${name} must be a whole number from 0.`);
  }
  return number;
}

/** /practice/done: cardCount required; again, hard, good, easy optional. */
export const practiceDoneSearch = {
  parse(search: Record<string, unknown>): PracticeDoneSearch {
    const result: PracticeDoneSearch = { cardCount: count(search.cardCount, 'cardCount') };
    // A malformed rating count (a hand-edited link) is dropped: the results show without it. Dropped means
    // set to undefined, not left out: the router lays a route's checked params over the raw ones.
    for (const rating of RATING_COUNTS) {
      if (search[rating] === undefined) continue;
      try {
        result[rating] = count(search[rating], rating);
      } catch {
        result[rating] = undefined;
      }
    }
    return result;
  },
};

/**
 * /practice/session: tags, an optional list of tag ids. A malformed value is corrected, never refused: one
 * id alone becomes a list, anything that is not a tag id is dropped (and with it an empty list).
 */
export const practiceSessionSearch = {
  parse(search: Record<string, unknown>): PracticeSessionSearch {
    const { tags } = search;
    const given = Array.isArray(tags) ? tags : [tags];
    const ids = [...new Set(given.filter((tag): tag is string => typeof tag === 'string' && isUuid(tag)))];
    // Undefined rather than left out, as the router lays a route's checked params over the raw ones.
    return { tags: ids.length > 0 ? ids : undefined };
  },
};

export interface DashboardSearch {
  /** The card list's search text. */
  q?: string | undefined;
  /** An invitation to show first (the invitation link's destination). */
  invitation?: string | undefined;
}

/** An invitation id as identity makes them (a UUID), or any id of letters, digits, '-' and '_'. */
const INVITATION_ID = /^[\w-]{1,64}$/;

/** The longest card search text (the cards service's limit too; learning.ts re-exports it). */
export const SEARCH_QUERY_MAX_LENGTH = 200;

/**
 * /dashboard: q, the card list's search text. A number (the router reads `?q=42` as one) becomes its text;
 * anything else that is not text, or text that is only spaces, is dropped; longer text is cut to the limit.
 * invitation, an invitation's id: anything that is not one is dropped.
 */
export const dashboardSearch = {
  parse(search: Record<string, unknown>): DashboardSearch {
    const { q, invitation } = search;
    const text = typeof q === 'number' && Number.isFinite(q) ? String(q) : typeof q === 'string' ? q : '';
    const clean = text.trim().slice(0, SEARCH_QUERY_MAX_LENGTH);
    const invitationId = typeof invitation === 'string' && INVITATION_ID.test(invitation) ? invitation : undefined;
    return { q: clean === '' ? undefined : clean, invitation: invitationId };
  },
};

export interface BillingSuccessSearch {
  session_id: string;
}

/** /billing/success: session_id required (the Checkout Session id Stripe puts in the success URL). */
export const billingSuccessSearch = {
  parse(search: Record<string, unknown>): BillingSuccessSearch {
    const { session_id } = search;
    if (typeof session_id !== 'string' || session_id.trim() === '') throw new Error('session_id is required.');
    return { session_id };
  },
};

export interface BillingPlansSearch {
  interval?: 'month' | 'year';
  currency?: 'usd' | 'eur' | 'brl';
}

/**
 * /billing/plans: the period and currency shown, both optional so the page can be linked to as it was
 * left. An unknown value is dropped (the defaults apply) rather than refused: it only chooses a view.
 */
export const billingPlansSearch = {
  parse(search: Record<string, unknown>): BillingPlansSearch {
    const result: BillingPlansSearch = {};
    if (search.interval === 'month' || search.interval === 'year') result.interval = search.interval;
    if (search.currency === 'usd' || search.currency === 'eur' || search.currency === 'brl') {
      result.currency = search.currency;
    }
    return result;
  },
};

/** The sections of /settings, in their order on screen; the first is shown when none is named. */
export const SETTINGS_SECTIONS = ['day', 'scheduling', 'presets', 'note-types', 'device'] as const;
export type SettingsSectionName = (typeof SETTINGS_SECTIONS)[number];

export interface SettingsSearch {
  section?: SettingsSectionName | undefined;
}

/** /settings: section, one of SETTINGS_SECTIONS; anything else is dropped (the first section shows). */
export const settingsSearch = {
  parse(search: Record<string, unknown>): SettingsSearch {
    const { section } = search;
    return {
      section: SETTINGS_SECTIONS.find((name) => name === section),
    };
  },
};

/** The Browse screen's sorts (browse.ts has them too; spelled here so the route tree does not load zod). */
const BROWSE_SORT_NAMES = ['added', 'due', 'interval', 'front', 'reps', 'lapses'] as const;
export type BrowseSortName = (typeof BROWSE_SORT_NAMES)[number];
/** The longest search the Browse screen's address keeps (card-search's CARD_SEARCH_MAX_LENGTH). */
const BROWSE_QUERY_MAX_LENGTH = 1_000;

export interface BrowseSearch {
  /** The search, in Anki's syntax. */
  q?: string | undefined;
  sort?: BrowseSortName | undefined;
  /** Oldest, soonest or smallest first. */
  asc?: boolean | undefined;
  /** The duplicates instead of the search's cards. */
  view?: 'duplicates' | undefined;
}

/** /browse: q (its text, cut to the longest search), sort (one of the sorts), asc, view; anything else dropped. */
export const browseSearch = {
  parse(search: Record<string, unknown>): BrowseSearch {
    const { q, sort, asc, view } = search;
    const text = typeof q === 'number' && Number.isFinite(q) ? String(q) : typeof q === 'string' ? q : '';
    const clean = text.slice(0, BROWSE_QUERY_MAX_LENGTH);
    return {
      q: clean.trim() === '' ? undefined : clean,
      sort: BROWSE_SORT_NAMES.find((name) => name === sort),
      asc: asc === true || asc === 'true' || asc === 1 || asc === '1' ? true : undefined,
      view: view === 'duplicates' ? 'duplicates' : undefined,
    };
  },
};
