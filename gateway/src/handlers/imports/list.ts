// imports.list: the learner's imports, newest first, a page at a time.
import { listImportsInput } from '@engram/contracts/imports';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ImportJson, importJson } from './json.js';

export { listImportsInput };

export interface ImportPage {
  items: ImportJson[];
  nextCursor: string | null;
}

export async function listImports({ ctx, input }: HandlerArgs<z.infer<typeof listImportsInput>>): Promise<ImportPage> {
  const answer = await asUser(ctx).imports.listImports({ pageSize: input?.pageSize ?? 0, cursor: input?.cursor ?? '' });
  return { items: answer.items.map(importJson), nextCursor: answer.nextCursor || null };
}
