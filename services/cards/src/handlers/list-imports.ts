// ListImports: the learner's imports, newest first, a page at a time.
import { IMPORT_PAGE_SIZE } from '@engram/contracts/imports';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListImportsRequest, ListImportsResponse } from '@engram/proto/cards/v1/imports';
import { z } from 'zod';
import type { Db } from '../db.js';
import { NEWEST_FIRST, newerFirstAfter, pageOf } from '../domain/cursor.js';
import { toProtoImport } from '../imports/import-json.js';

const listInput = z.object({
  pageSize: z
    .number()
    .int()
    .min(0)
    .max(100, 'A page holds at most 100 imports.')
    .transform((size) => size || IMPORT_PAGE_SIZE),
  cursor: z.string(),
});

export function listImports({ db }: { db: Db }) {
  return async (request: ListImportsRequest, ctx: CallContext): Promise<ListImportsResponse> => {
    const { pageSize, cursor } = parseInput(listInput, request);
    const rows = await db.import.findMany({
      where: { ownerId: ctx.caller.userId, ...newerFirstAfter(cursor) },
      orderBy: NEWEST_FIRST,
      take: pageSize + 1,
    });
    const { page, nextCursor } = pageOf(rows, pageSize);
    return { items: page.map(toProtoImport), nextCursor };
  };
}
