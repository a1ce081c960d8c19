// Uploads cannot take the service down: a decompression bomb is refused with a clear message while other
// learners' generations go on, a file that needs too much memory ends only its own reading process, each
// learner keeps at most a quota of files for a day, and a file past its day is neither used nor kept:
// one replica at a time removes them on a schedule.
import { randomUUID } from 'node:crypto';
import { startCleanup } from '@engram/kit/jobs/periodic';
import { createLogger } from '@engram/kit/logger';
import { grpcFailure } from '@engram/testkit/grpc';
import { flateBomb, nestedFlateBomb, paddedTextPdf, textBomb } from '@engram/testkit/hostile-files';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SWEEP_LOCK_CLASS, sweepExpiredUploads, uploadSweep } from '../../src/uploads/sweeper.js';
import { type AiHarness, startAiHarness } from '../harness.js';

const newUser = () => `learner-${randomUUID().slice(0, 8)}`;
const NOTES = '# Cells\n\nThe mitochondrion is the powerhouse of the cell.\n';
const DAY_MS = 86_400_000;
const logger = createLogger({ service: 'ai-test', level: 'silent' });
let ai: AiHarness;

beforeAll(async () => {
  ai = await startAiHarness({ generator: 'offline', uploads: { quota: { files: 3, bytes: 3 * 1024 * 1024 } } });
});
afterAll(() => ai?.stop());

const uploadsOf = (userId: string) => ai.db.uploadedFile.count({ where: { userId } });

describe('hostile files', () => {
  it("refuses a PDF that unpacks to 2 GB with a clear message while another learner's generation goes on", async () => {
    const bomber = newUser();
    const learner = newUser();
    const bomb = flateBomb(2048);
    expect(bomb.byteLength).toBeLessThan(3 * 1024 * 1024);
    const [refusal, generation] = await Promise.all([
      grpcFailure(ai.as(bomber).upload('bomb.pdf', bomb)),
      ai.as(learner).generate({ notes: NOTES, count: 3, types: ['basic'] }),
    ]);
    expect(refusal.code).toBe(status.INVALID_ARGUMENT);
    expect(refusal.message).toBe('The PDF unpacks to more than 100 MB of data, so it cannot be read safely.');
    expect(refusal.reason).toBe('FILE_TOO_COMPLEX');
    expect(await uploadsOf(bomber)).toBe(0);
    expect(generation.finished?.outcome).toBe('complete');
    expect(generation.proposals.map((p) => p.front)).toEqual(['What is the mitochondrion?']);
  });

  it('refuses a PDF whose nested streams need more memory than a reader may use, and goes on reading files', async () => {
    const user = newUser();
    const refusal = await grpcFailure(ai.as(user).upload('nested.pdf', nestedFlateBomb(2048)));
    expect(refusal.code).toBe(status.INVALID_ARGUMENT);
    expect(refusal.message).toBe('The file needs more than 256 MB of memory to read, so it cannot be read safely.');
    expect(refusal.reason).toBe('FILE_TOO_COMPLEX');
    expect(await uploadsOf(user)).toBe(0);
    const next = await ai.as(user).upload('cells.md', NOTES);
    expect(next.characters).toBe(NOTES.trim().length);
  });
  it('refuses a small PDF whose text passes 60,000 characters', async () => {
    const user = newUser();
    const refusal = await grpcFailure(ai.as(user).upload('wall-of-text.pdf', textBomb(20_000)));
    expect(refusal.code).toBe(status.INVALID_ARGUMENT);
    expect(refusal.message).toBe('The PDF has more than 60,000 characters of text; at most 60,000 can be used.');
    expect(refusal.reason).toBe('FILE_TOO_LARGE');
    expect(await uploadsOf(user)).toBe(0);
  });
});

