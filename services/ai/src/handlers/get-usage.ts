// GetUsage: the caller's generated cards in the current period, the plan's limit and when it resets.
import type { CallContext } from '@engram/kit/grpc/server';
import type { Usage } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { usageOf } from '../usage.js';

export function getUsage(deps: AiDeps) {
  return (_request: unknown, ctx: CallContext): Promise<Usage> => usageOf(deps, ctx);
}
