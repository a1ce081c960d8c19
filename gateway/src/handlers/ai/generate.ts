// ai.generate: streams card proposals from the learner's notes or an uploaded file. The ai service's
// server stream is passed on as tRPC's (an async generator, httpBatchStreamLink on the client): first
// `started`, then each `proposal` as it is made, then `finished` with the outcome and the usage after it.
// Refusals before the stream (bad input, the usage limit) are tRPC errors with the domain reason.
import { type GenerateInput, generateInput } from '@engram/contracts/ai';
import { serverStream } from '@engram/kit/grpc/client';
import type { Proposal, Usage } from '@engram/proto/ai/v1/ai';
import { AUDIENCES } from '../../clients.js';
import { type HandlerArgs, toTrpcError } from '../../trpc.js';
import { type UsageJson, usageJson } from './json.js';

export { generateInput };

/** How long the gateway waits for a whole generation (the ai service bounds the model's share of it). */
const GENERATE_CALL_MS = 120_000;

export type GenerationEvent =
  | { type: 'started'; generationId: string; generator: string; requested: number }
  | { type: 'proposal'; proposal: Proposal }
  | { type: 'finished'; delivered: number; dropped: number; outcome: string; message: string; usage: UsageJson | null };

export async function* generate({ ctx, input }: HandlerArgs<GenerateInput>): AsyncGenerator<GenerationEvent> {
  const { ai, signer } = ctx.services;
  try {
    const token = await signer.sign(ctx.session.caller, AUDIENCES.ai);
    const request = {
      notes: input.notes ?? '',
      fileId: input.fileId ?? '',
      count: input.count ?? 0,
      types: input.types ?? [],
      language: input.language ?? '',
      focus: input.focus ?? '',
    };
    for await (const { event } of serverStream(ai, ai.generate, request, {
      token,
      timeoutMs: GENERATE_CALL_MS,
      signal: ctx.signal,
    })) {
      if (event?.$case === 'started') yield { type: 'started', ...event.value };
      if (event?.$case === 'proposal') yield { type: 'proposal', proposal: event.value };
      if (event?.$case === 'finished') {
        const { usage, ...rest } = event.value;
        yield { type: 'finished', ...rest, usage: usage ? usageJson(usage as Usage) : null };
      }
    }
  } catch (error) {
    const mapped = toTrpcError(error);
    if (mapped.code !== 'CLIENT_CLOSED_REQUEST') ctx.logger.warn({ err: error, service: 'ai' }, 'generation failed');
    throw mapped;
  }
}
