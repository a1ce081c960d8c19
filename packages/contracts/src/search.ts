// Spec §5: the search params of the practice routes. Checked by hand rather than with zod: the web app's
// route tree (in its entry bundle) validates them, and even zod/mini added 16 KB gzipped to every first
// visit. Each `parse` returns the clean values or throws an Error saying what is wrong.

export interface PracticeDoneSearch {
  cardCount: number;
  again?: number;
  hard?: number;
  good?: number;
  easy?: number;
}

export interface PracticeSessionSearch {
  tags?: string[];
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
    for (const rating of RATING_COUNTS) {
      if (search[rating] !== undefined) result[rating] = count(search[rating], rating);
    }
    return result;
  },
};

/** /practice/session: tags, an optional list of tag ids. */
export const practiceSessionSearch = {
  parse(search: Record<string, unknown>): PracticeSessionSearch {
    const { tags } = search;
    if (tags === undefined) return {};
    if (!Array.isArray(tags) || !tags.every((tag) => typeof tag === 'string')) {
      throw new Error('tags must be a list of tag ids.');
    }
    return { tags };
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
