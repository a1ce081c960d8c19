// The ImportService as the gateway calls it, with imports run by the work queue's job as in main.ts (real
// PostgreSQL, NATS and the S3 stand-in): a CSV file is previewed with its columns and first rows, an import
// started from an upload runs in the background to its counts, starting it again answers the same import, the
// learner's own column mapping is used, and another learner sees neither the upload nor the import. An import
// whose doorbell was lost, or whose replica died in the middle of it, is found and run to the end.
import { randomUUID } from 'node:crypto';
import { waitUntil } from '@engram/testkit/wait';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from './harness.js';

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
    20_000,
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
