import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal, webTrpcClient } from './support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

const clientOf = (cookie: string) => webTrpcClient(stack.url, cookie);

const VOCABULARY = [
  'front;back;tags',
  'der Hund;the dog;german animals',
  'die Katze;the cat;german animals',
  ';x;',
].join('\n');

/** What the import screen does with a dropped file: a slot in the store and the bytes sent there. */
async function upload(cookie: string, name: string, bytes: Buffer) {
  const slot = await clientOf(cookie).media.createUpload.mutate({
    name,
    size: bytes.length,
    contentType: 'text/csv',
    purpose: 'import',
  });
  const put = await fetch(slot.url, { method: 'PUT', headers: { ...slot.headers, origin: stack.url }, body: bytes });
  expect(put.status).toBe(200);
  return slot.uploadId;
}

describe('importing a CSV file through the gateway', () => {
  it('previews its columns, imports it in the background, and shows what came in', async () => {
    const ann = await signUpThroughGateway(stack.url, 'import-owner');
    const api = clientOf(ann);
    const uploadId = await upload(ann, 'german.csv', Buffer.from(VOCABULARY));

    const preview = await api.imports.preview.query({ uploadId });
    expect(preview).toMatchObject({ format: 'csv', delimiter: ';', header: true });
    expect(preview.columns.map((column) => column.role)).toEqual(['front', 'back', 'tags']);
    expect(preview.rows[0]).toEqual(['der Hund', 'the dog', 'german animals']);

    const { importId } = await api.imports.start.mutate({ uploadId, mapping: { front: 0, back: 1, tags: 2 } });
    let current = await api.imports.get.query({ importId });
    await waitUntil('the import finished', async () => {
      current = await api.imports.get.query({ importId });
      return current.status === 'done';
    });
    expect(current).toMatchObject({
      name: 'german.csv',
      status: 'done',
      progress: { done: 3, total: 3 },
      counts: { notes: 2, cards: 2, reviews: 0, media: 0, skipped: 1 },
      problems: [{ line: 4, message: 'The front is empty.' }],
    });
    const { items } = await api.cards.list.query({});
    expect(items.map((card) => card.front).sort()).toEqual(['der Hund', 'die Katze']);
    expect(items[0]?.tags.map((tag) => tag.name).sort()).toEqual(['animals', 'german']);
    expect((await api.imports.list.query()).items.map((item) => item.id)).toEqual([importId]);
    expect((await api.imports.start.mutate({ uploadId })).importId).toBe(importId);
  });

  it("is none of another learner's business", async () => {
    const ann = await signUpThroughGateway(stack.url, 'import-private');
    const bob = await signUpThroughGateway(stack.url, 'import-other');
    const uploadId = await upload(ann, 'german.csv', Buffer.from(VOCABULARY));
    const { importId } = await clientOf(ann).imports.start.mutate({ uploadId });
    expect((await refusal(clientOf(bob).imports.get.query({ importId }))).data?.code).toBe('NOT_FOUND');
    expect((await refusal(clientOf(bob).imports.preview.query({ uploadId }))).data?.code).toBe('NOT_FOUND');
    expect((await clientOf(bob).imports.list.query()).items).toEqual([]);
  });

  it('refuses a mapping that puts two things in one column, with a message for the learner', async () => {
    const ann = await signUpThroughGateway(stack.url, 'import-mapping');
    const uploadId = await upload(ann, 'german.csv', Buffer.from(VOCABULARY));
    const error = await refusal(clientOf(ann).imports.start.mutate({ uploadId, mapping: { front: 0, back: 0 } }));
    expect(error.message).toContain('Each column can hold one thing only.');
    expect((await clientOf(ann).imports.list.query()).items).toEqual([]);
  });
});
