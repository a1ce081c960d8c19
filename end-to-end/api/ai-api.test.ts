// Card generation through the real gateway and processes, called with the real tRPC client as the web
// app calls it (httpBatchStreamLink for the streamed generation, a non-batched link for the FormData
// upload): usage on the dashboard's procedure, proposals streamed from the offline generator, an upload,
// and the refusals (bad input, an unsupported file, the usage limit, a decompression bomb) with their
// reasons, charging nothing.
import type { AppRouter, GenerationEvent } from '@engram/gateway/router';
import { flateBomb } from '@engram/testkit/hostile-files';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trpcClient, webTrpcClient } from '../support/trpc-client.ts';

const FREE_LIMIT = 12;
let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: billing gives the free plan this file's allowance of generated cards.
  stack = await startTestStack({ extraEnv: { GENERATED_CARDS_FREE: String(FREE_LIMIT) } });
});
afterAll(() => stack?.stop());

const clientOf = (cookie: string) => webTrpcClient(stack.url, cookie);

async function collect(stream: AsyncIterable<GenerationEvent>) {
  const events: GenerationEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

const NOTES = [
  '# Chemistry',
  'An atom is the smallest unit of an element.',
  'A molecule is a group of atoms bonded together.',
  'Noble gases:',
  '- helium',
  '- neon',
  '- argon',
].join('\n');

describe('generation through the gateway', () => {
  it('streams proposals from the offline generator and counts them on the dashboard’s usage', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'generator');
    const api = clientOf(cookie);
    expect(await api.cards.generationUsage.query()).toMatchObject({
      used: 0,
      limit: FREE_LIMIT,
      plan: 'free',
      generator: 'offline',
    });

    const events = await collect(await api.ai.generate.mutate({ notes: NOTES, count: 4, types: ['basic'] }));
    expect(events[0]).toMatchObject({ type: 'started', generator: 'offline', requested: 4 });
    const proposals = events.flatMap((e) => (e.type === 'proposal' ? [e.proposal] : []));
    expect(proposals.map((p) => p.front)).toEqual([
      'What is an atom?',
      'What is a molecule?',
      'Name the 3 items of: Noble gases',
    ]);
    expect(proposals[0]).toEqual({
      type: 'basic',
      front: 'What is an atom?',
      back: 'The smallest unit of an element.',
      tags: ['chemistry'],
      sourceQuote: 'An atom is the smallest unit of an element.',
    });
    expect(events.at(-1)).toMatchObject({
      type: 'finished',
      delivered: 3,
      outcome: 'complete',
      usage: { used: 3, limit: FREE_LIMIT },
    });

    // The dashboard's batched request carries the usage with the other figures.
    const [usage] = await trpcClient(stack.url, cookie).batch(['cards.generationUsage', 'cards.streak'], {});
    expect(usage).toMatchObject({ used: 3, limit: FREE_LIMIT });
  });

  it('generates from an uploaded Markdown file sent as form data', async () => {
    const api = clientOf(await signUpThroughGateway(stack.url, 'uploader'));
    const form = new FormData();
    form.append('file', new File([NOTES], 'chemistry.md', { type: 'text/markdown' }));
    const uploaded = await api.ai.upload.mutate(form);
    expect(uploaded).toMatchObject({ fileName: 'chemistry.md', characters: NOTES.length });
    const events = await collect(await api.ai.generate.mutate({ fileId: uploaded.fileId, count: 1, types: ['cloze'] }));
    expect(events.flatMap((e) => (e.type === 'proposal' ? [e.proposal.front] : []))).toEqual([
      'An {{c1::atom}} is the smallest unit of an element.',
    ]);
  });

  it('refuses bad input, an unsupported file and a request beyond the limit, in words, charging nothing', async () => {
    const api = clientOf(await signUpThroughGateway(stack.url, 'refused'));
    const failure = (call: Promise<unknown>) =>
      call.then(
        () => undefined,
        (error: unknown) => error as TRPCClientError<AppRouter>,
      );

    const empty = await failure(api.ai.generate.mutate({ notes: '  ' }));
    expect(empty).toBeInstanceOf(TRPCClientError);
    expect(empty?.message).toBe('Notes must be at least 20 characters.');
    expect(empty?.data?.code).toBe('BAD_REQUEST');

    const form = new FormData();
    form.append('file', new File(['a slide'], 'slides.pptx'));
    const unsupported = await failure(api.ai.upload.mutate(form));
    expect(unsupported?.message).toBe('Only .md, .txt and PDF files can be used.');
    expect(unsupported?.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'UNSUPPORTED_FILE' });

    const large = new FormData();
    large.append('file', new File(['a'.repeat(3 * 1024 * 1024 + 1)], 'notes.txt'));
    const oversized = await failure(api.ai.upload.mutate(large));
    expect(oversized?.message).toBe('The file is larger than 3 MB.');
    expect(oversized?.data?.code).toBe('BAD_REQUEST');

    const tooMany = await failure(collect(await api.ai.generate.mutate({ notes: NOTES, count: FREE_LIMIT + 1 })));
    expect(tooMany?.message).toBe(
      `Usage limit reached: only ${FREE_LIMIT} generated cards are left in this billing period.`,
    );
    expect(tooMany?.data).toMatchObject({ code: 'PRECONDITION_FAILED', reason: 'USAGE_LIMIT_REACHED' });

    expect(await api.cards.generationUsage.query()).toMatchObject({ used: 0 });
  });

  it("refuses a PDF that unpacks to 2 GB, in words, while another learner's generation streams", async () => {
    const bomber = clientOf(await signUpThroughGateway(stack.url, 'bomber'));
    const learner = clientOf(await signUpThroughGateway(stack.url, 'learner'));
    const form = new FormData();
    form.append('file', new File([flateBomb(2048)], 'bomb.pdf', { type: 'application/pdf' }));
    const [refusal, events] = await Promise.all([
      bomber.ai.upload.mutate(form).then(
        () => undefined,
        (error: unknown) => error as TRPCClientError<AppRouter>,
      ),
      learner.ai.generate.mutate({ notes: NOTES, count: 2, types: ['basic'] }).then(collect),
    ]);
    expect(refusal?.message).toBe('The PDF unpacks to more than 100 MB of data, so it cannot be read safely.');
    expect(refusal?.data).toMatchObject({ code: 'BAD_REQUEST', reason: 'FILE_TOO_COMPLEX' });
    expect(events.at(-1)).toMatchObject({ type: 'finished', delivered: 2 });
    // The ai process is still there, reading files as before.
    const notes = new FormData();
    notes.append('file', new File([NOTES], 'chemistry.md'));
    expect(await bomber.ai.upload.mutate(notes)).toMatchObject({ characters: NOTES.length });
  });

  it('asks a visitor to sign in', async () => {
    const error = await trpcClient(stack.url, '')
      .query('cards.generationUsage')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'Please sign in.', data: { code: 'UNAUTHORIZED' } });
  });
});
