// exports.get: where an export stands and, once done, a link that downloads its file for a few minutes.
import { getExportInput } from '@engram/contracts/exports';
import type { z } from 'zod';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { type ExportJson, exportJson } from './json.js';

export { getExportInput };

export async function getExport({ ctx, input }: HandlerArgs<z.infer<typeof getExportInput>>): Promise<ExportJson> {
  return exportJson(await asUser(ctx).exports.getExport(input));
}
