// Importing a CSV file of cards as the work queue's job runs it (runImport), against real PostgreSQL and
// the S3 stand-in: the learner's cards come with their tags, a bad row is skipped with its line and reason,
// the same file imported again updates instead of duplicating, a file broken halfway changes nothing, and
// an import runs once however often its job is delivered.
import { randomUUID } from 'node:crypto';
import { JobBusy } from '@engram/kit/jobs/work-queue';
import { createLogger } from '@engram/kit/logger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runImport } from '../../src/imports/run-import.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
const logger = createLogger({ service: 'cards-import-test', level: process.env.LOG_LEVEL ?? 'silent' });

beforeAll(async () => {
  // Each test runs its imports itself (runImport): the harness runs no queue that could take the same job up
  // (its recovery, every second, would claim a job a test has just handed back, and the test's run be refused).
  cards = await startCardsHarness({ jobs: false });
}, 60_000);

afterAll(async () => {
  await cards?.stop();
});

const learner = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** A file the learner sent for import (its upload) and the import of it, queued. */
const queueImport = (ownerId: string, content: string, name = 'deck.csv') => cards.queueImport(ownerId, content, name);

const run = (id: string) =>
  runImport({ db: cards.db, pool: cards.pool, store: cards.store, logger }, id, {
    signal: new AbortController().signal,
  });

async function cardsOf(ownerId: string) {
  const { items } = await cards.list(ownerId, { pageSize: 100 });
  return items.map((card) => ({
    front: card.front,
    back: card.back,
    type: card.type,
    tags: card.tags.map((t) => t.name).sort(),
  }));
}

describe('importing a CSV file', () => {
  it('brings every good row in as a card with its tags, and lists the rows it skipped with their line and why', async () => {
    const ann = learner('ann');
    const job = await queueImport(
      ann,
      [
        'Front,Back,Tags',
        'Capital of France,Paris,geo europe',
        ',orphan answer,',
        '{{c1::Lisbon}} is in Portugal,,geo',
      ].join('\n'),
    );
    await run(job.id);

    const done = await cards.db.import.findUniqueOrThrow({ where: { id: job.id } });
    expect(done).toMatchObject({ status: 'done', progressDone: 3, progressTotal: 3 });
    expect(done.counts).toEqual({ notes: 2, cards: 2, reviews: 0, media: 0, skipped: 1 });
    expect(done.problems).toEqual([{ line: 3, reason: 'frontEmpty', values: {}, message: 'The front is empty.' }]);
    expect((await cardsOf(ann)).sort((a, b) => (a.front < b.front ? -1 : 1))).toEqual([
      { front: 'Capital of France', back: 'Paris', type: 'basic', tags: ['europe', 'geo'] },
      { front: '{{c1::Lisbon}} is in Portugal', back: '', type: 'cloze', tags: ['geo'] },
    ]);
    // The file has been read: its upload is gone, and its bytes are queued to leave the store.
    expect(await cards.db.upload.findUnique({ where: { id: job.uploadId } })).toBeNull();
  });

  it('updates the cards of a file imported again instead of adding them twice', async () => {
    const ann = learner('ann');
    const content = ['front\tback\ttags', 'hola\thello\tspanish', 'adiós\tgoodbye\tspanish'].join('\n');
    await run((await queueImport(ann, content, 'a.tsv')).id);
    await run((await queueImport(ann, `${content}\ngracias\tthank you\tspanish`, 'b.tsv')).id);
    expect((await cardsOf(ann)).map((card) => card.front).sort()).toEqual(['adiós', 'gracias', 'hola']);
  });

  it('changes nothing when the file turns out broken halfway', async () => {
    const ann = learner('ann');
    const broken = ['front,back', 'one,1', 'two,2', `three,"${'x'.repeat(1_100_000)}"`].join('\n');
    const job = await queueImport(ann, broken);
    await run(job.id);
    const failed = await cards.db.import.findUniqueOrThrow({ where: { id: job.id } });
    expect(failed.status).toBe('failed');
    expect(failed.problems).toEqual([
      {
        reason: 'unreadable',
        values: {},
        message: 'The file could not be imported: it is not a readable CSV, TSV or Anki file.',
      },
    ]);
    expect(await cardsOf(ann)).toEqual([]);
  });

  it('runs once however often its job is delivered at the same moment', async () => {
    const ann = learner('ann');
    const job = await queueImport(ann, 'front,back\nuno,one\n');
    const deliveries = await Promise.allSettled([run(job.id), run(job.id), run(job.id)]);
    // Whichever claimed it ran it; another was told to wait its turn, or found it done.
    for (const delivery of deliveries) {
      if (delivery.status === 'rejected') expect(delivery.reason).toBeInstanceOf(JobBusy);
    }
    await run(job.id);
    expect(await cardsOf(ann)).toHaveLength(1);
    expect((await cards.db.import.findUniqueOrThrow({ where: { id: job.id } })).attempts).toBe(1);
  });

  it('tells a delivery that comes while the job runs to wait its turn, and runs it once', async () => {
    const ann = learner('ann');
    const job = await queueImport(ann, 'front,back\nuno,one\n');
    // The first delivery is held as it reads the file, so the others come while it runs, however busy the machine.
    let reading!: () => void;
    const read = new Promise<void>((resolve) => {
      reading = resolve;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const heldStore = new Proxy(cards.store, {
      get(target, key) {
        if (key !== 'getObject') return Reflect.get(target, key, target);
        return async (...args: Parameters<typeof target.getObject>) => {
          reading();
          await released;
          return target.getObject(...args);
        };
      },
    });
    const first = runImport({ db: cards.db, pool: cards.pool, store: heldStore, logger }, job.id, {
      signal: new AbortController().signal,
    });
    await read;
    const others = await Promise.allSettled([run(job.id), run(job.id)]);
    expect(others.map((delivery) => delivery.status === 'rejected' && delivery.reason instanceof JobBusy)).toEqual([
      true,
      true,
    ]);
    release();
    await first;
    await run(job.id);
    expect(await cardsOf(ann)).toHaveLength(1);
    expect((await cards.db.import.findUniqueOrThrow({ where: { id: job.id } })).attempts).toBe(1);
  });

  it('is handed back whole when its replica stops in the middle (queued again, nothing written), and runs to the end later', async () => {
    const ann = learner('ann');
    const job = await queueImport(ann, 'front,back\nuno,one\ndos,two\n');
    const stopping = new AbortController();
    stopping.abort(new Error('the replica is stopping'));
    await expect(
      runImport({ db: cards.db, pool: cards.pool, store: cards.store, logger }, job.id, { signal: stopping.signal }),
    ).rejects.toThrow();
    expect(await cards.db.import.findUniqueOrThrow({ where: { id: job.id } })).toMatchObject({ status: 'queued' });
    expect(await cardsOf(ann)).toEqual([]);
    await run(job.id);
    expect((await cardsOf(ann)).map((card) => card.front).sort()).toEqual(['dos', 'uno']);
  });
});
