// ListExports: the learner's exports, newest first, a page at a time.
import { EXPORT_PAGE_SIZE } from '@engram/contracts/exports';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { ListExportsRequest, ListExportsResponse } from '@engram/proto/cards/v1/exports';
import { z } from 'zod';
import { decodeCursor, encodeCursor } from '../domain/cursor.js';
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
    const after = cursor ? decodeCursor(cursor) : undefined;
    const rows = await db.export.findMany({
      where: {
        ownerId: ctx.caller.userId,
        ...(after && {
          OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }],
        }),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: pageSize + 1,
    });
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    const now = new Date();
    return {
      items: await Promise.all(page.map((row) => toProtoExport(row, store, now))),
      nextCursor: rows.length > pageSize && last ? encodeCursor(last) : '',
    };
  };
}
