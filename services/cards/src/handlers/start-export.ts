// StartExport: queues an export for a background job (any cards replica; exports/run-export.ts). CSV and Anki
// exports take all the learner's cards or those with chosen tags (theirs only); a full JSON export takes
// everything, with the other services' parts the gateway gathered for it. A learner has at most
// MAX_ACTIVE_EXPORTS exports queued or running: one more is refused until one is ready.
import { MAX_ACTIVE_EXPORTS } from '@engram/contracts/collection-limits';
import { EXPORT_PARTS, EXPORT_REASONS, startExportInput, tooManyExportsMessage } from '@engram/contracts/exports';
import { FailedPrecondition, Invalid, NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { StartExportRequest, StartExportResponse } from '@engram/proto/cards/v1/exports';
import { z } from 'zod';
import type { ExportServiceDeps } from '../exports/export-deps.js';
import { activeJobs, lockLearnerJobs } from '../jobs/learner-jobs.js';

/** The most a part of another service may weigh: a learner's profile, memberships and invoices are far less. */
const MAX_PART_BYTES = 10 * 1024 * 1024;

/** The gateway's rules for what to export (@engram/contracts), with the other services' parts it gathered. */
const startInput = startExportInput
  .safeExtend({
    parts: z
      .record(z.string(), z.string().max(MAX_PART_BYTES, 'An export part is too large.'))
      .refine((parts) => Object.keys(parts).every((service) => (EXPORT_PARTS as readonly string[]).includes(service)), {
        message: 'An export part must come from identity, organizations, billing or ai.',
      }),
  })
  .refine((input) => input.format === 'json' || Object.keys(input.parts).length === 0, {
    message: "Only a full export holds the other services' parts.",
    path: ['parts'],
  });

const EXTENSIONS = { apkg: 'apkg', csv: 'csv', json: 'json' } as const;

/** The file's name: what it holds and the day it was made. */
const fileNameOf = (format: keyof typeof EXTENSIONS, now: Date) =>
  `engram-${format === 'json' ? 'data' : 'cards'}-${now.toISOString().slice(0, 10)}.${EXTENSIONS[format]}`;

function parsedParts(parts: Record<string, string>): Record<string, unknown> {
  const parsed: Record<string, unknown> = {};
  for (const [service, text] of Object.entries(parts)) {
    try {
      parsed[service] = JSON.parse(text);
    } catch {
      throw new Invalid(`The ${service} part of the export is not JSON.`, 'EXPORT_PART_INVALID');
    }
  }
  return parsed;
}

export function startExport({ db, enqueueExport }: ExportServiceDeps) {
  return async (request: StartExportRequest, ctx: CallContext): Promise<StartExportResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(startInput, request);
    const tagIds = [...new Set((input.tagIds ?? []).map((id) => id.toLowerCase()))];
    if (tagIds.length > 0) {
      const owned = await db.tag.count({ where: { ownerId, id: { in: tagIds } } });
      if (owned !== tagIds.length) throw new NotFound('Tag not found.', 'TAG_NOT_FOUND');
    }
    // A selection keeps the learner's own cards only: another's ids export nothing.
    const cardIds =
      (input.cardIds ?? []).length > 0
        ? (
            await db.card.findMany({
              where: { ownerId, id: { in: [...new Set(input.cardIds?.map((id) => id.toLowerCase()))] } },
              select: { id: true },
            })
          ).map((card) => card.id)
        : [];
    if ((input.cardIds ?? []).length > 0 && cardIds.length === 0)
      throw new NotFound('Card not found.', 'CARD_NOT_FOUND');
    const parts = parsedParts(input.parts) as object;
    const created = await db.$transaction(async (tx) => {
      await lockLearnerJobs(tx, 'exports', ownerId);
      if ((await activeJobs(tx, 'exports', ownerId)) >= MAX_ACTIVE_EXPORTS) {
        throw new FailedPrecondition(tooManyExportsMessage(), EXPORT_REASONS.tooManyActive);
      }
      return tx.export.create({
        data: { ownerId, format: input.format, tagIds, cardIds, parts, fileName: fileNameOf(input.format, new Date()) },
      });
    });
    await enqueueExport(created.id);
    ctx.logger.info({ exportId: created.id, format: input.format }, 'export queued');
    return { exportId: created.id };
  };
}
