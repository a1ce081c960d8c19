// Spec §5: the search params of the practice routes. Written with zod/mini because the web app's route
// tree (in its entry bundle) validates them, and the full zod would weigh on every first visit.
import * as z from 'zod/mini';

const count = z.coerce.number().check(z.int(), z.minimum(0));

/** /practice/done: cardCount required; again, hard, good, easy optional; each a whole number ≥ 0. */
export const practiceDoneSearch = z.object({
  cardCount: count,
  again: z.optional(count),
  hard: z.optional(count),
  good: z.optional(count),
  easy: z.optional(count),
});

/** /practice/session: tags, an optional array of tag ids (absent when empty). */
export const practiceSessionSearch = z.object({ tags: z.optional(z.array(z.string())) });
