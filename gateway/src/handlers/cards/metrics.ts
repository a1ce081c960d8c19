// cards.progressMetrics, cards.streak, cards.reviewMetrics: what the dashboard shows.

import { callAsUser } from '../../call.js';
import type { ProtectedContext } from '../../trpc.js';

type Call = { ctx: ProtectedContext };

export async function progressMetrics({ ctx }: Call) {
  const { metrics } = ctx.services;
  return callAsUser(ctx, 'cards', metrics, metrics.progressMetrics, {});
}

export async function streak({ ctx }: Call) {
  const { metrics } = ctx.services;
  return callAsUser(ctx, 'cards', metrics, metrics.streak, {});
}

export async function reviewMetrics({ ctx }: Call) {
  const { metrics } = ctx.services;
  const answer = await callAsUser(ctx, 'cards', metrics, metrics.reviewMetrics, { days: 0 });
  return { ...answer, retention: answer.retention < 0 ? null : answer.retention };
}
