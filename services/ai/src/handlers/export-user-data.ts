// ExportUserData: what ai holds about the caller, their part of a full data export (the gateway gathers it for
// cards' export job): the cards generated in each billing period, each generation (when, how many cards asked
// for and delivered, the model and its tokens), the files they uploaded and ai still keeps, and the plan ai
// last knew. An upload's extracted text is left out: it is the learner's own file, kept a day, and up to the
// upload quota (30 MB by default) it would outweigh the whole export; its name, size and pages say which it was.
import type { CallContext } from '@engram/kit/grpc/server';
import type { ExportUserDataRequest, ExportUserDataResponse } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { UPLOAD_KEPT_MS } from '../uploads/quota.js';

/** Generations and the cards they delivered per UTC day, from the generations themselves. */
function perDay(generations: { createdAt: Date; delivered: number }[]) {
  const days = new Map<string, { day: string; generations: number; generatedCards: number }>();
  for (const generation of generations) {
    const day = generation.createdAt.toISOString().slice(0, 10);
    const counted = days.get(day) ?? { day, generations: 0, generatedCards: 0 };
    counted.generations += 1;
    counted.generatedCards += generation.delivered;
    days.set(day, counted);
  }
  return [...days.values()];
}

export function exportUserData({ db }: AiDeps) {
  return async (_request: ExportUserDataRequest, ctx: CallContext): Promise<ExportUserDataResponse> => {
    const userId = ctx.caller.userId;
    const [periods, generations, uploads, plan] = await Promise.all([
      db.usagePeriod.findMany({ where: { userId }, orderBy: { periodStart: 'asc' } }),
      db.generation.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } }),
      db.uploadedFile.findMany({
        where: { userId },
        select: { id: true, fileName: true, bytes: true, pages: true, createdAt: true },
        orderBy: { createdAt: 'asc' },
      }),
      db.entitlement.findUnique({ where: { userId } }),
    ]);
    const part = {
      usagePerPeriod: periods.map((period) => ({
        periodStart: period.periodStart,
        periodEnd: period.periodEnd,
        generatedCards: period.used,
      })),
      usagePerDay: perDay(generations),
      generations: generations.map((generation) => ({
        id: generation.id,
        startedAt: generation.createdAt,
        finishedAt: generation.finishedAt,
        status: generation.status,
        cardsRequested: generation.requested,
        cardsDelivered: generation.delivered,
        cardsDropped: generation.dropped,
        generator: generation.generator,
        model: generation.model,
        inputTokens: generation.inputTokens,
        outputTokens: generation.outputTokens,
        latencyMs: generation.latencyMs,
        failure: generation.error,
      })),
      uploads: uploads.map((upload) => ({
        id: upload.id,
        fileName: upload.fileName,
        bytes: upload.bytes,
        pages: upload.pages,
        uploadedAt: upload.createdAt,
        keptUntil: new Date(upload.createdAt.getTime() + UPLOAD_KEPT_MS),
      })),
      lastKnownPlan: plan && {
        plan: plan.plan,
        cardLimit: plan.cardLimit,
        periodStart: plan.periodStart,
        periodEnd: plan.periodEnd,
        askedAt: plan.fetchedAt,
      },
    };
    return { json: JSON.stringify(part) };
  };
}
