// vitest global setup: one fresh database and one NATS stream name and subject prefix per test run, so
// runs never see each other's data, and one database with every migration applied that each stack's database
// is copied from (migrating a database takes longer than copying one); all of it is removed when the run ends.
import { randomBytes } from 'node:crypto';
import { migrateAll } from '@engram/local/migrations';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabasesStartingWith } from './databases.ts';
import { resolveInfrastructure } from './infra.ts';
import { deleteStreams } from './streams.ts';

export default async function setup(project: TestProject) {
  const infra = await resolveInfrastructure(process.env);
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseUrl = await createDatabase(infra.postgresUrl, `engram_test_${runId}`);
  const streamName = `ENGRAM_TEST_${runId.toUpperCase()}`;
  const migratedTemplate = `engram_test_${runId}_migrated`;
  await migrateAll(await createDatabase(infra.postgresUrl, migratedTemplate));
  project.provide('engram', {
    runId,
    databaseUrl,
    migratedTemplate,
    redisUrl: infra.redisUrl,
    natsUrl: infra.natsUrl,
    subjectPrefix: `test_${runId}.`,
    streamName,
  });
  return async () => {
    await deleteStreams(infra.natsUrl, streamName);
    // The run's database and every stack's beside it (one a file could not stop is not left behind).
    await dropDatabasesStartingWith(infra.postgresUrl, `engram_test_${runId}`);
    await infra.stop();
  };
}
