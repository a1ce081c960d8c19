// StartImport: queues the import of a file the learner uploaded, for a background job to run (any cards
// replica; imports/run-import.ts). Idempotent by upload: a retried call, or a second click, answers the import
// already started from that file. A learner has at most MAX_ACTIVE_IMPORTS imports queued or running: one more
// is refused until one is over. The learner's storage quota is recorded with it (the collection's images and
// sounds must fit), as the job has no token of theirs to ask billing with.
import { MAX_ACTIVE_IMPORTS } from '@engram/contracts/collection-limits';
import { IMPORT_REASONS, importFormatOf, tooManyImportsMessage } from '@engram/contracts/imports';
import { IMPORT_FORMATS, IMPORT_KINDS_MESSAGE } from '@engram/contracts/media';
import { FailedPrecondition, Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { StartImportRequest, StartImportResponse } from '@engram/proto/cards/v1/imports';
import { z } from 'zod';
import type { ImportServiceDeps } from '../imports/import-deps.js';
import { importUploadOf } from '../imports/upload-of.js';
import { activeJobs, lockLearnerJobs } from '../jobs/learner-jobs.js';

/** A mapping's column, -1 for none (kept as null: the learner chose none, which no guess overrides). */
const column = z
  .number()
  .int()
  .min(-1, 'Choose a column.')
  .max(1_000, 'Choose a column.')
  .transform((index) => (index < 0 ? null : index));

const startInput = z.object({
  uploadId: z.uuid('The file to import is not valid. Please send it again.'),
  format: z.enum(['', ...IMPORT_FORMATS], 'The format must be apkg, colpkg, csv or tsv.'),
  mapping: z
    .object({ front: column, back: column, tags: column, type: column })
    .refine(({ front }) => front !== null, { message: 'Choose the column that holds the front of the cards.' })
    .optional(),
});

export function startImport({ db, store, quotaOf, enqueueImport }: ImportServiceDeps) {
  return async (request: StartImportRequest, ctx: CallContext): Promise<StartImportResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(startInput, request);
    const existing = await db.import.findFirst({ where: { uploadId: input.uploadId, ownerId } });
    if (existing) return { importId: existing.id };
    const upload = await importUploadOf(db, store, ownerId, input.uploadId);
    const format = input.format || importFormatOf(upload.name);
    if (!format) throw new Invalid(IMPORT_KINDS_MESSAGE, 'IMPORT_FORMAT');
    const quota = await quotaOf(ctx);
    const started = await db.$transaction(async (tx) => {
      await lockLearnerJobs(tx, 'imports', ownerId);
      // The same upload started at the same moment by a second call: that call's import is this one.
      const again = await tx.import.findFirst({ where: { uploadId: upload.id, ownerId } });
      if (again) return { id: again.id, created: false };
      if ((await activeJobs(tx, 'imports', ownerId)) >= MAX_ACTIVE_IMPORTS) {
        throw new FailedPrecondition(tooManyImportsMessage(), IMPORT_REASONS.tooManyActive);
      }
      const created = await tx.import.create({
        data: {
          ownerId,
          uploadId: upload.id,
          name: upload.name,
          format,
          ...(input.mapping && { mapping: input.mapping }),
          quotaBytes: BigInt(quota.quotaBytes),
        },
      });
      return { id: created.id, created: true };
    });
    if (started.created) {
      await enqueueImport(started.id);
      ctx.logger.info({ importId: started.id, format }, 'import queued');
    }
    return { importId: started.id };
  };
}
