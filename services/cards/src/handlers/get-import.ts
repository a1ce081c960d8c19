// GetImport: one of the learner's imports, where it stands and what it brought in; anyone else's is not found.
import { NotFound } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { GetImportRequest, Import } from '@engram/proto/cards/v1/imports';
import { z } from 'zod';
import type { Db } from '../db.js';
import { toProtoImport } from '../imports/import-json.js';

const getInput = z.object({ importId: z.uuid('The import is not valid.') });

export function getImport({ db }: { db: Db }) {
  return async (request: GetImportRequest, ctx: CallContext): Promise<Import> => {
    const { importId } = parseInput(getInput, request);
    const row = await db.import.findFirst({ where: { id: importId, ownerId: ctx.caller.userId } });
    if (!row) throw new NotFound('Import not found.', 'IMPORT_NOT_FOUND');
    return toProtoImport(row);
  };
}
