// vitest global setup: one fresh database and one NATS subject prefix per test run, so runs never see
// each other's data; both are removed when the run ends.
import { randomBytes } from 'node:crypto';
import type { TestProject } from 'vitest/node';
import { createDatabase, dropDatabase } from './databases.ts';
import { resolveInfrastructure } from './infra.ts';

export default async function setup(project: TestProject) {
  const infra = await resolveInfrastructure(process.env);
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseUrl = await createDatabase(infra.postgresUrl, `engram_test_${runId}`);
  project.provide('engram', {
    runId,
    databaseUrl,
    redisUrl: infra.redisUrl,
    natsUrl: infra.natsUrl,
    subjectPrefix: `test_${runId}.`,
    streamName: `ENGRAM_TEST_${runId.toUpperCase()}`,
  });
  return async () => {
    await dropDatabase(infra.postgresUrl, `engram_test_${runId}`);
    await infra.stop();
  };
}
