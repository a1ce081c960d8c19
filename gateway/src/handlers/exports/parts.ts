// The other services' parts of a full (JSON) export: identity, organizations, billing and ai each answer what
// they hold about the learner (ExportUserData), asked at once with the learner's token. One that fails fails
// the export before anything is queued: a data export silently missing a part would mislead.
import { EXPORT_PARTS, EXPORT_REASONS, type ExportPart, exportPartUnavailableMessage } from '@engram/contracts/exports';
import { TRPCError } from '@trpc/server';
import { asUser, type UserCallSettings } from '../../call.js';
import { GatewayRefusal, type ProtectedContext, toTrpcError } from '../../trpc.js';

/** Longer than a user's call: a part reads every row a service keeps about the learner. */
const PART_CALL: UserCallSettings = { timeoutMs: 10_000 };

type AskPart = (request: Record<string, never>, settings: UserCallSettings) => Promise<{ json: string }>;

function partAskers(ctx: ProtectedContext): Record<ExportPart, AskPart> {
  const calls = asUser(ctx);
  return {
    identity: calls.identity.exportUserData,
    organizations: calls.organizations.exportUserData,
    billing: calls.billing.exportUserData,
    ai: calls.ai.exportUserData,
  };
}

function partUnavailable(part: ExportPart, error: unknown): TRPCError {
  const failed = toTrpcError(error);
  // The learner went away: nobody reads a message.
  if (failed.code === 'CLIENT_CLOSED_REQUEST') return failed;
  const message = exportPartUnavailableMessage(part);
  return new TRPCError({
    code: failed.code,
    message,
    cause: new GatewayRefusal(EXPORT_REASONS.partUnavailable, message),
  });
}

/** Each part, a JSON document, by the name it has in the file. */
export async function exportParts(ctx: ProtectedContext): Promise<Record<ExportPart, string>> {
  const askers = partAskers(ctx);
  const answers = await Promise.all(
    EXPORT_PARTS.map(async (part) => {
      try {
        return [part, (await askers[part]({}, PART_CALL)).json] as const;
      } catch (error) {
        throw partUnavailable(part, error);
      }
    }),
  );
  return Object.fromEntries(answers) as Record<ExportPart, string>;
}
