// exports.start: exports the learner's cards (CSV, an Anki package; all or those with chosen tags) or everything
// Engram holds about them (JSON: the other services' parts, gathered here, and cards'), in the background;
// follow it with exports.get.
import { type StartExportInput, startExportInput } from '@engram/contracts/exports';
import { asUser } from '../../call.js';
import type { HandlerArgs } from '../../trpc.js';
import { exportParts } from './parts.js';

export { startExportInput };

export async function startExport({ ctx, input }: HandlerArgs<StartExportInput>): Promise<{ exportId: string }> {
  const parts = input.format === 'json' ? await exportParts(ctx) : {};
  const answer = await asUser(ctx).exports.startExport({
    format: input.format,
    tagIds: input.tagIds ?? [],
    cardIds: input.cardIds ?? [],
    parts,
  });
  return { exportId: answer.exportId };
}
