// One run of bench/collection.ts in a process of its own, so its peak memory is the import's: imports the
// Anki package at argv[2] into a fresh cards schema of the database at argv[3] (the file sent to the S3
// stand-in, then the import job as a cards replica runs it), then exports the collection again as an Anki
// package, and beside each the floor it cannot beat, in the same process: COPY of the same rows into the
// same tables, COPY TO of the rows the export reads. Prints one JSON line.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
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
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import { openS3StandIn } from '@engram/stand-ins/s3';
import pg from 'pg';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

const [packagePath, adminUrl] = process.argv.slice(2);
if (!packagePath || !adminUrl) throw new Error('usage: node bench/collection-child.ts <package> <database url>');
const migrationsDir = new URL('../services/cards/prisma/migrations', import.meta.url).pathname;
const logger = createLogger({ service: 'bench-collection', level: 'warn' });

const schemaUrl = (schema: string) => {
  const url = new URL(adminUrl);
  url.searchParams.set('schema', schema);
  return url.toString();
};

const since = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const megabytes = (kilobytes: number) => Math.round(kilobytes / 1024);

const importSchema = `bench_import_${randomBytes(4).toString('hex')}`;
const copySchema = `bench_copy_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
const storeDir = await mkdtemp(join(tmpdir(), 'engram-bench-store-'));
const scratch = await mkdtemp(join(tmpdir(), 'engram-bench-copy-'));
const result: Record<string, number> = { startRssMb: megabytes(process.resourceUsage().maxRSS) };
try {
  await applyMigrations({ databaseUrl: schemaUrl(importSchema), migrationsDir });
  await applyMigrations({ databaseUrl: schemaUrl(copySchema), migrationsDir });
  const stores = createStores(schemaUrl(importSchema), { logger });
  const store = await createObjectStore(
    {
      kind: 'stand-in',
      bucket: 'engram-bench',
      region: 'us-east-1',
      dir: storeDir,
      port: 0,
      maxObjectBytes: 2 * 1024 * 1024 * 1024,
      allowedOrigins: [],
      credentials: generateStandInCredentials(),
    },
    { nodeEnv: 'test', openStandIn: openS3StandIn },
  );
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
    result.importMs = since(start);
    clearInterval(sampling);
    result.importPeakHeapMb = Math.round(heapPeak / 1024 / 1024);
    result.importPeakRssMb = megabytes(process.resourceUsage().maxRSS);
    result.rssBeforeImportMb = megabytes(rssBefore);
    const imported = await stores.db.import.findUniqueOrThrow({ where: { id: job.id } });
    if (imported.status !== 'done')
      throw new Error(`the import ${imported.status}: ${JSON.stringify(imported.problems)}`);
    const counts = imported.counts as Record<string, number>;
    Object.assign(result, { notes: counts.notes, cards: counts.cards, reviews: counts.reviews, media: counts.media });

    // The floor: the same rows written with COPY into the same tables of an empty schema (read out first).
    const tables = ['cards', 'review_items', 'review_logs'];
    const reader = await stores.pool.connect();
    try {
      for (const table of tables) {
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
      for (const table of tables) {
        await pipeline(
          createReadStream(join(scratch, `${table}.copy`)),
          writer.query(copyFrom(`COPY "${copySchema}"."${table}" FROM STDIN`)),
        );
      }
      await writer.query('COMMIT');
      result.copyInMs = since(start);

      // Export the collection as an Anki package, and beside it its rows read with COPY TO.
      const exported = await stores.db.export.create({
        data: { ownerId, format: 'apkg', fileName: 'collection.apkg' },
      });
      start = process.hrtime.bigint();
      await runExport({ stores, store, logger }, exported.id, { signal: new AbortController().signal });
      result.exportMs = since(start);
      const done = await stores.db.export.findUniqueOrThrow({ where: { id: exported.id } });
      if (done.status !== 'done') throw new Error(`the export ${done.status}: ${done.failure}`);
      result.exportBytes = Number(done.size);
      start = process.hrtime.bigint();
      for (const table of tables) {
        const discard = new Writable({ write: (_chunk, _encoding, done) => done() });
        await pipeline(writer.query(copyTo(`COPY "${importSchema}"."${table}" TO STDOUT`)), discard);
      }
      result.copyOutMs = since(start);
    } finally {
      await writer.end();
    }
  } finally {
    await store.close();
    await closeStores(stores);
  }
} finally {
  await admin.query(`DROP SCHEMA IF EXISTS "${importSchema}" CASCADE`);
  await admin.query(`DROP SCHEMA IF EXISTS "${copySchema}" CASCADE`);
  await admin.end();
  await rm(storeDir, { recursive: true, force: true });
  await rm(scratch, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