describe("each learner's upload quota", () => {
  it('refuses a file past the number a learner may keep, saying when they can upload again', async () => {
    const user = newUser();
    const first = await ai.as(user).upload('one.md', NOTES);
    await ai.as(user).upload('two.md', NOTES);
    await ai.as(user).upload('three.md', NOTES);
    const { createdAt } = await ai.db.uploadedFile.findUniqueOrThrow({ where: { id: first.fileId } });
    const again = new Date(createdAt.getTime() + DAY_MS).toISOString();

    const refusal = await grpcFailure(ai.as(user).upload('four.md', NOTES));
    expect(refusal.code).toBe(status.FAILED_PRECONDITION);
    expect(refusal.message).toBe(
      `Upload limit reached: at most 3 files can be kept for a day; you can upload again after ${again.slice(0, 10)} ${again.slice(11, 16)} UTC.`,
    );
    expect(refusal.reason).toBe('UPLOAD_QUOTA_REACHED');
    expect(await uploadsOf(user)).toBe(3);
    // Another learner is not held back by it.
    await ai.as(newUser()).upload('mine.md', NOTES);
    // Once the oldest file is past its day, its place is free again.
    await ai.db.uploadedFile.update({
      where: { id: first.fileId },
      data: { createdAt: new Date(Date.now() - DAY_MS) },
    });
    await ai.as(user).upload('four.md', NOTES);
  });

  it('names the time a place frees up when a learner keeps more files than a lowered quota allows', async () => {
    const user = newUser();
    const ages = [5, 4, 3, 2].map((hours) => new Date(Date.now() - hours * 3_600_000));
    await ai.db.uploadedFile.createMany({
      data: ages.map((createdAt) => ({ id: randomUUID(), userId: user, fileName: 'n.md', text: NOTES, createdAt })),
    });
    // Of four files under a quota of three, two must expire before a fifth fits: the second oldest says when.
    const again = new Date((ages[1] as Date).getTime() + DAY_MS).toISOString();
    const refusal = await grpcFailure(ai.as(user).upload('five.md', NOTES));
    expect(refusal.message).toBe(
      `Upload limit reached: at most 3 files can be kept for a day; you can upload again after ${again.slice(0, 10)} ${again.slice(11, 16)} UTC.`,
    );
  });

  it('refuses a file that would take a learner past the megabytes they may keep', async () => {
    const user = newUser();
    const heavy = paddedTextPdf('Photosynthesis is the way plants turn light into sugar.', 1.6 * 1024 * 1024);
    const first = await ai.as(user).upload('first.pdf', heavy);
    const { createdAt } = await ai.db.uploadedFile.findUniqueOrThrow({ where: { id: first.fileId } });
    const again = new Date(createdAt.getTime() + DAY_MS).toISOString();

    const refusal = await grpcFailure(ai.as(user).upload('second.pdf', heavy));
    expect(refusal.code).toBe(status.FAILED_PRECONDITION);
    expect(refusal.message).toBe(
      `Upload limit reached: at most 3 MB of files can be kept for a day; you can upload this file after ${again.slice(0, 10)} ${again.slice(11, 16)} UTC.`,
    );
    expect(refusal.reason).toBe('UPLOAD_QUOTA_REACHED');
    expect(await uploadsOf(user)).toBe(1);
    // A smaller file still fits.
    await ai.as(user).upload('notes.md', NOTES);
  });

  it('keeps no more than the quota when a learner uploads many files at once', async () => {
    const user = newUser();
    // Two tabs, each sending three files one after another: six files against a quota of three.
    const rounds = await Promise.all(
      Array.from({ length: 2 }, async (_, round) => {
        const outcomes: string[] = [];
        for (let i = 0; i < 3; i += 1) {
          const upload = ai.as(user).upload(`n${round}-${i}.md`, NOTES);
          // A refusal must be the quota's; any other error fails the test.
          outcomes.push(
            await upload.then(
              () => 'kept',
              async () => (await grpcFailure(upload)).reason ?? 'no reason',
            ),
          );
        }
        return outcomes;
      }),
    );
    const outcomes = rounds.flat();
    expect(outcomes.filter((outcome) => outcome === 'kept')).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome !== 'kept')).toEqual(Array(3).fill('UPLOAD_QUOTA_REACHED'));
    expect(await uploadsOf(user)).toBe(3);
  });
});

describe('uploads past their day', () => {
  it('are not used for a generation any more', async () => {
    const user = newUser();
    const upload = await ai.as(user).upload('cells.md', NOTES);
    await ai.db.uploadedFile.update({
      where: { id: upload.fileId },
      data: { createdAt: new Date(Date.now() - DAY_MS - 1000) },
    });
    const failure = await grpcFailure(ai.as(user).generate({ fileId: upload.fileId, count: 3 }));
    expect(failure.code).toBe(status.NOT_FOUND);
    expect(failure.message).toBe('The uploaded file was not found; upload it again.');
  });
});

describe('the removal of expired uploads', () => {
  async function uploadAged(userId: string, ageMs: number) {
    const { fileId } = await ai.as(userId).upload('cells.md', NOTES);
    await ai.db.uploadedFile.update({ where: { id: fileId }, data: { createdAt: new Date(Date.now() - ageMs) } });
    return fileId;
  }
  const exists = async (id: string) => (await ai.db.uploadedFile.count({ where: { id } })) === 1;

  it('removes uploads past their day on a schedule and keeps the others', async () => {
    const user = newUser();
    const expired = await uploadAged(user, DAY_MS + 1000);
    const fresh = await uploadAged(user, DAY_MS - 60_000);
    const sweeper = startCleanup(uploadSweep(ai.db, 50), logger);
    try {
      await vi.waitFor(async () => expect(await exists(expired)).toBe(false), { timeout: 10_000, interval: 20 });
    } finally {
      await sweeper.stop();
    }
    expect(await exists(fresh)).toBe(true);
  });

  it('leaves the removal to the replica that holds its lock', async () => {
    const expired = await uploadAged(newUser(), DAY_MS + 1000);
    await ai.db.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SWEEP_LOCK_CLASS}::int, hashtext(current_schema()))`;
      expect(await sweepExpiredUploads(ai.db)).toEqual({ deleted: 0, lockHeld: false });
      expect(await exists(expired)).toBe(true);
    });
    expect(await sweepExpiredUploads(ai.db)).toEqual({ deleted: 1, lockHeld: true });
    expect(await exists(expired)).toBe(false);
  });
});
