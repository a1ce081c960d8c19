// Generation through Bedrock with the real AWS SDK against a protocol-level fake of Converse and
// ConverseStream: the tool and its schema sent, cards streamed one by one as their JSON closes,
// malformed and duplicate output dropped, throttling and timeouts retried, a cut stream keeping what
// was delivered, and each generation's tokens and latency recorded.
import { randomUUID } from 'node:crypto';
import { registry } from '@engram/kit/metrics';
import { grpcFailure } from '@engram/testkit/grpc';
import { waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AiHarness, MODEL_ID, modelCard, startAiHarness } from '../harness.js';

const NOTES = 'Rule 1: something worth remembering. Rule 2: another thing. Rule 3: and a third one.';
/** The current value of a counter of the process's metrics registry, for the labels given. */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const found = (await registry.getSingleMetric(name)?.get())?.values.find((value) =>
    Object.entries(labels).every(([key, wanted]) => value.labels[key] === wanted),
  );
  return found?.value ?? 0;
}

const newUser = () => `learner-${randomUUID().slice(0, 8)}`;

describe('streamed (ConverseStream)', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'bedrock-stream', modelCallTimeoutMs: 1_500 });
  });
  afterAll(() => ai?.stop());

  it('asks the model for structured cards with a tool and streams each card as it is completed', async () => {
    const user = newUser();
    const cardsBefore = await metric('engram_ai_generated_cards_total', { generator: 'bedrock' });
    const tokensBefore = await metric('engram_ai_model_tokens_total', { direction: 'output' });
    ai.bedrock?.script({ cards: [modelCard(1), modelCard(2), modelCard(3)], pieceSize: 7 });
    const seen: string[] = [];
    const result = await ai
      .as(user)
      .generate({ notes: NOTES, count: 3, language: 'en', focus: 'rules' }, (e) => seen.push(e.event?.$case ?? ''));
    expect(seen).toEqual(['started', 'proposal', 'proposal', 'proposal', 'finished']);
    expect(result.proposals).toEqual([1, 2, 3].map((n) => ({ ...modelCard(n), tags: ['rules'] })));
    expect(result.finished).toMatchObject({ delivered: 3, dropped: 0, outcome: 'complete', message: '' });
    expect(result.finished?.usage).toMatchObject({ used: 3, limit: 200, plan: 'free', generator: 'bedrock' });

    const request = ai.bedrock?.requests.at(-1);
    expect(request?.operation).toBe('converse-stream');
    expect(request?.modelId).toBe(MODEL_ID);
    expect(request?.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d+\/us-east-1\/bedrock\//);
    expect(request?.body.toolConfig?.tools?.[0]?.toolSpec?.inputSchema?.json).toMatchObject({ required: ['cards'] });
    expect(request?.body.toolConfig?.toolChoice).toEqual({ tool: { name: 'propose_cards' } });
    expect(request?.body.messages?.[0]?.content[0]?.text).toContain(NOTES);
    expect(request?.body.system?.[0]?.text).toContain('Concentrate on: rules');

    const generation = await ai.db.generation.findFirstOrThrow({ where: { userId: user } });
    expect(generation).toMatchObject({
      status: 'complete',
      generator: 'bedrock',
      model: MODEL_ID,
      requested: 3,
      delivered: 3,
      inputTokens: 120,
      outputTokens: 80,
      latencyMs: 42,
    });
    // And for the SRE: the cards and the model's tokens on the service's metrics.
    expect((await metric('engram_ai_generated_cards_total', { generator: 'bedrock' })) - cardsBefore).toBe(3);
    expect((await metric('engram_ai_model_tokens_total', { direction: 'output' })) - tokensBefore).toBe(80);
  });

  it('drops malformed cards, cards of types not asked for, and duplicates among them and of the learner’s cards', async () => {
    const user = newUser();
    await ai.as(user).createCards(['What does rule 4 of the notes say?']);
    ai.bedrock?.script({
      cards: [
        modelCard(1),
        modelCard(1, { front: 'what does RULE 1 of the notes say' }),
        { type: 'basic', front: 'No answer and no quote' },
        modelCard(2, { type: 'cloze', front: 'A cloze without a deletion', back: '' }),
        modelCard(3, { type: 'reversed' }),
        modelCard(4),
        modelCard(5, { front: 'x'.repeat(400) }),
        modelCard(6, { type: 'cloze', front: 'Rule 6 is {{c1::worth}} remembering.', back: '' }),
      ],
    });
    const result = await ai.as(user).generate({ notes: NOTES, count: 10, types: ['basic', 'cloze'] });
    expect(result.proposals.map((p) => p.front)).toEqual([
      'What does rule 1 of the notes say?',
      'Rule 6 is {{c1::worth}} remembering.',
    ]);
    expect(result.finished).toMatchObject({ delivered: 2, dropped: 6, outcome: 'complete' });
    expect(result.finished?.usage?.used).toBe(2);
  });

  it('drops a card whose JSON is broken and keeps the ones around it', async () => {
    const user = newUser();
    const good = (n: number) => JSON.stringify(modelCard(n));
    ai.bedrock?.script({ toolInput: `{"cards":[${good(1)},{"type":"basic","front": oops},${good(2)}]}` });
    const result = await ai.as(user).generate({ notes: NOTES, count: 5 });
    expect(result.proposals.map((p) => p.front)).toEqual([modelCard(1).front, modelCard(2).front]);
    expect(result.finished).toMatchObject({ delivered: 2, dropped: 1 });
  });

  it('retries a throttled model with back-off and then delivers', async () => {
    const user = newUser();
    const before = ai.bedrock?.requests.length ?? 0;
    ai.bedrock?.script({ throttle: true }, { throttle: true }, { cards: [modelCard(1)] });
    const result = await ai.as(user).generate({ notes: NOTES, count: 1 });
    expect(result.proposals).toHaveLength(1);
    expect((ai.bedrock?.requests.length ?? 0) - before).toBe(3);
  });

  it('abandons a model call that does not answer in time and tries again', async () => {
    const user = newUser();
    ai.bedrock?.script({ hang: true }, { cards: [modelCard(1), modelCard(2)] });
    const result = await ai.as(user).generate({ notes: NOTES, count: 2 });
    expect(result.finished).toMatchObject({ delivered: 2, outcome: 'complete' });
  });

  it('keeps the cards delivered before the stream was cut, charges only those, and says what happened', async () => {
    const user = newUser();
    ai.bedrock?.script({ cards: [modelCard(1), modelCard(2), modelCard(3), modelCard(4)], cutAfter: 2 });
    const result = await ai.as(user).generate({ notes: NOTES, count: 4 });
    expect(result.proposals.map((p) => p.front)).toEqual([modelCard(1).front, modelCard(2).front]);
    expect(result.finished?.outcome).toBe('interrupted');
    expect(result.finished?.message).toMatch(
      /^The generator stopped after 2 cards \(.+\)\. The cards shown are kept\.$/,
    );
    expect(result.finished?.usage?.used).toBe(2);
    expect(await ai.db.generation.findFirstOrThrow({ where: { userId: user } })).toMatchObject({
      status: 'interrupted',
      delivered: 2,
    });
  });
});

