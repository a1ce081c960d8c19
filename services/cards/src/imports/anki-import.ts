// Importing an Anki package (.apkg, .colpkg; docs/product.md) as runImport's job for its format. The package
// is opened safely (@engram/anki/open-package: a hostile or broken file is refused with its message), then
// read in batches of notes, each mapped to Engram cards (to-engram), its files kept (anki-media), each review
// item given its memory state (Anki's own, or its review log replayed: memory-state) and every review becomes
// a review log; a batch is written a statement per table (anki-writes) while the next one is mapped.
// Everything is in one transaction on the pg pool (anki-writes says why not Prisma's), so a failure anywhere
// (a page of the database broken halfway, the files over the learner's quota) changes nothing; the learner's
// review days are recounted at its end, so the dashboard includes their past, and a large import gathers the
// tables' statistics again. Memory stays that of two batches whatever the collection's size: a batch ends at a
// count of notes or at a budget of bytes, and a note over the package's limit is left out unread, with a notice.
//
// No history lies in the future: a review dated after the import began was made on a device whose clock ran ahead
// (the package was made before it was sent), so it is left out, with one notice saying how many. Its real time is
// unknown, and a learner expects their history, streak and heatmap to hold the days that happened: moved to today,
// those reviews would crowd a day they were not done on, and one dated ahead would make every later review "before
// the latest" of its card. The card's memory state is then the replay of the reviews kept, not Anki's (worked out
// from the left-out ones too).
import { dirname } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { isReview, memoryState } from '@engram/anki/memory-state';
import { openPackage } from '@engram/anki/open-package';
import type { AnkiReader } from '@engram/anki/reader';
import { type EngramCardDraft, type MappingContext, mappingContext, toEngram } from '@engram/anki/to-engram';
import type { AnkiNoteBundle } from '@engram/anki/types';
import { CARD_SIDE_MAX_LENGTH } from '@engram/contracts/cards';
import { importProblem } from '@engram/contracts/import-problems';
import { newMemoryState } from '@engram/contracts/memory-state';
import { cardOrdinals, noteSides } from '@engram/contracts/note-types';
import { inTransaction } from '@engram/kit/db';
import { announceOutbox } from '@engram/kit/events/outbox-announce';
import { recountReviewDays, settingsLockKey } from '../learner/study-days.js';
import { usedBytes } from '../media/quota.js';
import { packageMedia, withFileUrls } from './anki-media.js';
import { type ImportedNoteType, importNoteTypes } from './anki-note-types.js';
import { type AnkiCardToImport, ankiBatchWriter, type ItemToImport } from './anki-writes.js';
import type { ImportCounts, ImportDeps, ImportProblem } from './import-deps.js';

/**
 * Notes read, mapped and written at a time, and the bytes they may take as read (@engram/anki's note-bundles):
 * a batch is mapped while the one before is written, so the import holds about two, whatever its notes' size.
 */
const BATCH_NOTES = 1000;
const BATCH_BYTES = 8 * 1024 ** 2;
/**
 * Cards created by one import from which the tables' statistics are gathered again at its end: PostgreSQL plans
 * by them, and until autovacuum notices (a minute or more) the next queries (an export, the due list) would be
 * planned for tables without the rows just written (measured: an export's plan scanning every review log once
 * per card).
 */
const ANALYZE_AFTER_CARDS = 1000;
const IMPORTED_TABLES = ['cards', 'card_tags', 'tags', 'card_media', 'media', 'review_items', 'review_logs'];
/** Problems held while importing (runImport keeps the first of them for the learner): memory stays bounded. */
const PROBLEMS_HELD = 1000;

export interface AnkiImportJob {
  ownerId: string;
  quotaBytes: bigint;
}

type Progress = (done: number, total: number) => Promise<unknown>;

type CardSource = EngramCardDraft['items'][number];

/** `source` without its entries dated after `now`, and how many reviews they were (none: `source` itself). */
function pastOf(source: CardSource, now: Date): { source: CardSource; leftOut: number } {
  const ahead = (at: number) => at > now.getTime();
  const future = source.revlog.filter((entry) => ahead(entry.id));
  const stateAhead = ahead((source.card.fsrs?.lastReview ?? 0) * 1000);
  if (future.length === 0 && !stateAhead) return { source, leftOut: 0 };
  const revlog = source.revlog.filter((entry) => !ahead(entry.id));
  return {
    source: { ...source, card: { ...source.card, fsrs: undefined }, revlog },
    leftOut: future.filter(isReview).length,
  };
}

