// Generate: streams card proposals from the caller's notes (or an uploaded file) as the generator makes
// them. In order: the input is checked, the plan's limit is asked, the requested count is reserved
// (refused beyond the limit, before any model call), the learner's existing cards are read for
// deduplication, and the generator runs. Each raw card is validated and deduplicated; the generation
// then settles to the cards delivered — nothing is charged when none were, and a stream that broke off
// keeps (and charges) the cards already delivered, saying what happened.
import { randomUUID } from 'node:crypto';
import { AI_REASONS, GENERATE_COUNT_DEFAULT, GENERATED_CARD_TYPES, generateInput } from '@engram/contracts/ai';
import { NotFound, Unavailable } from '@engram/kit/errors';
import type { CallContext } from '@engram/kit/grpc/server';
import { parseInput } from '@engram/kit/validation';
import type { GenerateEvent, GenerateRequest } from '@engram/proto/ai/v1/ai';
import type { AiDeps } from '../deps.js';
import { acceptCard, QuestionSet } from '../domain/proposals.js';
import { existingFronts } from '../existing-cards.js';
import { GeneratorFailure } from '../generators/generator.js';
import { recordGeneration } from '../metrics.js';
import { planOf } from '../plans.js';
import { keptSince } from '../uploads/quota.js';
import { reserve, runDeadline, settle, startingOutcome, usageOf } from '../usage.js';

const orUndefined = (value: string) => (value.trim() === '' ? undefined : value);

async function notesOf(deps: AiDeps, request: GenerateRequest, ctx: CallContext) {
  const input = parseInput(generateInput, {
    notes: request.fileId ? undefined : request.notes,
    fileId: orUndefined(request.fileId),
    count: request.count || undefined,
    types: request.types.length > 0 ? request.types : undefined,
    language: orUndefined(request.language),
    focus: orUndefined(request.focus),
  });
  let notes = input.notes ?? '';
  if (input.fileId) {
    const file = await deps.db.uploadedFile.findFirst({
      where: { id: input.fileId, userId: ctx.caller.userId, createdAt: { gt: keptSince() } },
    });
    if (!file) throw new NotFound('The uploaded file was not found; upload it again.', AI_REASONS.fileNotFound);
    notes = file.text;
  }
  return {
    notes,
    count: input.count ?? GENERATE_COUNT_DEFAULT,
    types: [...new Set(input.types ?? GENERATED_CARD_TYPES)],
    language: input.language,
    focus: input.focus,
  };
}

export function generate(deps: AiDeps) {
  return async function* (request: GenerateRequest, ctx: CallContext): AsyncGenerator<GenerateEvent> {
    const input = await notesOf(deps, request, ctx);
    const plan = await planOf(deps.db, deps.billing, ctx);
    const id = randomUUID();
    const { generator } = deps;
    await reserve(
      deps.db,
      { id, userId: ctx.caller.userId, generator: generator.name, model: generator.model, requested: input.count },
      plan,
    );
    const outcome = startingOutcome();
    const log = ctx.logger.child({ generation: id, generator: generator.name });
    try {
      yield {
        event: { $case: 'started', value: { generationId: id, generator: generator.name, requested: input.count } },
      };
      const asked = new QuestionSet(await existingFronts(deps.cards, ctx));
      const deadline = runDeadline(deps.generationTimeoutMs, ctx);
      const stop = new AbortController();
      const signal = AbortSignal.any([ctx.signal, stop.signal]);
      let interruption: string | undefined;
      try {
        for await (const event of generator.generate({ ...input, deadline }, signal)) {
          if (event.kind === 'usage') {
            outcome.inputTokens = event.inputTokens;
            outcome.outputTokens = event.outputTokens;
            outcome.latencyMs = event.latencyMs;
            continue;
          }
          if (outcome.delivered >= input.count) continue;
          const card = acceptCard(event.card, input.types);
          if ('rejected' in card || !asked.admit(card.front)) {
            outcome.dropped += 1;
            continue;
          }
          outcome.delivered += 1;
          yield { event: { $case: 'proposal', value: card } };
        }
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        const reason = error instanceof GeneratorFailure ? error.message : 'the generator failed';
        outcome.error = reason;
        if (outcome.delivered === 0) {
          log.warn({ err: error }, 'generation failed');
          throw new Unavailable(
            'The card generator is unavailable right now. Please try again in a moment.',
            AI_REASONS.modelUnavailable,
          );
        }
        log.warn({ err: error, delivered: outcome.delivered }, 'generation broke off');
        interruption = `The generator stopped after ${outcome.delivered} cards (${reason}). The cards shown are kept.`;
      }
      stop.abort();
      outcome.status = interruption ? 'interrupted' : 'complete';
      if (await settle(deps.db, id, outcome)) recordGeneration(generator.name, outcome);
      log.info(
        {
          delivered: outcome.delivered,
          dropped: outcome.dropped,
          inputTokens: outcome.inputTokens,
          outputTokens: outcome.outputTokens,
          latencyMs: outcome.latencyMs,
        },
        'generation finished',
      );
      yield {
        event: {
          $case: 'finished',
          value: {
            delivered: outcome.delivered,
            dropped: outcome.dropped,
            outcome: outcome.status,
            message: interruption ?? '',
            usage: await usageOf(deps, ctx),
          },
        },
      };
    } finally {
      // Failed, cancelled by the client, or abandoned mid-stream: charge only what was delivered.
      if (outcome.status === 'failed' && ctx.signal.aborted) outcome.status = 'cancelled';
      const settled = await settle(deps.db, id, outcome).catch((error: unknown) => {
        log.error({ err: error }, 'settling failed');
        return false;
      });
      if (settled) recordGeneration(generator.name, outcome);
    }
  };
}
