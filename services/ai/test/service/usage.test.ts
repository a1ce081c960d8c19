// Generated cards are metered per billing period against the plan's limit from billing: reserved before
// any model call (so 20 concurrent requests at the boundary never pass it), refused beyond it with
// USAGE_LIMIT_REACHED, settled to what was delivered; bad input is refused and charges nothing; billing's
// SubscriptionChanged makes ai ask for the plan again; a deleted account's usage is forgotten.
import { randomUUID } from 'node:crypto';
import type { EventDefinition } from '@engram/contracts/events';
import { SubscriptionChanged, UserDeleted } from '@engram/contracts/events';
import { eventSubject } from '@engram/kit/events/stream';
import { createLogger } from '@engram/kit/logger';
import { connectNats } from '@engram/kit/nats';
import { Actor_Kind, EventEnvelope } from '@engram/proto/events/v1/envelope';
import { grpcFailure } from '@engram/testkit/grpc';
import { waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { jetstream } from '@nats-io/jetstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, modelCard, startAiHarness } from '../harness.js';

const LIMIT = 30;
const NOTES = 'Rule 1: something worth remembering. Rule 2: another thing. Rule 3: and a third one.';
const newUser = () => `learner-${randomUUID().slice(0, 8)}`;

let ai: AiHarness;
let next = 0;

beforeAll(async () => {
  ai = await startAiHarness({ generator: 'bedrock-stream', freeLimit: LIMIT });
  // Every call gets cards no one has seen, so none is dropped as a duplicate.
  if (ai.bedrock) ai.bedrock.fallback = () => ({ cards: Array.from({ length: LIMIT }, () => modelCard(++next)) });
});
afterAll(() => ai?.stop());

async function publish<T>(event: EventDefinition<T>, payload: T) {
  const running = ai.events;
  if (!running) throw new Error('the harness runs no events');
  const nats = await connectNats(running.natsUrl, 'ai-test', createLogger({ service: 't', level: 'silent' }));
  const envelope = EventEnvelope.encode({
    id: randomUUID(),
    type: event.subject,
    occurredAt: new Date(),
    actor: { kind: Actor_Kind.KIND_SYSTEM, id: 'test' },
    payload: Buffer.from(event.message.encode(payload).finish()),
  }).finish();
  await jetstream(nats).publish(eventSubject(running.settings.subjectPrefix, event.subject), envelope);
  await nats.close();
}

describe('the usage figure', () => {
  it('starts at zero with the free plan’s limit and the end of the month as its reset', async () => {
    const usage = await ai.as(newUser()).usage();
    const now = new Date();
    expect(usage).toEqual({
      used: 0,
      limit: LIMIT,
      resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
      plan: 'free',
      generator: 'bedrock',
    });
  });

  it('counts the cards delivered, not the cards asked for', async () => {
    const user = newUser();
    ai.bedrock?.script({ cards: [modelCard(++next), modelCard(++next)] });
    const result = await ai.as(user).generate({ notes: NOTES, count: 10 });
    expect(result.finished?.delivered).toBe(2);
    expect((await ai.as(user).usage()).used).toBe(2);
  });
});

describe('the limit', () => {
  it('holds under 20 concurrent requests at the boundary', async () => {
    const user = newUser();
    await ai.as(user).generate({ notes: NOTES, count: LIMIT - 10 });
    expect((await ai.as(user).usage()).used).toBe(LIMIT - 10);
    const calls = ai.bedrock?.requests.length ?? 0;

    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, () => ai.as(user).generate({ notes: NOTES, count: 1 })),
    );
    const delivered = outcomes.filter((o) => o.status === 'fulfilled');
    const refused = outcomes
      .filter((o) => o.status === 'rejected')
      .map((o) => o.reason as { code: number; reason: string });
    expect(delivered).toHaveLength(10);
    for (const o of delivered) expect(o.value.proposals).toHaveLength(1);
    expect(refused).toHaveLength(10);
    for (const error of refused)
      expect(error).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'USAGE_LIMIT_REACHED' });
    expect((ai.bedrock?.requests.length ?? 0) - calls).toBe(10);
    expect((await ai.as(user).usage()).used).toBe(LIMIT);
  });

  it('refuses a request beyond it before any model call, saying how many cards are left', async () => {
    const user = newUser();
    await ai.as(user).generate({ notes: NOTES, count: LIMIT - 3 });
    const calls = ai.bedrock?.requests.length ?? 0;
    const failure = await grpcFailure(ai.as(user).generate({ notes: NOTES, count: 5 }));
    expect(failure.code).toBe(status.FAILED_PRECONDITION);
    expect(failure.reason).toBe('USAGE_LIMIT_REACHED');
    expect(failure.message).toBe('Usage limit reached: only 3 generated cards are left in this billing period.');
    expect(ai.bedrock?.requests.length).toBe(calls);
    expect((await ai.as(user).usage()).used).toBe(LIMIT - 3);
  });
});

