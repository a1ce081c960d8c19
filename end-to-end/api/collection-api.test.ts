// Importing through the real gateway and every process, as the import screen does it: the file goes straight
// to the store (media.createUpload with purpose import, a PUT), imports.preview shows a CSV's columns,
// imports.start runs the import as a job on the cards service's work queue, and imports.get and imports.list
// follow it to what it brought in. Another learner sees none of it.
//
// Exporting, on the same stack: exports.start runs the export as a job on the cards
// service's work queue, exports.get follows it to a link that downloads the file, exports.list shows the
// learner's exports, and another learner can neither follow nor aim one at their tags. A full (JSON) export
// holds every service's part, gathered by the gateway; one the gateway cannot gather fails the start.
import { randomUUID } from 'node:crypto';
import { EXPORT_REASONS } from '@engram/contracts/exports';
import type { GenerationEvent } from '@engram/gateway/router';
import { authAction, signedUp } from '@engram/testkit/people';
import { signUpThroughGateway, startTestStack, type TestStack } from '@engram/testkit/stack';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusal, webTrpcClient } from '../support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  // A stack of its own: a test stops billing, which the other files of the worker use.
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
    await waitUntil(
      'the import finished',
      async () => {
        current = await api.imports.get.query({ importId });
        return current.status === 'done';
      },
      BACKGROUND_JOB_WAIT_MS,
    );
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

/** Follows an export until it is done; answers it with the link to its file. */
async function finished(api: ReturnType<typeof clientOf>, exportId: string) {
  let current = await api.exports.get.query({ exportId });
  await waitUntil(
    'the export finished',
    async () => {
      current = await api.exports.get.query({ exportId });
      return current.status === 'done';
    },
    BACKGROUND_JOB_WAIT_MS,
  );
  return current;
}

async function generated(stream: AsyncIterable<GenerationEvent>) {
  for await (const event of stream) if (event.type === 'finished') return event;
  throw new Error('the generation never finished');
}

/** A full export's file, as the test reads it: the fields it looks into by name, the rest as they come. */
interface FullExport {
  format: string;
  identity: {
    profile: Record<string, unknown>;
    sessions: { current: boolean }[];
    memberships: { organization: { name: string } }[];
  };
  organizations: { publishedDecks: { name: string }[] };
  billing: { plan: Record<string, unknown>; subscriptions: unknown[] };
  ai: { usagePerPeriod: { generatedCards: number }[]; generations: unknown[] };
  cards: { tags: { name: string }[]; cards: { front: string; reviews: { rating: unknown }[] }[] };
}

describe('exporting through the gateway', () => {
  it("downloads the learner's chosen cards as CSV once the export is done", async () => {
    const ann = await signUpThroughGateway(stack.url, 'export-owner');
    const api = clientOf(ann);
    const german = await api.cards.createTag.mutate({ name: 'german' });
    await api.cards.create.mutate({ front: 'der Hund', back: 'the dog', tagIds: [german.id] });
    await api.cards.create.mutate({ front: 'el perro', back: 'the dog' });

    const { exportId } = await api.exports.start.mutate({ format: 'csv', tagIds: [german.id] });
    const current = await finished(api, exportId);
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

describe('a full export', () => {
  it("holds the learner's account and sessions without tokens, organizations, plan, generation usage and cards", async () => {
    const ann = await signedUp(stack.url, 'export-everything');
    const api = clientOf(ann.cookie);
    const organization = await authAction(stack.url, ann, 'organization/create', {
      name: 'Export Academy',
      slug: `export-academy-${Date.now().toString(36)}`,
    });
    const tag = await api.cards.createTag.mutate({ name: 'french' });
    await api.cards.create.mutate({ front: 'le chat', back: 'the cat', tagIds: [tag.id] });
    const [item] = (await api.cards.listDue.query({})).items;
    await api.cards.review.mutate({ id: item?.id ?? '', rating: 'good', reviewId: randomUUID(), durationMs: 1500 });
    await api.orgs.publishDeck.mutate({ organizationId: organization.id, name: 'French basics', tagId: tag.id });
    const generation = await generated(
      await api.ai.generate.mutate({ notes: 'An atom is the smallest unit of an element.', types: ['basic'] }),
    );

    const { exportId } = await api.exports.start.mutate({ format: 'json' });
    const done = await finished(api, exportId);
    const text = await (await fetch(done.url ?? '')).text();
    const file = JSON.parse(text) as FullExport;
    expect(file.format).toBe('engram-export');
    expect(file.identity.profile).toMatchObject({ id: ann.id, email: ann.email, emailVerified: true });
    expect(file.identity.sessions).toContainEqual(expect.objectContaining({ current: true }));
    expect(file.identity.memberships).toEqual([
      expect.objectContaining({ organization: expect.objectContaining({ name: 'Export Academy' }) }),
    ]);
    expect(file.organizations.publishedDecks).toEqual([expect.objectContaining({ name: 'French basics' })]);
    expect(file.billing).toMatchObject({ plan: { plan: 'free' }, subscriptions: [] });
    expect(file.ai.usagePerPeriod).toEqual([expect.objectContaining({ generatedCards: generation.delivered })]);
    expect(file.ai.generations).toHaveLength(1);
    expect(file.cards.tags.map((exported) => exported.name)).toEqual(['french']);
    expect(file.cards.cards).toEqual([
      expect.objectContaining({ front: 'le chat', reviews: [expect.objectContaining({ rating: expect.anything() })] }),
    ]);
    const sessionToken = decodeURIComponent(/session_token=([^;]+)/.exec(ann.cookie)?.[1] ?? '').split('.')[0] ?? '';
    expect(sessionToken.length).toBeGreaterThan(20);
    expect(text).not.toContain(sessionToken);
  });

  // Last in the file: billing stays down for the rest of the stack's life.
  it('is refused, with nothing queued, when a service cannot give its part', async () => {
    const cookie = await signUpThroughGateway(stack.url, 'export-missing-part');
    await stack.stopComponent('billing');
    const error = await refusal(clientOf(cookie).exports.start.mutate({ format: 'json' }));
    expect(error.message).toBe(
      'Your data export could not gather your subscription right now, so nothing was exported. Please try again in a moment.',
    );
    expect(error.data).toMatchObject({ code: 'SERVICE_UNAVAILABLE', reason: EXPORT_REASONS.partUnavailable });
    expect((await clientOf(cookie).exports.list.query()).items).toEqual([]);
  });
});