/**
 * The review items of a card: one per ordinal Engram asks, with its Anki card's state and history if any (its
 * reviews dated after `now` left out and counted in `run.futureReviews`).
 */
function itemsOf(run: Importing, draft: EngramCardDraft, ordinals: number[]): ItemToImport[] {
  return ordinals.map((ordinal) => {
    const found = draft.items.find((item) => item.ordinal === ordinal);
    if (!found) return { ordinal, memory: newMemoryState(run.now), logs: [] };
    const { source, leftOut } = pastOf(found, run.now);
    run.futureReviews += leftOut;
    const { memory, logs } = memoryState(source.card, source.revlog, { created: run.reader.created, now: run.now });
    return { ordinal, memory, logs };
  });
}

interface Importing {
  reader: AnkiReader;
  context: MappingContext;
  media: ReturnType<typeof packageMedia>;
  writer: ReturnType<typeof ankiBatchWriter>;
  counts: ImportCounts;
  problem: (problem: ImportProblem) => void;
  droppedTags: Set<string>;
  /** Reviews left out for being dated after the import began. */
  futureReviews: number;
  now: Date;
  /** The learner's note type for each custom Anki note type, by Anki id. */
  noteTypes: Map<number, ImportedNoteType>;
}

/** Lets the event loop send the batch being written on its way (its next statement) every so many notes. */
const YIELD_EVERY = 100;
const breathe = (index: number) => (index % YIELD_EVERY === YIELD_EVERY - 1 ? setImmediate() : undefined);

/** Maps and keeps the files of one batch of notes, the first at `position` (1-based): its cards to write. */
async function prepareBatch(run: Importing, bundles: AnkiNoteBundle[], position: number) {
  const { counts, problem, media } = run;
  const drafts: { draft: EngramCardDraft; line: number }[] = [];
  const firstShown = new Map<string, number>();
  for (const [index, bundle] of bundles.entries()) {
    await breathe(index);
    const line = position + index;
    const mapped = toEngram(bundle, run.context);
    for (const skipped of mapped.skipped) {
      counts.skipped++;
      problem({ line, ...skipped.problem });
    }
    for (const notice of mapped.notices) problem({ line, ...notice.problem });
    for (const tag of mapped.droppedTags) if (run.droppedTags.size < 20) run.droppedTags.add(tag);
    for (const draft of mapped.cards) {
      drafts.push({ draft, line });
      for (const name of draft.media) if (!firstShown.has(name)) firstShown.set(name, line);
    }
  }
  for (const left of await media.keep(firstShown.keys())) {
    counts.skipped++;
    problem({ line: firstShown.get(left.name)!, ...left.problem });
  }

  const cards: AnkiCardToImport[] = [];
  const seen = new Set<string>();
  const notes = new Set<string>();
  for (const [index, { draft, line }] of drafts.entries()) {
    await breathe(index);
    const externalId = `anki:${draft.guid}`;
    const noteType = draft.note && run.noteTypes.get(draft.note.noteTypeId);
    const fields = noteType ? draft.note!.fields.map((field) => withFileUrls(field, media.outcome)) : undefined;
    const sides = fields && noteSides(fields);
    const front = sides?.front ?? withFileUrls(draft.front, media.outcome);
    const back = sides?.back ?? withFileUrls(draft.back, media.outcome);
    const tooLong =
      front.length > CARD_SIDE_MAX_LENGTH
        ? 'frontTooLongLinked'
        : (fields ? fields.some((field) => field.length > CARD_SIDE_MAX_LENGTH) : back.length > CARD_SIDE_MAX_LENGTH)
          ? 'backTooLongLinked'
          : undefined;
    if (seen.has(externalId) || tooLong) {
      counts.skipped++;
      const why = tooLong ? importProblem(tooLong, { max: String(CARD_SIDE_MAX_LENGTH) }) : importProblem('sameNote');
      problem({ line, ...why });
      continue;
    }
    seen.add(externalId);
    notes.add(draft.noteGuid);
    const mediaIds = new Set(
      draft.media.flatMap((name) => {
        const outcome = media.outcome(name);
        return outcome && 'file' in outcome ? [outcome.file.id] : [];
      }),
    );
    const ordinals = cardOrdinals({
      type: draft.type,
      front,
      back,
      ...(noteType && fields && { note: { type: noteType.shape, fields } }),
    });
    cards.push({
      externalId,
      type: draft.type,
      front,
      back,
      archived: draft.archived,
      tags: draft.tags,
      deck: draft.deck,
      mediaIds: [...mediaIds],
      items: itemsOf(run, draft, ordinals),
      ...(noteType && fields && { note: { noteTypeId: noteType.id, fields } }),
    });
  }
  return { cards, notes: notes.size };
}

