// imports.get: where an import stands, what it brought in, and what it skipped and why.
import { getImportInput } from '@engram/contracts/imports';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ImportJson, importJson } from './json.js';

export { getImportInput };

export async function getImport({ ctx, input }: HandlerArgs<z.infer<typeof getImportInput>>): Promise<ImportJson> {
  return importJson(await asUser(ctx).imports.getImport(input));
}
