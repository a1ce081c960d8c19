// When a service ai asks on the learner's behalf is down, generation is refused in words the learner can
// act on, before any model call, and nothing is charged.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type AiHarness, modelCard, startAiHarness } from '../harness.js';

let ai: AiHarness;
beforeAll(async () => {
  ai = await startAiHarness({ generator: 'bedrock-stream' });
  if (ai.bedrock) ai.bedrock.fallback = () => ({ cards: [modelCard(1)] });
});
afterAll(() => ai?.stop());

it('refuses to generate while billing cannot say what the plan allows, calling no model', async () => {
  await ai.stopBilling();
  const user = `learner-${randomUUID().slice(0, 8)}`;
  const failure = await grpcFailure(ai.as(user).generate({ notes: 'Rule 1: something worth remembering.' }));
  expect(failure.code).toBe(status.UNAVAILABLE);
  expect(failure.message).toBe('Card generation cannot reach billing right now. Please try again in a moment.');
  expect(ai.bedrock?.requests).toHaveLength(0);
  expect(await ai.db.generation.count({ where: { userId: user } })).toBe(0);
});