/** Writes one prepared batch; answers how many cards it created. */
async function writeBatch(run: Importing, batch: { cards: AnkiCardToImport[]; notes: number }) {
  const { counts } = run;
  const written = await run.writer.write(batch.cards);
  counts.notes += batch.notes;
  counts.cards += written.created + written.updated;
  counts.reviews += written.reviews;
  return written.created;
}

/** Imports the Anki package at `path` for `job`'s learner; an AnkiPackageError refuses the file. */
export async function importAnki(
  { db, pool, store, packageLimits }: ImportDeps,
  job: AnkiImportJob,
  path: string,
  progress: Progress,
  signal: AbortSignal,
) {
  const reader = await openPackage(path, packageLimits, { tempDir: dirname(path) });
  try {
    const total = reader.counts().notes;
    await progress(0, total);
    const counts: ImportCounts = { notes: 0, cards: 0, reviews: 0, media: 0, skipped: 0 };
    const problems: ImportProblem[] = [];
    const problem = (found: ImportProblem) => {
      if (problems.length < PROBLEMS_HELD) problems.push(found);
    };
    const used = await usedBytes(db, job.ownerId);
    let media: ReturnType<typeof packageMedia> | undefined;
    let created = 0;
    try {
      await inTransaction(pool, async (tx) => {
        const now = new Date();
        media = packageMedia({
          tx,
          store,
          ownerId: job.ownerId,
          media: reader.media(),
          quotaBytes: Number(job.quotaBytes),
          usedBytes: used,
        });
        const context = mappingContext(reader);
        const noteTypes = await importNoteTypes(tx, job.ownerId, context.engramNoteTypes.values(), media);
        const run: Importing = {
          reader,
          context,
          noteTypes,
          media,
          writer: ankiBatchWriter(tx, job.ownerId, now),
          counts,
          problem,
          droppedTags: new Set(),
          futureReviews: 0,
          now,
        };
        // A batch is mapped while the one before it is written: the database and this process work at once.
        let done = 0;
        let writing: Promise<unknown> = Promise.resolve();
        try {
          for (const bundles of reader.bundles(BATCH_NOTES, BATCH_BYTES)) {
            signal.throwIfAborted();
            const batch = await prepareBatch(run, bundles, done + 1);
            await writing;
            done += bundles.length;
            const through = done;
            writing = writeBatch(run, batch).then(async (made) => {
              created += made;
              await progress(through, total);
            });
            // Its failure is met by the next `await writing`, not reported as unhandled meanwhile.
            writing.catch(() => undefined);
          }
          await writing;
        } catch (error) {
          // The transaction is rolled back only once the batch in flight has stopped using its connection.
          await writing.catch(() => undefined);
          throw error;
        }
        counts.media = media.keptCount();
        if (run.droppedTags.size > 0) {
          problem(importProblem('tagsLeftOff', { tags: [...run.droppedTags].join(', ') }));
        }
        if (run.futureReviews > 0) problem(importProblem('reviewsInFuture', { count: String(run.futureReviews) }));
        if (counts.reviews > 0) {
          // Waits for the learner's reviews in flight (and holds new ones) so the recount includes them all.
          await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [settingsLockKey(job.ownerId)]);
          await recountReviewDays(tx, job.ownerId);
        }
      });
    } catch (error) {
      await media?.forget().catch(() => undefined);
      throw error;
    }
    if (created > 0) announceOutbox(db);
    if (created >= ANALYZE_AFTER_CARDS) await pool.query(`ANALYZE ${IMPORTED_TABLES.join(', ')}`);
    return { counts, problems };
  } finally {
    reader.close();
  }
}
