// One export, as the work queue's job runs it (docs/architecture.md#jobs): the replica claims the export's row,
// keeps its heartbeat fresh, writes the file in a scratch directory (export-files.ts), sends it to the store and
// records where it is and when it expires. A replica that dies leaves the row to be taken over and written again
// from the start; a stop at shutdown hands it back at once.
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EXPORT_KEEP_HOURS, type ExportFormat } from '@engram/contracts/exports';
import type { Logger } from '@engram/kit/logger';
import type { ObjectStore } from '@engram/kit/storage';
import type { Stores } from '../db.js';
import { claimJob, keepHeartbeat } from '../jobs/job-row.js';
import { exportKey } from '../media/media-json.js';
import { type ExportContext, type ExportJob, writeApkg, writeCsv, writeJson } from './export-files.js';
import { exportedCount } from './exported-cards.js';

export interface ExportDeps {
  stores: Stores;
  store: ObjectStore;
  logger: Logger;
}

const WRITERS: Record<ExportFormat, (path: string, job: ExportJob, context: ExportContext) => Promise<void>> = {
  apkg: writeApkg,
  csv: writeCsv,
  json: writeJson,
};

const CONTENT_TYPES: Record<ExportFormat, string> = {
  apkg: 'application/octet-stream',
  csv: 'text/csv; charset=utf-8',
  json: 'application/json',
};

export async function runExport(deps: ExportDeps, id: string, { signal }: { signal: AbortSignal }): Promise<void> {
  const { stores, store } = deps;
  const { db } = stores;
  if (!(await claimJob(db, 'exports', id))) return;
  const job = await db.export.findUniqueOrThrow({ where: { id } });
  const logger = deps.logger.child({ exportId: id });
  const stopHeartbeat = keepHeartbeat(db, 'exports', id);
  const dir = await mkdtemp(join(tmpdir(), 'engram-export-'));
  try {
    const format = job.format as ExportFormat;
    const total = await exportedCount(stores.pool, job.ownerId, { tagIds: job.tagIds, cardIds: job.cardIds });
    await db.export.update({ where: { id }, data: { progressDone: 0, progressTotal: total } });
    const path = join(dir, job.fileName);
    await WRITERS[format](
      path,
      {
        id,
        ownerId: job.ownerId,
        tagIds: job.tagIds,
        cardIds: job.cardIds,
        parts: (job.parts ?? {}) as Record<string, unknown>,
      },
      {
        stores,
        store,
        dir,
        signal,
        progress: (done) => db.export.update({ where: { id }, data: { progressDone: done } }),
      },
    );
    const { size } = await stat(path);
    const objectKey = exportKey(job.ownerId, id, job.fileName);
    await store.putObject(objectKey, createReadStream(path), {
      contentType: CONTENT_TYPES[format],
      contentLength: size,
    });
    const finishedAt = new Date();
    await db.export.update({
      where: { id },
      data: {
        status: 'done',
        objectKey,
        size: BigInt(size),
        progressDone: total,
        finishedAt,
        expiresAt: new Date(finishedAt.getTime() + EXPORT_KEEP_HOURS * 3_600_000),
      },
    });
    logger.info({ format, cards: total, size }, 'export done');
  } catch (error) {
    if (signal.aborted) {
      // Handed back at shutdown: queued again, so the next replica takes it at once; the claim was no attempt.
      await db.export.update({ where: { id }, data: { status: 'queued', attempts: { decrement: 1 } } });
      throw error;
    }
    logger.warn({ err: error }, 'export failed');
    await db.export.update({
      where: { id },
      data: {
        status: 'failed',
        failure: 'The export could not be written. Please try again.',
        finishedAt: new Date(),
      },
    });
  } finally {
    stopHeartbeat();
    await rm(dir, { recursive: true, force: true });
  }
}
