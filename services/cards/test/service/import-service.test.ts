// The ImportService as the gateway calls it, with imports run by the work queue's job as in main.ts (real
// PostgreSQL, NATS and the S3 stand-in): a CSV file is previewed with its columns and first rows, an import
// started from an upload runs in the background to its counts, starting it again answers the same import, the
// learner's own column mapping is used, and another learner sees neither the upload nor the import. An import
// whose doorbell was lost, or whose replica died in the middle of it, is found and run to the end. Files sent to
// import wait within the plan's allowance and expire within hours; a learner runs at most two imports at once.
import { randomUUID } from 'node:crypto';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepObjects } from '../../src/media/sweeper.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
}, 60_000);

afterAll(async () => {
  await cards?.stop();
});

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

const VOCABULARY = ['Term,Definition,Tags', 'hola,hello,spanish', 'adiós,goodbye,spanish', 'gracias,,spanish'].join(
  '\n',
);

async function finished(userId: string, importId: string) {
  let current = await cards.as(userId).getImport({ importId });
  await waitUntil(
    'the import finished',
    async () => {
      current = await cards.as(userId).getImport({ importId });
      return current.status === 'done' || current.status === 'failed';
    },
    BACKGROUND_JOB_WAIT_MS,
  );
  return current;
}

async function fronts(userId: string) {
  const { items } = await cards.list(userId, { pageSize: 100 });
  return items.map((card) => `${card.front} → ${card.back}`).sort();
}

describe('previewing a file to import', () => {
  it("shows a CSV file's columns with a guess at each, and its first rows", async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const preview = await cards.as(ann).previewImport({ uploadId });
    expect(preview).toMatchObject({ format: 'csv', delimiter: ',', header: true, encoding: 'utf-8' });
    expect(preview.columns).toEqual([
      { index: 0, name: 'Term', role: 'front' },
      { index: 1, name: 'Definition', role: 'back' },
      { index: 2, name: 'Tags', role: 'tags' },
    ]);
    expect(preview.rows.map((row) => row.fields)).toEqual([
      ['hola', 'hello', 'spanish'],
      ['adiós', 'goodbye', 'spanish'],
      ['gracias', '', 'spanish'],
    ]);
  });

  it("is refused for an Anki package (no columns to choose) and for another learner's upload", async () => {
    const ann = learner('ann');
    const anki = await cards.uploadToImport(ann, 'deck.apkg', Buffer.from('PK'));
    await expect(cards.as(ann).previewImport({ uploadId: anki })).rejects.toThrow(
      'Only a CSV or TSV file has columns to choose.',
    );
    const csv = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    await expect(cards.as(learner('bob')).previewImport({ uploadId: csv })).rejects.toThrow(
      'The file to import is no longer there. Please send it again.',
    );
  });
});

