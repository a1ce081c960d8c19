// StartImport: queues the import of a file the learner uploaded, for a background job to run (any cards
// replica; imports/run-import.ts). Idempotent by upload: a retried call, or a second click, answers the import
// already started from that file. A learner has at most MAX_ACTIVE_IMPORTS imports queued or running: one more
// is refused until one is over. The learner's storage quota is recorded with it (the collection's images and
// sounds must fit), as the job has no token of theirs to ask billing with.
import { MAX_ACTIVE_IMPORTS } from '@engram/contracts/collection-limits';
import {
  type ColumnMapping,
  IMPORT_REASONS,
  importFormatOf,
  startImportInput,
  tooManyImportsMessage,
} from '@engram/contracts/imports';
import { IMPORT_KINDS_MESSAGE } from '@engram/contracts/media';
import { FailedPrecondition, Invalid } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { StartImportRequest, StartImportResponse } from '@engram/proto/cards/v1/imports';
import type { ImportServiceDeps } from '../imports/import-deps.js';
import { importUploadOf } from '../imports/upload-of.js';
import { activeJobs, lockLearnerJobs } from '../jobs/learner-jobs.js';

/** The wire's "none" for a column (-1) and for the format ('') as the contract's "left out". */
function fromWire(request: StartImportRequest) {
  const column = (index: number) => (index === -1 ? undefined : index);
  const mapping = request.mapping;
  return {
    uploadId: request.uploadId,
    format: request.format || undefined,
    mapping: mapping && {
      front: column(mapping.front),
      back: column(mapping.back),
      tags: column(mapping.tags),
      type: column(mapping.type),
    },
  };
}

/** The mapping as it is kept: a column left out is null (the learner chose none, which no guess overrides). */
const keptMapping = ({ front, back, tags, type }: ColumnMapping) => ({
  front,
  back: back ?? null,
  tags: tags ?? null,
  type: type ?? null,
});

export function startImport({ db, store, quotaOf, enqueueImport }: ImportServiceDeps) {
  return async (request: StartImportRequest, ctx: CallContext): Promise<StartImportResponse> => {
    const ownerId = ctx.caller.userId;
    const input = parseInput(startImportInput, fromWire(request));
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
          ...(input.mapping && { mapping: keptMapping(input.mapping) }),
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
