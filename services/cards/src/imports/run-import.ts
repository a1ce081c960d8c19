// One import, as the work queue's job runs it (docs/architecture.md#jobs). The replica claims
// the import's row (while queued, or while running with a heartbeat over two minutes old: its replica died),
// keeps the heartbeat fresh, reads the uploaded file from the store into a temporary file (never into
// memory), and writes every card in one transaction: a file that turns out broken halfway changes nothing,
// and a replica that dies leaves nothing half-done for the next one to find. Progress is written beside the
// transaction, so the learner sees it move. Done or failed, the uploaded file leaves with its upload.
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { isAnkiPackageError } from '@engram/anki/errors';
import { importProblem } from '@engram/contracts/import-problems';
import { DomainError } from '@engram/kit/errors';
import { claimJob, keepHeartbeat } from '../jobs/job-row.js';
import { queueObjectDeletions } from '../media/sweeper.js';
import { importAnki } from './anki-import.js';
import { csvRows, previewCsv } from './csv.js';
import { type CsvMapping, cardOfRow } from './csv-cards.js';
import { csvExternalId, importWriter } from './import-cards.js';
import type { ImportCounts, ImportDeps, ImportProblem } from './import-deps.js';
import { ImportFailed } from './import-failed.js';

/** At most this many problems are kept for the learner to read; the count of skipped rows stays exact. */
const MAX_PROBLEMS = 200;
/** Long enough for a large collection; the heartbeat, not this, tells a dead replica from a slow one. */
const TRANSACTION_TIMEOUT_MS = 60 * 60_000;

/** Why an import failed, as the learner reads it: a refusal as it is, anything else as an unreadable file. */
function failureOf(error: unknown): ImportProblem | undefined {
  if (error instanceof ImportFailed) return error.problem;
  if (isAnkiPackageError(error)) return importProblem(error.code);
  // Another refusal in the learner's words (a card rule), in English only.
  if (error instanceof DomainError) return { message: error.message };
  return undefined;
}

export async function runImport(deps: ImportDeps, id: string, { signal }: { signal: AbortSignal }): Promise<void> {
  const { db, store } = deps;
  if (!(await claimJob(db, 'imports', id))) return;
  const job = await db.import.findUniqueOrThrow({ where: { id } });
  const logger = deps.logger.child({ importId: id });
  const stopHeartbeat = keepHeartbeat(db, 'imports', id);
  const dir = await mkdtemp(join(tmpdir(), 'engram-import-'));
  try {
    const upload = await db.upload.findFirst({ where: { id: job.uploadId, ownerId: job.ownerId, purpose: 'import' } });
    const object = upload && (await store.getObject(upload.objectKey));
    if (!upload || !object) throw new ImportFailed(importProblem('uploadGone'));
    const path = join(dir, 'collection');
    await pipeline(object.body, createWriteStream(path), { signal });
    const progress = (done: number, total: number) =>
      db.import.update({ where: { id }, data: { progressDone: done, progressTotal: total } });
    const anki = job.format === 'apkg' || job.format === 'colpkg';
    const outcome = anki
      ? await importAnki(deps, job, path, progress, signal)
      : await importCsv(deps, job, path, progress, signal);
    await db.$transaction(async (tx) => {
      await tx.import.update({
        where: { id },
        data: {
          status: 'done',
          counts: { ...outcome.counts },
          problems: outcome.problems.slice(0, MAX_PROBLEMS).map((problem) => ({ ...problem })),
          finishedAt: new Date(),
        },
      });
      // The file has been read: it leaves the store with its upload.
      await queueObjectDeletions(tx, { read: [upload] });
      await tx.upload.delete({ where: { id: upload.id } });
    });
    logger.info({ counts: outcome.counts }, 'import done');
  } catch (error) {
    if (signal.aborted) {
      // Handed back at shutdown: queued again, so the next replica takes it at once; the claim was no attempt.
      await db.import.update({ where: { id }, data: { status: 'queued', attempts: { decrement: 1 } } });
      throw error;
    }
    // A refusal of the file (or of its files by the learner's quota) is told as it is; anything else is not.
    const problem = failureOf(error) ?? importProblem('unreadable');
    if (!(error instanceof ImportFailed)) logger.warn({ err: error }, 'import failed');
    await db.$transaction(async (tx) => {
      await tx.import.update({
        where: { id },
        data: { status: 'failed', problems: [{ ...problem }], finishedAt: new Date() },
      });
      // A failed import is over (starting it again answers this one): its file leaves now, not at its expiry,
      // and no longer takes the learner's allowance of files waiting to be imported.
      const upload = await tx.upload.findFirst({ where: { id: job.uploadId, ownerId: job.ownerId } });
      if (upload) {
        await queueObjectDeletions(tx, { failed: [upload] });
        await tx.upload.delete({ where: { id: upload.id } });
      }
    });
  } finally {
    stopHeartbeat();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The learner's mapping of a CSV's columns (null: none), or else the preview's guess; a front is needed (without a
 * back, the front holds both sides). */
function mappingOf(saved: unknown, columns: { index: number; role: string }[]): CsvMapping {
  const given = saved as { front: number | null; back: number | null; tags: number | null; type: number | null } | null;
  const guessed = (role: string) => columns.find((column) => column.role === role)?.index;
  const mapping = given
    ? {
        front: given.front ?? undefined,
        back: given.back ?? undefined,
        tags: given.tags ?? undefined,
        type: given.type ?? undefined,
      }
    : { front: guessed('front'), back: guessed('back'), tags: guessed('tags'), type: guessed('type') };
  if (mapping.front === undefined) throw new ImportFailed(importProblem('frontColumnMissing'));
  return { front: mapping.front, back: mapping.back, tags: mapping.tags, type: mapping.type };
}

async function importCsv(
  { db }: ImportDeps,
  job: { ownerId: string; mapping: unknown },
  path: string,
  progress: (done: number, total: number) => Promise<unknown>,
  signal: AbortSignal,
) {
  const preview = await previewCsv(path);
  const mapping = mappingOf(job.mapping, preview.columns);
  let total = 0;
  for await (const _ of csvRows(path, preview)) total++;
  await progress(0, total);
  const counts: ImportCounts = { notes: 0, cards: 0, reviews: 0, media: 0, skipped: 0 };
  const problems: ImportProblem[] = [];
  await db.$transaction(
    async (tx) => {
      const writer = importWriter(tx, job.ownerId, new Date());
      let done = 0;
      for await (const { line, fields } of csvRows(path, preview)) {
        signal.throwIfAborted();
        const outcome = cardOfRow(fields, mapping);
        if ('problem' in outcome) {
          counts.skipped++;
          problems.push({ line, ...outcome.problem });
        } else {
          await writer.write({ ...outcome.card, archived: false, externalId: csvExternalId(outcome.card) });
          counts.notes++;
          counts.cards++;
        }
        done++;
        if (done % 200 === 0) await progress(done, total);
      }
      await progress(done, total);
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
  );
  return { counts, problems };
}
