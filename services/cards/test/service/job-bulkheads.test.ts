// A job (an import, an export, an optimization) runs in a process of its own, so whatever it does ends there:
// out of its memory or its time, it fails with that reason for its owner, and the service goes on; a job
// claimed three times without ending is given up, told to its owner, and never claimed again; and one learner's
// jobs run one at a time, so they never hold every worker.
import { randomUUID } from 'node:crypto';
import { JobBusy } from '@engram/kit/jobs/work-queue';
import { createLogger } from '@engram/kit/logger';
import { generateStandInCredentials } from '@engram/kit/storage/stand-in-credentials';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimJob, MAX_ATTEMPTS } from '../../src/jobs/job-row.ts';
import { sandboxedJob } from '../../src/jobs/sandboxed-job.ts';
import { defaultPresetId } from '../../src/learner/default-preset.ts';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '../../src/optimizer/synthetic-learner.ts';
import { type CardsHarness, startCardsHarness, writeReviewLog } from '../harness.js';

const MB = 1024 * 1024;
const logger = createLogger({ service: 'cards-test', level: 'silent' });
const never = new AbortController().signal;

let cards: CardsHarness;
beforeAll(async () => {
  // The jobs here run only as the tests run them.
  cards = await startCardsHarness({ jobs: false });
});
afterAll(() => cards?.stop());

/** The configuration a job's process gets: the service's own, as main.ts passes its environment. */
const childEnv = (): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATABASE_URL: cards.databaseUrl,
  INTERNAL_TOKEN_PUBLIC_KEYS: '{"keys":[]}',
  NATS_URL: 'nats://127.0.0.1:4222',
  BILLING_ADDR: '127.0.0.1:1',
  MEDIA_STANDIN_ACCESS_KEY_ID: standIn.accessKeyId,
  MEDIA_STANDIN_SECRET_ACCESS_KEY: standIn.secretAccessKey,
});
const standIn = generateStandInCredentials();

/** A learner with a year of reviews (the optimizer takes seconds on them) and an optimization queued. */
async function queuedOptimization(name: string) {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  const presetId = await defaultPresetId(cards.pool, user);
  const reviews = syntheticLearner({
    parameters: FORGETFUL_PARAMETERS,
    firstDay: '2025-11-01',
    days: 365,
    newPerDay: 10,
    timeZone: 'UTC',
    dayStartHour: 4,
    seed: 5,
  });
  await writeReviewLog(cards.pool, user, reviews);
  const job = await cards.db.optimization.create({ data: { ownerId: user, presetId } });
  return { user, jobId: job.id };
}

describe('a job in a process of its own', () => {
  it('is done there as it would be in the service', async () => {
    const { user, jobId } = await queuedOptimization('done');
    await sandboxedJob(
      cards.db,
      'optimizations',
      { memoryBytes: 1024 * MB, timeoutMs: 120_000 },
      logger,
      childEnv(),
    )(jobId, { signal: never });
    const optimization = await cards.as(user).getOptimization({ jobId });
    expect(optimization).toMatchObject({ status: 'done', outcome: 'adopted' });
    expect(optimization.outcome).toBe('adopted');
  });

  it('fails with the reason when it runs past its time, and is not tried again', async () => {
    const { user, jobId } = await queuedOptimization('slow');
    const run = sandboxedJob(
      cards.db,
      'optimizations',
      { memoryBytes: 1024 * MB, timeoutMs: 1_500 },
      logger,
      childEnv(),
    );
    await run(jobId, { signal: never });
    const optimization = await cards.as(user).getOptimization({ jobId });
    expect(optimization).toMatchObject({ status: 'failed', outcome: 'timed-out' });
    // The queue's message is settled: delivered again, the job stays as it ended.
    await run(jobId, { signal: never });
    expect(await cards.as(user).getOptimization({ jobId })).toMatchObject({ status: 'failed', outcome: 'timed-out' });
  });

  it('fails with the reason when its process uses more memory than allowed', async () => {
    const { user, jobId } = await queuedOptimization('greedy');
    await sandboxedJob(
      cards.db,
      'optimizations',
      { memoryBytes: 48 * MB, timeoutMs: 120_000 },
      logger,
      childEnv(),
    )(jobId, { signal: never });
    expect(await cards.as(user).getOptimization({ jobId })).toMatchObject({
      status: 'failed',
      outcome: 'out-of-memory',
    });
  });
});

describe('a job that keeps failing', () => {
  it(`is given up after ${MAX_ATTEMPTS} claims, and its owner is told so in their import`, async () => {
    const owner = `gave-up-${randomUUID().slice(0, 8)}`;
    const job = await cards.queueImport(owner, 'front,back\nosmosis,water across a membrane\n', 'cells.csv');
    // Three replicas took it and died (or threw) before it ended.
    await cards.db.import.update({ where: { id: job.id }, data: { attempts: MAX_ATTEMPTS, status: 'queued' } });
    expect(await claimJob(cards.db, 'imports', job.id)).toBe(false);
    const seen = await cards.as(owner).getImport({ importId: job.id });
    expect(seen.status).toBe('failed');
    expect(seen.problems.map((problem) => problem.message)).toEqual([
      `This import failed ${MAX_ATTEMPTS} times, so we stopped trying. Nothing was imported; please try it again later.`,
    ]);
    // Never claimed again.
    expect(await claimJob(cards.db, 'imports', job.id)).toBe(false);
  });
});

describe("one learner's jobs", () => {
  it("run one at a time, so a learner's second import waits while another learner's runs", async () => {
    const busy = `busy-${randomUUID().slice(0, 8)}`;
    const other = `other-${randomUUID().slice(0, 8)}`;
    const first = await cards.queueImport(busy, 'front,back\na,b\n', 'one.csv');
    const second = await cards.queueImport(busy, 'front,back\nc,d\n', 'two.csv');
    const theirs = await cards.queueImport(other, 'front,back\ne,f\n', 'theirs.csv');
    expect(await claimJob(cards.db, 'imports', first.id)).toBe(true);
    await expect(claimJob(cards.db, 'imports', second.id)).rejects.toBeInstanceOf(JobBusy);
    expect(await claimJob(cards.db, 'imports', theirs.id)).toBe(true);
    // Once the first is over, the second's turn comes.
    await cards.db.import.update({ where: { id: first.id }, data: { status: 'done' } });
    expect(await claimJob(cards.db, 'imports', second.id)).toBe(true);
  });
});
