// Exporting through the real gateway and every process: exports.start runs the export as a job on the cards
// service's work queue, exports.get follows it to a link that downloads the file, exports.list shows the
// learner's exports, and another learner can neither follow nor aim one at their tags.
import type { AppRouter } from '@engram/gateway/router';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webTrpcClient } from './support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

const clientOf = (cookie: string) => webTrpcClient(stack.url, cookie);

async function refusal(call: Promise<unknown>) {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return error as TRPCClientError<AppRouter>;
}

describe('exporting through the gateway', () => {
  it("downloads the learner's chosen cards as CSV once the export is done", async () => {
    const ann = await signUpThroughGateway(stack.url, 'export-owner');
    const api = clientOf(ann);
    const german = await api.cards.createTag.mutate({ name: 'german' });
    await api.cards.create.mutate({ front: 'der Hund', back: 'the dog', tagIds: [german.id] });
    await api.cards.create.mutate({ front: 'el perro', back: 'the dog' });

    const { exportId } = await api.exports.start.mutate({ format: 'csv', tagIds: [german.id] });
    let current = await api.exports.get.query({ exportId });
    await waitUntil('the export finished', async () => {
      current = await api.exports.get.query({ exportId });
      return current.status === 'done';
    });
    expect(current).toMatchObject({ format: 'csv', progress: { done: 1, total: 1 }, failure: null });
    const file = await fetch(current.url ?? '');
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain(current.fileName);
    expect((await file.text()).replace(/^\uFEFF/, '')).toBe(
      'front,back,tags,type\r\nder Hund,the dog,german,basic\r\n',
    );
    expect((await api.exports.list.query()).items.map((item) => item.id)).toEqual([exportId]);
  });

  it("is none of another learner's business", async () => {
    const ann = await signUpThroughGateway(stack.url, 'export-private');
    const bob = await signUpThroughGateway(stack.url, 'export-other');
    const tag = await clientOf(ann).cards.createTag.mutate({ name: 'mine' });
    const { exportId } = await clientOf(ann).exports.start.mutate({ format: 'apkg' });
    expect((await refusal(clientOf(bob).exports.get.query({ exportId }))).data?.code).toBe('NOT_FOUND');
    expect((await refusal(clientOf(bob).exports.start.mutate({ format: 'csv', tagIds: [tag.id] }))).data?.code).toBe(
      'NOT_FOUND',
    );
    expect((await clientOf(bob).exports.list.query()).items).toEqual([]);
  });

  it('refuses tags on a full export, with a message for the learner', async () => {
    const ann = await signUpThroughGateway(stack.url, 'export-json-tags');
    const tag = await clientOf(ann).cards.createTag.mutate({ name: 'some' });
    const error = await refusal(clientOf(ann).exports.start.mutate({ format: 'json', tagIds: [tag.id] }));
    expect(error.message).toContain('A full export holds everything; choose tags for a CSV or Anki export.');
  });
});
