// One step of bench/collection.ts in a process of its own, so that its peak memory and its start are that step's
// alone; prints one JSON line.
// - `import <package> <database url> <store>`: imports the Anki package into a fresh cards schema (the file sent to
//   the S3 stand-in, then the import job as a cards replica runs it) beside its floor in the same process, COPY of
//   the same card and review rows into the same tables of another schema; keeps the imported schema (the caller
//   drops it) and says which it is.
// - `export <schema> <owner> <database url> <store>`: exports that learner's collection as an Anki package, as the
//   export job's own process would (cold), beside its floor right after: COPY TO of the rows the export reads.
// The store is the S3 stand-in the caller runs in its own process (as S3 is never in the job's): its settings as
// JSON, joined here.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { closeStores, createStores } from '@engram/cards/db';
import { runExport } from '@engram/cards/exports/run-export';
import { runImport } from '@engram/cards/imports/run-import';
import { createLogger } from '@engram/kit/logger';
import { applyMigrations } from '@engram/kit/migrate';
import { createObjectStore } from '@engram/kit/storage';
import type { StandInSettings } from '@engram/kit/storage/config';
import { openS3StandIn } from '@engram/stand-ins/s3';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

const [mode, ...args] = process.argv.slice(2);
const usage =
  'usage: node bench/collection-child.ts import <package> <database url> <store> | export <schema> <owner> <database url> <store>';
if (mode !== 'import' && mode !== 'export') throw new Error(usage);
const [first, second, adminUrl, storeJson] = mode === 'import' ? [args[0], '', args[1], args[2]] : args;
if (!first || !adminUrl || !storeJson || (mode === 'export' && !second)) throw new Error(usage);
const migrationsDir = new URL('../services/cards/prisma/migrations', import.meta.url).pathname;
const logger = createLogger({ service: 'bench-collection', level: 'warn' });

const schemaUrl = (schema: string) => {
  const url = new URL(adminUrl);
  url.searchParams.set('schema', schema);
  return url.toString();
};

const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024);
/** The machine's CPU time so far, busy and in all (Linux's /proc/stat, in its ticks), or nothing elsewhere. */
function machineCpu(): { busy: number; total: number } | undefined {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = ticks.reduce((sum, tick) => sum + tick, 0);
    // idle and iowait
    return { busy: total - ticks[3]! - ticks[4]!, total };
  } catch {
    return undefined;
  }
}

/** The rows the import writes and the export reads, for their floors. */
const TABLES = ['cards', 'review_items', 'review_logs'];

const store = await createObjectStore(JSON.parse(storeJson) as StandInSettings, {
  nodeEnv: 'test',
  openStandIn: openS3StandIn,
});
const result: Record<string, number | string> = { startRssMb: megabytes(process.resourceUsage().maxRSS) };
try {
  if (mode === 'import') await importCollection(first, result);
  else await exportCollection(first, second!, result);
} finally {
  await store.close();
}
console.log(JSON.stringify(result));

