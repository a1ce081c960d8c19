// cards.progressMetrics, cards.streak, cards.reviewMetrics: what the dashboard shows.

import { asUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

type Call = { ctx: ProtectedContext };

export async function progressMetrics({ ctx }: Call) {
  return asUser(ctx).metrics.progressMetrics({});
}

export async function streak({ ctx }: Call) {
  return asUser(ctx).metrics.streak({});
}

export async function reviewMetrics({ ctx }: Call) {
  const answer = await asUser(ctx).metrics.reviewMetrics({ days: 0 });
  return { ...answer, retention: answer.retention < 0 ? null : answer.retention };
}