describe('importing an uploaded file', () => {
  it('runs in the background to what it brought in and what it skipped, and is listed', async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const { importId } = await cards.as(ann).startImport({ uploadId });
    const done = await finished(ann, importId);
    expect(done).toMatchObject({
      name: 'vocabulary.csv',
      format: 'csv',
      status: 'done',
      progressDone: 3,
      progressTotal: 3,
      counts: { notes: 2, cards: 2, reviews: 0, media: 0, skipped: 1 },
      problems: [{ line: 4, message: 'The back is empty.' }],
    });
    expect(done.finishedAt).toBeInstanceOf(Date);
    expect(await fronts(ann)).toEqual(['adiós → goodbye', 'hola → hello']);
    const { items } = await cards.as(ann).listImports({});
    expect(items.map((item) => [item.id, item.status])).toEqual([[importId, 'done']]);
  });

  it("takes Quizlet's export saved as a text file (term, a tab, definition)", async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'quizlet.txt', Buffer.from('perro\tdog\ngato\tcat\n'));
    expect((await cards.as(ann).previewImport({ uploadId })).format).toBe('tsv');
    const { importId } = await cards.as(ann).startImport({ uploadId });
    expect(await finished(ann, importId)).toMatchObject({ format: 'tsv', status: 'done', counts: { cards: 2 } });
    expect(await fronts(ann)).toEqual(['gato → cat', 'perro → dog']);
  });

  it("takes Mochi's cards, each one text with its sides split at a line of ---", async () => {
    const ann = learner('ann');
    const mochi = 'content,deck\n"# Capital of France\n---\nParis",Geography\n"no answer here",Geography\n';
    const uploadId = await cards.uploadToImport(ann, 'mochi.csv', Buffer.from(mochi));
    const { importId } = await cards.as(ann).startImport({ uploadId });
    expect(await finished(ann, importId)).toMatchObject({
      status: 'done',
      counts: { cards: 1, skipped: 1 },
      problems: [
        { line: 5, message: 'The back is empty: with no back column, a line of --- parts the front from the back.' },
      ],
    });
    expect(await fronts(ann)).toEqual(['# Capital of France → Paris']);
    const { items } = await cards.list(ann, { pageSize: 10 });
    expect(items[0]?.tags.map((tag) => tag.name)).toEqual(['Geography']);
  });

  it('answers the same import when it is started again from the same upload, and imports once', async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const [first, second] = await Promise.all([
      cards.as(ann).startImport({ uploadId }),
      cards.as(ann).startImport({ uploadId }),
    ]);
    expect(second?.importId).toBe(first?.importId);
    await finished(ann, first!.importId);
    expect((await cards.as(ann).startImport({ uploadId })).importId).toBe(first?.importId);
    expect(await fronts(ann)).toEqual(['adiós → goodbye', 'hola → hello']);
  });

  it("uses the learner's own choice of columns", async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const { importId } = await cards.as(ann).startImport({
      uploadId,
      mapping: { front: 1, back: 0, tags: -1, type: -1 },
    });
    expect((await finished(ann, importId)).counts?.skipped).toBe(1);
    expect(await fronts(ann)).toEqual(['goodbye → adiós', 'hello → hola']);
    const { items } = await cards.list(ann, { pageSize: 10 });
    expect(items.every((card) => card.tags.length === 0)).toBe(true);
  });

  it('is refused, changing nothing, for a file that never arrived, a name no import takes, or a bad mapping', async () => {
    const ann = learner('ann');
    const slot = await cards.as(ann).createUpload({ name: 'deck.csv', size: 10, contentType: '', purpose: 'import' });
    await expect(cards.as(ann).startImport({ uploadId: slot.uploadId })).rejects.toThrow(
      'The file has not arrived yet. Send it again.',
    );
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    await expect(
      cards.as(ann).startImport({ uploadId, mapping: { front: -1, back: 0, tags: -1, type: -1 } }),
    ).rejects.toThrow('Choose the column that holds the front of the cards.');
    await expect(cards.as(ann).startImport({ uploadId, format: 'pdf' })).rejects.toThrow(
      'The format must be apkg, colpkg, csv or tsv.',
    );
    expect((await cards.as(ann).listImports({})).items).toEqual([]);
  });

  it("is another learner's to neither see nor start", async () => {
    const ann = learner('ann');
    const bob = learner('bob');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    await expect(cards.as(bob).startImport({ uploadId })).rejects.toThrow(
      'The file to import is no longer there. Please send it again.',
    );
    const { importId } = await cards.as(ann).startImport({ uploadId });
    await expect(cards.as(bob).getImport({ importId })).rejects.toThrow('Import not found.');
    expect((await cards.as(bob).listImports({})).items).toEqual([]);
    await finished(ann, importId);
    expect(await fronts(bob)).toEqual([]);
  });
});