describe('a generation its process abandoned', () => {
  it('gives its reservation back once it has been running too long to be alive', async () => {
    const user = newUser();
    await ai.as(user).generate({ notes: NOTES, count: 2 });
    const { periodStart } = await ai.db.generation.findFirstOrThrow({ where: { userId: user } });
    // As a process that reserved 7 cards and died before settling would leave things.
    await ai.db.generation.create({
      data: {
        id: randomUUID(),
        userId: user,
        periodStart,
        generator: 'bedrock',
        model: 'm',
        status: 'running',
        requested: 7,
        createdAt: new Date(Date.now() - 11 * 60_000),
      },
    });
    await ai.db.usagePeriod.update({
      where: { userId_periodStart: { userId: user, periodStart } },
      data: { used: { increment: 7 } },
    });
    expect((await ai.as(user).usage()).used).toBe(2);
    expect(await ai.db.generation.count({ where: { userId: user, status: 'abandoned' } })).toBe(1);
  });
});

describe('bad input', () => {
  const refusals: [string, Record<string, unknown>, string][] = [
    ['empty notes', { notes: '   ' }, 'Notes must be at least 20 characters.'],
    ['oversized notes', { notes: 'word '.repeat(13_000) }, 'Notes must be at most 60,000 characters.'],
    ['too many cards', { notes: NOTES, count: 51 }, 'Ask for at most 50 cards.'],
    ['an unknown card type', { notes: NOTES, types: ['essay'] }, 'Card type must be basic, reversed or cloze.'],
    [
      'a malformed language',
      { notes: NOTES, language: 'english please' },
      'Language must be a language tag such as en or pt-BR.',
    ],
  ];
  for (const [what, request, message] of refusals) {
    it(`refuses ${what} with a clear message and charges nothing`, async () => {
      const user = newUser();
      const calls = ai.bedrock?.requests.length ?? 0;
      const failure = await grpcFailure(ai.as(user).generate(request));
      expect(failure.code).toBe(status.INVALID_ARGUMENT);
      expect(failure.message).toBe(message);
      expect(ai.bedrock?.requests.length).toBe(calls);
      expect((await ai.as(user).usage()).used).toBe(0);
      expect(await ai.db.generation.count({ where: { userId: user } })).toBe(0);
    });
  }

  it('refuses another learner’s uploaded file as not found', async () => {
    const owner = newUser();
    const { fileId } = await ai.as(owner).upload('notes.md', `# Notes\n\n${NOTES}`);
    const failure = await grpcFailure(ai.as(newUser()).generate({ fileId }));
    expect(failure.code).toBe(status.NOT_FOUND);
    expect(failure.reason).toBe('FILE_NOT_FOUND');
  });
});

describe('events', () => {
  it('asks billing for the plan again when billing announces a change', async () => {
    const user = newUser();
    await ai.as(user).usage();
    const first = await ai.db.entitlement.findUniqueOrThrow({ where: { userId: user } });
    await publish(SubscriptionChanged, {
      userId: user,
      plan: 'pro',
      state: 'active',
      periodStart: new Date(),
      periodEnd: new Date(Date.now() + 86_400_000),
    });
    await waitUntil(
      'the plan is forgotten',
      async () => (await ai.db.entitlement.count({ where: { userId: user } })) === 0,
    );
    await ai.as(user).usage();
    const again = await ai.db.entitlement.findUniqueOrThrow({ where: { userId: user } });
    expect(again.fetchedAt.getTime()).toBeGreaterThan(first.fetchedAt.getTime());
  });

  it('forgets a deleted account’s generations, usage and files', async () => {
    const user = newUser();
    await ai.as(user).generate({ notes: NOTES, count: 2 });
    await ai.as(user).upload('notes.txt', NOTES);
    await publish(UserDeleted, { userId: user });
    await waitUntil(
      'the learner is forgotten',
      async () => (await ai.db.generation.count({ where: { userId: user } })) === 0,
    );
    expect(await ai.db.usagePeriod.count({ where: { userId: user } })).toBe(0);
    expect(await ai.db.uploadedFile.count({ where: { userId: user } })).toBe(0);
  });
});