async function importCollection(packagePath: string, out: typeof result): Promise<void> {
  const importSchema = `bench_import_${randomBytes(4).toString('hex')}`;
  const copySchema = `bench_copy_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const scratch = await mkdtemp(join(tmpdir(), 'engram-bench-copy-'));
  let kept = false;
  try {
    await applyMigrations({ databaseUrl: schemaUrl(importSchema), migrationsDir });
    await applyMigrations({ databaseUrl: schemaUrl(copySchema), migrationsDir });
    const stores = createStores(schemaUrl(importSchema), { logger });
    try {
      // The learner's upload, as the browser leaves it in the store.
      const ownerId = `bench-${randomUUID()}`;
      const objectKey = `uploads/bench/${randomUUID()}`;
      const { size } = await stat(packagePath);
      await store.putObject(objectKey, await readFile(packagePath), { contentType: 'application/octet-stream' });
      const upload = await stores.db.upload.create({
        data: {
          ownerId,
          purpose: 'import',
          name: 'collection.apkg',
          size: BigInt(size),
          contentType: 'application/octet-stream',
          objectKey,
          expiresAt: new Date(Date.now() + 3_600_000),
        },
      });
      const job = await stores.db.import.create({
        data: { ownerId, uploadId: upload.id, name: 'collection.apkg', format: 'apkg', quotaBytes: 10n * 1024n ** 3n },
      });
      const rssBefore = process.resourceUsage().maxRSS;
      // The heap as the import goes (what it holds; the process's peak also counts garbage not yet collected).
      let heapPeak = 0;
      const sampling = setInterval(() => {
        heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
      }, 50);
      let start = process.hrtime.bigint();
      await runImport({ db: stores.db, pool: stores.pool, store, logger }, job.id, {
        signal: new AbortController().signal,
      });
      out.importMs = since(start);
      clearInterval(sampling);
      out.importPeakHeapMb = Math.round(heapPeak / 1024 / 1024);
      out.importPeakRssMb = megabytes(process.resourceUsage().maxRSS);
      out.rssBeforeImportMb = megabytes(rssBefore);
      const imported = await stores.db.import.findUniqueOrThrow({ where: { id: job.id } });
      if (imported.status !== 'done')
        throw new Error(`the import ${imported.status}: ${JSON.stringify(imported.problems)}`);
      const counts = imported.counts as Record<string, number>;
      Object.assign(out, { notes: counts.notes, cards: counts.cards, reviews: counts.reviews, media: counts.media });
      Object.assign(out, { schema: importSchema, ownerId });

      // The floor: the same rows written with COPY into the same tables of an empty schema (read out first).
      const reader = await stores.pool.connect();
      try {
        for (const table of TABLES) {
          await pipeline(
            reader.query(copyTo(`COPY "${importSchema}"."${table}" TO STDOUT`)),
            createWriteStream(join(scratch, `${table}.copy`)),
          );
        }
      } finally {
        reader.release();
      }
      const writer = new pg.Client({ connectionString: adminUrl });
      await writer.connect();
      try {
        start = process.hrtime.bigint();
        await writer.query('BEGIN');
        for (const table of TABLES) {
          await pipeline(
            createReadStream(join(scratch, `${table}.copy`)),
            writer.query(copyFrom(`COPY "${copySchema}"."${table}" FROM STDIN`)),
          );
        }
        await writer.query('COMMIT');
        out.copyInMs = since(start);
      } finally {
        await writer.end();
      }
      kept = true;
    } finally {
      await closeStores(stores);
    }
  } finally {
    if (!kept) await admin.query(`DROP SCHEMA IF EXISTS "${importSchema}" CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS "${copySchema}" CASCADE`);
    await admin.end();
    await rm(scratch, { recursive: true, force: true });
  }
}

async function exportCollection(schema: string, ownerId: string, out: typeof result): Promise<void> {
  const stores = createStores(schemaUrl(schema), { logger });
  try {
    const exported = await stores.db.export.create({ data: { ownerId, format: 'apkg', fileName: 'collection.apkg' } });
    const before = machineCpu();
    const ownBefore = process.cpuUsage();
    let start = process.hrtime.bigint();
    await runExport({ stores, store, logger }, exported.id, { signal: new AbortController().signal });
    out.exportMs = since(start);
    const own = process.cpuUsage(ownBefore);
    out.exportCpuMs = (own.user + own.system) / 1000;
    const after = machineCpu();
    // How busy the machine's cores were meanwhile (this process, PostgreSQL, the stand-in), where Linux says.
    if (before && after) {
      out.exportCoresBusy = (after.busy - before.busy) / (after.total - before.total);
      out.machineCpuMs = ((after.busy - before.busy) / 100) * 1000;
    }
    const done = await stores.db.export.findUniqueOrThrow({ where: { id: exported.id } });
    if (done.status !== 'done') throw new Error(`the export ${done.status}: ${done.failure}`);
    out.exportBytes = Number(done.size);
    // The floor, right after: the rows the export reads, read with COPY TO.
    const reader = new pg.Client({ connectionString: adminUrl });
    await reader.connect();
    try {
      start = process.hrtime.bigint();
      for (const table of TABLES) {
        const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
        await pipeline(reader.query(copyTo(`COPY "${schema}"."${table}" TO STDOUT`)), discard);
      }
      out.copyOutMs = since(start);
    } finally {
      await reader.end();
    }
  } finally {
    await closeStores(stores);
  }
}