describe('an import nobody is running', () => {
  it('is found and run when its job never reached the queue (NATS was away when it started)', async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const upload = await cards.db.upload.findUniqueOrThrow({ where: { id: uploadId } });
    // The row as StartImport writes it, without ringing the queue.
    const queued = await cards.db.import.create({ data: { ownerId: ann, uploadId, name: upload.name, format: 'csv' } });
    expect((await finished(ann, queued.id)).status).toBe('done');
    expect(await fronts(ann)).toEqual(['adiós → goodbye', 'hola → hello']);
  });

  it('is taken over when the replica running it died (its heartbeat went stale)', async () => {
    const ann = learner('ann');
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const upload = await cards.db.upload.findUniqueOrThrow({ where: { id: uploadId } });
    const abandoned = await cards.db.import.create({
      data: {
        ownerId: ann,
        uploadId,
        name: upload.name,
        format: 'csv',
        status: 'running',
        attempts: 1,
        heartbeatAt: new Date(Date.now() - 10 * 60_000),
      },
    });
    const done = await finished(ann, abandoned.id);
    expect(done.status).toBe('done');
    expect((await cards.db.import.findUniqueOrThrow({ where: { id: abandoned.id } })).attempts).toBe(2);
    expect(await fronts(ann)).toEqual(['adiós → goodbye', 'hola → hello']);
  });
});

/** The refusal a call ends in (it must end in one). */
async function refusal(call: Promise<unknown>) {
  const error = (await call.then(
    () => undefined,
    (caught: unknown) => caught,
  )) as { code: number; message: string; reason?: string } | undefined;
  expect(error, 'the call was refused').toBeDefined();
  return error!;
}

const GB = 1024 ** 3;
/** A slot for a file to import of `size` bytes, as the web app asks before sending it. */
const slotFor = (userId: string, size: number, name = 'collection.apkg') =>
  cards.as(userId).createUpload({ name, size, contentType: '', purpose: 'import' });
const importUploads = (ownerId: string) => cards.db.upload.count({ where: { ownerId, purpose: 'import' } });

describe('files sent to import and waiting', () => {
  it("are limited by the plan in bytes: a free learner's second 2 GB file is refused, naming the figures", async () => {
    const ann = learner('ann');
    await slotFor(ann, 2 * GB);
    const refused = await refusal(slotFor(ann, 1024 ** 2));
    expect(refused).toMatchObject({ code: status.FAILED_PRECONDITION, reason: 'IMPORT_UPLOADS_WAITING' });
    expect(refused.message).toBe(
      'This file needs 1 MB, and your files waiting to be imported already take 2,048 MB of the 2,048 MB your plan ' +
        'lets wait at once. Import them, or wait until they expire 3 hours after they were sent, then send this one.',
    );
    expect(await importUploads(ann)).toBe(1);
    // A larger plan lets more wait; a card's file is not one of them.
    const bob = learner('bob');
    cards.setQuota(bob, { plan: 'plus', quotaBytes: 2 * GB });
    await slotFor(bob, 2 * GB);
    await slotFor(bob, 2 * GB);
    expect((await refusal(slotFor(bob, 1))).reason).toBe('IMPORT_UPLOADS_WAITING');
    await cards.as(bob).createUpload({ name: 'a.png', size: 1_000, contentType: 'image/png', purpose: 'card' });
  });

  it('are limited by the plan in number, sent at once or one by one; an import over frees its file', async () => {
    const ann = learner('ann');
    const sent = await Promise.allSettled([1, 2, 3].map(() => slotFor(ann, 1_000, 'vocabulary.csv')));
    expect(sent.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(2);
    expect(await importUploads(ann)).toBe(2);
    const refused = await refusal(slotFor(ann, 1_000));
    expect(refused.message).toBe(
      'You have 2 files waiting to be imported, the most your plan lets wait at once. Import them, or wait until ' +
        'they expire 3 hours after they were sent, then send this one.',
    );
    // Imported (or failed), a file no longer waits.
    const bob = learner('bob');
    const good = await cards.uploadToImport(bob, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const broken = await cards.uploadToImport(bob, 'broken.apkg', Buffer.from('not a zip'));
    expect((await refusal(slotFor(bob, 1_000))).reason).toBe('IMPORT_UPLOADS_WAITING');
    const done = await finished(bob, (await cards.as(bob).startImport({ uploadId: good })).importId);
    const failed = await finished(bob, (await cards.as(bob).startImport({ uploadId: broken })).importId);
    expect([done.status, failed.status]).toEqual(['done', 'failed']);
    expect(await importUploads(bob)).toBe(0);
    await slotFor(bob, 1_000);
    await slotFor(bob, 1_000);
  });

  it('expire within hours, their bytes swept from the store; one whose import is queued or running waits for it', async () => {
    const ann = learner('ann');
    const idle = await cards.db.upload.findUniqueOrThrow({
      where: { id: await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY)) },
    });
    // Three hours after it was sent (the row's own clock is the database's: within a minute of this one).
    expect(Math.abs(idle.expiresAt.getTime() - idle.createdAt.getTime() - 3 * 3_600_000)).toBeLessThan(60_000);
    // An import another replica runs (its heartbeat fresh), its file sent as long ago.
    const busy = await cards.db.upload.findUniqueOrThrow({
      where: { id: await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY)) },
    });
    const running = await cards.db.import.create({
      data: {
        ownerId: ann,
        uploadId: busy.id,
        name: busy.name,
        format: 'csv',
        status: 'running',
        heartbeatAt: new Date(),
      },
    });
    const later = new Date(idle.expiresAt.getTime() + 60_000);
    await sweepObjects(cards.db, cards.store, later);
    expect(await cards.db.upload.findUnique({ where: { id: idle.id } })).toBeNull();
    expect(await cards.store.headObject(idle.objectKey)).toBeNull();
    expect(await cards.db.upload.findUnique({ where: { id: busy.id } })).not.toBeNull();
    expect(await cards.store.headObject(busy.objectKey)).not.toBeNull();
    // Still its learner's: it counts against what may wait.
    expect((await refusal(slotFor(ann, 2 * GB))).reason).toBe('IMPORT_UPLOADS_WAITING');
    await cards.db.import.update({ where: { id: running.id }, data: { status: 'failed' } });
    await sweepObjects(cards.db, cards.store, later);
    expect(await cards.db.upload.findUnique({ where: { id: busy.id } })).toBeNull();
    expect(await cards.store.headObject(busy.objectKey)).toBeNull();
  });
});

