// imports.start: imports an uploaded file in the background; follow it with imports.get. Starting it again
// from the same upload answers the same import.
import { type StartImportInput, startImportInput } from '@engram/contracts/imports';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { startImportInput };

export async function startImport({ ctx, input }: HandlerArgs<StartImportInput>): Promise<{ importId: string }> {
  const { mapping } = input;
  const answer = await asUser(ctx).imports.startImport({
    uploadId: input.uploadId,
    format: input.format ?? '',
    ...(mapping && {
      mapping: { front: mapping.front, back: mapping.back ?? -1, tags: mapping.tags ?? -1, type: mapping.type ?? -1 },
    }),
  });
  return { importId: answer.importId };
}
