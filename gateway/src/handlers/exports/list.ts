// exports.list: the learner's exports, newest first, a page at a time.
import { listExportsInput } from '@engram/contracts/exports';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ExportJson, exportJson } from './json.js';

export { listExportsInput };

export interface ExportPage {
  items: ExportJson[];
  nextCursor: string | null;
}

export async function listExports({ ctx, input }: HandlerArgs<z.infer<typeof listExportsInput>>): Promise<ExportPage> {
  const answer = await asUser(ctx).exports.listExports({ pageSize: input?.pageSize ?? 0, cursor: input?.cursor ?? '' });
  return { items: answer.items.map(exportJson), nextCursor: answer.nextCursor || null };
}