describe("a learner's imports at once", () => {
  it('are at most two queued or running: a third is refused, changing nothing, until one is over', async () => {
    const ann = learner('ann');
    cards.setQuota(ann, { plan: 'pro', quotaBytes: GB });
    const running = [];
    for (let i = 0; i < 2; i++) {
      const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
      // Imports another replica runs (their heartbeat fresh): nobody takes them over meanwhile.
      running.push(
        await cards.db.import.create({
          data: {
            ownerId: ann,
            uploadId,
            name: 'vocabulary.csv',
            format: 'csv',
            status: 'running',
            heartbeatAt: new Date(),
          },
        }),
      );
    }
    const uploadId = await cards.uploadToImport(ann, 'vocabulary.csv', Buffer.from(VOCABULARY));
    const refused = await refusal(cards.as(ann).startImport({ uploadId }));
    expect(refused).toMatchObject({
      code: status.FAILED_PRECONDITION,
      reason: 'IMPORTS_BUSY',
      message: 'You already have 2 imports waiting or running. Wait until one of them is done, then start this one.',
    });
    expect((await cards.as(ann).listImports({})).items).toHaveLength(2);
    // Another learner's imports are theirs alone.
    const bob = learner('bob');
    const bobs = await cards.as(bob).startImport({
      uploadId: await cards.uploadToImport(bob, 'vocabulary.csv', Buffer.from(VOCABULARY)),
    });
    expect((await finished(bob, bobs.importId)).status).toBe('done');
    await cards.db.import.update({ where: { id: running[0]!.id }, data: { status: 'done' } });
    const { importId } = await cards.as(ann).startImport({ uploadId });
    // Taken; a learner's imports run one at a time, so it runs once the other is over.
    expect((await cards.as(ann).getImport({ importId })).status).toBe('queued');
    await cards.db.import.update({ where: { id: running[1]!.id }, data: { status: 'done' } });
    expect((await finished(ann, importId)).status).toBe('done');
  });
});