describe('a learner who stops waiting', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'bedrock-stream' });
  });
  afterAll(() => ai?.stop());

  it('ends the model call and is charged only for the cards delivered before leaving', async () => {
    const user = newUser();
    ai.bedrock?.script({ cards: [modelCard(1), modelCard(2), modelCard(3)], holdAfter: 2 });
    const stop = new AbortController();
    let proposals = 0;
    await ai
      .as(user)
      .generate(
        { notes: NOTES, count: 3 },
        (event) => {
          if (event.event?.$case === 'proposal' && ++proposals === 2) stop.abort();
        },
        stop.signal,
      )
      .catch(() => undefined);
    await waitUntil(
      'the generation is settled',
      async () => (await ai.db.generation.findFirst({ where: { userId: user } }))?.status === 'cancelled',
    );
    expect(await ai.db.generation.findFirstOrThrow({ where: { userId: user } })).toMatchObject({ delivered: 2 });
    expect((await ai.as(user).usage()).used).toBe(2);
  });
});

describe('a model that stays throttled', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'bedrock-stream', generationTimeoutMs: 2_000 });
    if (ai.bedrock) ai.bedrock.fallback = () => ({ throttle: true });
  });
  afterAll(() => ai?.stop());

  it('is given up on within the generation deadline, and nothing is charged', async () => {
    const user = newUser();
    const failure = await grpcFailure(ai.as(user).generate({ notes: NOTES, count: 5 }));
    expect(failure.code).toBe(status.UNAVAILABLE);
    expect(failure.reason).toBe('MODEL_UNAVAILABLE');
    expect(failure.message).toBe('The card generator is unavailable right now. Please try again in a moment.');
    expect(ai.bedrock?.requests.length).toBeGreaterThan(1);
    expect((await ai.as(user).usage()).used).toBe(0);
    expect(await ai.db.generation.findFirstOrThrow({ where: { userId: user } })).toMatchObject({
      status: 'failed',
      delivered: 0,
    });
  });
});

describe('in one answer (Converse)', () => {
  let ai: AiHarness;
  beforeAll(async () => {
    ai = await startAiHarness({ generator: 'bedrock-single' });
  });
  afterAll(() => ai?.stop());

  it('takes the cards of the tool call and rejects an answer of the wrong shape', async () => {
    const user = newUser();
    ai.bedrock?.script({ cards: [modelCard(1), modelCard(2)] }, { toolInput: '{"cards": "not a list"}' });
    const first = await ai.as(user).generate({ notes: NOTES, count: 2 });
    expect(ai.bedrock?.requests.at(-1)?.operation).toBe('converse');
    expect(first.proposals.map((p) => p.front)).toEqual([modelCard(1).front, modelCard(2).front]);
    const second = await ai.as(user).generate({ notes: NOTES, count: 2 });
    expect(second.proposals).toEqual([]);
    expect(second.finished).toMatchObject({ delivered: 0, outcome: 'complete' });
    expect((await ai.as(user).usage()).used).toBe(2);
  });
});
