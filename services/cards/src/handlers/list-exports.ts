// ListExports: the learner's exports, newest first, a page at a time.
import { EXPORT_PAGE_SIZE } from '@engram/contracts/exports';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListExportsRequest, ListExportsResponse } from '@engram/proto/cards/v1/exports';
import { z } from 'zod';
import { NEWEST_FIRST, newerFirstAfter, pageOf } from '../domain/cursor.js';
import type { ExportServiceDeps } from '../exports/export-deps.js';
import { toProtoExport } from '../exports/export-json.js';

const listInput = z.object({
  pageSize: z
    .number()
    .int()
    .min(0)
    .max(100, 'A page holds at most 100 exports.')
    .transform((size) => size || EXPORT_PAGE_SIZE),
  cursor: z.string(),
});

export function listExports({ db, store }: ExportServiceDeps) {
  return async (request: ListExportsRequest, ctx: CallContext): Promise<ListExportsResponse> => {
    const { pageSize, cursor } = parseInput(listInput, request);
    const rows = await db.export.findMany({
      where: { ownerId: ctx.caller.userId, ...newerFirstAfter(cursor) },
      orderBy: NEWEST_FIRST,
      take: pageSize + 1,
    });
    const { page, nextCursor } = pageOf(rows, pageSize);
    const now = new Date();
    return { items: await Promise.all(page.map((row) => toProtoExport(row, store, now))), nextCursor };
  };
}
