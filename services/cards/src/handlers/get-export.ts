// GetExport: one of the learner's exports, where it stands and, once done, a short-lived download link;
// anyone else's is not found.
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { Export, GetExportRequest } from '@engram/proto/cards/v1/exports';
import { z } from 'zod';
import type { ExportServiceDeps } from '../exports/export-deps.js';
import { toProtoExport } from '../exports/export-json.js';

const getInput = z.object({ exportId: z.uuid('The export is not valid.') });

export function getExport({ db, store }: ExportServiceDeps) {
  return async (request: GetExportRequest, ctx: CallContext): Promise<Export> => {
    const { exportId } = parseInput(getInput, request);
    const row = await db.export.findFirst({ where: { id: exportId, ownerId: ctx.caller.userId } });
    if (!row) throw new NotFound('Export not found.', 'EXPORT_NOT_FOUND');
    return toProtoExport(row, store);
  };
}
