// Writing an export's file on disk, one format each, from the cards a page at a time: CSV (its cells safe to
// open in a spreadsheet, csv-cells.ts) and the Anki package through @engram/anki's streaming writers (with the
// files the cards show, for the package), and the full JSON export streamed by hand: the other services' parts
// as the gateway gathered them, then everything cards holds (settings, tags, cards with their review history,
// files, imports).
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { setImmediate } from 'node:timers/promises';
import { createCsvExport } from '@engram/anki/csv-export';
import { createExport } from '@engram/anki/from-engram';
import { mediaPath } from '@engram/contracts/media';
import type { ObjectStore } from '@engram/kit/storage';
import type pg from 'pg';
import type { Stores } from '../db.js';
import { settingsOf } from '../learner/settings.js';
import { readSettings } from '../learner/settings-store.js';
import { spreadsheetCard } from './csv-cells.js';
import {
  type ExportedCard,
  type ExportedFile,
  type ExportReadOptions,
  exportedCards,
  exportedReviews,
} from './exported-cards.js';

export interface ExportJob {
  id: string;
  ownerId: string;
  tagIds: string[];
  /** A Browse selection: only these cards (none: every card of the tags). */
  cardIds: string[];
  parts: Record<string, unknown>;
}

export interface ExportContext {
  stores: Stores;
  store: ObjectStore;
  /** A scratch directory of this export's own. */
  dir: string;
  signal: AbortSignal;
  /** Called after each page of cards with how many are written. */
  progress: (done: number) => Promise<unknown>;
}

/**
 * The export's progress, sent while the next page is written: one update at a time, the newest count (a page's
 * awaited update cost a 40,000-card export 0.6 s of its 7). A failed update fails the export at the next page.
 */
function progressReporter(send: (done: number) => Promise<unknown>) {
  let sending: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  return {
    report(done: number): void {
      if (failure) throw failure.error;
      if (sending) return;
      sending = send(done).then(
        () => {
          sending = undefined;
        },
        (error: unknown) => {
          failure ??= { error };
          sending = undefined;
        },
      );
    },
    /** Waits for the update under way; throws its failure unless `quiet`. */
    async settle(quiet = false): Promise<void> {
      await sending;
      if (failure && !quiet) throw failure.error;
    },
  };
}

async function eachPage(
  pool: pg.Pool,
  job: ExportJob,
  context: ExportContext,
  write: (card: ExportedCard) => Promise<void> | void,
  read: ExportReadOptions = {},
) {
  const progress = progressReporter(context.progress);
  let done = 0;
  try {
    for await (const page of exportedCards(pool, job.ownerId, { tagIds: job.tagIds, cardIds: job.cardIds }, read)) {
      context.signal.throwIfAborted();
      for (const card of page) await write(card);
      done += page.length;
      progress.report(done);
    }
  } catch (error) {
    await progress.settle(true);
    throw error;
  }
  await progress.settle();
}

export async function writeCsv(path: string, job: ExportJob, context: ExportContext): Promise<void> {
  const csv = createCsvExport(path);
  try {
    await eachPage(context.stores.pool, job, context, (card) => csv.addCard(spreadsheetCard(card)), {
      withReviews: false,
    });
    await csv.finish();
  } catch (error) {
    await csv.abort();
    throw error;
  }
}

/** Files fetched from the store at once while the cards go on being written. */
const FILES_AT_ONCE = 4;
/**
 * Cards written between two turns of the event loop: the cards' rows are made without one (the next page is
 * mostly read already), and the files being fetched go on only in such turns.
 */
const CARDS_BETWEEN_TURNS = 64;

/**
 * The files of an export, fetched from the store FILES_AT_ONCE at a time, in the background, in the order they are
 * asked for: the cards are written on meanwhile, never waiting for a file (waiting for a free place among four took
 * 1.7 s of a 40,000-card export's 5.5). The files asked for wait as their ids and keys, a few bytes each.
 */
function filePump(fetch: (file: ExportedFile) => Promise<void>) {
  const waiting: ExportedFile[] = [];
  const asked = new Set<string>();
  const fetching = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  let drained: (() => void) | undefined;
  const next = () => {
    while (!failure && fetching.size < FILES_AT_ONCE && waiting.length > 0) {
      const fetched: Promise<void> = fetch(waiting.shift()!)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => {
          fetching.delete(fetched);
          next();
        });
      fetching.add(fetched);
    }
    if (fetching.size === 0 && (waiting.length === 0 || failure)) drained?.();
  };
  return {
    /** Throws the failure of a file fetched before, if one failed. */
    check(): void {
      if (failure) throw failure.error;
    },
    /** Asks for the file, once. */
    add(file: ExportedFile): void {
      if (asked.has(file.id)) return;
      asked.add(file.id);
      waiting.push(file);
      next();
    },
    /** Resolves once every file asked for is in; throws the first failure. */
    async done(): Promise<void> {
      if (fetching.size > 0 || (waiting.length > 0 && !failure)) {
        await new Promise<void>((resolve) => {
          drained = resolve;
        });
      }
      if (failure) throw failure.error;
    },
    /** Asks for no more and waits for the fetches under way (after a failure: none is left behind). */
    async stop(): Promise<void> {
      waiting.length = 0;
      await Promise.allSettled([...fetching]);
    },
  };
}

