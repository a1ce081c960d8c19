// exports.start: exports the learner's cards (CSV, an Anki package; all or those with chosen tags) or everything
// Engram holds about them (JSON), in the background; follow it with exports.get.
import { type StartExportInput, startExportInput } from '@engram/contracts/exports';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';

export { startExportInput };

export async function startExport({ ctx, input }: HandlerArgs<StartExportInput>): Promise<{ exportId: string }> {
  const answer = await asUser(ctx).exports.startExport({
    format: input.format,
    tagIds: input.tagIds ?? [],
    parts: {},
  });
  return { exportId: answer.exportId };
}