export async function writeApkg(path: string, job: ExportJob, context: ExportContext): Promise<void> {
  const settings = settingsOf(await readSettings(context.stores.pool, job.ownerId));
  const anki = await createExport(path, { desiredRetention: settings.desiredRetention, tempDir: context.dir });
  const files = filePump(async (file: ExportedFile) => {
    const object = await context.store.getObject(file.objectKey);
    // A file whose bytes are gone is left out; the card still names it.
    if (!object) return;
    const filePath = join(context.dir, `file-${file.id}`);
    await pipeline(object.body, createWriteStream(filePath), { signal: context.signal });
    await anki.addMedia(anki.mediaName(file.id, file.name), filePath);
    await rm(filePath, { force: true });
  });
  let reviewsFailure: { error: unknown } | undefined;
  // The reviews are read beside the cards, in their snapshot, on a connection of their own, and go to the package
  // as the text PostgreSQL gives (exportedReviews): PostgreSQL works out their revlog rows while the cards are written.
  const stopReviews = new AbortController();
  const stop = () => stopReviews.abort(context.signal.reason);
  context.signal.addEventListener('abort', stop, { once: true });
  let reviews: Promise<void> | undefined;
  let written = 0;
  try {
    const shareSnapshot = async (snapshot: string) => {
      const read = await exportedReviews(
        context.stores.pool,
        job.ownerId,
        { tagIds: job.tagIds, cardIds: job.cardIds },
        { snapshot, signal: stopReviews.signal, onRows: anki.addReviews },
      );
      reviews = read.done;
      // Awaited after the cards; a failure before then stops them at the next page.
      reviews.catch((error: unknown) => {
        reviewsFailure ??= { error };
      });
    };
    await eachPage(
      context.stores.pool,
      job,
      context,
      async (card) => {
        anki.addCard(card);
        for (const file of card.files) files.add(file);
        // A file or the reviews that failed stop the cards at once.
        files.check();
        if (reviewsFailure) throw reviewsFailure.error;
        if (++written % CARDS_BETWEEN_TURNS === 0) await setImmediate();
      },
      { withReviews: false, shareSnapshot },
    );
    await reviews;
    await files.done();
    await anki.finish();
  } catch (error) {
    stopReviews.abort(error);
    await Promise.allSettled([files.stop(), reviews]);
    await anki.abort();
    throw error;
  } finally {
    context.signal.removeEventListener('abort', stop);
  }
}

/** A JSON file written a piece at a time, waiting when the disk is behind. */
function jsonFile(path: string) {
  const out = createWriteStream(path, { encoding: 'utf8' });
  let failure: Error | undefined;
  out.on('error', (error) => {
    failure = error;
  });
  return {
    async write(text: string) {
      if (failure) throw failure;
      if (!out.write(text)) await once(out, 'drain');
    },
    async close() {
      out.end();
      await once(out, 'finish');
      if (failure) throw failure;
    },
  };
}

const json = (value: unknown) => JSON.stringify(value);

export async function writeJson(path: string, job: ExportJob, context: ExportContext): Promise<void> {
  const { db, pool } = context.stores;
  const file = jsonFile(path);
  const settings = settingsOf(await readSettings(pool, job.ownerId));
  const [tags, media, imports, subscriptions, noteTypes] = await Promise.all([
    db.tag.findMany({ where: { ownerId: job.ownerId }, orderBy: { createdAt: 'asc' } }),
    db.mediaFile.findMany({ where: { ownerId: job.ownerId }, orderBy: { createdAt: 'asc' } }),
    db.import.findMany({ where: { ownerId: job.ownerId }, orderBy: { createdAt: 'asc' } }),
    db.deckSubscriber.findMany({ where: { userId: job.ownerId } }),
    db.noteType.findMany({ where: { ownerId: job.ownerId }, orderBy: { createdAt: 'asc' } }),
  ]);
  await file.write(`{"format":"engram-export","version":1,"exportedAt":${json(new Date())}`);
  for (const [service, part] of Object.entries(job.parts)) await file.write(`,${json(service)}:${json(part)}`);
  await file.write(',"cards":{');
  await file.write(`"settings":${json(settings)}`);
  await file.write(`,"tags":${json(tags.map((tag) => ({ id: tag.id, name: tag.name, createdAt: tag.createdAt })))}`);
  // The learner's own note types; a note names its type by id (a stock type's key, or one of these).
  await file.write(
    `,"noteTypes":${json(
      noteTypes.map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.kind,
        fields: row.fields,
        templates: row.templates,
        css: row.css,
        createdAt: row.createdAt,
      })),
    )}`,
  );
  await file.write(
    `,"files":${json(
      media.map((row) => ({
        id: row.id,
        name: row.name,
        kind: row.kind,
        contentType: row.contentType,
        size: Number(row.size),
        path: mediaPath(row.id, row.name),
        createdAt: row.createdAt,
      })),
    )}`,
  );
  await file.write(
    `,"imports":${json(
      imports.map((row) => ({
        id: row.id,
        name: row.name,
        format: row.format,
        status: row.status,
        counts: row.counts,
        createdAt: row.createdAt,
        finishedAt: row.finishedAt,
      })),
    )}`,
  );
  await file.write(
    `,"sharedDeckSubscriptions":${json(subscriptions.map((row) => ({ deckId: row.deckId, deckName: row.deckName, subscribed: row.subscribed, changedAt: row.changedAt })))}`,
  );
  await file.write(',"cards":[');
  let first = true;
  await eachPage(pool, job, context, async (card) => {
    const { files, note, items, ...rest } = card;
    const fields = note ? { noteTypeId: note.type.id, fields: note.fields } : {};
    // An item's number is the database's own, not part of the export.
    const exported = { ...rest, items: items.map(({ number: _, ...item }) => item), ...fields };
    await file.write(`${first ? '' : ','}${json({ ...exported, files: files.map((f) => f.id) })}`);
    first = false;
  });
  await file.write(']}}');
  await file.close();
}
